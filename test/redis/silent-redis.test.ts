// Issue "a gate that never lies, never hangs and never leaks" §2: a Redis that accepts the connection and
// never answers (a loopback TCP server that says nothing), and a real redis-server frozen with SIGSTOP after
// connecting. connect(), every operation and close() settle within their bounds; calls succeed on the
// in-process budget with exactly one warning; no socket is left open. Upper bounds are 2 s past the moment a
// timer of the bound set alongside actually fired (`timed`); lower bounds are the bound less 5 ms (a timer never
// fires early on the loop's whole-ms monotonic clock, but Date.now() can read a millisecond or two short of it).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRedis } from '../../scripts/redis.mjs';
import { A11yClient, type Warning } from '../../src/index.js';
import { RedisRateLimitStore } from '../../src/redis/index.js';
import { json, startLoopback, type Loopback } from '../support/loopback.js';
import { eventually, startSilentServer, type SilentServer } from '../support/silent-tcp.js';
import { timerFired } from '../support/timer.js';

const SLOW_MACHINE_MS = 2000;
let server: Loopback;
// One silent server per test: a connection abandoned while still connecting may be accepted a moment later,
// and must not be counted in the next test.
let silent: SilentServer;
beforeAll(async () => {
  server = await startLoopback(json(200, []));
  // Loaded before any clock starts: the `redis` package and the first fetch cost CPU that a busy machine stretches
  // to seconds (once 6.3 s for a call bounded by 1 s whose timer alongside fired on time), and that is not the
  // bound under test.
  await import('redis');
  await fetch(server.url);
});
beforeEach(async () => {
  silent = await startSilentServer();
});
afterEach(() => silent.close());
afterAll(() => server.close());

// Every socket the store opened is closed: the server sees none left (a late one included).
const noSocketLeft = async () => {
  await new Promise((r) => setTimeout(r, 200));
  await eventually(() => silent.open() === 0, SLOW_MACHINE_MS);
  expect(silent.open()).toBe(0);
};

// How long `work` took, and when a timer of `boundMs` set at the same moment actually fired (`dueMs`): a busy
// machine delays the store's own timers and this one alike, so upper bounds are judged from `dueMs`, not from
// the bound on the clock (a machine at load 9 once took 2.35 s for a 150 ms connect bound).
const timed = async <T>(
  work: () => Promise<T>,
  boundMs = 0,
): Promise<{ ms: number; dueMs: number; value?: T; error?: unknown }> => {
  const started = Date.now();
  const due = timerFired(boundMs);
  let done: { ms: number; value?: T; error?: unknown };
  try {
    const value = await work();
    done = { ms: Date.now() - started, value };
  } catch (error) {
    done = { ms: Date.now() - started, error };
  }
  return { ...done, dueMs: await due };
};

describe('a Redis that accepts connections and never answers', () => {
  it.each([150, 400, 1000])(
    'connect() with connectTimeoutMs %i rejects within its bound and closes its socket',
    async (connectTimeoutMs) => {
      const store = new RedisRateLimitStore({ url: silent.url, connectTimeoutMs });
      const r = await timed(() => store.connect(), connectTimeoutMs);
      expect(String(r.error)).toMatch(new RegExp(`no answer within ${connectTimeoutMs} ms`));
      expect(r.ms).toBeGreaterThanOrEqual(connectTimeoutMs - 5);
      expect(r.ms).toBeLessThan(r.dueMs + SLOW_MACHINE_MS);
      expect(silent.accepted()).toBeLessThanOrEqual(1);
      await noSocketLeft();
      // Not closed: a later operation connects again, bounded the same way.
      const again = await timed(() => store.connect(), connectTimeoutMs);
      expect(again.ms).toBeLessThan(again.dueMs + SLOW_MACHINE_MS);
      expect(String(again.error)).toMatch(/no answer within/);
      await store.close();
      await noSocketLeft();
    },
  );

  it.each([100, 250, 1000])(
    'calls through a client (storeTimeoutMs %i) succeed on the in-process budget: the first within its bound, one warning for all',
    async (storeTimeoutMs) => {
      const store = new RedisRateLimitStore({ url: silent.url });
      const warnings: Warning[] = [];
      const client = new A11yClient({
        apiKey: 'svc_silent_redis_key',
        baseUrl: server.url,
        rateLimit: { requestsPerMinute: 6000, store, storeTimeoutMs, storeRetryMs: 60_000 },
        onWarning: (w) => warnings.push(w),
      });
      const before = server.requests.length;
      const first = await timed(() => client.sites.list(), Math.max(storeTimeoutMs, 1000));
      expect(first.value).toEqual([]);
      // Never pushed earlier by a slow machine: the client waited for the store, up to its bound.
      expect(first.ms).toBeLessThan(first.dueMs + SLOW_MACHINE_MS);
      const rest = await timed(() => Promise.all([client.sites.list(), client.sites.list(), client.sites.list()]));
      expect(rest.value).toEqual([[], [], []]);
      expect(rest.ms).toBeLessThan(rest.dueMs + SLOW_MACHINE_MS);
      expect(server.requests.length - before).toBe(4);
      expect(warnings.map((w) => w.code)).toEqual(['RATE_LIMIT_STORE_UNAVAILABLE']);
      expect(JSON.stringify(warnings)).not.toContain('svc_silent_redis_key');
      await store.close();
      await noSocketLeft();
    },
  );

  it.each(['while it is still connecting', 'after a call fell back', 'before any use', 'twice'])(
    'close() %s settles at once and leaves no socket open',
    async (when) => {
      const store = new RedisRateLimitStore({ url: silent.url, connectTimeoutMs: 60_000 });
      let pending: Promise<unknown> | undefined;
      if (when === 'while it is still connecting' || when === 'twice') {
        pending = store.connect().catch((error: unknown) => error);
        await eventually(() => silent.accepted() === 1, SLOW_MACHINE_MS);
        expect(silent.accepted()).toBe(1);
      }
      if (when === 'after a call fell back') {
        const client = new A11yClient({
          apiKey: 'svc_silent_close_key',
          baseUrl: server.url,
          rateLimit: { requestsPerMinute: 6000, store, storeTimeoutMs: 100 },
        });
        expect(await client.sites.list()).toEqual([]);
      }
      const r = await timed(() => store.close());
      expect(r.error).toBeUndefined();
      expect(r.ms).toBeLessThan(r.dueMs + SLOW_MACHINE_MS);
      if (when === 'twice') {
        const second = await timed(() => store.close());
        expect(second.ms).toBeLessThan(second.dueMs + SLOW_MACHINE_MS);
      }
      // The connection attempt ends with the close, not after its 60 s bound.
      if (pending) expect(String(await pending)).toMatch(/Error/);
      await noSocketLeft();
      // A closed store is not used again: it fails fast (clients fall back), it does not reconnect.
      const after = await timed(() => store.reserve('svc-a11y:test:closed', { requestsPerMinute: 60, burst: 1 }, 'x'));
      expect(String(after.error)).toMatch(/closed/);
      expect(silent.open()).toBe(0);
    },
  );
});

