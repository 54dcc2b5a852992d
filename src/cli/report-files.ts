// Report files: every path is checked before anything is sent (a check must not run only to lose its result
// at the end), and writing them never changes the verdict's exit code unnoticed.
import { accessSync, constants, statSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from './exit-codes.js';
import type { Output } from './io.js';

/**
 * Checks that `file` can be written: not empty, not a directory, and either a writable file or a path whose
 * nearest existing ancestor is a writable directory (the CLI creates the folders in between).
 * @throws UsageError naming the path and what is wrong (exit 2, before anything is sent)
 */
export function checkReportPath(file: string, what: string): void {
  if (file.trim() === '') throw new UsageError(`${what}: the file name is empty`);
  const stat = statOf(file);
  if (stat?.isDirectory()) throw new UsageError(`${what}: ${file} is a directory; give a file name, such as ${file.replace(/\/*$/, '')}/a11y-report`);
  if (stat) {
    if (!writable(file)) throw new UsageError(`${what}: ${file} is not writable`);
    return;
  }
  for (let dir = dirname(resolve(file)); ; dir = dirname(dir)) {
    const parent = statOf(dir);
    if (parent) {
      if (!parent.isDirectory()) throw new UsageError(`${what}: cannot create ${file}: ${dir} is not a directory`);
      if (!writable(dir)) throw new UsageError(`${what}: cannot create ${file}: ${dir} is not writable`);
      return;
    }
    if (dirname(dir) === dir) throw new UsageError(`${what}: cannot create ${file}: no existing folder above it`);
  }
}

/** Writes a report file (folders created), with every protected secret scrubbed from it. */
export async function writeReport(out: Output, file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, out.scrub(text));
}

/**
 * Appends the markdown summary to `$GITHUB_STEP_SUMMARY`. A summary that cannot be written is a warning on
 * stderr, never a change of the exit code: the check's verdict is what the step reports.
 */
export async function appendStepSummary(out: Output, file: string, markdown: string): Promise<void> {
  try {
    await appendFile(file, out.scrub(markdown));
  } catch (error) {
    out.err(`warning: could not write the job summary to $GITHUB_STEP_SUMMARY (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the exit code is unchanged`);
  }
}

function statOf(path: string) {
  try {
    return statSync(path);
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
