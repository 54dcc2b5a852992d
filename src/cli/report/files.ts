// Report files: every path is checked before anything is sent (a check must not run only to lose its result
// at the end), writing them never changes the verdict's exit code unnoticed, and never blocks (see write-file.ts).
import {
  accessSync,
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  rmdirSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../exit-codes.js';
import type { Syntax } from '../io/document-guard.js';
import type { Output } from '../io/output.js';
import { writeTextFile } from '../io/write-file.js';

/**
 * Makes sure `file` can be written, by doing it: not empty, not a directory; the missing folders are created
 * (one level at a time) and the file is opened for writing (a new one is removed again). Permission bits are
 * not enough: root passes every `access()` test, yet cannot write to a read-only mount or into `/proc`.
 * A FIFO or a character device (`/dev/stdout`, `/dev/null`) is accepted when writable, unopened; any other
 * kind of file (a socket, a block device) is refused.
 * @returns the folders it created, top-down (for {@link removeEmptyFolders} if the run ends without its reports)
 * @throws UsageError naming the path and what is wrong (exit 2, before anything is sent)
 */
export function checkReportPath(file: string, what: string): string[] {
  if (file.trim() === '') throw new UsageError(`${what}: the file name is empty`);
  // A link to a file not written yet (report.xml -> artifacts/report.xml) is checked as its target.
  const target = danglingLinkTarget(file) ?? file;
  const stat = statOf(target);
  if (stat?.isDirectory())
    throw new UsageError(
      `${what}: ${file} is a directory; give a file name, such as ${file.replace(/\/*$/, '')}/a11y-report`,
    );
  // A socket cannot be opened as a file (Linux refuses it: ENXIO), and a block device is a disk: neither is a report.
  if (stat?.isSocket()) {
    // /dev/stdout is a socket where Node's spawn or a service manager started the CLI.
    throw new UsageError(
      `${what}: ${file} is a socket, which cannot be opened as a file${/^\/dev\/(stdout|stderr|fd\/[12])$/.test(file) ? '; to print a report on stdout, use --format' : ''}`,
    );
  }
  if (stat && !stat.isFile() && !stat.isFIFO() && !stat.isCharacterDevice()) {
    throw new UsageError(`${what}: ${file} is not a regular file, a FIFO or a character device`);
  }
  // A FIFO or a device (/dev/stdout): opening it to test it would end its reader's input; permissions decide.
  // Whether a FIFO has a reader is only known when it is written (non-blocking: see writeTextFile).
  if (stat && !stat.isFile()) {
    if (!writable(target)) throw new UsageError(`${what}: ${file} is not writable`);
    return [];
  }
  const created = stat ? [] : createFolders(target, what);
  try {
    // 'a' opens an existing file for writing, without reading or changing it; 'wx' creates a new one (removed below).
    closeSync(openSync(target, stat ? 'a' : 'wx'));
    if (!stat) unlinkSync(target);
  } catch (error) {
    removeEmptyFolders(created);
    throw new UsageError(`${what}: ${file} is not writable (${codeOf(error)})`);
  }
  return created;
}

/**
 * Removes folders {@link checkReportPath} created, deepest first, where they are still empty: a run that ends
 * before writing its reports (a refused key, a second bad path) leaves no trace of the check.
 */
export function removeEmptyFolders(folders: readonly string[]): void {
  for (let i = folders.length - 1; i >= 0; i--) {
    try {
      rmdirSync(folders[i]!);
    } catch {
      return; // not empty (a report, or someone else's file) or gone: it and the folders above it stay
    }
  }
}

function danglingLinkTarget(file: string): string | undefined {
  try {
    return lstatSync(file).isSymbolicLink() && !statOf(file)
      ? resolve(dirname(resolve(file)), readlinkSync(file))
      : undefined;
  } catch {
    return undefined;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// The folders between the nearest existing one and `file`, created top-down without `recursive`: Node's
// recursive mkdir never returns on some paths (ENOENT forever under /proc). Returns those it created.
function createFolders(file: string, what: string): string[] {
  const missing: string[] = [];
  let dir = dirname(resolve(file));
  let stat = statOf(dir);
  while (!stat) {
    if (dirname(dir) === dir) throw new UsageError(`${what}: cannot create ${file}: no existing folder above it`);
    missing.unshift(dir);
    dir = dirname(dir);
    stat = statOf(dir);
  }
  if (!stat.isDirectory()) throw new UsageError(`${what}: cannot create ${file}: ${dir} is not a directory`);
  const created: string[] = [];
  for (const folder of missing) {
    try {
      mkdirSync(folder);
      created.push(folder);
    } catch (error) {
      if (codeOf(error) === 'EEXIST') continue; // made meanwhile by another process: not ours to remove
      removeEmptyFolders(created);
      throw new UsageError(`${what}: cannot create ${file}: the folder ${folder} cannot be created (${codeOf(error)})`);
    }
  }
  return created;
}

/**
 * Writes a report file (its folders were made by {@link checkReportPath}), with every protected secret scrubbed
 * from the values of its `syntax`. Never blocks: a FIFO that no process reads, or whose reader stops taking data,
 * is an error.
 * @throws Error saying why (the caller names the file)
 */
export async function writeReport(out: Output, file: string, text: string, syntax: Syntax): Promise<void> {
  await writeTextFile(file, out.scrub(text, syntax));
}

/**
 * Appends the markdown summary to `$GITHUB_STEP_SUMMARY`. A summary that cannot be written is a warning on
 * stderr naming the file, never a change of the exit code: the check's verdict is what the step reports. Never
 * blocks: a FIFO nobody reads, a socket or a device other than a character device gets that warning.
 */
export async function appendStepSummary(out: Output, file: string, markdown: string): Promise<void> {
  try {
    await writeTextFile(file, out.scrub(markdown), { append: true });
  } catch (error) {
    out.err(
      `warning: could not write the job summary to $GITHUB_STEP_SUMMARY=${file} (${codeOf(error)}); the exit code is unchanged`,
    );
  }
}

function statOf(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
