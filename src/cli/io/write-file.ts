// Writing a report or the job summary without ever blocking: the file is opened non-blocking, so a FIFO that no
// process reads fails at once (ENXIO) instead of waiting forever in open(), and a reader that stops reading
// (a full pipe: EAGAIN) is waited for only a bounded time. A regular file behaves as with writeFile.
import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

/** Options of {@link writeTextFile}. */
export interface WriteTextFileOptions {
  /** Append to the file (the job summary) instead of replacing its contents. @default false */
  append?: boolean;
  /**
   * How long a FIFO is given for a reader to open it, in milliseconds (a reader started just before may not have yet).
   * @default 1000
   */
  readerWaitMs?: number;
  /**
   * How long a reader may take nothing (a full pipe) before the write is given up, in milliseconds.
   * @default 30000
   */
  stallMs?: number;
}

/**
 * Writes `text` to `file` (created when missing, else truncated, or appended to with `append`), never
 * blocking: a regular file, a FIFO (`mkfifo`, `/dev/stdout` on a pipe) or a character device (`/dev/null`,
 * a terminal) is written; a FIFO nobody opens for reading within `readerWaitMs`, a reader that takes nothing
 * for `stallMs`, and any other kind of file (a socket, a block device, a directory) fail.
 * @throws Error whose message says why in words (no `code` of its own for the cases above; a system error
 *   such as ENOSPC or EACCES is passed on as it is)
 * @example await writeTextFile('a11y.xml', xml)
 */
export async function writeTextFile(file: string, text: string, options: WriteTextFileOptions = {}): Promise<void> {
  const { append = false, readerWaitMs = 1_000, stallMs = 30_000 } = options;
  const before = await stat(file).catch(() => undefined);
  // Refused before open(): O_TRUNC is a no-op on a device, but a block device is a disk, never a report.
  // (A directory is left to open(), whose EISDIR says it.)
  if (before && !before.isDirectory() && !writableKind(before)) throw notWritableKind(before);
  const handle = await openNonBlocking(file, append, readerWaitMs);
  try {
    // Checked again on the open file: the path may have been replaced since it was checked.
    const opened = await handle.stat();
    if (!writableKind(opened)) throw notWritableKind(opened);
    await writeAll(handle, Buffer.from(text, 'utf8'), stallMs);
  } finally {
    await handle.close();
  }
}

async function openNonBlocking(file: string, append: boolean, readerWaitMs: number): Promise<FileHandle> {
  // (O_NONBLOCK is 0 where the platform has none.)
  const flags =
    constants.O_WRONLY |
    constants.O_CREAT |
    (append ? constants.O_APPEND : constants.O_TRUNC) |
    (constants.O_NONBLOCK ?? 0);
  const started = Date.now();
  for (;;) {
    try {
      return await open(file, flags, 0o666);
    } catch (error) {
      // ENXIO: a FIFO with no reader (or a socket, which cannot be opened as a file).
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
      const kind = await stat(file).catch(() => undefined);
      if (!kind?.isFIFO()) throw new Error('ENXIO: it cannot be opened as a file (a socket?)');
      if (Date.now() - started >= readerWaitMs)
        throw new Error(`ENXIO: it is a FIFO that no process reads (none opened it within ${readerWaitMs} ms)`);
      await pause();
    }
  }
}

async function writeAll(handle: FileHandle, bytes: Buffer, stallMs: number): Promise<void> {
  let offset = 0;
  let lastProgress = Date.now();
  while (offset < bytes.length) {
    try {
      const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
      offset += bytesWritten;
      if (bytesWritten > 0) lastProgress = Date.now();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      // A pipe whose reader is attached but not reading: waited for, within bounds.
      if (Date.now() - lastProgress >= stallMs)
        throw new Error(
          `EAGAIN: its reader took nothing for ${stallMs / 1000} s; ${offset} of ${bytes.length} bytes written`,
        );
      await pause();
    }
  }
}

function writableKind(s: Stats): boolean {
  return s.isFile() || s.isFIFO() || s.isCharacterDevice();
}

function notWritableKind(s: Stats): Error {
  return new Error(
    s.isSocket()
      ? 'it is a socket, which cannot be opened as a file'
      : 'it is not a regular file, a FIFO or a character device',
  );
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 20));
}
