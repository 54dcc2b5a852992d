// RedisReplayStore against real redis-servers: one `SET NX PX` per verified delivery under the key verifyWebhook
// derives from the signed material, kept for the tolerance window plus the clock-skew margin; nothing unsigned,
// invalid or out of tolerance creates a key; a Redis out of memory refuses (REPLAY_STORE_FULL); and every wait on
// a Redis that is down, silent or frozen is bounded, refusing (fail-closed) or accepting (fail-open) with one
// warning per outage. Upper time bounds are the bound + 2 s (a slow machine's margin); lower bounds are the bound
// itself (a timer never fires early).
import { createHmac } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { redisDatabase } from '../support/redis-database.js';
import { startRedis } from '../../scripts/redis.mjs';
import { RedisReplayStore, type RedisReplayStoreOptions, type ReplayStoreWarning } from '../../src/redis/index.js';
import { WebhookVerificationError, verifyWebhook, type VerifyWebhookOptions } from '../../src/webhooks/index.js';
import { refusedPort } from '../support/loopback.js';
import { eventually, startSilentServer, type SilentServer } from '../support/silent-tcp.js';
import { timerFired } from '../support/timer.js';
import { delivery, SECRET, underFreshId, type Delivery } from './receivers.js';

const SLOW_MACHINE_MS = 2000;
const TOLERANCE = 300;
let admin: ReturnType<typeof createClient>;
const stores: RedisReplayStore[] = [];
let prefix: string;
const store = (options: Partial<RedisReplayStoreOptions> = {}) => {
  const s = new RedisReplayStore({ url: redisUrl, keyPrefix: prefix, ...options } as RedisReplayStoreOptions);
  stores.push(s);
  return s;
};

// This file's own database on the run's redis-server (test/support/redis-database.ts).
let redisUrl: string;
beforeAll(async () => {
  redisUrl = await redisDatabase();
  admin = createClient({ url: redisUrl });
  await admin.connect();
});
beforeEach(() => {
  prefix = `svc-a11y:test:replay-store:${Math.random().toString(36).slice(2)}:`;
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await admin.quit();
});

const verify = (d: Delivery, replayStore: RedisReplayStore, extra: Partial<VerifyWebhookOptions> = {}) =>
  verifyWebhook({
    body: d.body,
    headers: d.headers,
    secret: SECRET,
    toleranceSeconds: TOLERANCE,
    replayStore,
    ...extra,
  });
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: unknown) =>
      error instanceof WebhookVerificationError ? error.reason : `not a verification error: ${error}`,
  );
const keysUnder = async (p: string) => (await admin.keys(`${p}*`)).sort();
// The key verifyWebhook derives (documented: HMAC-SHA256 under a fixed public key of `timestamp.body`).
const signedKey = (d: Delivery) =>
  `signed:${createHmac('sha256', 'svc-a11y replay key v1').update(`${d.headers['x-svc-timestamp']}.${d.body}`).digest('hex')}`;
// How long `work` took, and when a timer of `boundMs` set beside it actually fired (`dueMs`): upper bounds are
// judged from `dueMs`, since a busy machine delays the store's timers and this one alike.
const timed = async <T>(work: () => Promise<T>, boundMs = 0) => {
  const startedAt = Date.now();
  const due = timerFired(boundMs);
  const value = await work();
  return { ms: Date.now() - startedAt, value, dueMs: await due };
};

