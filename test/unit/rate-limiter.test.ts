// The client-side rate budget (GCRA in the in-process store) spaces requests to the configured rate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A11yClient } from '../../src/index.js';
import { RateBudget } from '../../src/rate-limit/budget.js';
import { MemoryRateLimitStore } from '../../src/core/rate-limit-store.js';
import { raceTimer, timerFired } from '../support/timer.js';

/** The in-process budget a client without a shared store uses. */
const bucket = (requestsPerMinute: number, burst: number) =>
  new RateBudget({ requestsPerMinute, burst }, Promise.resolve('k'), {
    store: new MemoryRateLimitStore(),
    storeTimeoutMs: 250,
    storeRetryMs: 5000,
  });
import { json, startLoopback, type Loopback } from '../support/loopback.js';

let server: Loopback;
beforeAll(async () => {
  server = await startLoopback(json(200, []));
});
afterAll(() => server.close());

describe('in-process rate budget', () => {
  it('lets a burst through at once, then spaces requests at the rate', async () => {
    // The window's arithmetic loads with a store's first reservation (a chunk of its own): loaded before the clock
    // starts, as a busy machine can take longer than the 25 ms race below to load it.
    await bucket(1200, 2).take();
    const budget = bucket(1200, 2); // 20 per second: one every 50 ms
    const started = Date.now();
    const times: number[] = [];
    // The burst goes before a 25 ms timer set now fires, the third take after it (its token is due at 50 ms): an
    // order, which a busy machine keeps, rather than a number of ms, which it stretches.
    const token = raceTimer(25);
    const fired = timerFired(200);
    const early: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, () =>
        budget.take().then(() => {
          times.push(Date.now() - started);
          if (!token.fired()) early.push(times.length);
        }),
      ),
    );
    times.sort((a, b) => a - b);
    expect(early).toEqual([1, 2]); // the burst of 2, and no more before the next token is due
    expect(times[5]).toBeGreaterThanOrEqual(190); // 4 more at 50 ms each
    expect(times[5]).toBeLessThan((await fired) + 400);
  });

  it('an aborted waiter rejects promptly and does not block the ones behind it', async () => {
    const budget = bucket(60, 1); // one per second
    await budget.take();
    const controller = new AbortController();
    const waiting = budget.take(controller.signal);
    controller.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
  });
});

