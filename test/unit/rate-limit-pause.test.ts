// Issue "a gate that never lies, never hangs and never leaks" §2: a server pause longer than the caller accepts.
// A 429 with Retry-After 3600 (or 10¹² s, or 400 digits) fails its call at once, and later calls of the same
// client fail at once too — RateLimitError saying until when, nothing sent — instead of sleeping for an hour
// (or, past the timer range, waking after 1 ms with a TimeoutOverflowWarning and hammering). A wait whose
// deadline comes before the pause ends fails at once too.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { A11yClient, PollTimeoutError, RateLimitError } from '../../src/index.js';
import { MAX_TIMER_MS, sleep, timerDelay } from '../../src/internal/sleep.js';
import { RateBudget } from '../../src/rate-limit/budget.js';
import { MAX_PAUSE_MS } from '../../src/rate-limit/pause.js';
import { MemoryRateLimitStore } from '../../src/core/rate-limit-store.js';
import { MAX_RETRY_AFTER_MS } from '../../src/core/retry-after.js';
import { json, problem, startLoopback, type Loopback } from '../support/loopback.js';
import { raceTimer } from '../support/timer.js';

const checkId = '396154c7-55f5-43ad-bac0-2dd077d2efcb';
const ciBody = { urls: ['https://shop.example.com/'], failOn: 'NEW_CRITICAL' as const };
// "At once": far below any pause under test, with a slow machine's margin.
const AT_ONCE_MS = 2000;

const processWarnings: Error[] = [];
const onWarning = (w: Error) => processWarnings.push(w);
beforeAll(() => void process.on('warning', onWarning));
afterAll(() => void process.off('warning', onWarning));
let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  // Node prints this when a timer above 2³¹−1 ms is scheduled (it then fires after 1 ms).
  expect(processWarnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning');
});

// The call's error, when it began (`startedAt`: any pause its 429 recorded starts after it), and whether a timer of
// AT_ONCE_MS set alongside had fired when it ended (`late`): "at once" is an order a busy machine keeps, not a
// number of ms it stretches; a call that slept for the pause would lose the race.
const failure = async (p: Promise<unknown>) => {
  const startedAt = Date.now();
  const timer = raceTimer(AT_ONCE_MS);
  try {
    await p;
  } catch (error) {
    return { error: error as RateLimitError, startedAt, late: timer.fired() };
  } finally {
    timer.clear();
  }
  throw new Error('expected the call to fail');
};

