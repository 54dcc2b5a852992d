// Retry, timeout and error-mapping behaviour against scripted loopback servers (sequences Prism cannot play).
import { afterEach, describe, expect, it } from 'vitest';
import {
  A11yClient,
  ApiConnectionError,
  ApiTimeoutError,
  BadRequestError,
  ConfigurationError,
  InternalServerError,
  RateLimitError,
  type ClientOptions,
} from '../../src/index.js';
import { countingFetch } from '../reliability/support.js';
import { hang, json, problem, reset, startLoopback, text, type Loopback } from '../support/loopback.js';
import { raceTimer, timerFired } from '../support/timer.js';

const id = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const site = [{ id, name: 'Shop', verified: true }];
let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const serve = async (...handlers: Parameters<typeof startLoopback>[0][]) =>
  (server = await startLoopback(handlers.flat()));
const client = (options: ClientOptions = {}) =>
  new A11yClient({ apiKey: 'svc_retry_test_key', baseUrl: server!.url, ...options });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('429 and Retry-After', () => {
  it('waits Retry-After (integer seconds) and re-sends; the answer after is returned', async () => {
    await serve(problem(429, 'RATE_LIMITED', { 'retry-after': '1' }), json(200, site));
    expect(await client().sites.list()).toEqual(site);
    const [first, second] = server!.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('accepts the HTTP-date form', async () => {
    const date = new Date(Date.now() + 1500).toUTCString();
    await serve(problem(429, 'RATE_LIMITED', { 'retry-after': date }), json(200, site));
    expect(await client().sites.list()).toEqual(site);
    expect(server!.requests[1]!.at - server!.requests[0]!.at).toBeGreaterThanOrEqual(400);
  });

  it('a malformed Retry-After falls back to backoff with jitter, never 0 ms', async () => {
    await serve(problem(429, 'RATE_LIMITED', { 'retry-after': 'soon' }), json(200, site));
    expect(await client().sites.list()).toEqual(site);
    expect(server!.requests[1]!.at - server!.requests[0]!.at).toBeGreaterThanOrEqual(240);
  });

  it('re-sends a POST on 429 (the service did not process it)', async () => {
    await serve(
      problem(429, 'RATE_LIMITED', { 'retry-after': '0' }),
      json(202, { id, status: 'QUEUED' }, { location: `/api/v1/scans/${id}` }),
    );
    expect(await client().scans.create({ url: 'https://shop.example.com/' })).toEqual({ id, status: 'QUEUED' });
    expect(server!.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(JSON.parse(server!.requests[1]!.body)).toEqual({ url: 'https://shop.example.com/' });
  });

  it('gives up after maxRetries with RateLimitError carrying retryAfterMs', async () => {
    await serve(problem(429, 'RATE_LIMITED', { 'retry-after': '0' }));
    const err = (await failure(client({ maxRetries: 2 }).sites.list())) as RateLimitError;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.retryAfterMs).toBe(0);
    expect(server!.requests).toHaveLength(3);
  });

  it('a wait above maxRetryDelayMs throws at once, carrying the wait', async () => {
    await serve(problem(429, 'RATE_LIMITED', { 'retry-after': '3600' }));
    const err = (await failure(client({ maxRetryDelayMs: 5000 }).sites.list())) as RateLimitError;
    expect(err.retryAfterMs).toBe(3_600_000);
    expect(server!.requests).toHaveLength(1);
  });

  it('an abort during the Retry-After wait rejects promptly with the signal reason', async () => {
    await serve(problem(429, 'RATE_LIMITED', { 'retry-after': '30' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop now')), 100);
    // Promptly: before a timer of 1 s set alongside the 100 ms abort fires, whatever the machine's speed (the 30 s
    // Retry-After, or even a 1 s step of it, would lose that race).
    const timer = raceTimer(1000);
    const err = (await failure(client().sites.list({ signal: controller.signal }))) as Error;
    expect(err.message).toBe('stop now');
    expect(timer.fired()).toBe(false);
    timer.clear();
  });
});

describe('transient failures', () => {
  it('re-sends a GET after a 502 with an HTML body, then succeeds', async () => {
    await serve(text(502, '<html><body>Bad gateway</body></html>'), json(200, site));
    expect(await client().sites.list()).toEqual(site);
    expect(server!.requests).toHaveLength(2);
  });

  it('an HTML 502 that persists gives InternalServerError with code undefined', async () => {
    await serve(text(502, '<html>Bad gateway</html>'));
    const err = (await failure(client({ maxRetries: 1 }).sites.list())) as InternalServerError;
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.status).toBe(502);
    expect(err.code).toBeUndefined();
    expect(err.message).toContain('502');
    expect(server!.requests).toHaveLength(2);
  });

  it('never re-sends a POST after a 503 (it may have been processed)', async () => {
    await serve(problem(503, undefined), json(202, { id, status: 'QUEUED' }));
    const err = await failure(client().scans.create({ url: 'https://shop.example.com/' }));
    expect(err).toBeInstanceOf(InternalServerError);
    expect(server!.requests).toHaveLength(1);
  });

  it('does not re-send 4xx answers other than 408/429', async () => {
    await serve(problem(400, undefined));
    expect(await failure(client().sites.list())).toBeInstanceOf(BadRequestError);
    expect(server!.requests).toHaveLength(1);
  });

  it('a connection reset on a GET is re-sent; persisting → ApiConnectionError', async () => {
    await serve(reset, json(200, site));
    expect(await client().sites.list()).toEqual(site);
    await server!.close();
    await serve(reset);
    const err = (await failure(client({ maxRetries: 1 }).sites.list())) as ApiConnectionError;
    expect(err).toBeInstanceOf(ApiConnectionError);
    expect(err.method).toBe('GET');
    expect(server!.requests).toHaveLength(2);
  });

  it('a connection reset on a POST is not re-sent', async () => {
    await serve(reset, json(202, { id, status: 'QUEUED' }));
    expect(await failure(client().scans.create({ url: 'https://shop.example.com/' }))).toBeInstanceOf(
      ApiConnectionError,
    );
    expect(server!.requests).toHaveLength(1);
  });

  it('a refused connection is re-sent even for a POST (nothing reached the service)', async () => {
    await serve(json(200, site));
    const url = server!.url;
    await server!.close();
    server = undefined;
    const c = new A11yClient({ apiKey: 'svc_retry_test_key', baseUrl: url, maxRetries: 1 });
    const started = Date.now();
    const err = (await failure(c.scans.create({ url: 'https://shop.example.com/' }))) as ApiConnectionError;
    expect(err).toBeInstanceOf(ApiConnectionError);
    expect(err.message).toContain('ECONNREFUSED');
    expect(Date.now() - started).toBeGreaterThanOrEqual(240); // one backoff wait happened
  });
});

describe('timeouts', () => {
  it('a server that never answers → ApiTimeoutError after timeoutMs per attempt, re-sent for GET', async () => {
    await serve(hang);
    const started = Date.now();
    // The plan: 150 ms, a back-off of at most 500 ms, 150 ms. Bounded from when a timer of that length set alongside
    // actually fired, not from the bound on the clock: a busy machine delays the client's timers and this one alike.
    const fired = timerFired(800);
    const counter = countingFetch();
    const err = (await failure(
      client({ timeoutMs: 150, maxRetries: 1, fetch: counter.fetch }).sites.list(),
    )) as ApiTimeoutError;
    expect(err).toBeInstanceOf(ApiTimeoutError);
    expect(err).toBeInstanceOf(ApiConnectionError);
    // Counted where sent: a busy machine's server may not have read a request before its 150 ms were up.
    expect(counter.count).toBe(2);
    expect(Date.now() - started).toBeLessThan((await fired) + 1700);
  });

  it('a slow body is bounded by the same timeout', async () => {
    await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"id":');
    });
    const started = Date.now();
    const fired = timerFired(200);
    const err = await failure(client({ timeoutMs: 200, maxRetries: 0 }).sites.list());
    expect(err).toBeInstanceOf(ApiTimeoutError);
    expect(Date.now() - started).toBeLessThan((await fired) + 1300);
  });

  it('the per-call timeoutMs and maxRetries override the client', async () => {
    await serve(hang);
    // Counted where sent: a busy machine's server may not have read the request before its 100 ms were up.
    const counter = countingFetch();
    const err = await failure(
      client({ timeoutMs: 30_000, fetch: counter.fetch }).sites.list({ timeoutMs: 100, maxRetries: 0 }),
    );
    expect(err).toBeInstanceOf(ApiTimeoutError);
    expect(counter.count).toBe(1);
  });
});

describe('per-call options and the fetch it calls', () => {
  it.each([
    ['timeoutMs', { timeoutMs: -1 }, 'timeoutMs must be a finite number ≥ 1, got -1.'],
    ['timeoutMs', { timeoutMs: 0 }, 'timeoutMs must be a finite number ≥ 1, got 0.'],
    ['timeoutMs', { timeoutMs: Number.NaN }, 'timeoutMs must be a finite number ≥ 1, got NaN.'],
    [
      'timeoutMs',
      { timeoutMs: '30000' as unknown as number },
      'timeoutMs must be a finite number ≥ 1, got the string "30000".',
    ],
    ['maxRetries', { maxRetries: Number.POSITIVE_INFINITY }, 'maxRetries must be a finite number ≥ 0, got Infinity.'],
    ['maxRetries', { maxRetries: 1.5 }, 'maxRetries must be a whole number (0, 1, 2…), got 1.5.'],
  ])(
    'a bad per-call %s is a ConfigurationError naming it and the rule, and nothing is sent (%j)',
    async (_name, options, message) => {
      await serve(json(200, site));
      const err = (await failure(client().sites.list(options))) as Error;
      expect(err).toBeInstanceOf(ConfigurationError);
      expect(err.message).toBe(message);
      expect(server!.requests).toHaveLength(0);
    },
  );

  it.each([
    [{ timeoutMs: 0 }, 'timeoutMs must be a finite number ≥ 1, got 0.'],
    [{ maxRetries: 2.5 }, 'maxRetries must be a whole number (0, 1, 2…), got 2.5.'],
    [{ maxRetryDelayMs: null as unknown as number }, 'maxRetryDelayMs must be a finite number ≥ 0, got null.'],
  ])('a bad client option %j is refused when the client is built', (options, message) => {
    const build = () => new A11yClient({ apiKey: 'svc_retry_test_key', baseUrl: 'http://127.0.0.1:9', ...options });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(message);
  });

  it('calls the given fetch with a URL string and an init (fetch builds the only Request), body re-sent as is', async () => {
    await serve(problem(429, 'RATE_LIMITED', { 'retry-after': '0' }), json(202, { id, status: 'QUEUED' }));
    const calls: [unknown, RequestInit | undefined][] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      calls.push([input, init]);
      return globalThis.fetch(input, init);
    };
    await client({ fetch }).scans.create({ url: 'https://shop.example.com/' });
    expect(calls).toHaveLength(2);
    for (const [input, init] of calls) {
      expect(input).toBe(`${server!.url}/api/v1/scans`);
      expect(init?.method).toBe('POST');
      expect(init?.body).toBe('{"url":"https://shop.example.com/"}');
      expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
      expect(init?.signal).toBeInstanceOf(AbortSignal);
    }
    expect(server!.requests.map((r) => r.body)).toEqual([
      '{"url":"https://shop.example.com/"}',
      '{"url":"https://shop.example.com/"}',
    ]);
  });

  it('custom headers are sent once, any case replacing the default; Authorization cannot be overridden', async () => {
    await serve(json(200, site), json(202, { id, status: 'QUEUED' }));
    const c = client({ headers: { ACCEPT: 'application/json', 'X-Team': 'web', authorization: 'Bearer other' } });
    await c.sites.list();
    await c.scans.create({ url: 'https://shop.example.com/' });
    const [get, post] = server!.requests;
    for (const seen of [get!, post!]) {
      expect(seen.headers.accept).toBe('application/json');
      expect(seen.headers['x-team']).toBe('web');
      expect(seen.headers.authorization).toBe('Bearer svc_retry_test_key');
    }
    expect(get!.headers['content-type']).toBeUndefined();
    expect(post!.headers['content-type']).toBe('application/json');
  });

  it('a fetch wrapper that edits init.headers changes that request only', async () => {
    await serve(json(200, site), json(200, site));
    let first = true;
    const fetch: typeof globalThis.fetch = (input, init) => {
      if (first) (init!.headers as Record<string, string>)['x-debug'] = 'on';
      first = false;
      return globalThis.fetch(input, init);
    };
    const c = client({ fetch });
    await c.sites.list();
    await c.sites.list();
    expect(server!.requests.map((r) => r.headers['x-debug'])).toEqual(['on', undefined]);
  });

  it('header values from JavaScript: undefined/null send no header, a number is sent as its text', async () => {
    await serve(json(200, site));
    const headers = { 'X-Unset': undefined, 'X-Null': null, 'X-Shard': 3 } as unknown as Record<string, string>;
    await client({ headers }).sites.list();
    const seen = server!.requests[0]!.headers;
    expect(seen['x-shard']).toBe('3');
    expect('x-unset' in seen || 'x-null' in seen).toBe(false);
  });

  it("a custom fetch whose error echoes its init: the key is redacted from the connection error's message", async () => {
    await serve(json(200, site));
    const fetch: typeof globalThis.fetch = (_input, init) =>
      Promise.reject(new TypeError(`cannot send ${JSON.stringify(init?.headers)}`));
    const err = (await failure(client({ fetch, maxRetries: 0 }).sites.list())) as Error;
    expect(err).toBeInstanceOf(ApiConnectionError);
    expect(err.message).toContain('[redacted]');
    expect(err.message).not.toContain('svc_retry_test_key');
  });

  it('serialises the query: present values only, percent-encoded', async () => {
    await serve(json(200, { points: [] }), json(200, { points: [] }));
    await client().sites.getTrend(id, { limit: 5 });
    await client().sites.getTrend(id);
    expect(server!.requests.map((r) => r.url)).toEqual([
      `/api/v1/sites/${id}/trend?limit=5`,
      `/api/v1/sites/${id}/trend`,
    ]);
  });
});
