// Fault table (test/reliability/README.md): one test per row against a scripted loopback server. Each row
// asserts the outcome (value or error class), the number of requests sent and a generous time bound that
// proves nothing hangs past the configured timeouts.
import type { ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  A11yClient,
  ApiConnectionError,
  ApiTimeoutError,
  InternalServerError,
  NotFoundError,
  PollTimeoutError,
  RateLimitError,
  ResponseValidationError,
  type ClientOptions,
} from '../../src/index.js';
import {
  hang,
  json,
  problem,
  reset,
  startLoopback,
  text,
  type Handler,
  type Loopback,
  type Seen,
} from '../support/loopback.js';
import { CANARY, closedLoopbackUrl, countingFetch, outcome, type Outcome } from './support.js';

const siteId = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const checkId = '396154c7-55f5-43ad-bac0-2dd077d2efcb';
const sites = [{ id: siteId, name: 'Shop', verified: true }];
const html = (status: number) => text(status, `<html><body><h1>${status}</h1>proxy error</body></html>`);
const check = (status: string) => ({ id: checkId, status, failOn: 'NEW_CRITICAL' });
const ciBody = { urls: ['https://shop.example.com/'], failOn: 'NEW_CRITICAL' as const };
/** 429 with a Retry-After computed when the request arrives (an HTTP-date must be relative to then). */
const rateLimited =
  (retryAfter: () => string): Handler =>
  (req, res, i) =>
    problem(429, 'RATE_LIMITED', { 'retry-after': retryAfter() })(req, res, i);

/** Headers and a first chunk of a 200, then the connection is destroyed before the body ends. */
const resetMidBody: Handler = (_req, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[{"id":"3fa85f64-5717-4562-b3fc-2c963f66af');
  setTimeout(() => res.socket?.destroy(), 20);
};
/** Headers and the first bytes, then nothing: only the attempt's timeout ends the read. */
const stalledBody: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
};
/** Headers at once, then one byte every 50 ms for 3 s: the body outlives any small timeoutMs. */
const slowBody: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
  const drip = setInterval(() => res.write(' '), 50);
  const end = setTimeout(() => {
    clearInterval(drip);
    res.end(']');
  }, 3000);
  res.on('close', () => {
    clearInterval(drip);
    clearTimeout(end);
  });
};
const truncatedJson = text(200, '[{"id":"3fa85f64-5717-4562-b3fc-2c963f66afa6","name":"Sh', 'application/json');

interface Row {
  /** The test name (and the README's "test" column). */
  name: string;
  /**
   * Client options on top of `{ apiKey: CANARY, timeoutMs: 10_000, maxRetries: 1 }`. A row about a timeout sets
   * its own: a 200 ms one for every row let a busy machine (load 25) turn a prompt 429 into ApiTimeoutError.
   */
  client?: ClientOptions;
  /** Answers in order (the last repeats); 'refused' = nothing listens on the port. */
  server: Handler[] | 'refused';
  call(client: A11yClient): Promise<unknown>;
  /** Expected error class, or undefined when the call must succeed. */
  error?: abstract new (
    ...args: never[]
  ) => Error;
  requests: number;
  /** Bounds of the call's duration in ms: [at least, at most]. */
  ms: [number, number];
  /** Further assertions on the outcome and the requests the server saw. */
  check?(o: Outcome, requests: Seen[]): void;
}

const gap = (requests: Seen[], i = 1) => requests[i]!.at - requests[i - 1]!.at;