describe('RedisReplayStore on a running redis-server', () => {
  it('accepts a delivery once: one key, the signed one, living for the tolerance window + 1 ms + clockSkewMs', async () => {
    const nowMs = Date.now();
    const d = delivery(1, Math.floor(nowMs / 1000));
    const now = () => nowMs;
    const s = store({ now, clockSkewMs: 60_000 });
    expect(await outcome(verify(d, s, { now }))).toBe('accepted');
    expect(await outcome(verify(d, s, { now }))).toBe('REPLAYED');
    expect(await keysUnder(prefix)).toEqual([prefix + signedKey(d)]);
    // (timestamp + tolerance) * 1000 + 1 − now + 60 s, counted from this clock; Redis counts down from there, so
    // only a stall of over 10 s between SET and PTTL could push it below the lower bound.
    const expected = (Number(d.headers['x-svc-timestamp']) + TOLERANCE) * 1000 + 1 - nowMs + 60_000;
    const ttl = await admin.pTTL(prefix + signedKey(d));
    expect(ttl).toBeLessThanOrEqual(expected);
    expect(ttl).toBeGreaterThan(expected - 10_000);
  });

  it('the same signed delivery under 25 fresh X-Svc-Delivery ids: accepted once, one key', async () => {
    const s = store();
    const d = delivery(2);
    const outcomes = [];
    for (let i = 0; i < 25; i++) outcomes.push(await outcome(verify(underFreshId(d, i), s)));
    expect(outcomes.filter((o) => o === 'accepted')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'REPLAYED')).toHaveLength(24);
    expect(await keysUnder(prefix)).toEqual([prefix + signedKey(d)]);
  });

  it('four stores (as four processes) verifying 40 copies of each of 10 deliveries at once: each accepted once', async () => {
    const fleet = [store(), store(), store(), store()];
    const deliveries = Array.from({ length: 10 }, (_, n) => delivery(10 + n));
    const outcomes = await Promise.all(
      deliveries.map((d) =>
        Promise.all(Array.from({ length: 40 }, (_, i) => outcome(verify(underFreshId(d, i), fleet[i % 4]!)))),
      ),
    );
    for (const list of outcomes) {
      expect(list.filter((o) => o === 'accepted')).toHaveLength(1);
      expect(list.filter((o) => o === 'REPLAYED')).toHaveLength(39);
    }
  });

  it('nothing unsigned, invalid or out of tolerance creates a key', async () => {
    const s = store();
    const d = delivery(3);
    const refused = [
      { body: d.body.replace('COMPLETED', 'FAILED'), headers: d.headers },
      { body: d.body, headers: { ...d.headers, 'x-svc-signature': `v1=${'a'.repeat(64)}` } },
      { body: d.body, headers: { ...d.headers, 'x-svc-signature': 'v0=legacy' } },
      { body: d.body, headers: { ...d.headers, 'x-svc-timestamp': 'soon' } },
      delivery(4, Math.floor(Date.now() / 1000) - TOLERANCE - 60),
      delivery(5, Math.floor(Date.now() / 1000) + TOLERANCE + 60),
    ];
    const reasons = await Promise.all(refused.map((r) => outcome(verify(r, s))));
    expect(reasons).toEqual([
      'SIGNATURE_MISMATCH',
      'SIGNATURE_MISMATCH',
      'MALFORMED_SIGNATURE',
      'INVALID_TIMESTAMP',
      'TIMESTAMP_OUT_OF_TOLERANCE',
      'TIMESTAMP_OUT_OF_TOLERANCE',
    ]);
    // Signed, but not JSON: refused before the store.
    const ts = Math.floor(Date.now() / 1000);
    const notJson = {
      body: 'not json',
      headers: {
        ...d.headers,
        'x-svc-timestamp': String(ts),
        'x-svc-signature': `v1=${createHmac('sha256', SECRET).update(`${ts}.not json`).digest('hex')}`,
      },
    };
    expect(await outcome(verify(notJson, s))).toBe('INVALID_PAYLOAD');
    // Called directly with any other id: refused before anything is sent.
    await expect(s.checkAndRemember(`id:${d.headers['x-svc-delivery']}`, Date.now() + 1000)).rejects.toThrow(TypeError);
    await expect(s.checkAndRemember(`${signedKey(d)}x`, Date.now() + 1000)).rejects.toThrow(TypeError);
    await expect(s.checkAndRemember(signedKey(d), Number.NaN)).rejects.toThrow(TypeError);
    expect(await keysUnder(prefix)).toEqual([]);
    // The genuine delivery still passes, once.
    expect(await outcome(verify(d, s))).toBe('accepted');
    expect(await keysUnder(prefix)).toEqual([prefix + signedKey(d)]);
  });

  it('works through a node-redis client of the caller, which it never closes', async () => {
    const client = createClient({ url: redisUrl });
    await client.connect();
    try {
      const s = new RedisReplayStore({ client, keyPrefix: prefix });
      const d = delivery(6);
      expect(await outcome(verify(d, s))).toBe('accepted');
      expect(await outcome(verify(d, s))).toBe('REPLAYED');
      await s.close();
      expect(client.isOpen).toBe(true);
      expect(await client.ping()).toBe('PONG');
    } finally {
      await client.quit();
    }
  });

  it('refuses options out of range at construction', () => {
    const url = redisUrl;
    expect(() => new RedisReplayStore({} as RedisReplayStoreOptions)).toThrow(/needs \{ url \} or \{ client \}/);
    expect(() => new RedisReplayStore({ url, whenUnavailable: 'ignore' as unknown as 'fail-open' })).toThrow(
      /whenUnavailable/,
    );
    expect(() => new RedisReplayStore({ url, clockSkewMs: -1 })).toThrow(/clockSkewMs/);
    expect(() => new RedisReplayStore({ url, commandTimeoutMs: 0 })).toThrow(/RedisReplayStore: commandTimeoutMs/);
  });
});

