// Polling behaviour against a loopback server playing job lifecycles.
import { afterEach, describe, expect, it } from 'vitest';
import {
  A11yClient,
  PollTimeoutError,
  RequestValidationError,
  ResponseValidationError,
  isTerminalStatus,
} from '../../src/index.js';
import { json, problem, startLoopback, text, type Loopback } from '../support/loopback.js';
import { timerFired } from '../support/timer.js';

const id = '396154c7-55f5-43ad-bac0-2dd077d2efcb';
const check = (status: string, extra = {}) => ({ id, status, failOn: 'NEW_CRITICAL', ...extra });
let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const serve = async (...handlers: Parameters<typeof startLoopback>[0][]) =>
  (server = await startLoopback(handlers.flat()));
const client = () => new A11yClient({ apiKey: 'svc_poll_test_key', baseUrl: server!.url });
const fast = { intervalMs: 20, maxIntervalMs: 40 };
// Upper bounds on time are judged on what a busy machine cannot push past: the waits the poller planned (its debug
// log), or a timer of the same bound set alongside and when it actually fired (the machine delays both alike).
const planning = () => {
  const planned: number[] = [];
  const debug = (line: string) => {
    const match = /next poll in (\d+) ms/.exec(line);
    if (match) planned.push(Number(match[1]));
  };
  const logger = { debug, info: () => {}, warn: () => {}, error: () => {} };
  return {
    planned,
    client: new A11yClient({ apiKey: 'svc_poll_test_key', baseUrl: server!.url, logLevel: 'debug', logger }),
  };
};

describe('isTerminalStatus', () => {
  it('QUEUED and RUNNING are not results; any other status is terminal', () => {
    expect(['QUEUED', 'RUNNING'].map(isTerminalStatus)).toEqual([false, false]);
    expect(['COMPLETED', 'FAILED', 'CANCELLED', 'SOMETHING_NEW'].map(isTerminalStatus)).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });
});

