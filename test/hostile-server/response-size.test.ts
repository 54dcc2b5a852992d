// Response bodies are read under a byte cap enforced while they stream in: an endless or huge
// body ends with ResponseTooLargeError naming the cap, and memory stays bounded.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { A11yClient, ConfigurationError, InternalServerError, ResponseTooLargeError } from '../../src/index.js';
import { startLoopback, type Handler, type Loopback } from '../support/loopback.js';
import { raceTimer } from '../support/timer.js';

const MiB = 1024 * 1024;
let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

/** Streams `[` then spaces without end (or until `totalBytes`), counting what the socket accepted. */
function endless(
  status: number,
  sent: { bytes: number },
  options: { totalBytes?: number; contentLength?: number; type?: string } = {},
): Handler {
  return (_req, res: ServerResponse) => {
    const headers: Record<string, string | number> = { 'content-type': options.type ?? 'application/json' };
    if (options.contentLength !== undefined) headers['content-length'] = options.contentLength;
    res.writeHead(status, headers);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.write('[');
    const pump = () => {
      while (!res.destroyed && (options.totalBytes === undefined || sent.bytes < options.totalBytes)) {
        sent.bytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end(']');
    };
    res.on('error', () => undefined);
    pump();
  };
}

describe('maxResponseBytes', () => {
  it('an endless 200 body on a GET → ResponseTooLargeError naming the cap; reading stops near it', async () => {
    const sent = { bytes: 0 };
    server = await startLoopback(endless(200, sent));
    const client = new A11yClient({
      apiKey: 'svc_size_key',
      baseUrl: server.url,
      maxResponseBytes: 2 * MiB,
      timeoutMs: 10_000,
    });
    // Ended by the cap, not the 10 s timeout: before a timer of 5 s set alongside fires.
    const bounded = raceTimer(5000);
    const err = (await failure(client.sites.list())) as ResponseTooLargeError;
    const ended = !bounded.fired();
    bounded.clear();
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.limitBytes).toBe(2 * MiB);
    expect(err.message).toContain(String(2 * MiB));
    expect(err.message).toContain('maxResponseBytes');
    // Not re-sent (the answer would be as large again), and the stream was cancelled: the server could push
    // only what the socket buffers hold beyond the cap, not an endless body.
    expect(server.requests).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(sent.bytes).toBeLessThan(24 * MiB);
    expect(ended).toBe(true);
  });

  it('the default cap is 32 MiB: a 33 MiB body is refused, with the cap in the error', async () => {
    const sent = { bytes: 0 };
    server = await startLoopback(endless(200, sent, { totalBytes: 33 * MiB }));
    const err = (await failure(
      new A11yClient({ apiKey: 'svc_size_key', baseUrl: server.url }).sites.list(),
    )) as ResponseTooLargeError;
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.limitBytes).toBe(32 * MiB);
  });

  it('a body of exactly the cap is read', async () => {
    const body = JSON.stringify([{ id: 'a'.repeat(1000) }]);
    server = await startLoopback(
      (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(body),
    );
    const client = new A11yClient({
      apiKey: 'svc_size_key',
      baseUrl: server.url,
      maxResponseBytes: Buffer.byteLength(body),
    });
    expect(await client.sites.list()).toEqual(JSON.parse(body));
    const smaller = new A11yClient({
      apiKey: 'svc_size_key',
      baseUrl: server.url,
      maxResponseBytes: Buffer.byteLength(body) - 1,
    });
    expect(await failure(smaller.sites.list())).toBeInstanceOf(ResponseTooLargeError);
  });

  it('a declared Content-Length over the cap is refused before the body is read', async () => {
    const sent = { bytes: 0 };
    server = await startLoopback(endless(200, sent, { totalBytes: 8 * MiB, contentLength: 8 * MiB + 2 }));
    const client = new A11yClient({ apiKey: 'svc_size_key', baseUrl: server.url, maxResponseBytes: MiB });
    expect(await failure(client.sites.list())).toBeInstanceOf(ResponseTooLargeError);
  });

  it('an endless problem body on a 500 → InternalServerError (the status decides), its body read only up to 64 KiB', async () => {
    const sent = { bytes: 0 };
    server = await startLoopback(endless(500, sent, { type: 'application/problem+json' }));
    const client = new A11yClient({ apiKey: 'svc_size_key', baseUrl: server.url, maxRetries: 0, timeoutMs: 10_000 });
    // Ended by the 64 KiB read, not the 10 s timeout: before a timer of 5 s set alongside fires.
    const bounded = raceTimer(5000);
    const err = (await failure(client.sites.list())) as InternalServerError;
    const ended = !bounded.fired();
    bounded.clear();
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.status).toBe(500);
    expect(err.code).toBeUndefined();
    await new Promise((r) => setTimeout(r, 100));
    expect(sent.bytes).toBeLessThan(16 * MiB);
    expect(ended).toBe(true);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('maxResponseBytes %s is refused at construction', (value) => {
    expect(
      () => new A11yClient({ apiKey: 'svc_size_key', baseUrl: 'https://a.example', maxResponseBytes: value }),
    ).toThrow(ConfigurationError);
    expect(
      () => new A11yClient({ apiKey: 'svc_size_key', baseUrl: 'https://a.example', maxResponseBytes: value }),
    ).toThrow(/maxResponseBytes/);
  });
});