describe('a redis-server out of memory (maxmemory, noeviction)', () => {
  it('refuses new deliveries with REPLAY_STORE_FULL in both modes, without a warning; replays still REPLAYED', async () => {
    const redis = await startRedis();
    const warnings: ReplayStoreWarning[] = [];
    const closed = new RedisReplayStore({ url: redis.url, onWarning: (w) => warnings.push(w) });
    const open = new RedisReplayStore({
      url: redis.url,
      whenUnavailable: 'fail-open',
      onWarning: (w) => warnings.push(w),
    });
    const own = createClient({ url: redis.url });
    try {
      await own.connect();
      const seen = delivery(7);
      expect(await outcome(verify(seen, closed))).toBe('accepted');
      await own.configSet({ 'maxmemory-policy': 'noeviction', maxmemory: '1' });
      const error = (await verify(delivery(8), closed).catch((e: unknown) => e)) as WebhookVerificationError;
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(error.reason).toBe('REPLAY_STORE_FULL');
      expect(error.message).toMatch(/out of memory/);
      expect(await outcome(verify(delivery(9), open))).toBe('REPLAY_STORE_FULL');
      expect(await outcome(verify(seen, open))).toBe('REPLAYED');
      expect(await outcome(verify(seen, closed))).toBe('REPLAYED');
      expect(warnings).toEqual([]);
      await own.configSet({ maxmemory: '0' });
      expect(await outcome(verify(delivery(8), closed))).toBe('accepted');
    } finally {
      await Promise.all([closed.close(), open.close()]);
      await own.quit().catch(() => undefined);
      await redis.stop();
    }
  });
});

describe('Redis down (nothing listens on its port)', () => {
  it.each(['fail-closed', 'fail-open'] as const)(
    '%s: 6 deliveries each settle at once, refused with REPLAY_STORE_UNAVAILABLE (fail-closed) or accepted (fail-open); one warning',
    async (whenUnavailable) => {
      const warnings: ReplayStoreWarning[] = [];
      const s = store({
        url: `redis://127.0.0.1:${await refusedPort()}`,
        whenUnavailable,
        onWarning: (w) => warnings.push(w),
      });
      const {
        ms,
        value: outcomes,
        dueMs,
      } = await timed(
        () => Promise.all(Array.from({ length: 6 }, (_, n) => outcome(verify(delivery(20 + n), s)))),
        1000,
      );
      expect(ms).toBeLessThan(dueMs + SLOW_MACHINE_MS);
      expect(outcomes).toEqual(
        Array(6).fill(whenUnavailable === 'fail-closed' ? 'REPLAY_STORE_UNAVAILABLE' : 'accepted'),
      );
      expect(warnings.map((w) => w.code)).toEqual(['REPLAY_STORE_UNAVAILABLE']);
      expect(warnings[0]!.message).toContain(whenUnavailable);
      expect(warnings[0]!.cause).toBeInstanceOf(Error);
    },
  );

  it('the refusal says why: REPLAY_STORE_UNAVAILABLE with the connection error as cause, and no URL password', async () => {
    const s = store({ url: `redis://:hunter2-redis-password@127.0.0.1:${await refusedPort()}` });
    const error = (await verify(delivery(30), s).catch((e: unknown) => e)) as WebhookVerificationError;
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error.reason).toBe('REPLAY_STORE_UNAVAILABLE');
    expect(error.message).toMatch(/RedisReplayStore: Redis did not answer/);
    expect(error.cause).toBeDefined();
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain('hunter2');
  });
});