const rows: Row[] = [
  {
    name: 'connection refused (GET) → ApiConnectionError after 1 + maxRetries attempts',
    server: 'refused',
    call: (c) => c.sites.list(),
    error: ApiConnectionError,
    requests: 2,
    ms: [240, 2500],
    check: (o) => {
      expect(o.error).not.toBeInstanceOf(ApiTimeoutError);
      expect((o.error as Error).message).toContain('ECONNREFUSED');
    },
  },
  {
    name: 'reset before headers (GET) → re-sent once, then ApiConnectionError',
    server: [reset],
    call: (c) => c.sites.list(),
    error: ApiConnectionError,
    requests: 2,
    ms: [240, 2500],
    check: (o) => expect(o.error).not.toBeInstanceOf(ApiTimeoutError),
  },
  {
    name: 'reset before headers (POST) → ApiConnectionError, never re-sent',
    server: [reset, json(202, check('QUEUED'))],
    call: (c) => c.ciChecks.create(ciBody),
    error: ApiConnectionError,
    requests: 1,
    ms: [0, 1000],
  },
  {
    name: 'reset mid-body (GET 200) → re-sent like any GET connection failure; the answer after is returned',
    server: [resetMidBody, json(200, sites)],
    call: (c) => c.sites.list(),
    requests: 2,
    ms: [240, 1500],
    check: (o) => expect(o.value).toEqual(sites),
  },
  {
    name: 'reset mid-body on every attempt (GET 200) → ApiConnectionError naming the body, not a raw TypeError',
    server: [resetMidBody],
    call: (c) => c.sites.list(),
    error: ApiConnectionError,
    requests: 2,
    ms: [240, 1500],
    check: (o) => expect((o.error as Error).message).toMatch(/body/i),
  },
  {
    name: 'reset mid-body while polling a Location → the poll continues and completes',
    server: [
      json(202, check('QUEUED'), { location: `/api/v1/ci/checks/${checkId}` }),
      resetMidBody,
      json(200, check('COMPLETED')),
    ],
    call: (c) => c.ciChecks.createAndWait(ciBody, { intervalMs: 20, maxIntervalMs: 40, timeoutMs: 3000 }),
    requests: 3,
    ms: [0, 2000],
    check: (o) => expect((o.value as { status: string }).status).toBe('COMPLETED'),
  },
  {
    name: 'server never answers (GET, timeoutMs 150) → ApiTimeoutError per attempt, re-sent once',
    client: { timeoutMs: 150 },
    server: [hang],
    call: (c) => c.sites.list(),
    error: ApiTimeoutError,
    requests: 2,
    ms: [540, 2500],
  },
  {
    name: 'server never answers (POST, timeoutMs 150) → ApiTimeoutError, never re-sent',
    client: { timeoutMs: 150 },
    server: [hang],
    call: (c) => c.ciChecks.create(ciBody),
    error: ApiTimeoutError,
    requests: 1,
    ms: [140, 1000],
  },
  {
    name: 'slow body (1 byte / 50 ms for 3 s, timeoutMs 200) → ApiTimeoutError while reading the body, re-sent once like any GET timeout',
    client: { timeoutMs: 200 },
    server: [slowBody],
    call: (c) => c.sites.list(),
    error: ApiTimeoutError,
    requests: 2,
    ms: [590, 2500],
  },
  {
    name: 'headers then a stalled body (GET), then a whole answer → re-sent after the timeout, the answer is returned',
    client: { timeoutMs: 200 },
    server: [stalledBody, json(200, sites)],
    call: (c) => c.sites.list(),
    requests: 2,
    ms: [440, 2000],
    check: (o) => expect(o.value).toEqual(sites),
  },
  {
    name: 'slow body on a POST 202 (timeoutMs 200) → ApiTimeoutError, never re-sent (it may have been processed)',
    client: { timeoutMs: 200 },
    server: [slowBody],
    call: (c) => c.ciChecks.create(ciBody),
    error: ApiTimeoutError,
    requests: 1,
    ms: [190, 1500],
  },
  ...[500, 502, 503].map(
    (status): Row => ({
      name: `${status} with an HTML body (GET) → re-sent once, then InternalServerError with code undefined`,
      server: [html(status)],
      call: (c) => c.sites.list(),
      error: InternalServerError,
      requests: 2,
      ms: [240, 2500],
      check: (o) => {
        const e = o.error as InternalServerError;
        expect([e.status, e.code, e.problem]).toEqual([status, undefined, undefined]);
      },
    }),
  ),
  {
    name: '503 with Retry-After: 1 (GET) → waits ≥ 1 s, re-sends, succeeds',
    server: [
      (req, res, i) => text(503, 'busy', 'text/plain')(req, res.setHeader('retry-after', '1') && res, i),
      json(200, sites),
    ],
    call: (c) => c.sites.list(),
    requests: 2,
    ms: [950, 3000],
    check: (o, r) => {
      expect(o.value).toEqual(sites);
      expect(gap(r)).toBeGreaterThanOrEqual(950);
    },
  },
  {
    name: '503 with Retry-After: 3600 (GET) → InternalServerError at once, no re-send',
    server: [problem(503, undefined, { 'retry-after': '3600' })],
    call: (c) => c.sites.list(),
    error: InternalServerError,
    requests: 1,
    ms: [0, 800],
  },
  {
    name: 'truncated JSON in a 200 → ResponseValidationError "body must be valid JSON", no re-send',
    server: [truncatedJson],
    call: (c) => c.sites.list(),
    error: ResponseValidationError,
    requests: 1,
    ms: [0, 1000],
    check: (o) => expect((o.error as ResponseValidationError).field).toBe('body'),
  },
  {
    name: 'truncated problem+json in a 404 → NotFoundError with code undefined',
    server: [text(404, '{"type":"about:blank","title":"Not fo', 'application/problem+json')],
    call: (c) => c.sites.listFixes(siteId),
    error: NotFoundError,
    requests: 1,
    ms: [0, 1000],
    check: (o) => expect((o.error as NotFoundError).code).toBeUndefined(),
  },
  {
    name: 'problem body without code (404) → NotFoundError, code undefined, title and traceId kept',
    server: [problem(404, undefined)],
    call: (c) => c.sites.listFixes(siteId),
    error: NotFoundError,
    requests: 1,
    ms: [0, 1000],
    check: (o) => {
      const e = o.error as NotFoundError;
      expect([e.code, e.title, e.traceId]).toEqual([undefined, 'Title 404', '5b9e3c1a-8f2d-4e6b-9a7c-1d2e3f4a5b6c']);
    },
  },
  {
    name: '200 whose body breaks the schema, validateResponses on → ResponseValidationError naming the field',
    client: { validateResponses: true },
    server: [json(200, [{ id: 42, name: 'Shop' }])],
    call: (c) => c.sites.list(),
    error: ResponseValidationError,
    requests: 1,
    ms: [0, 1500],
    check: (o) => expect((o.error as ResponseValidationError).field).toBe('body[0].id'),
  },
  {
    name: '200 whose body breaks the schema, validateResponses off → passes through unchanged',
    server: [json(200, [{ id: 42, name: 'Shop' }])],
    call: (c) => c.sites.list(),
    requests: 1,
    ms: [0, 1000],
    check: (o) => expect(o.value).toEqual([{ id: 42, name: 'Shop' }]),
  },
  {
    name: '429 with Retry-After: 0 → re-sent at once, succeeds',
    server: [problem(429, 'RATE_LIMITED', { 'retry-after': '0' }), json(200, sites)],
    call: (c) => c.sites.list(),
    requests: 2,
    ms: [0, 800],
    check: (o, r) => {
      expect(o.value).toEqual(sites);
      expect(gap(r)).toBeLessThan(500);
    },
  },
  {
    name: '429 with Retry-After: 1 → waits ≥ 1 s, re-sends, succeeds',
    server: [problem(429, 'RATE_LIMITED', { 'retry-after': '1' }), json(200, sites)],
    call: (c) => c.sites.list(),
    requests: 2,
    ms: [950, 3000],
    check: (o, r) => {
      expect(o.value).toEqual(sites);
      expect(gap(r)).toBeGreaterThanOrEqual(950);
    },
  },
  {
    name: '429 with Retry-After: 3600 (above maxRetryDelayMs) → RateLimitError at once carrying 3 600 000 ms',
    server: [problem(429, 'RATE_LIMITED', { 'retry-after': '3600' }), json(200, sites)],
    call: (c) => c.sites.list(),
    error: RateLimitError,
    requests: 1,
    ms: [0, 800],
    check: (o) => expect((o.error as RateLimitError).retryAfterMs).toBe(3_600_000),
  },
  {
    name: '429 with an HTTP-date Retry-After (now + 2 s) → waits until that date, re-sends, succeeds',
    server: [rateLimited(() => new Date(Date.now() + 2000).toUTCString()), json(200, sites)],
    call: (c) => c.sites.list(),
    requests: 2,
    ms: [900, 3500],
    check: (o, r) => {
      expect(o.value).toEqual(sites);
      expect(gap(r)).toBeGreaterThanOrEqual(900); // the date has 1 s resolution: 1–2 s from the 429
    },
  },
  {
    name: '429 with a garbage Retry-After ("soon") → backoff with jitter (never 0 ms), succeeds',
    server: [problem(429, 'RATE_LIMITED', { 'retry-after': 'soon' }), json(200, sites)],
    call: (c) => c.sites.list(),
    requests: 2,
    ms: [240, 2000],
    check: (o, r) => {
      expect(o.value).toEqual(sites);
      expect(gap(r)).toBeGreaterThanOrEqual(240);
      expect(gap(r)).toBeLessThan(1000);
    },
  },
  {
    name: '429 with a negative Retry-After ("-5") → treated as malformed: backoff, succeeds',
    server: [problem(429, 'RATE_LIMITED', { 'retry-after': '-5' }), json(200, sites)],
    call: (c) => c.sites.list(),
    requests: 2,
    ms: [240, 2000],
    check: (o, r) => {
      expect(o.value).toEqual(sites);
      expect(gap(r)).toBeGreaterThanOrEqual(240);
    },
  },
  {
    name: '429 that persists (Retry-After: 0) → RateLimitError after 1 + maxRetries requests',
    server: [problem(429, 'RATE_LIMITED', { 'retry-after': '0' })],
    call: (c) => c.sites.list(),
    error: RateLimitError,
    requests: 2,
    ms: [0, 1000],
    check: (o) => expect((o.error as RateLimitError).retryAfterMs).toBe(0),
  },
  {
    name: 'long poll under repeated 429s and 503s (maxRetries 0) → completes; no request after the terminal state',
    client: { maxRetries: 0 },
    server: [
      json(202, check('QUEUED'), { location: `/api/v1/ci/checks/${checkId}` }),
      problem(429, 'RATE_LIMITED', { 'retry-after': '0' }),
      html(503),
      json(200, check('RUNNING')),
      problem(429, 'RATE_LIMITED'),
      problem(503, undefined),
      html(502),
      problem(429, 'RATE_LIMITED', { 'retry-after': 'garbage' }),
      json(200, check('RUNNING')),
      problem(503, undefined, { 'retry-after': '0' }),
      json(200, check('COMPLETED')),
      // Anything after the terminal state would be answered (and counted) here.
      json(200, check('COMPLETED')),
    ],
    call: (c) => c.ciChecks.createAndWait(ciBody, { intervalMs: 20, maxIntervalMs: 40, timeoutMs: 5000 }),
    requests: 11,
    ms: [0, 4000],
    check: (o, r) => {
      expect((o.value as { status: string }).status).toBe('COMPLETED');
      expect(r.slice(1).every((q) => q.method === 'GET' && q.url === `/api/v1/ci/checks/${checkId}`)).toBe(true);
    },
  },
  {
    name: 'poll answered 429 with a Retry-After beyond the deadline → RateLimitError at once naming when, no hammering',
    client: { maxRetries: 0 },
    server: [problem(429, 'RATE_LIMITED', { 'retry-after': '9999999999' })],
    call: (c) => c.ciChecks.waitForCompletion(checkId, { intervalMs: 20, timeoutMs: 300 }),
    error: RateLimitError,
    requests: 1,
    // The error's class is the proof it came before the deadline (which would have given PollTimeoutError).
    ms: [0, 1500],
    check: (o) => expect((o.error as RateLimitError).retryAt!.getTime()).toBeGreaterThan(Date.now() + 9e12),
  },
  {
    name: 'poll against a server that never answers → PollTimeoutError at the poll deadline',
    client: { timeoutMs: 10_000 },
    server: [hang],
    call: (c) => c.ciChecks.waitForCompletion(checkId, { intervalMs: 20, timeoutMs: 300 }),
    error: PollTimeoutError,
    requests: 1,
    ms: [290, 1500],
  },
  {
    name: 'timeoutMs beyond the 32-bit timer range (2^32 ms) → no instant timeout; a 100 ms answer is awaited',
    client: { timeoutMs: 2 ** 32 },
    server: [(req, res, i) => void setTimeout(() => json(200, sites)(req, res, i), 100)],
    call: (c) => c.sites.list(),
    requests: 1,
    ms: [90, 1500],
    check: (o) => expect(o.value).toEqual(sites),
  },
];

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('fault table', () => {
  for (const row of rows) {
    it(row.name, async () => {
      let baseUrl: string;
      let sent: () => number;
      let seen: () => Seen[] = () => [];
      const counter = countingFetch();
      if (row.server === 'refused') {
        baseUrl = await closedLoopbackUrl();
        sent = () => counter.count;
      } else {
        server = await startLoopback(row.server);
        baseUrl = server.url;
        const s = server;
        sent = () => s.requests.length;
        seen = () => s.requests;
      }
      const client = new A11yClient({
        apiKey: CANARY,
        baseUrl,
        timeoutMs: 10_000,
        maxRetries: 1,
        fetch: counter.fetch,
        ...row.client,
      });
      const o = await outcome(() => row.call(client));
      // Nothing may follow the outcome: give a stray re-send or poll time to show up.
      await new Promise((r) => setTimeout(r, 150));

      if (row.error) {
        expect(o.error, `expected ${row.error.name}, got ${String(o.error)}`).toBeInstanceOf(row.error);
      } else {
        expect(o.error, String(o.error)).toBeUndefined();
      }
      // Attempts are counted where they are sent. The server's count matches, but for attempts the client timed out:
      // on a busy machine the server may not have read such a request before its 150–200 ms were up.
      expect(counter.count).toBe(row.requests);
      if (row.error === ApiTimeoutError) expect(sent()).toBeLessThanOrEqual(row.requests);
      else expect(sent()).toBe(row.requests);
      expect(o.ms).toBeGreaterThanOrEqual(row.ms[0]);
      expect(o.ms).toBeLessThanOrEqual(row.ms[1]);
      row.check?.(o, seen());
    });
  }

  it('the README table lists every row of this file, by test name', () => {
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const missing = rows.map((r) => r.name).filter((name) => !readme.includes(name.replaceAll('|', '\\|')));
    expect(missing).toEqual([]);
  });
});
