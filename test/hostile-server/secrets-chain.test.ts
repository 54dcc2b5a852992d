// The key never escapes through an error's cause chain, and a hostile problem body cannot crash the
// scrubbing pass.
import { afterEach, describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { A11yClient, ApiConnectionError, BadRequestError, InternalServerError } from '../../src/index.js';
import { startLoopback, type Loopback } from '../support/loopback.js';

const KEY = 'svc_chain_canary_key_9f8e7d';
const everything = (err: unknown) => {
  const e = err as Error;
  return [
    inspect(err, { depth: 10 }),
    inspect(err, { depth: 10, showHidden: true }),
    String(e.stack),
    e.message,
    String(e),
    JSON.stringify(err),
  ].join('\n');
};
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

/** A custom fetch whose rejection echoes the request headers in every place an error can carry them. */
const echoingFetches: Array<[string, (init: RequestInit) => unknown]> = [
  ['message', (init) => new TypeError(`fetch failed: ${JSON.stringify(init.headers)}`)],
  [
    'a property',
    (init) =>
      Object.assign(new TypeError('fetch failed'), {
        request: { headers: init.headers },
        header: (init.headers as Record<string, string>).authorization,
      }),
  ],
  [
    'its own cause',
    (init) =>
      new TypeError('fetch failed', {
        cause: Object.assign(new Error(`connect: ${JSON.stringify(init.headers)}`), { code: 'ECONNRESET', init }),
      }),
  ],
  [
    'a nested cause chain',
    (init) =>
      new TypeError('fetch failed', {
        cause: new Error('layer 1', { cause: new Error('layer 2', { cause: `raw ${JSON.stringify(init.headers)}` }) }),
      }),
  ],
  [
    'an AggregateError of such',
    (init) =>
      new AggregateError(
        [new Error(`a ${JSON.stringify(init.headers)}`), Object.assign(new Error('b'), { init })],
        `all failed ${JSON.stringify(init.headers)}`,
      ),
  ],
  ['a thrown plain object', (init) => ({ message: 'not an Error', headers: init.headers })],
  ['a thrown string', (init) => `failed with ${JSON.stringify(init.headers)}`],
];

describe('ApiConnectionError carries a scrubbed cause chain', () => {
  it.each(echoingFetches)(
    'a custom fetch whose error echoes the key in %s: never in inspect, stack or message',
    async (_where, makeError) => {
      const fetchImpl = (async (_url: string, init: RequestInit) => {
        throw makeError(init);
      }) as typeof fetch;
      const err = await failure(
        new A11yClient({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9', fetch: fetchImpl, maxRetries: 0 }).sites.list(),
      );
      expect(err).toBeInstanceOf(ApiConnectionError);
      expect(everything(err)).not.toContain(KEY);
      expect(everything((err as Error).cause)).not.toContain(KEY);
      // Still useful for debugging: the cause is there (texts redacted; objects that may hold headers dropped).
      expect((err as Error).cause).toBeDefined();
    },
  );

  it('keeps what debugging needs: the cause chain, names and codes', async () => {
    const fetchImpl = (async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED', errno: -111 }),
      });
    }) as unknown as typeof fetch;
    const err = (await failure(
      new A11yClient({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9', fetch: fetchImpl, maxRetries: 0 }).sites.list(),
    )) as Error;
    const cause = err.cause as Error & { cause: Error & { code: string; errno: number } };
    expect(cause.name).toBe('TypeError');
    expect(cause.message).toBe('fetch failed');
    expect(cause.cause.code).toBe('ECONNREFUSED');
    expect(cause.cause.errno).toBe(-111);
  });

  it('a real refused connection still names its code', async () => {
    const closed = await startLoopback(() => undefined);
    await closed.close();
    const err = (await failure(
      new A11yClient({ apiKey: KEY, baseUrl: closed.url, maxRetries: 0 }).sites.list(),
    )) as Error;
    expect(err).toBeInstanceOf(ApiConnectionError);
    expect(err.message).toContain('ECONNREFUSED');
    expect(everything(err)).not.toContain(KEY);
  });
});

describe('a problem body nested thousands of levels deep', () => {
  let server: Loopback | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.each([
    [400, BadRequestError],
    [500, InternalServerError],
  ])(
    '%i with 10 000 nested objects (and the key inside) → the status class, not a RangeError',
    async (status, Class) => {
      const depth = 10_000;
      const body = `{"code":"VALIDATION_FAILED","detail":"echo ${KEY}","deep":${'{"a":'.repeat(depth)}"${KEY}"${'}'.repeat(depth)}}`;
      server = await startLoopback(
        (_req, res) => void res.writeHead(status, { 'content-type': 'application/problem+json' }).end(body),
      );
      const err = (await failure(
        new A11yClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 }).sites.list(),
      )) as InstanceType<typeof Class>;
      expect(err).toBeInstanceOf(Class);
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.detail).toBe('echo [redacted]');
      // The scrubbed copy keeps the whole depth, with the key redacted at the bottom.
      let node = (err.problem as unknown as { deep: unknown }).deep as { a?: unknown } | string;
      for (let i = 0; i < depth; i++) node = (node as { a: unknown }).a as { a?: unknown } | string;
      expect(node).toBe('[redacted]');
    },
  );
});