describe('client rateLimit option', () => {
  it('parallel calls are spaced so the server sees at most the configured rate', async () => {
    const client = new A11yClient({
      apiKey: 'svc_rate_key',
      baseUrl: server.url,
      rateLimit: { requestsPerMinute: 600 },
    }); // 10/s
    // Warm-up: the process's first fetch loads undici (tens of ms under load) after its token was granted,
    // which would shorten the first gap the server sees; the spacing under test is the bucket's.
    await client.sites.list();
    const before = server.requests.length;
    const started = Date.now();
    await Promise.all(Array.from({ length: 5 }, () => client.sites.list()));
    const seen = server.requests.slice(before);
    expect(seen).toHaveLength(5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    // The k-th request's slot is k intervals (100 ms) after the calls started, at the earliest. Judged from the
    // start, not as gaps between arrivals: a busy machine delaying one request would shrink the gap after it.
    const arrivals = seen.map((r) => r.at - started).sort((a, b) => a - b);
    for (const [k, at] of arrivals.entries()) expect(at).toBeGreaterThanOrEqual(k * 100 - 5);
  });
});

describe('rateLimit validation and aborts', () => {
  it.each([
    [{ requestsPerMinute: 120, burst: 0.5 }, /burst/],
    [{ requestsPerMinute: 120, burst: 0 }, /burst/],
    [{ requestsPerMinute: Infinity }, /requestsPerMinute/],
    [{ requestsPerMinute: Number.NaN }, /requestsPerMinute/],
  ])('%j is refused at construction (it would stall every call)', (rateLimit, message) => {
    expect(() => new A11yClient({ apiKey: 'svc_rate_key', baseUrl: 'https://a.example', rateLimit })).toThrow(message);
  });

  it('a caller queued behind others is released as soon as its signal aborts, and takes no token', async () => {
    const budget = bucket(60, 1); // one per second
    await budget.take();
    const first = budget.take(); // queued: due in ~1 s
    // Released before a 500 ms timer set alongside its 100 ms signal fires, and `first` is not due before ~1 s.
    const released = raceTimer(500);
    const aborted = budget.take(AbortSignal.timeout(100)); // queued behind `first`
    await expect(aborted).rejects.toThrow();
    expect(released.fired()).toBe(false);
    released.clear();
    await first;
    // The aborted caller gave its slot back: this one waits one interval, not two (it would lose to this timer).
    const oneInterval = raceTimer(1500);
    await budget.take();
    expect(oneInterval.fired()).toBe(false);
    oneInterval.clear();
  });
});

describe('a 429 pauses the whole budget', () => {
  it('pause(ms) holds every later slot until then, with no burst right after', async () => {
    const budget = bucket(6000, 3); // 100 per second, burst 3
    await budget.pause(300);
    const started = Date.now();
    const times: number[] = [];
    await Promise.all(Array.from({ length: 3 }, () => budget.take().then(() => times.push(Date.now() - started))));
    times.sort((a, b) => a - b);
    // Slot k is due 300 + 10k ms after the pause (at 100 per second), not a burst of 3. Judged from the start, not
    // as gaps: a busy machine that fires the first timer late can bunch the three, but never make one early.
    for (const [k, at] of times.entries()) expect(at).toBeGreaterThanOrEqual(280 + k * 10);
  });

  it('a client whose request gets a 429 with Retry-After makes its other calls wait too', async () => {
    const hits: number[] = [];
    const limited = await startLoopback([
      (_req, res) => {
        hits.push(Date.now());
        res
          .writeHead(429, { 'retry-after': '1', 'content-type': 'application/problem+json' })
          .end('{"code":"RATE_LIMITED"}');
      },
      (_req, res) => {
        hits.push(Date.now());
        res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      },
    ]);
    try {
      // b starts once a's 429 has paused the budget: the client logs the wait before it (the pause is set first),
      // so a busy machine that takes long to hand a the 429 cannot send b before the pause exists.
      let paused!: () => void;
      const pausedBudget = new Promise<void>((resolve) => (paused = resolve));
      const log = (line: string) => /Retry-After/.test(line) && paused();
      const client = new A11yClient({
        apiKey: 'svc_rate_key',
        baseUrl: limited.url,
        rateLimit: { requestsPerMinute: 6000, burst: 1 },
        logLevel: 'info',
        logger: { error: log, warn: log, info: log, debug: log },
      });
      const a = client.sites.list(); // 429, then (after 1 s) 200
      await pausedBudget;
      const b = client.sites.list(); // started after the 429: without the shared pause it would go now
      await Promise.all([a, b]);
      const first = hits[0]!;
      expect(hits).toHaveLength(3);
      // Every request after the 429 came at least the Retry-After later.
      for (const at of hits.slice(1)) expect(at - first).toBeGreaterThanOrEqual(950);
    } finally {
      await limited.close();
    }
  });
});

describe('a store that answers nonsense never disables the budget', () => {
  it.each([
    { waitMs: Number.NaN },
    { waitMs: -1 },
    { waitMs: Infinity },
    { waitMs: 0, pauseMs: Number.NaN },
    { waitMs: 0, pauseMs: Infinity },
    null,
  ])('reserve() → %j: the client spaces its own requests instead, and warns once', async (answer) => {
    const liar = { reserve: async () => answer as never, pause: async () => undefined };
    const warnings: string[] = [];
    const client = new A11yClient({
      apiKey: 'svc_liar_store_key',
      baseUrl: server.url,
      rateLimit: { requestsPerMinute: 600, store: liar, storeRetryMs: 60_000 }, // one every 100 ms
      onWarning: (w) => warnings.push(w.code),
    });
    const before = server.requests.length;
    const started = Date.now();
    await Promise.all(Array.from({ length: 5 }, () => client.sites.list()));
    const seen = server.requests.slice(before);
    expect(seen).toHaveLength(5);
    // Spaced by the in-process stand-in: the 5th goes 400 ms after the first at the earliest.
    expect(seen.at(-1)!.at - started).toBeGreaterThanOrEqual(390);
    expect(warnings).toEqual(['RATE_LIMIT_STORE_UNAVAILABLE']);
  });
});
