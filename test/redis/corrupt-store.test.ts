// A corrupt value in the shared store never disables the budget (issue "a gate that never lies…" §2): values
// written into the budget's keys by a raw Redis client — not a number, NaN, empty, negative, infinite, huge,
// of another type — are treated as unknown: the script replaces them with a conservative value (no burst),
// the client warns once, and requests stay spaced at the rate (counted at a loopback server).
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisDatabase } from '../support/redis-database.js';
import { A11yClient, type Warning } from '../../src/index.js';
import { budgetKey } from '../../src/rate-limit/budget.js';
import { RedisRateLimitStore } from '../../src/redis/index.js';
import { readReply } from '../../src/redis/script.js';
import { json, startLoopback, type Loopback } from '../support/loopback.js';

let server: Loopback;
let admin: ReturnType<typeof createClient>;
// This file's own database on the run's redis-server (test/support/redis-database.ts).
let redisUrl: string;
beforeAll(async () => {
  redisUrl = await redisDatabase();
  server = await startLoopback(json(200, []));
  admin = createClient({ url: redisUrl });
  await admin.connect();
});
afterAll(async () => {
  await admin.quit();
  await server.close();
});

type Writer = (key: string) => Promise<unknown>;
const budgetValue =
  (value: string): Writer =>
  (key) =>
    admin.set(key, value);

describe('a corrupt value in the shared store', () => {
  it.each<[string, Writer]>([
    ['budget = "nan"', budgetValue('nan')],
    ['budget = "-nan"', budgetValue('-nan')],
    ['budget = "abc"', budgetValue('abc')],
    ['budget = "" (empty)', budgetValue('')],
    ['budget = "-5" (negative)', budgetValue('-5')],
    ['budget = "Infinity"', budgetValue('Infinity')],
    ['budget = "inf"', budgetValue('inf')],
    ['budget = "1e400" (overflows to infinity)', budgetValue('1e400')],
    ['budget = 10³⁰ (centuries ahead)', budgetValue(`1${'0'.repeat(30)}`)],
    ['budget is a list', (key) => admin.rPush(key, ['1', '2'])],
    ['sharers = "nan" (a string, not a sorted set)', (key) => admin.set(`${key}:sharers`, 'nan')],
    ['pause = "nan" with no time to live (a pause without end)', (key) => admin.set(`${key}:pause`, 'nan')],
    ["the window's log is a string, not a list", (key) => admin.set(`${key}:log`, '123')],
    ['the window\'s log holds "nan"', (key) => admin.rPush(`${key}:log`, ['nan'])],
    ["the window's log holds a slot centuries ahead", (key) => admin.rPush(`${key}:log`, [`1${'0'.repeat(30)}`])],
  ])('%s: the budget still spaces requests at its rate and warns once', async (_name, write) => {
    const apiKey = `svc_corrupt_${Math.random().toString(36).slice(2)}`;
    const key = await budgetKey(apiKey);
    await write(key);
    const store = new RedisRateLimitStore({ url: redisUrl });
    const warnings: Warning[] = [];
    // 600 a minute: one request every 100 ms.
    const client = new A11yClient({
      apiKey,
      baseUrl: server.url,
      rateLimit: { requestsPerMinute: 600, store, storeTimeoutMs: 1000 },
      onWarning: (w) => warnings.push(w),
    });
    try {
      await store.connect();
      const before = server.requests.length;
      const started = Date.now();
      const results = await Promise.all(Array.from({ length: 10 }, () => client.sites.list()));
      expect(results).toHaveLength(10);
      const seen = server.requests.slice(before);
      expect(seen).toHaveLength(10);
      // Spaced at 100 ms: at most 5 within the first 500 ms (1 more for clock granularity). A budget disabled by
      // the value (a NaN wait read as 0) would send all 10 at once. A slow machine only sends fewer.
      expect(seen.filter((r) => r.at - started < 500).length).toBeLessThanOrEqual(6);
      expect(seen.at(-1)!.at - started).toBeGreaterThanOrEqual(890);
      expect(warnings.map((w) => w.code)).toEqual(['RATE_LIMIT_STORE_CORRUPT']);
      // The value was replaced with a readable one, and no pause without end is left.
      expect(Number.isFinite(Number(await admin.get(key)))).toBe(true);
      expect(await admin.pTTL(`${key}:pause`)).toBe(-2);
      expect(await admin.type(`${key}:sharers`)).toBe('zset');
      expect(await admin.type(`${key}:log`)).toBe('list');
    } finally {
      await store.close();
    }
  });
});

describe("the script's reply is checked", () => {
  it.each([
    [null],
    ['OK'],
    [[]],
    [[1]],
    [[Number.NaN, 1, 0, 0]],
    [['abc', 1, 0, 0]],
    [[-1, 1, 0, 0]],
    [[0, 1, -3, 0]],
    [[Infinity, 1, 0, 0]],
    [[0, 'x', 0, 0]],
  ])('%j is a failure of the store, never a wait of 0', (reply) => {
    expect(() => readReply(reply)).toThrow(/unreadable reply/);
  });

  it('a readable reply is read as is', () => {
    expect(readReply([250, 3, 0, 0])).toEqual({ waitMs: 250, sharers: 3, pauseMs: 0, corrupt: false });
    expect(readReply([0, 0, 1500, 1])).toEqual({ waitMs: 0, sharers: 1, pauseMs: 1500, corrupt: true });
  });
});
