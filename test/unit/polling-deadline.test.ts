// Waits on jobs that never finish, up to their deadline: no wait sends more than one poll per intervalMs,
// its last second included, whatever plans the wait (progress, the backoff, a server's hint, a failure's backoff or
// Retry-After), and however long a poll takes. On an injected clock (vitest's fake timers drive Date.now and
// setTimeout): every poll's start and every spacing is read on the clock the timers run on, so no assertion
// depends on the machine's speed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onFakeClock } from '../support/fake-clock.js';
import { A11yClient } from '../../src/index.js';
import { ApiConnectionError, PollTimeoutError } from '../../src/core/errors.js';
import { InternalServerError, RateLimitError } from '../../src/core/errors.js';
import { type Polled, type PolledJob, pollUntilTerminal, type WaitOptions } from '../../src/wait/polling.js';
import '../../src/wait/progress.js'; // loaded before the clock is faked: the wait imports it lazily

const id = '396154c7-55f5-43ad-bac0-2dd077d2efcb';
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A delay on the (fake) clock that ends early, with the signal's reason, when the signal aborts. */
const delay = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

type Answer = { id: string; status: string; pages?: { status: string }[] };
/** The answer to a poll `t` ms after the job was created (or a failure it throws). */
type Script = (t: number) => Polled<Answer>;

// Beyond this many polls the wait is a storm: stopped with an error no wait outlives, so the old code ends too.
const RUNAWAY = 20_000;

/**
 * Starts a job (the create takes `takesMs`), then waits for it with `options`, each poll answered by `script` after
 * `takesMs`; the wait is run to its end. `polls`: when each poll started; `endedAt`: when the wait ended.
 */
async function waitOn(script: Script, options: WaitOptions<Answer>, takesMs = 1) {
  vi.setSystemTime(0); // each wait on its own clock from 0, when a test runs several
  const polls: number[] = [];
  let createdAt = 0;
  const pollOnce = async (signal: AbortSignal): Promise<Polled<Answer>> => {
    polls.push(Date.now());
    if (polls.length > RUNAWAY) throw new Error(`runaway: ${polls.length} polls`);
    await delay(takesMs, signal);
    return script(Date.now() - createdAt);
  };
  const begin = async (signal: AbortSignal): Promise<PolledJob<Answer>> => {
    await delay(takesMs, signal);
    createdAt = Date.now();
    return { jobId: id, pollOnce, delayFirstPoll: true, status: 'QUEUED' };
  };
  const error = await onFakeClock(pollUntilTerminal('createCiCheck', begin, options)).catch((e: unknown) => e);
  const endedAt = Date.now();
  const gaps = polls.slice(1).map((t, i) => t - polls[i]!);
  return {
    error,
    polls,
    endedAt,
    gaps,
    /** Polls that started in the wait's last second. */
    lastSecond: polls.filter((t) => t > endedAt - 1000).length,
  };
}

/**
 * The wait ran to its deadline and ended with PollTimeoutError (or, with `rateLimited`, ended before it on a 429
 * whose pause outlasts it, as it did before); no two polls started less than `intervalMs` apart.
 */
function expectSpaced(
  run: Awaited<ReturnType<typeof waitOn>>,
  intervalMs: number,
  timeoutMs: number,
  { rateLimited = false } = {},
) {
  if (rateLimited && run.error instanceof RateLimitError) expect(run.endedAt).toBeLessThanOrEqual(timeoutMs);
  else {
    expect(run.error).toBeInstanceOf(PollTimeoutError);
    expect(run.endedAt).toBe(timeoutMs);
  }
  const closest = Math.min(...run.gaps);
  expect(closest, `polls ${closest} ms apart: ${run.polls.join(', ')}`).toBeGreaterThanOrEqual(intervalMs);
  // Hence at most one poll a second at intervalMs 1 s, and no more than one per interval at any intervalMs.
  expect(run.lastSecond).toBeLessThanOrEqual(Math.ceil(1000 / intervalMs));
  // None starts at or after the deadline: a look there could never answer.
  expect(Math.max(...run.polls)).toBeLessThan(timeoutMs);
}

const pages = (done: number, total = 10) =>
  Array.from({ length: total }, (_, i) => ({ status: i < done ? 'DONE' : i === done ? 'RUNNING' : 'QUEUED' }));
const running = (done: number, extra: Partial<Polled<Answer>> = {}): Polled<Answer> => ({
  resource: { id, status: 'RUNNING', pages: pages(done) },
  ...extra,
});

