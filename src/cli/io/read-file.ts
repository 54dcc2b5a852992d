// Reading a text file the user named (`--config`, `--urls-file`), under a size cap and without ever hanging:
// `/dev/zero`, a 1 GB file or a pipe that never ends is refused after at most `maxBytes + 1` bytes, and a FIFO
// nobody writes to is not waited for forever. Synchronous, because the options are read before the command runs.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { UsageError } from '../exit-codes.js';

/** The cap on a config or URLs file: 1 MiB (a thousand URLs are ~100 kB). */
export const MAX_TEXT_FILE_BYTES = 1024 * 1024;

/** Options of {@link readTextFile}. */
export interface ReadTextFileOptions {
  /** What the file is, for messages: `'--urls-file'`, `'config file'`. */
  what: string;
  /**
   * Largest accepted size in bytes; a larger file is refused without reading it, a stream after `maxBytes + 1` bytes.
   * @default MAX_TEXT_FILE_BYTES (1 MiB)
   */
  maxBytes?: number;
  /**
   * How long a FIFO is given for a writer to open it, in milliseconds: opening it does not wait (it is opened
   * non-blocking), and a writer started just before the CLI may not have opened it yet.
   * @default 1000
   */
  writerWaitMs?: number;
  /**
   * How long a pipe or terminal may send nothing (its writer attached but silent) before the read is given up, in milliseconds.
   * @default 30000
   */
  idleMs?: number;
  /**
   * Refuse the file when its last component is a symbolic link at the moment it is opened (`O_NOFOLLOW`): a
   * caller that checked the path before reading it cannot be handed a link swapped in since.
   * @default false
   */
  noFollow?: boolean;
}

/**
 * Reads `file` as UTF-8 text, without a leading byte order mark (U+FEFF), under a size cap.
 *
 * A regular file larger than the cap is refused from its size, unread. A FIFO, a pipe (`/dev/stdin`,
 * `<(command)`) or a character device (`/dev/zero`, a terminal) is opened non-blocking (opening a FIFO
 * therefore never waits for a writer) and read until its end, at most `maxBytes + 1` bytes; a FIFO no process
 * writes to within `writerWaitMs`, or a stream silent for `idleMs`, is refused. Any other kind of file
 * (a directory, a block device) is refused. `/dev/stdin` that is a socket (which Linux cannot open by path) is
 * read from descriptor 0.
 * @throws UsageError (exit 2) naming `what`, the file and the rule (the cap in bytes, the missing writer)
 * @example readTextFile('urls.txt', { what: '--urls-file' }) // 'https://a.example/\n…'
 */
export function readTextFile(file: string, options: ReadTextFileOptions): string {
  const { what, maxBytes = MAX_TEXT_FILE_BYTES, writerWaitMs = 1_000, idleMs = 30_000, noFollow = false } = options;
  const fail = (rule: string): never => {
    throw new UsageError(`${what}: ${file} ${rule}`);
  };
  const tooLarge = () => fail(`is larger than the ${formatBytes(maxBytes)} cap (${maxBytes} bytes); stopped reading`);
  let fd: number;
  let own = true;
  try {
    // O_NONBLOCK: open() of a FIFO would otherwise wait for a writer, without limit. (0 where the platform has none.)
    fd = openSync(
      file,
      constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (noFollow ? (constants.O_NOFOLLOW ?? 0) : 0),
    );
  } catch (error) {
    // Linux cannot open a socket by its path, and stdin is a socket where Node's spawn or a service manager
    // started the CLI: `/dev/stdin` is then read from descriptor 0 itself (and left open).
    if (codeOf(error) !== 'ENXIO' || !STDIN_PATHS.has(file)) return fail(`cannot be read (${codeOf(error)})`);
    fd = 0;
    own = false;
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) fail('is a directory, not a file');
    if (!stat.isFile() && !stat.isFIFO() && !stat.isCharacterDevice() && !(stat.isSocket() && !own))
      fail('is not a regular file, a pipe or a character device');
    // /proc files and devices report size 0 whatever they hold: only a regular file's size is trusted.
    if (stat.isFile() && stat.size > maxBytes) tooLarge();
    const buffer = Buffer.alloc(maxBytes + 1);
    const length = readAll(fd, buffer, stat, { writerWaitMs, idleMs }, fail);
    if (length > maxBytes) tooLarge();
    const text = buffer.toString('utf8', 0, length);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } finally {
    if (own) closeSync(fd);
  }
}

const STDIN_PATHS = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

// Fills `buffer` until the end of the file or until it is full (one byte past the cap); returns the bytes read.
function readAll(
  fd: number,
  buffer: Buffer,
  stat: Stats,
  limits: { writerWaitMs: number; idleMs: number },
  fail: (rule: string) => never,
): number {
  let length = 0;
  // A FIFO read returns 0 both at its end and while no writer has opened it yet; EAGAIN or data tells a writer is there.
  let writerSeen = !stat.isFIFO();
  const started = Date.now();
  let lastData = started;
  while (length < buffer.length) {
    let n: number;
    try {
      n = readSync(fd, buffer, length, buffer.length - length, null);
    } catch (error) {
      if (codeOf(error) !== 'EAGAIN') return fail(`cannot be read (${codeOf(error)})`);
      writerSeen = true;
      if (Date.now() - lastData >= limits.idleMs) fail(`sent nothing for ${limits.idleMs / 1000} s; stopped waiting`);
      pause();
      continue;
    }
    if (n > 0) {
      length += n;
      writerSeen = true;
      lastData = Date.now();
      continue;
    }
    if (writerSeen) return length;
    if (Date.now() - started >= limits.writerWaitMs)
      fail(`is a FIFO no process writes to (none opened it within ${limits.writerWaitMs} ms)`);
    pause();
  }
  return length;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

// A short synchronous sleep between reads of a stream that has nothing yet (no busy loop; Ctrl-C still ends the process).
function pause(): void {
  Atomics.wait(sleeper, 0, 0, 10);
}

/** `1048576` → `'1 MiB'`, `1536` → `'1.5 KiB'`, `100` → `'100 bytes'`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
