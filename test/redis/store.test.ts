// RedisRateLimitStore against a real redis-server (the run's shared one): one atomic script per request,
// spacing shared by separate stores (as separate processes would be), keys hashed and expiring, 429 pauses
// shared, NOSCRIPT survived, and a store that fails never fails a call.
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisDatabase } from '../support/redis-database.js';
import { A11yClient, type Warning } from '../../src/index.js';
import { budgetKey } from '../../src/rate-limit/budget.js';
import { RedisRateLimitStore } from '../../src/redis/index.js';
import { json, startLoopback, type Loopback } from '../support/loopback.js';
import { raceTimer } from '../support/timer.js';

const limit = { requestsPerMinute: 1200, burst: 1 }; // one every 50 ms
let admin: ReturnType<typeof createClient>;
let server: Loopback;
const stores: RedisRateLimitStore[] = [];
const store = () => {
  const s = new RedisRateLimitStore({ url: redisUrl });
  stores.push(s);
  return s;
};
const unique = () => `svc-a11y:test:${Math.random().toString(36).slice(2)}`;

// This file's own database on the run's redis-server (test/support/redis-database.ts).
let redisUrl: string;
beforeAll(async () => {
  redisUrl = await redisDatabase();
  admin = createClient({ url: redisUrl });
  await admin.connect();
  server = await startLoopback(json(200, []));
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await admin.quit();
  await server.close();
});

