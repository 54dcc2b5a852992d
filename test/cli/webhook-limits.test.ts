// `webhook verify` reads stdin under a byte cap: it stops as soon as the body is over --max-body-bytes (default
// 25 MiB) or the header section never ends, exits 2 naming the cap, and never buffers the whole input.
// The streaming cases spawn the built binary (dist/cli.js) and stream into it with backpressure, counting what it
// accepted (a pipe and its EPIPE are the subject); the option's help, its checks and the exact cap run in process.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../support/cli.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';

const MiB = 1024 * 1024;
const secret = 'whsec_cli_limit_secret';

interface Streamed {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Bytes the child's stdin accepted (handed to the pipe) before it went away. */
  written: number;
  /** Bytes the writer meant to send. */
  total: number;
  /** The error the writer got (EPIPE when the child closed its end early), if any. */
  writeError?: NodeJS.ErrnoException;
}

/** Streams `head` and then `bodyBytes` bytes of `fill` into `svc-a11y ...args`, 64 KiB at a time with backpressure. */
function streamInto(
  args: string[],
  head: string,
  bodyBytes: number,
  fill = 0x61,
  timeoutMs = 15_000,
): Promise<Streamed> {
  const child = spawn(process.execPath, [cliPath, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const total = Buffer.byteLength(head) + bodyBytes;
  let written = 0;
  let writeError: NodeJS.ErrnoException | undefined;
  let stdinGone = false;
  const gone = new Promise<void>((resolve) => {
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      writeError ??= error;
      stdinGone = true;
      resolve();
    });
    child.stdin.on('close', () => {
      stdinGone = true;
      resolve();
    });
  });
  const pump = async () => {
    const chunk = Buffer.alloc(64 * 1024, fill);
    let ok = child.stdin.write(head);
    written += Buffer.byteLength(head);
    for (let left = bodyBytes; left > 0 && !stdinGone; ) {
      if (!ok) await Promise.race([new Promise((resolve) => child.stdin.once('drain', resolve)), gone]);
      if (stdinGone) break;
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      ok = child.stdin.write(piece);
      written += piece.length;
      left -= piece.length;
    }
    if (!stdinGone) child.stdin.end();
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    pump().catch(reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, written, total, writeError });
    });
  });
}

const headers = (timestamp: number, signature = '0'.repeat(64)) =>
  `POST /hooks HTTP/1.1\r\nHost: example\r\nContent-Type: application/json\r\nX-Svc-Event: scan_run.completed\r\nX-Svc-Delivery: d-big\r\nX-Svc-Timestamp: ${timestamp}\r\nX-Svc-Signature: v1=${signature}\r\n\r\n`;
const signed = (payload: string) => {
  const timestamp = Math.floor(Date.now() / 1000);
  return headers(timestamp, createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex')) + payload;
};

describe('svc-a11y webhook verify: stdin byte cap', () => {
  it('--help names --max-body-bytes and its default (25 MiB)', async () => {
    const r = await runCliLikeBinary(['webhook', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--max-body-bytes <bytes>\s+largest body read from stdin \(default 26214400 = 25 MiB\)/);
  });

  it('a body over a small --max-body-bytes → exit 2 naming the cap; reading stops early (writer gets EPIPE)', async () => {
    const r = await streamInto(
      ['webhook', 'verify', '--secret', secret, '--max-body-bytes', '1024'],
      headers(Math.floor(Date.now() / 1000)),
      32 * MiB,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('larger than the 1 KiB cap (1024 bytes)');
    expect(r.stderr).toContain('--max-body-bytes');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
    // The child stopped reading: the writer could not hand over the 32 MiB (pipe and stream buffers hold a few MiB at most).
    expect(r.written).toBeLessThan(4 * MiB);
    expect(r.writeError?.code).toBe('EPIPE');
  });

  it('64 MiB streamed into the default cap → exit 2 naming 25 MiB, well before the writer is done', async () => {
    const r = await streamInto(
      ['webhook', 'verify', '--secret', secret],
      headers(Math.floor(Date.now() / 1000)),
      64 * MiB,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('larger than the 25 MiB cap (26214400 bytes)');
    expect(r.stderr).toContain('--max-body-bytes');
    // Well before the writer is done, judged by order, not by a time a busy machine stretches: the child stopped
    // reading after the cap (the writer could hand over no more than the pipe holds beyond it), and it exited by
    // itself (code 2 above; the 15 s kill would leave none).
    expect(r.written).toBeGreaterThan(25 * MiB);
    expect(r.written).toBeLessThan(30 * MiB);
    expect(r.writeError?.code).toBe('EPIPE');
  });

  it('input that never reaches a blank line → exit 2 after the 64 KiB header cap, not after reading everything', async () => {
    const r = await streamInto(
      ['webhook', 'verify', '--secret', secret],
      'POST /hooks HTTP/1.1\r\nX-Svc-Timestamp: 1',
      32 * MiB,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no blank line within its first 64 KiB');
    expect(r.written).toBeLessThan(4 * MiB);
  });

  it('a body of exactly --max-body-bytes is read and verified (exit 0); one byte less of cap → exit 2', async () => {
    const payload = JSON.stringify({
      type: 'scan_run.completed',
      scanRun: { id: 'r1', status: 'COMPLETED' },
      pad: 'x'.repeat(2000),
    });
    const size = Buffer.byteLength(payload);
    const atCap = await runCliLikeBinary(['webhook', 'verify', '--secret', secret, '--max-body-bytes', String(size)], {
      stdin: signed(payload),
    });
    expect(atCap.stderr).toBe('');
    expect(atCap.code).toBe(0);
    expect(atCap.stdout).toContain('delivery id (unsigned): d-big');
    const over = await runCliLikeBinary(
      ['webhook', 'verify', '--secret', secret, '--max-body-bytes', String(size - 1)],
      {
        stdin: signed(payload),
      },
    );
    expect(over.code).toBe(2);
    expect(over.stderr).toContain(`cap (${size - 1} bytes)`);
  });

  it.each(['0', '-1', '1.5', '1e3', 'lots', ''])('--max-body-bytes %j → exit 2 before reading', async (value) => {
    const r = await runCliLikeBinary(['webhook', 'verify', '--secret', secret, `--max-body-bytes=${value}`], {
      stdin: signed('{}'),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max-body-bytes must be a positive whole number of bytes');
  });
});
