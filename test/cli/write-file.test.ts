// writeTextFile and the report/summary writers never block: a FIFO nobody reads fails after a bounded wait
// (ENXIO), a reader that stops reading fails after a bounded stall (EAGAIN), a socket or a non-writable kind of
// file is refused; a reader that reads gets every byte, even past the pipe's 64 KiB buffer.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, createReadStream, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/exit-codes.js';
import type { Output } from '../../src/cli/io/output.js';
import { appendStepSummary, checkReportPath, writeReport } from '../../src/cli/report/files.js';
import { writeTextFile } from '../../src/cli/io/write-file.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-write-'));
let count = 0;
const fifo = () => {
  const path = join(dir, `out-${++count}.fifo`);
  execFileSync('mkfifo', [path]);
  return path;
};
let socketServer: Server;
const socketPath = join(dir, 'report.sock');
beforeAll(async () => {
  socketServer = createServer();
  await new Promise<void>((resolve) => socketServer.listen(socketPath, resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => socketServer.close(() => resolve()));
  execFileSync('rm', ['-rf', dir]);
});
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
const big = 'x'.repeat(1024 * 1024); // 16 times a pipe's buffer: the writer meets EAGAIN and must wait

// Reads a FIFO to its end in this process (its open happens in the thread pool, so the writer may come first).
const drain = (path: string) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    createReadStream(path, 'utf8')
      .on('data', (chunk) => (text += chunk))
      .on('end', () => resolve(text))
      .on('error', reject);
  });

describe('writeTextFile', () => {
  it('a regular file is created, replaced, and appended to with append', async () => {
    const file = join(dir, 'report.txt');
    await writeTextFile(file, 'first');
    await writeTextFile(file, 'second');
    expect(readFileSync(file, 'utf8')).toBe('second');
    await writeTextFile(file, ' and more', { append: true });
    expect(readFileSync(file, 'utf8')).toBe('second and more');
  });

  it('a FIFO with a reader gets every byte of 1 MiB (past the pipe buffer)', async () => {
    const path = fifo();
    const reading = drain(path);
    // The reader's open may come after ours: the wait for it is generous, a slow machine cannot push past it.
    await writeTextFile(path, big, { readerWaitMs: 30_000 });
    expect((await reading).length).toBe(big.length);
  });

  it('a FIFO nobody reads → ENXIO after the reader wait, never a hang', async () => {
    const path = fifo();
    const error = await failure(writeTextFile(path, 'report', { readerWaitMs: 50 }));
    expect(error?.message).toBe('ENXIO: it is a FIFO that no process reads (none opened it within 50 ms)');
  });

  it('a reader that holds the FIFO open but never reads → fails after the stall limit, saying how much was written', async () => {
    const path = fifo();
    const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const error = await failure(writeTextFile(path, big, { stallMs: 200 }));
      expect(error?.message).toMatch(/^EAGAIN: its reader took nothing for 0\.2 s; \d+ of 1048576 bytes written$/);
    } finally {
      closeSync(reader);
    }
  });

  it('a socket is refused before it is opened', async () => {
    const error = await failure(writeTextFile(socketPath, 'report'));
    expect(error?.message).toBe('it is a socket, which cannot be opened as a file');
  });

  it('/dev/null takes the text', async () => {
    await expect(writeTextFile('/dev/null', big)).resolves.toBeUndefined();
  });

  it('a directory → EISDIR', async () => {
    const error = (await failure(writeTextFile(dir, 'report'))) as NodeJS.ErrnoException;
    expect(error.code).toBe('EISDIR');
  });
});

describe('report paths and the job summary', () => {
  const lines: string[] = [];
  const out = {
    scrub: (text: string) => text.replaceAll('svc_secret', '***'),
    err: (line: string) => lines.push(line),
  } as unknown as Output;

  it('checkReportPath refuses a socket (exit 2) naming it; accepts a FIFO and /dev/null unopened', () => {
    expect(() => checkReportPath(socketPath, '--report junit')).toThrow(UsageError);
    expect(() => checkReportPath(socketPath, '--report junit')).toThrow(
      `--report junit: ${socketPath} is a socket, which cannot be opened as a file`,
    );
    expect(checkReportPath(fifo(), '--report junit')).toEqual([]);
    expect(checkReportPath('/dev/null', '--report junit')).toEqual([]);
  });

  it('writeReport scrubs the text and rejects on a FIFO nobody reads', async () => {
    const file = join(dir, 'scrubbed.xml');
    await writeReport(out, file, 'key svc_secret', 'text');
    expect(readFileSync(file, 'utf8')).toBe('key ***');
    const error = await failure(writeReport(out, fifo(), 'report', 'text'));
    expect(error?.message).toMatch(/^ENXIO: it is a FIFO that no process reads/);
  });

  it.each([
    [
      'a FIFO nobody reads',
      () => fifo(),
      /\(ENXIO: it is a FIFO that no process reads \(none opened it within 1000 ms\)\)/,
    ],
    ['a socket', () => socketPath, /\(it is a socket, which cannot be opened as a file\)/],
    ['a directory', () => dir, /\(EISDIR\)/],
  ])('appendStepSummary to %s → a warning naming the file, no throw', async (_name, path, reason) => {
    lines.length = 0;
    const file = path();
    await expect(appendStepSummary(out, file, '## summary')).resolves.toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`warning: could not write the job summary to $GITHUB_STEP_SUMMARY=${file} (`);
    expect(lines[0]).toMatch(reason);
    expect(lines[0]).toContain('the exit code is unchanged');
  });

  it('appendStepSummary appends to a regular file, keeping what was there', async () => {
    const file = join(dir, 'summary.md');
    writeFileSync(file, '# earlier step\n');
    lines.length = 0;
    await appendStepSummary(out, file, '## a11y svc_secret\n');
    expect(readFileSync(file, 'utf8')).toBe('# earlier step\n## a11y ***\n');
    expect(lines).toEqual([]);
  });
});