// Runs `operation` until it succeeds (at most 20 tries): a store that missed its bound on a busy machine.
const untilAnswered = async (operation: () => Promise<unknown>): Promise<void> => {
  for (let tries = 1; ; tries++) {
    try {
      await operation();
      return;
    } catch (error) {
      if (tries === 20) throw error;
    }
  }
};

describe('a redis-server frozen (SIGSTOP) after the store connected', () => {
  it.each([200, 600])(
    'each operation rejects within commandTimeoutMs %i; a call falls back with one warning; close() settles',
    { timeout: 30_000 },
    async (commandTimeoutMs) => {
      const redis = await startRedis();
      const store = new RedisRateLimitStore({ url: redis.url, commandTimeoutMs });
      const warnings: Warning[] = [];
      try {
        // The freeze must find a live connection. On a busy machine a first answer can take longer than a
        // 200 ms bound; the store then closes that connection, and the next operation would be bounded by
        // connecting (1000 ms), not by commandTimeoutMs. So the store answers once within its bound first
        // (each failed try reconnects), and nothing runs between that answer and the freeze (no background
        // traffic: the store has no reconnect loop and no pings).
        await store.connect();
        await untilAnswered(() => store.reserve('svc-a11y:test:warm', { requestsPerMinute: 6000, burst: 100 }, 'x'));
        process.kill(redis.pid, 'SIGSTOP');
        const direct = await timed(
          () => store.reserve('svc-a11y:test:frozen', { requestsPerMinute: 60, burst: 1 }, 'x'),
          commandTimeoutMs,
        );
        expect(String(direct.error)).toMatch(new RegExp(`no answer within ${commandTimeoutMs} ms`));
        expect(direct.ms).toBeGreaterThanOrEqual(commandTimeoutMs - 5);
        expect(direct.ms).toBeLessThan(direct.dueMs + SLOW_MACHINE_MS);
        // Made after the freeze, so its one warning is the freeze's (a client whose store missed a bound under
        // load before it would not ask the store again for storeRetryMs).
        const client = new A11yClient({
          apiKey: 'svc_frozen_redis_key',
          baseUrl: server.url,
          rateLimit: { requestsPerMinute: 6000, store, storeTimeoutMs: 250, storeRetryMs: 60_000 },
          onWarning: (w) => warnings.push(w),
        });
        const call = await timed(() => client.sites.list(), 1000);
        expect(call.value).toEqual([]);
        expect(call.ms).toBeLessThan(call.dueMs + SLOW_MACHINE_MS);
        expect(warnings.map((w) => w.code)).toEqual(['RATE_LIMIT_STORE_UNAVAILABLE']);
        const closed = await timed(() => store.close());
        expect(closed.ms).toBeLessThan(closed.dueMs + SLOW_MACHINE_MS);
      } finally {
        process.kill(redis.pid, 'SIGCONT');
        await redis.stop();
      }
    },
  );
});
