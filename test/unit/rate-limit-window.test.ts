// The rate budget over the service's sliding minute ("use the budget the service gives"): a burst goes
// out at once, and no 60 s window ever holds more than `requestsPerMinute` requests, whatever the burst. GCRA
// alone (the budget before) let `burst − 1` more into some minute. All on a fake clock: nothing here depends on
// the machine's speed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRateLimitStore, type RateLimit } from '../../src/core/rate-limit-store.js';
import { windowParameters } from '../../src/core/rate-window.js'; // loaded before the clock is faked: the store imports it lazily
import { RateBudget } from '../../src/rate-limit/budget.js';
// A deterministic generator (the simulator's mulberry32), so a failure names a reproducible case.
import { prng as seeded } from '../../src/testing/random.js';

const MINUTE = 60_000;

/** The most slots any half-open window (t − 60 s, t] holds, as the service counts (its log keeps t > now − 60 s). */
function mostInAMinute(slots: number[]): number {
  const sorted = [...slots].sort((a, b) => a - b);
  let most = 0;
  for (let end = 0, start = 0; end < sorted.length; end++) {
    while (sorted[start]! <= sorted[end]! - MINUTE) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** Reserves `count` slots of `limit` at the moments `demandAt(i)` (ms), on a store with a fake clock: each slot's time. */
async function reserveAll(limit: RateLimit, count: number, demandAt: (i: number) => number): Promise<number[]> {
  let now = 0;
  const store = new MemoryRateLimitStore(() => now);
  const slots: number[] = [];
  for (let i = 0; i < count; i++) {
    now = Math.max(now, demandAt(i));
    slots.push(now + (await store.reserve('k', limit)).waitMs);
  }
  return slots;
}

describe('the in-memory store over a sliding minute', () => {
  it.each<[string, RateLimit]>([
    ['120 a minute, burst 20', { requestsPerMinute: 120, burst: 20 }],
    ['120 a minute, the whole minute at once (burst 120)', { requestsPerMinute: 120, burst: 120 }],
    ['120 a minute, strict spacing (burst 1)', { requestsPerMinute: 120, burst: 1 }],
    ['90.5 a minute (a fleet share), burst 7', { requestsPerMinute: 90.5, burst: 7 }],
    ['6 a minute, burst 3', { requestsPerMinute: 6, burst: 3 }],
  ])('%s: no 60 s window holds more than requestsPerMinute', async (_name, limit) => {
    const capacity = Math.floor(limit.requestsPerMinute);
    // Everything asked at once; then demand in bursts after quiet spells of random length (the burst refills).
    const atOnce = await reserveAll(limit, 5 * capacity, () => 0);
    expect(mostInAMinute(atOnce)).toBeLessThanOrEqual(capacity);
    for (const seed of [1, 2, 3]) {
      const next = seeded(seed);
      let t = 0;
      const bursty = await reserveAll(limit, 6 * capacity, (i) => {
        if (i % limit.burst === 0) t += 90_000 * next();
        return t;
      });
      expect(mostInAMinute(bursty)).toBeLessThanOrEqual(capacity);
    }
  });

  it('GCRA alone would not have kept the bound: a burst of 20, then the rate, puts 139 requests in one minute', async () => {
    // The spacing of the budget before: burst at once, then one per interval, with nothing else to stop it.
    const interval = MINUTE / 120;
    const gcraOnly = Array.from({ length: 200 }, (_, i) => Math.max(0, (i - 19) * interval));
    expect(mostInAMinute(gcraOnly)).toBe(139);
    expect(mostInAMinute(await reserveAll({ requestsPerMinute: 120, burst: 20 }, 200, () => 0))).toBeLessThanOrEqual(
      120,
    );
  });

  it('a burst goes at once, the rest at the rate, and the window then waits a minute (and its margin) after the first', async () => {
    const slots = await reserveAll({ requestsPerMinute: 120, burst: 20 }, 241, () => 0);
    expect(slots.slice(0, 20)).toEqual(Array(20).fill(0)); // the burst: all at once
    expect(slots[20]).toBe(500); // then one every 500 ms
    expect(slots[119]).toBe(100 * 500);
    // The 121st: a minute after the first, plus the margin for requests that arrive out of the order they left.
    const { windowMs } = windowParameters({ requestsPerMinute: 120, burst: 20 });
    expect(windowMs).toBe(61_000);
    expect(slots[120]).toBe(61_000);
    // Over four minutes the budget still sends nearly the whole rate: 241 slots within 2 windows and a burst.
    expect(slots[240]).toBeLessThanOrEqual(2 * 61_000 + 20 * 500);
  });

  it("strict spacing (burst 1): one slot every interval, and the window's margin after each full window", async () => {
    const slots = await reserveAll({ requestsPerMinute: 120, burst: 1 }, 300, () => 0);
    // Slots a window apart are a minute and the margin apart: a request that leaves a few ms after its slot (another
    // process's, sharing the budget) can no longer share the service's minute with one sent a window later.
    expect(windowParameters({ requestsPerMinute: 120, burst: 1 }).windowMs).toBe(MINUTE + 1_000);
    for (const [i, at] of slots.entries()) expect(at).toBe(i * 500 + Math.floor(i / 120) * 1_000);
    expect(mostInAMinute(slots.map((at) => at + (at % 1000 === 0 ? 400 : 0)))).toBeLessThanOrEqual(120);
  });

  it('a refunded slot still counts in the window (it may not be the one left unsent), and the spacing is given back', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    const limit = { requestsPerMinute: 3, burst: 3 };
    for (let i = 0; i < 3; i++) expect((await store.reserve('k', limit)).waitMs).toBe(0);
    await store.refund('k', limit);
    // The window holds 3 slots already (the refunded one among them): the next waits for the first to leave it.
    expect((await store.reserve('k', limit)).waitMs).toBe(61_000);
    now = 200_000;
    expect((await store.reserve('k', limit)).waitMs).toBe(0);
  });

  it('a pause (a 429) still holds every slot until its end, and the window too after it', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    const limit = { requestsPerMinute: 4, burst: 4 };
    await store.pause('k', limit, 10_000);
    expect((await store.reserve('k', limit)).pauseMs).toBe(10_000);
    now = 10_000;
    // No burst right after a 429: the slots come at the rate from the pause's end.
    const waits = [];
    for (let i = 0; i < 5; i++) waits.push((await store.reserve('k', limit)).waitMs);
    expect(waits).toEqual([0, 15_000, 30_000, 45_000, 61_000]);
  });
});

describe('a client budget on a fake clock', () => {
  afterEach(() => void vi.useRealTimers());

  it('300 calls at once at 120 a minute, burst 20: 20 go at once, no minute holds more than 120, none is starved', async () => {
    vi.useFakeTimers({ now: 0 });
    const budget = new RateBudget({ requestsPerMinute: 120, burst: 20 }, Promise.resolve('k'), {
      store: new MemoryRateLimitStore(),
      storeTimeoutMs: 250,
      storeRetryMs: 5000,
    });
    const sent: number[] = [];
    const calls = Array.from({ length: 300 }, () => budget.take().then(() => sent.push(Date.now())));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(20); // the burst, at once
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    await Promise.all(calls);
    expect(sent).toHaveLength(300);
    expect(mostInAMinute(sent)).toBeLessThanOrEqual(120);
    // Two full windows and a burst's worth: 300 calls by 2 × 61 s + 79 intervals of 500 ms after the first.
    expect(Math.max(...sent)).toBeLessThanOrEqual(2 * 61_000 + 79 * 500);
  });
});