describe('waitForCompletion', () => {
  it('QUEUED → RUNNING → COMPLETED: onProgress on every poll, no request after the terminal state', async () => {
    await serve(
      json(200, check('QUEUED')),
      json(200, check('RUNNING')),
      json(200, check('COMPLETED', { verdict: 'PASS' })),
    );
    const seen: string[] = [];
    const result = await client().ciChecks.waitForCompletion(id, { ...fast, onProgress: (c) => seen.push(c.status) });
    expect(result.verdict).toBe('PASS');
    expect(seen).toEqual(['QUEUED', 'RUNNING', 'COMPLETED']);
    await new Promise((r) => setTimeout(r, 100));
    expect(server!.requests).toHaveLength(3);
    expect(server!.requests.every((r) => r.url === `/api/v1/ci/checks/${id}`)).toBe(true);
  });

  it('backs off exponentially between polls, capped at maxIntervalMs', async () => {
    await serve(...Array.from({ length: 8 }, () => json(200, check('RUNNING'))), json(200, check('COMPLETED')));
    const { planned, client: logged } = planning();
    await logged.ciChecks.waitForCompletion(id, { intervalMs: 40, maxIntervalMs: 100 });
    const gaps = server!.requests.slice(1).map((r, i) => r.at - server!.requests[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(30); // 40 ms − 20 % jitter
    expect(gaps[1]).toBeGreaterThanOrEqual(45); // 60 ms − 20 %
    // Uncapped, the 8th wait would be 40 × 1.5⁷ ≈ 683 ms; capped it is 80–100 ms (−20 % jitter).
    expect(planned).toHaveLength(8);
    expect(Math.max(...planned)).toBeLessThanOrEqual(100);
    expect(planned.at(-1)).toBeGreaterThanOrEqual(80);
    expect(gaps.at(-1)).toBeGreaterThanOrEqual(75);
  });

  it('a terminal FAILED is returned with its reason, not thrown', async () => {
    await serve(json(200, check('FAILED', { failureReason: 'No page could be reached.' })));
    expect((await client().ciChecks.waitForCompletion(id, fast)).failureReason).toBe('No page could be reached.');
  });

  it('the deadline → PollTimeoutError with the job id, last status and elapsed time', async () => {
    await serve(json(200, check('RUNNING')));
    // 1 s, not less: the status is known only once a poll has answered (at load 9 the first took over 200 ms).
    const fired = timerFired(1000);
    const err = (await client()
      .ciChecks.waitForCompletion(id, { ...fast, timeoutMs: 1000 })
      .catch((e) => e)) as PollTimeoutError;
    expect(err).toBeInstanceOf(PollTimeoutError);
    expect(err.jobId).toBe(id);
    expect(err.lastStatus).toBe('RUNNING');
    expect(err.elapsedMs).toBeGreaterThanOrEqual(990);
    expect(err.elapsedMs).toBeLessThan((await fired) + 800);
  });

  it('the deadline also ends a poll request in flight', async () => {
    await serve(() => undefined);
    const started = Date.now();
    const fired = timerFired(150);
    const err = await client()
      .ciChecks.waitForCompletion(id, { ...fast, timeoutMs: 150 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(PollTimeoutError);
    expect(Date.now() - started).toBeLessThan((await fired) + 850);
  });

  it('abort rejects promptly with the signal reason', async () => {
    await serve(json(200, check('RUNNING')));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user cancelled')), 80);
    const started = Date.now();
    const fired = timerFired(80);
    const err = (await client()
      .ciChecks.waitForCompletion(id, { intervalMs: 5000, signal: controller.signal })
      .catch((e) => e)) as Error;
    expect(err.message).toBe('user cancelled');
    expect(Date.now() - started).toBeLessThan((await fired) + 1420); // not the 5 s interval
  });

  it('a 429 during polling waits Retry-After and continues', async () => {
    await serve(
      json(200, check('RUNNING')),
      problem(429, 'RATE_LIMITED', { 'retry-after': '0' }),
      problem(429, 'RATE_LIMITED', { 'retry-after': '0' }),
      problem(429, 'RATE_LIMITED', { 'retry-after': '1' }),
      json(200, check('COMPLETED')),
    );
    const result = await client().ciChecks.waitForCompletion(id, fast);
    expect(result.status).toBe('COMPLETED');
    expect(server!.requests).toHaveLength(5);
    expect(server!.requests[4]!.at - server!.requests[3]!.at).toBeGreaterThanOrEqual(950);
  });

  it('repeated 503s during a poll are outlived', async () => {
    await serve(
      json(200, check('RUNNING')),
      text(503, 'down'),
      text(503, 'down'),
      text(503, 'down'),
      text(503, 'down'),
      json(200, check('COMPLETED')),
    );
    expect((await client().ciChecks.waitForCompletion(id, { ...fast, timeoutMs: 10_000 })).status).toBe('COMPLETED');
  });

  it('a 404 while polling is thrown, not waited out', async () => {
    await serve(problem(404, 'CI_CHECK_NOT_FOUND'));
    const err = await client()
      .ciChecks.waitForCompletion(id, fast)
      .catch((e) => e);
    expect(err.code).toBe('CI_CHECK_NOT_FOUND');
    expect(server!.requests).toHaveLength(1);
  });

  it('a body without status fails fast with ResponseValidationError', async () => {
    await serve(json(200, { id }));
    const err = await client()
      .ciChecks.waitForCompletion(id, fast)
      .catch((e) => e);
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.message).toContain('status');
  });

  it('an invalid id fails before any request', async () => {
    await serve(json(200, check('COMPLETED')));
    await expect(client().ciChecks.waitForCompletion('not-a-uuid')).rejects.toThrow(RequestValidationError);
    expect(server!.requests).toHaveLength(0);
  });
});

describe('createAndWait follows Location', () => {
  it('polls the resource named by the 202 Location, resolved against the request URL', async () => {
    await serve(
      json(202, { id }, { location: `/api/v1/ci/checks/${id}?via=location` }),
      json(200, check('RUNNING')),
      json(200, check('COMPLETED')),
    );
    const result = await client().ciChecks.createAndWait({ urls: ['https://shop.example.com/'] }, fast);
    expect(result.status).toBe('COMPLETED');
    expect(server!.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/v1/ci/checks',
      `GET /api/v1/ci/checks/${id}?via=location`,
      `GET /api/v1/ci/checks/${id}?via=location`,
    ]);
    expect(server!.requests[1]!.headers.authorization).toBe('Bearer svc_poll_test_key');
  });

  it('a relative Location without a leading slash resolves against the POST URL', async () => {
    await serve(
      json(202, { id, status: 'QUEUED' }, { location: `scans/${id}` }),
      json(200, { id, status: 'COMPLETED' }),
    );
    await client().scans.createAndWait({ url: 'https://shop.example.com/' }, fast);
    expect(server!.requests[1]!.url).toBe(`/api/v1/scans/${id}`);
  });

  it('falls back to the id path without Location, and never follows a Location to another origin', async () => {
    for (const location of [undefined, `https://evil.example.net/api/v1/ci/checks/${id}`]) {
      await server?.close();
      await serve(json(202, { id }, location ? { location } : {}), json(200, check('COMPLETED')));
      await client().ciChecks.createAndWait({ urls: ['https://shop.example.com/'] }, fast);
      expect(server!.requests[1]!.url).toBe(`/api/v1/ci/checks/${id}`);
    }
  });

  it('waits one interval before the first poll of a job it just created', async () => {
    await serve(json(202, { id }, { location: `/api/v1/ci/checks/${id}` }), json(200, check('COMPLETED')));
    await client().ciChecks.createAndWait({ urls: ['https://shop.example.com/'] }, { intervalMs: 150 });
    // One interval less up to 20 % jitter.
    expect(server!.requests[1]!.at - server!.requests[0]!.at).toBeGreaterThanOrEqual(115);
  });
});

describe('server polling hints (Retry-After on the 202 and on QUEUED/RUNNING answers)', () => {
  it('follows the hints instead of backing off: first poll after the 202 hint, next after the answer hint', async () => {
    await serve(
      json(202, { id }, { location: `/api/v1/ci/checks/${id}`, 'retry-after': '1' }),
      json(200, check('RUNNING'), { 'retry-after': '1' }),
      json(200, check('COMPLETED')),
    );
    await client().ciChecks.createAndWait(
      { urls: ['https://shop.example.com/'] },
      { intervalMs: 20, maxIntervalMs: 5000 },
    );
    const [post, first, second] = server!.requests;
    expect(first!.at - post!.at).toBeGreaterThanOrEqual(950);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    expect(server!.requests).toHaveLength(3);
  });

  it('a hint of 0 still waits one interval from the poll before (no poll storm); a hint beyond maxIntervalMs is capped', async () => {
    await serve(
      json(200, check('RUNNING'), { 'retry-after': '0' }),
      json(200, check('RUNNING'), { 'retry-after': '3600' }),
      json(200, check('COMPLETED')),
    );
    const { planned, client: logged } = planning();
    await logged.ciChecks.waitForCompletion(id, { intervalMs: 200, maxIntervalMs: 300 });
    const [a, b] = server!.requests;
    // One interval from the start of the poll before, less the time its answer took (judged on the plan: a busy
    // machine can make that answer take long; polling-deadline.test.ts pins the spacing on an injected clock).
    expect(planned[0]).toBeGreaterThanOrEqual(100); // at least half an interval after the answer, as before
    expect(planned[0]).toBeLessThanOrEqual(200);
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(planned[0]! - 1);
    expect(planned[1]).toBe(300); // the hour capped at maxIntervalMs
    expect(planned).toHaveLength(2);
  });
});