// Progress moves for 0.9 s (a page every 300 ms), then stops at 3 of 10 pages for good.
const progressThenStops: Script = (t) => running(Math.min(3, Math.floor(t / 300)));
// RUNNING from the start, on its first page of 10 for good.
const noProgress: Script = () => running(0);
// RUNNING, without any progress field (waits from the backoff).
const silent: Script = () => ({ resource: { id, status: 'RUNNING' } });

const request = { method: 'GET', url: `https://api.example.com/api/v1/ci/checks/${id}` };
const unavailable = () => new InternalServerError(503, undefined, new Headers(), request, 'Service Unavailable');
const refused = () => new ApiConnectionError('connect ECONNREFUSED', request.method, request.url);
/** A 429 whose Retry-After is an HTTP-date (whole seconds): the next second, so it asks for 1–1000 ms. */
const rateLimited = () => {
  const next = new Date(Math.floor(Date.now() / 1000) * 1000 + 1000).toUTCString();
  return new RateLimitError(429, undefined, new Headers({ 'retry-after': next }), request, 'Too Many Requests');
};
const throws =
  (error: () => Error): Script =>
  () => {
    throw error();
  };

describe('a wait on a job that stays RUNNING never storms near its deadline', () => {
  describe.each([2500, 4000, 7000])('timeoutMs %i, intervalMs 1000', (timeoutMs) => {
    it('progress that then stops: at most one poll in the last second, none less than intervalMs apart', async () => {
      const run = await waitOn(progressThenStops, { timeoutMs, intervalMs: 1000 });
      expectSpaced(run, 1000, timeoutMs);
    });

    it('no progress at all (first page of 10 for good): at most one poll in the last second', async () => {
      const run = await waitOn(noProgress, { timeoutMs, intervalMs: 1000 });
      expectSpaced(run, 1000, timeoutMs);
    });

    it('no progress field (the backoff, at its most jitter): at most one poll in the last second', async () => {
      // The jitter takes up to 20 % off each backoff wait: at 20 %, the first is 0.8 intervals.
      vi.spyOn(Math, 'random').mockReturnValue(0);
      const run = await waitOn(silent, { timeoutMs, intervalMs: 1000 });
      expectSpaced(run, 1000, timeoutMs);
    });
  });

  describe('intervalMs 50, timeoutMs 1000', () => {
    it.each([
      ['progress that then stops', (t: number) => running(Math.min(3, Math.floor(t / 30)))],
      ['no progress at all', noProgress],
    ] as const)('%s: never more than one poll per 50 ms', async (_name, script) => {
      const run = await waitOn(script, { timeoutMs: 1000, intervalMs: 50 });
      expectSpaced(run, 50, 1000);
    });
  });

  it('a poll that takes 700 ms of a 1 s interval: starts still one interval apart, near the deadline too', async () => {
    for (const timeoutMs of [4000, 7000]) {
      for (const script of [progressThenStops, noProgress]) {
        expectSpaced(await waitOn(script, { timeoutMs, intervalMs: 1000 }, 700), 1000, timeoutMs);
      }
    }
  });

  it('a server hint of 0 (Retry-After: 0 on every RUNNING answer): one poll per intervalMs, counted between starts', async () => {
    for (const [takesMs, script] of [
      [1, (t: number) => running(Math.min(3, Math.floor(t / 300)), { retryAfterMs: 0 })],
      [1, () => ({ resource: { id, status: 'RUNNING' }, retryAfterMs: 0 })],
      [700, () => ({ resource: { id, status: 'RUNNING' }, retryAfterMs: 0 })],
    ] as const) {
      const run = await waitOn(script, { timeoutMs: 4000, intervalMs: 1000 }, takesMs);
      expectSpaced(run, 1000, 4000);
      // The hint is still followed as far as the rule allows: the next poll one interval after the last one began,
      // or half an interval after its answer (a hint's least wait, as before) when that is later.
      expect(new Set(run.gaps)).toEqual(new Set([Math.max(1000, takesMs + 500)]));
    }
  });

  it('a hint below intervalMs is raised to it; one above is followed', async () => {
    const run = await waitOn(() => running(0, { retryAfterMs: 300 }), { timeoutMs: 4000, intervalMs: 1000 });
    expectSpaced(run, 1000, 4000);
    const hinted = await waitOn(() => running(0, { retryAfterMs: 1500 }), { timeoutMs: 7000, intervalMs: 1000 });
    expectSpaced(hinted, 1000, 7000);
    expect(new Set(hinted.gaps)).toEqual(new Set([1501])); // the hint after each answer (the poll took 1 ms)
  });

  it('429s whose Retry-After asks for less than intervalMs: polls stay one interval apart', async () => {
    // Every poll rate limited; or 429s in every other 100 ms of the job's life, between answers showing no progress.
    const alternating: Script = (t) => {
      if (Math.floor(t / 100) % 2) throw rateLimited();
      return running(0);
    };
    for (const script of [throws(rateLimited), alternating]) {
      for (const timeoutMs of [2500, 4000, 7000]) {
        expectSpaced(await waitOn(script, { timeoutMs, intervalMs: 1000 }), 1000, timeoutMs, { rateLimited: true });
      }
    }
  });

  it('503s and refused connections between stuck answers: polls stay one interval apart up to the deadline', async () => {
    // A failure every third poll; the answers between them show progress that stopped (or none at all).
    for (const answers of [progressThenStops, noProgress, silent]) {
      for (const timeoutMs of [2500, 4000, 7000]) {
        let n = 0;
        const script: Script = (t) => {
          n++;
          if (n % 3 === 0) throw n % 2 ? unavailable() : refused();
          if (n % 5 === 0) throw rateLimited();
          return answers(t);
        };
        expectSpaced(await waitOn(script, { timeoutMs, intervalMs: 1000 }), 1000, timeoutMs, { rateLimited: true });
      }
    }
  });

  it('no further look fits before the deadline: the wait sleeps to it and ends with PollTimeoutError', async () => {
    // Progress stuck: the last look comes half an interval before the deadline at the latest; after it, one more would
    // be less than an interval away, so none comes (no look at the deadline, none after).
    const run = await waitOn(noProgress, { timeoutMs: 4000, intervalMs: 1000 });
    expectSpaced(run, 1000, 4000);
    expect(run.polls.at(-1)).toBeLessThanOrEqual(4000 - 500);
    expect((run.error as PollTimeoutError).elapsedMs).toBe(4000);
  });
});