describe('RedisRateLimitStore', () => {
  it('two stores (two processes) share one budget: reservations are spaced by the interval across both', async () => {
    const [a, b] = [store(), store()];
    const key = unique();
    await Promise.all([a.reserve(unique(), limit, 'warm-up'), b.reserve(unique(), limit, 'warm-up')]); // connect both
    // Redis places each slot at its own clock's now + waitMs, a moment between our call and its answer: each
    // slot is known within [sent + waitMs, answered + waitMs]. Bounds are judged on the side a slow answer
    // (a busy machine) cannot push past them, so only the spacing itself can fail them.
    const slots: Array<{ earliest: number; latest: number }> = [];
    for (let i = 0; i < 6; i++) {
      const sent = Date.now();
      const { waitMs } = await (i % 2 ? a : b).reserve(key, limit, `client-${i % 2}`);
      slots.push({ earliest: sent + waitMs, latest: Date.now() + waitMs });
    }
    // Each slot comes one interval (50 ms) after the one before, whichever store reserved it (± a few ms of
    // round trip between Redis' clock and ours).
    for (let i = 1; i < slots.length; i++) expect(slots[i]!.latest - slots[i - 1]!.earliest).toBeGreaterThanOrEqual(44);
    expect(slots[5]!.latest - slots[0]!.earliest).toBeGreaterThanOrEqual(240);
    expect(slots[5]!.earliest - slots[0]!.latest).toBeLessThan(300);
  });

  it('a burst over two stores (two processes) goes at once, and no 60 s window holds more than requestsPerMinute', async () => {
    const [a, b] = [store(), store()];
    const key = unique();
    const burstLimit = { requestsPerMinute: 60, burst: 10 }; // one a second after a burst of 10
    await Promise.all([a.reserve(unique(), burstLimit, 'warm-up'), b.reserve(unique(), burstLimit, 'warm-up')]);
    // Each slot exactly as Redis placed it (the log's newest entry, on Redis' clock), and the wait it answered.
    const slots: number[] = [];
    const waits: number[] = [];
    for (let i = 0; i < 150; i++) {
      waits.push((await (i % 2 ? a : b).reserve(key, burstLimit, `client-${i % 2}`)).waitMs);
      slots.push(Number(await admin.lIndex(`${key}:log`, -1)));
    }
    // The burst: 10 at once (no wait), then the rate's spacing (the 11th is one interval after the first, whatever
    // the round trips took: a slot is placed on Redis' clock, not ours).
    expect(waits.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(slots[10]! - slots[0]!).toBeGreaterThanOrEqual(1000);
    // The window: the 61st slot a minute (and the 1 s margin) after the first; no half-open minute holds more than 60.
    expect(slots[60]! - slots[0]!).toBeGreaterThanOrEqual(61_000);
    for (let i = 60; i < slots.length; i++) expect(slots[i]! - slots[i - 60]!).toBeGreaterThanOrEqual(60_000);
    // The log keeps the last window's slots only: at most requestsPerMinute entries, expiring when idle.
    expect(await admin.lLen(`${key}:log`)).toBe(60);
    expect(await admin.pTTL(`${key}:log`)).toBeGreaterThan(0);
  });

  it('counts the clients sharing the budget in the last minute', async () => {
    const s = store();
    const key = unique();
    await s.reserve(key, limit, 'a');
    await s.reserve(key, limit, 'b');
    expect((await s.reserve(key, limit, 'c')).sharers).toBe(3);
    expect((await s.reserve(key, limit, 'a')).sharers).toBe(3);
  });

  it.each([
    [
      'entries dated in the future (a process claiming it will be alive later)',
      (now: number) => [now + 5_000, now + 3_600_000, now + 1e12],
    ],
    ['entries older than a minute', (now: number) => [now - 61_000, now - 3_600_000]],
  ])('the sharer count is honest: %s do not count, and are removed', async (_name, scores) => {
    const s = store();
    const key = unique();
    const [seconds] = (await admin.time()) as unknown as [number];
    const now = Number(seconds) * 1000;
    await admin.zAdd(
      `${key}:sharers`,
      scores(now).map((score, i) => ({ score, value: `ghost-${i}` })),
    );
    expect((await s.reserve(key, limit, 'real-a')).sharers).toBe(1);
    expect((await s.reserve(key, limit, 'real-b')).sharers).toBe(2);
    expect(await admin.zRange(`${key}:sharers`, 0, -1)).toEqual(['real-a', 'real-b']);
  });

  it('a pause holds for every sharer, who reserves nothing inside it; pausedFor reads what is left', async () => {
    const [a, b] = [store(), store()];
    const key = unique();
    // What is left is judged against the time that passed since the pause began (a busy machine can take
    // hundreds of ms for b's first connection), never against a fixed share of the pause.
    const pausedAt = Date.now();
    await a.pause(key, limit, 2000);
    const inside = await b.reserve(key, limit, 'b');
    expect(inside.waitMs).toBe(0);
    expect(inside.pauseMs).toBeGreaterThanOrEqual(2000 - (Date.now() - pausedAt) - 5);
    expect(inside.pauseMs).toBeLessThanOrEqual(2000);
    const left = await b.pausedFor(key);
    expect(left).toBeGreaterThanOrEqual(2000 - (Date.now() - pausedAt) - 5);
    expect(left).toBeGreaterThan(0);
    // The schedule after the pause starts at its end (nothing was queued inside it).
    expect(await admin.get(key)).toMatch(/^\d+(\.\d+)?$/);
    expect(await a.pausedFor(unique())).toBe(0);
  });

  it('a refund gives the slot to the next reservation', async () => {
    const [a, b] = [store(), store()];
    const key = unique();
    await b.reserve(key, limit, 'b');
    await b.reserve(key, limit, 'b');
    const before = (await b.reserve(key, limit, 'b')).waitMs;
    await a.refund(key, limit);
    const after = (await b.reserve(key, limit, 'b')).waitMs;
    expect(after - before).toBeLessThan(20); // the refunded slot, not one interval later
  });

  it('keys hold a hash of the API key, never the key, and expire', async () => {
    const apiKey = 'svc_redis_secret_key_0123456789';
    const client = new A11yClient({ apiKey, baseUrl: server.url, rateLimit: { ...limit, store: store() } });
    await client.sites.list();
    const key = await budgetKey(apiKey);
    expect(key).toMatch(/^svc-a11y:rl:v1:[0-9a-f]{32}$/);
    const keys = await admin.keys('svc-a11y:rl:*');
    expect(keys).toEqual(expect.arrayContaining([key, `${key}:sharers`, `${key}:log`]));
    for (const k of keys) expect(k).not.toContain(apiKey);
    expect(await admin.pTTL(key)).toBeGreaterThan(0);
    expect(await admin.pTTL(`${key}:sharers`)).toBeGreaterThan(0);
    expect(await admin.pTTL(`${key}:log`)).toBeGreaterThan(0);
  });

  it('survives SCRIPT FLUSH (a restarted server): the script is loaded again', async () => {
    const s = store();
    const key = unique();
    // One every 10 s: the flush and the reload (three round trips) take far less even on a machine at load 25
    // (where one second once passed between the two reservations), so a kept budget always shows a wait.
    const slow = { requestsPerMinute: 6, burst: 1 };
    await s.reserve(key, slow, 'a');
    await admin.scriptFlush();
    expect((await s.reserve(key, slow, 'a')).waitMs).toBeGreaterThan(0);
  });

  it("{ client }: a node-redis client of the caller's own, which the store does not close", async () => {
    const own = createClient({ url: redisUrl });
    await own.connect();
    const s = new RedisRateLimitStore({ client: own });
    const key = unique();
    expect((await s.reserve(key, limit, 'x')).waitMs).toBe(0);
    await s.close();
    expect(await own.ping()).toBe('PONG');
    await own.quit();
  });
});

describe('a shared store that fails never fails a call', () => {
  it('an unreachable Redis: calls succeed on the in-process budget, onWarning hears of it once', async () => {
    const closed = await startLoopback(() => undefined);
    await closed.close();
    const warnings: Warning[] = [];
    const dead = new RedisRateLimitStore({ url: closed.url.replace('http', 'redis') });
    const client = new A11yClient({
      apiKey: 'svc_redis_down_key',
      baseUrl: server.url,
      rateLimit: { requestsPerMinute: 6000, store: dead, storeTimeoutMs: 200, storeRetryMs: 60_000 },
      onWarning: (w) => warnings.push(w),
    });
    // Before a timer of 2 s set alongside fires: calls that each waited the store's 1 s connection bound would lose.
    const bounded = raceTimer(2000);
    for (let i = 0; i < 5; i++) expect(await client.sites.list()).toEqual([]);
    expect(bounded.fired()).toBe(false);
    bounded.clear();
    expect(warnings.map((w) => w.code)).toEqual(['RATE_LIMIT_STORE_UNAVAILABLE']);
    expect(JSON.stringify(warnings)).not.toContain('svc_redis_down_key');
    await dead.close();
  });

  it('a store that never answers: the first call waits for it up to 1 s (a connection may be opening), no later call waits', async () => {
    const slow = {
      reserve: () => new Promise<never>(() => undefined),
      pause: () => new Promise<never>(() => undefined),
    };
    const warnings: Warning[] = [];
    const client = new A11yClient({
      apiKey: 'svc_redis_slow_key',
      baseUrl: server.url,
      rateLimit: { requestsPerMinute: 6000, store: slow, storeTimeoutMs: 100, storeRetryMs: 60_000 },
      onWarning: (w) => warnings.push(w),
    });
    const started = Date.now();
    expect(await client.sites.list()).toEqual([]);
    // Before a store has answered once, its first operation may take the connection's time (1 s), not 100 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    // Then the stand-in until storeRetryMs: not one wait per call. Judged by a race against a timer of 1.5 s set
    // alongside: two calls that each waited the 1 s bound would lose it whatever the machine's speed.
    const noWait = raceTimer(1500);
    expect(await client.sites.list()).toEqual([]);
    expect(await client.sites.list()).toEqual([]);
    expect(noWait.fired()).toBe(false);
    noWait.clear();
    expect(warnings).toHaveLength(1);
  });

  it('a store that recovers is used again, and onWarning says so', async () => {
    let failing = true;
    const memory = new Map<string, number>();
    const flaky = {
      reserve: async (key: string) => {
        if (failing) throw new Error('connection lost');
        memory.set(key, (memory.get(key) ?? 0) + 1);
        return { waitMs: 0 };
      },
      pause: async () => undefined,
    };
    const warnings: Warning[] = [];
    const client = new A11yClient({
      apiKey: 'svc_flaky_key',
      baseUrl: server.url,
      rateLimit: { requestsPerMinute: 6000, store: flaky, storeRetryMs: 50 },
      onWarning: (w) => warnings.push(w),
    });
    await client.sites.list();
    failing = false;
    await new Promise((r) => setTimeout(r, 80));
    await client.sites.list();
    expect(warnings.map((w) => w.code)).toEqual(['RATE_LIMIT_STORE_UNAVAILABLE', 'RATE_LIMIT_STORE_RECOVERED']);
    expect([...memory.values()]).toEqual([1]);
  });

  it('a store that is not a store is refused at construction', () => {
    expect(
      () =>
        new A11yClient({
          apiKey: 'svc_x_key',
          baseUrl: server.url,
          rateLimit: { requestsPerMinute: 60, store: {} as never },
        }),
    ).toThrow(/rateLimit.store/);
  });
});