describe('a 429 whose Retry-After is longer than the caller accepts', () => {
  it.each([
    ['3600', 3_600_000],
    ['1000000000000', 1e15],
    ['9'.repeat(400), MAX_RETRY_AFTER_MS],
  ])(
    'Retry-After: %s → that call and every later one fail at once with RateLimitError naming when; nothing more is sent',
    async (retryAfter, expectedMs) => {
      // Only the first request is refused: a later call that was sent would succeed, so failing proves it was not sent.
      server = await startLoopback([problem(429, 'RATE_LIMITED', { 'retry-after': retryAfter }), json(200, [])]);
      const client = new A11yClient({
        apiKey: 'svc_pause_test_key',
        baseUrl: server.url,
        rateLimit: { requestsPerMinute: 6000 },
      });
      const first = await failure(client.sites.list());
      expect(first.error).toBeInstanceOf(RateLimitError);
      expect(first.error.retryAfterMs).toBe(expectedMs);
      // The 429 came after the call began: its Retry-After counts from then at the earliest.
      expect(first.error.retryAt!.getTime()).toBeGreaterThanOrEqual(Math.min(first.startedAt + expectedMs, 8.64e15));
      expect(first.late).toBe(false);
      // The budget records the pause (at most a year) for every later call of this client.
      const pausedFor = Math.min(expectedMs, MAX_PAUSE_MS);
      for (const call of [
        () => client.sites.list(),
        () => client.sites.list({ maxRetries: 5 }),
        () => client.ciChecks.createAndWait(ciBody),
      ]) {
        const later = await failure(call());
        expect(later.error).toBeInstanceOf(RateLimitError);
        expect(later.error.code).toBe('RATE_LIMITED');
        expect(later.late).toBe(false);
        expect(later.error.retryAt!.getTime()).toBeGreaterThan(first.startedAt + pausedFor - 60_000);
        expect(later.error.retryAt!.getTime()).toBeLessThanOrEqual(Date.now() + pausedFor + 1000);
        expect(later.error.message).toContain(later.error.retryAt!.toISOString());
        expect(later.error.message).toMatch(/maxRetryDelayMs \(60000 ms\)\. Nothing was sent/);
      }
      expect(server.requests).toHaveLength(1);
    },
  );

  it.each<[string, { maxRetryDelayMs?: number }, RegExp]>([
    ['a client whose maxRetryDelayMs is below the pause', { maxRetryDelayMs: 10_000 }, /maxRetryDelayMs \(10000 ms\)/],
    ['a wait whose deadline comes before the pause ends', {}, /the deadline of its wait/],
  ])('a 30 s pause, %s: the call fails at once instead of sleeping', async (_name, options, message) => {
    server = await startLoopback([problem(429, 'RATE_LIMITED', { 'retry-after': '30' }), json(200, [])]);
    const client = new A11yClient({
      apiKey: 'svc_pause_test_key',
      baseUrl: server.url,
      rateLimit: { requestsPerMinute: 6000 },
      ...options,
    });
    // maxRetries 0: the call that meets the 429 fails now, leaving the 30 s pause recorded.
    const first = await failure(client.sites.list({ maxRetries: 0 }));
    expect(first.error).toBeInstanceOf(RateLimitError);
    const later = await failure(
      options.maxRetryDelayMs ? client.sites.list() : client.ciChecks.waitForCompletion(checkId, { timeoutMs: 5000 }),
    );
    // PollTimeoutError would mean it slept until the deadline.
    expect(later.error).toBeInstanceOf(RateLimitError);
    expect(later.error).not.toBeInstanceOf(PollTimeoutError);
    expect(later.late).toBe(false);
    expect(later.error.message).toMatch(message);
    // The pause runs 30 s from its 429, which came after the first call began.
    expect(later.error.retryAt!.getTime()).toBeGreaterThanOrEqual(first.startedAt + 30_000);
    expect(server.requests).toHaveLength(1);
  });

  it('a pause the call does accept is waited out, not refused (an abort ends the wait)', async () => {
    server = await startLoopback([problem(429, 'RATE_LIMITED', { 'retry-after': '30' }), json(200, [])]);
    const client = new A11yClient({
      apiKey: 'svc_pause_test_key',
      baseUrl: server.url,
      rateLimit: { requestsPerMinute: 6000 },
    });
    await failure(client.sites.list({ maxRetries: 0 }));
    // Timed from before the signal exists: `failure` starts its clock only once the call has begun, which on a busy
    // machine can be tens of ms after the signal's 300 ms started.
    const signalAt = Date.now();
    const later = await failure(client.sites.list({ signal: AbortSignal.timeout(300) }));
    expect(later.error).not.toBeInstanceOf(RateLimitError);
    expect((later.error as Error).name).toBe('TimeoutError');
    expect(Date.now() - signalAt).toBeGreaterThanOrEqual(290);
    expect(server.requests).toHaveLength(1);
  });

  it("the budget refuses a pause beyond the caller's limit and reserves nothing; within it, it waits", async () => {
    const store = new MemoryRateLimitStore();
    const budget = new RateBudget({ requestsPerMinute: 6000, burst: 1 }, Promise.resolve('k'), {
      store,
      storeTimeoutMs: 250,
      storeRetryMs: 5000,
    });
    // The pause runs from after this moment, however long recording and reading it take on a busy machine.
    const pausedAt = Date.now();
    await budget.pause(1e300); // clamped to a year
    const refused = await budget.take(undefined, 60_000);
    expect(refused).toBeGreaterThanOrEqual(pausedAt + MAX_PAUSE_MS);
    expect(refused).toBeLessThanOrEqual(Date.now() + MAX_PAUSE_MS);
    expect(await store.pausedFor('k')).toBeGreaterThanOrEqual(pausedAt + MAX_PAUSE_MS - Date.now());
    const short = new RateBudget({ requestsPerMinute: 6000, burst: 1 }, Promise.resolve('k'), {
      store: new MemoryRateLimitStore(),
      storeTimeoutMs: 250,
      storeRetryMs: 5000,
    });
    // Timed from before the pause is recorded: the pause runs from then, however long recording it took.
    const started = Date.now();
    await short.pause(200);
    expect(await short.take(undefined, 60_000)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});

describe('every delay the SDK schedules fits a timer', () => {
  it.each([2 ** 31, 1e15, Infinity])(
    'sleep(%d) neither fires early nor warns; the signal still ends it',
    async (ms) => {
      const controller = new AbortController();
      let settled = false;
      const slept = sleep(ms, controller.signal).finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 100));
      // An overflowing timer would have fired after 1 ms.
      expect(settled).toBe(false);
      controller.abort(new Error('stop'));
      await expect(slept).rejects.toThrow('stop');
    },
  );

  it.each([
    [-5, 0],
    [Number.NaN, 0],
    [1500, 1500],
    [2 ** 31, MAX_TIMER_MS],
    [Infinity, MAX_TIMER_MS],
  ])('timerDelay(%d) = %d (what sleep, bounded and the transport schedule)', (ms, expected) => {
    expect(timerDelay(ms)).toBe(expected);
  });
});