describe('createAndWait on a stuck job, through the client (every request counted at fetch)', () => {
  it.each([
    ['progress that then stops', (t: number) => Math.min(3, Math.floor(t / 300))],
    ['no progress at all', () => 0],
  ] as const)('%s, timeoutMs 4000: at most one request in the last second', async (_name, doneAt) => {
    const sent: number[] = [];
    let createdAt = 0;
    const body = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', ...headers } });
    const fetch = (async (_url: string, init: RequestInit) => {
      sent.push(Date.now());
      if (sent.length > RUNAWAY) throw new Error('runaway');
      await delay(1, init.signal ?? undefined);
      if (init.method === 'POST') {
        createdAt = Date.now();
        return body(202, { id, status: 'QUEUED' }, { location: `/api/v1/ci/checks/${id}` });
      }
      return body(200, { id, status: 'RUNNING', failOn: 'NEW_CRITICAL', pages: pages(doneAt(Date.now() - createdAt)) });
    }) as typeof globalThis.fetch;
    const client = new A11yClient({ apiKey: 'svc_poll_test_key', baseUrl: 'https://api.example.com', fetch });
    const error = await onFakeClock(
      client.ciChecks.createAndWait({ urls: ['https://shop.example.com/'] }, { timeoutMs: 4000, intervalMs: 1000 }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    const polls = sent.slice(1);
    expect(polls.filter((t) => t > Date.now() - 1000).length).toBeLessThanOrEqual(1);
    const gaps = polls.slice(1).map((t, i) => t - polls[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000);
  });
});

describe('a deadline that passes while the 202 is being read', () => {
  it('ends with a PollTimeoutError naming the job the service accepted, never as if it had not answered', async () => {
    const pollOnce = async (): Promise<Polled<{ status: string }>> => ({ resource: { status: 'RUNNING' } });
    // The create answers at 80 ms of a 50 ms wait, without looking at the signal (as reading and checking a 202 does).
    const begin = () =>
      new Promise<PolledJob<{ status: string }>>((resolve) =>
        setTimeout(() => resolve({ jobId: id, pollOnce, delayFirstPoll: true, status: 'QUEUED' }), 80),
      );
    const error = await onFakeClock(pollUntilTerminal('createCiCheck', begin, { timeoutMs: 50 })).catch((e) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error).toMatchObject({ jobId: id, lastStatus: 'QUEUED' });
  });

  it('a deadline before any answer still says no job is known', async () => {
    const begin = (signal: AbortSignal) =>
      new Promise<PolledJob<{ status: string }>>((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
      );
    const error = await onFakeClock(pollUntilTerminal('createCiCheck', begin, { timeoutMs: 50 })).catch((e) => e);
    expect(error).toBeInstanceOf(PollTimeoutError);
    expect(error.jobId).toBeUndefined();
  });
});
