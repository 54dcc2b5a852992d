// readTextFile: a config or URLs file is read under a size cap and never hangs. Endless devices, huge files and
// huge pipes are refused after at most cap + 1 bytes; a FIFO nobody writes to, or a writer that never sends, is
// refused after a bounded wait; every refusal is a UsageError (exit 2) naming the file. Writers are child
// processes (the read is synchronous), stopped by PID.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/exit-codes.js';
import { formatBytes, MAX_TEXT_FILE_BYTES, readTextFile } from '../../src/cli/io/read-file.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-read-'));
let fifoCount = 0;
const fifo = () => {
  const path = join(dir, `in-${++fifoCount}.fifo`);
  execFileSync('mkfifo', [path]);
  return path;
};
const children: ChildProcess[] = [];
// A shell writing to `path`: it blocks in open() until the reader opens the FIFO.
const writer = (script: string, path: string) => {
  const child = spawn('sh', ['-c', script, 'sh', path], { stdio: 'ignore' });
  children.push(child);
  return child;
};
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(() => execFileSync('rm', ['-rf', dir]));

const refusal = (read: () => unknown): UsageError => {
  try {
    read();
  } catch (error) {
    return error as UsageError;
  }
  throw new Error('expected a refusal');
};
const what = '--urls-file';

describe('files that fit', () => {
  it('a small file is read as UTF-8 text', () => {
    const file = join(dir, 'urls.txt');
    writeFileSync(file, 'https://a.example/\n# ünïcode comment\n');
    expect(readTextFile(file, { what })).toBe('https://a.example/\n# ünïcode comment\n');
  });

  it('noFollow refuses a file that is a symbolic link when it is opened (ELOOP); without it the link is read', () => {
    const target = join(dir, 'target.txt');
    const link = join(dir, 'link.txt');
    writeFileSync(target, 'outside');
    symlinkSync(target, link);
    expect(readTextFile(link, { what: 'route file' })).toBe('outside');
    expect(() => readTextFile(link, { what: 'route file', noFollow: true })).toThrow(UsageError);
    expect(() => readTextFile(link, { what: 'route file', noFollow: true })).toThrow(/cannot be read \(ELOOP\)/);
    expect(readTextFile(target, { what: 'route file', noFollow: true })).toBe('outside');
  });

  it('a leading byte order mark is dropped (only the leading one)', () => {
    const file = join(dir, 'bom.json');
    writeFileSync(file, '\uFEFF{"a":"\uFEFF"}');
    expect(readTextFile(file, { what })).toBe('{"a":"\uFEFF"}');
  });

  it('a file of exactly the cap is read', () => {
    const file = join(dir, 'exact.txt');
    writeFileSync(file, 'x'.repeat(1000));
    expect(readTextFile(file, { what, maxBytes: 1000 })).toHaveLength(1000);
  });

  it('/dev/null reads as empty', () => {
    expect(readTextFile('/dev/null', { what })).toBe('');
  });

  it('a FIFO whose writer opens it after the reader is read to its end', () => {
    const path = fifo();
    writer('printf "https://a.example/\\nhttps://b.example/\\n" > "$1"', path);
    // The wait for the writer is generous: the shell is started, but a busy machine may take a while to run it.
    expect(readTextFile(path, { what, writerWaitMs: 30_000 })).toBe('https://a.example/\nhttps://b.example/\n');
  });
});

describe('files that do not fit are refused, naming the file and the cap', () => {
  it.each([
    [
      'a regular file one byte over a 1000-byte cap',
      () => {
        const file = join(dir, 'over.txt');
        writeFileSync(file, 'x'.repeat(1001));
        return { file, maxBytes: 1000 };
      },
    ],
    [
      'a 5 MiB regular file (default 1 MiB cap)',
      () => {
        const file = join(dir, 'five-mib.txt');
        writeFileSync(file, Buffer.alloc(5 * 1024 * 1024, 0x61));
        return { file, maxBytes: undefined };
      },
    ],
    ['/dev/zero (endless)', () => ({ file: '/dev/zero', maxBytes: undefined })],
    ['/dev/urandom (endless)', () => ({ file: '/dev/urandom', maxBytes: 4096 })],
  ])('%s', (_name, make) => {
    const { file, maxBytes } = make();
    const cap = maxBytes ?? MAX_TEXT_FILE_BYTES;
    const error = refusal(() => readTextFile(file, { what, maxBytes }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(
      `--urls-file: ${file} is larger than the ${formatBytes(cap)} cap (${cap} bytes); stopped reading`,
    );
  });

  it('a FIFO fed 2 MiB is refused at the cap (its writer then gets EPIPE, it is not waited for)', () => {
    const path = fifo();
    writer('head -c 2097152 /dev/zero > "$1"', path);
    const error = refusal(() => readTextFile(path, { what, maxBytes: 64 * 1024, writerWaitMs: 30_000 }));
    expect(error.message).toContain(`--urls-file: ${path} is larger than the 64 KiB cap (65536 bytes)`);
  });
});

describe('nothing to read is refused after a bounded wait, never waited for forever', () => {
  it('a FIFO no process opens for writing', () => {
    const path = fifo();
    const error = refusal(() => readTextFile(path, { what: 'config file', writerWaitMs: 50 }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(`config file: ${path} is a FIFO no process writes to (none opened it within 50 ms)`);
  });

  it('a FIFO whose writer holds it open and sends nothing', () => {
    const path = fifo();
    writer('exec 3>"$1"; sleep 60', path);
    // Long enough for the writer to open it on any machine; then 100 ms of silence ends the read.
    const error = refusal(() => readTextFile(path, { what, writerWaitMs: 30_000, idleMs: 100 }));
    expect(error.message).toBe(`--urls-file: ${path} sent nothing for 0.1 s; stopped waiting`);
  });
});

describe('what is not a file', () => {
  it.each([
    ['a missing file', () => join(dir, 'missing.txt'), /^--urls-file: \S+missing\.txt cannot be read \(ENOENT\)$/],
    ['a directory', () => dir, /^--urls-file: \S+ is a directory, not a file$/],
  ])('%s → refused naming it', (_name, path, message) => {
    const error = refusal(() => readTextFile(path(), { what }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(message);
  });
});

describe('formatBytes', () => {
  it.each([
    [100, '100 bytes'],
    [1536, '1.5 KiB'],
    [1024 * 1024, '1 MiB'],
    [5 * 1024 * 1024 + 1, '5 MiB'],
  ])('%i → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
