// A pause recorded in the shared store by another client (another process of the fleet got the 429): this
// client's later calls fail at once with RateLimitError naming when, nothing sent, when the pause is longer
// than they accept — whether it is an hour, 10¹⁵ ms or "forever" (recorded for at most a year), and whether
// the SDK or a raw Redis client wrote it. No timer overflows on the way.
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redisDatabase } from '../support/redis-database.js';
import { A11yClient, RateLimitError } from '../../src/index.js';
import { budgetKey } from '../../src/rate-limit/budget.js';
import { MAX_PAUSE_MS } from '../../src/rate-limit/pause.js';
import { RedisRateLimitStore } from '../../src/redis/index.js';
import { json, startLoopback, type Loopback } from '../support/loopback.js';
import { raceTimer } from '../support/timer.js';

const limit = { requestsPerMinute: 6000, burst: 1 };
const AT_ONCE_MS = 2000;
let server: Loopback;
let admin: ReturnType<typeof createClient>;
const stores: RedisRateLimitStore[] = [];
const store = () => {
  const s = new RedisRateLimitStore({ url: redisUrl });
  stores.push(s);
  return s;
};
const processWarnings: Error[] = [];
const onWarning = (w: Error) => processWarnings.push(w);
// This file's own database on the run's redis-server (test/support/redis-database.ts).
let redisUrl: string;
beforeAll(async () => {
  redisUrl = await redisDatabase();
  process.on('warning', onWarning);
  server = await startLoopback(json(200, []));
  admin = createClient({ url: redisUrl });
  await admin.connect();
});
afterEach(() => expect(processWarnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning'));
afterAll(async () => {
  process.off('warning', onWarning);
  await Promise.all(stores.map((s) => s.close()));
  await admin.quit();
  await server.close();
});
const uniqueKey = () => `svc_shared_pause_${Math.random().toString(36).slice(2)}`;

describe('a pause another client recorded in Redis', () => {
  it.each([
    ['an hour, through the SDK', 3_600_000, 'sdk'],
    ['10¹⁵ ms, through the SDK', 1e15, 'sdk'],
    ['Infinity, through the SDK', Infinity, 'sdk'],
    ['an hour, written by a raw client', 3_600_000, 'raw'],
    ['10¹⁵ ms, written by a raw client', 1e15, 'raw'],
  ])(
    '%s: later calls fail at once with RateLimitError naming when; nothing is sent',
    async (_name, pauseMs, writer) => {
      const apiKey = uniqueKey();
      const key = await budgetKey(apiKey);
      // Redis starts the pause after this moment: it ends `recorded` ms after it at the earliest, however long the
      // calls below take on a busy machine.
      const writtenAt = Date.now();
      if (writer === 'sdk') await store().pause(key, limit, pauseMs);
      else await admin.set(`${key}:pause`, '1', { PX: pauseMs });
      const recorded = writer === 'sdk' ? Math.min(pauseMs, MAX_PAUSE_MS) : pauseMs;
      const before = server.requests.length;
      const client = new A11yClient({ apiKey, baseUrl: server.url, rateLimit: { ...limit, store: store() } });
      for (const call of [
        () => client.sites.list(),
        () => client.ciChecks.createAndWait({ urls: ['https://shop.example.com/'] }),
      ]) {
        // At once: before a timer of AT_ONCE_MS set alongside fires (a call that slept for the pause would lose).
        const atOnce = raceTimer(AT_ONCE_MS);
        const error = (await call().catch((e: unknown) => e)) as RateLimitError;
        expect(error).toBeInstanceOf(RateLimitError);
        expect(atOnce.fired()).toBe(false);
        atOnce.clear();
        expect(error.retryAt!.getTime()).toBeGreaterThan(writtenAt + recorded - 1000);
        expect(error.retryAt!.getTime()).toBeLessThanOrEqual(Math.min(Date.now() + recorded + 1000, 8.64e15));
        expect(error.message).toContain(error.retryAt!.toISOString());
      }
      expect(server.requests.length).toBe(before);
    },
  );

  it('a short pause recorded by another client is waited out by this one, then its call is sent', async () => {
    const apiKey = uniqueKey();
    const key = await budgetKey(apiKey);
    const other = store();
    await other.connect();
    // Redis starts the pause after this moment: a request that respects it arrives 600 ms after, at the earliest.
    const pausedAt = Date.now();
    await other.pause(key, limit, 600);
    const client = new A11yClient({ apiKey, baseUrl: server.url, rateLimit: { ...limit, store: store() } });
    const before = server.requests.length;
    expect(await client.sites.list()).toEqual([]);
    expect(server.requests.length).toBe(before + 1);
    expect(server.requests.at(-1)!.at - pausedAt).toBeGreaterThanOrEqual(595);
  });
});