describe('a Redis that accepts connections and never answers', () => {
  let silent: SilentServer;
  beforeEach(async () => {
    silent = await startSilentServer();
  });
  afterEach(() => silent.close());

  it.each([
    ['fail-closed', 300],
    ['fail-open', 300],
    ['fail-closed', 1000],
  ] as const)(
    '%s, connectTimeoutMs %i: 5 deliveries at once settle within the bound, and close() leaves no socket open',
    async (whenUnavailable, connectTimeoutMs) => {
      const warnings: ReplayStoreWarning[] = [];
      const s = new RedisReplayStore({
        url: silent.url,
        connectTimeoutMs,
        whenUnavailable,
        onWarning: (w) => warnings.push(w),
      });
      const {
        ms,
        value: outcomes,
        dueMs,
      } = await timed(
        () => Promise.all(Array.from({ length: 5 }, (_, n) => outcome(verify(delivery(40 + n), s)))),
        connectTimeoutMs,
      );
      expect(ms).toBeGreaterThanOrEqual(connectTimeoutMs - 5);
      expect(ms).toBeLessThan(dueMs + SLOW_MACHINE_MS);
      expect(outcomes).toEqual(
        Array(5).fill(whenUnavailable === 'fail-closed' ? 'REPLAY_STORE_UNAVAILABLE' : 'accepted'),
      );
      expect(warnings.map((w) => w.code)).toEqual(['REPLAY_STORE_UNAVAILABLE']);
      await s.close();
      await new Promise((r) => setTimeout(r, 200));
      await eventually(() => silent.open() === 0, SLOW_MACHINE_MS);
      expect(silent.open()).toBe(0);
    },
  );
});

describe('a redis-server frozen (SIGSTOP) after the store connected, then thawed', () => {
  it('deliveries are refused within commandTimeoutMs while frozen, accepted once it answers; UNAVAILABLE then RECOVERED', {
    timeout: 30_000,
  }, async () => {
    const redis = await startRedis();
    const warnings: ReplayStoreWarning[] = [];
    const s = new RedisReplayStore({ url: redis.url, commandTimeoutMs: 300, onWarning: (w) => warnings.push(w) });
    try {
      await s.connect();
      // The freeze must find a live connection: on a busy machine a first answer can miss the 300 ms bound (the
      // store then closes that connection and warns), so deliveries are verified until one is accepted, and
      // the warnings start after it. Nothing runs between that answer and the freeze.
      for (let n = 0; (await outcome(verify(delivery(500 + n), s))) !== 'accepted'; n++) expect(n).toBeLessThan(20);
      warnings.length = 0;
      process.kill(redis.pid, 'SIGSTOP');
      const frozen = await timed(() => outcome(verify(delivery(51), s)), 300);
      expect(frozen.value).toBe('REPLAY_STORE_UNAVAILABLE');
      expect(frozen.ms).toBeGreaterThanOrEqual(300 - 5);
      expect(frozen.ms).toBeLessThan(frozen.dueMs + SLOW_MACHINE_MS);
      // The store let go of the frozen connection: a new one is opened, and bounded the same way.
      const again = await timed(() => outcome(verify(delivery(52), s)), 1000);
      expect(again.value).toBe('REPLAY_STORE_UNAVAILABLE');
      expect(again.ms).toBeLessThan(again.dueMs + SLOW_MACHINE_MS);
      process.kill(redis.pid, 'SIGCONT');
      // Accepted once it answers: a thawed server on a busy machine may miss the bound once more (still unavailable).
      let d = delivery(53);
      for (let n = 0; (await outcome(verify(d, s))) !== 'accepted'; n++) {
        expect(n).toBeLessThan(20);
        d = delivery(600 + n);
      }
      expect(await outcome(verify(d, s))).toBe('REPLAYED');
      expect(warnings.map((w) => w.code)).toEqual(['REPLAY_STORE_UNAVAILABLE', 'REPLAY_STORE_RECOVERED']);
    } finally {
      process.kill(redis.pid, 'SIGCONT');
      await s.close();
      await redis.stop();
    }
  });
});
