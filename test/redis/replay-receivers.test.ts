// Webhook receivers behind a load balancer: two receiver processes (one on the ESM entries, one on the CommonJS
// ones) share one redis-server through RedisReplayStore, and every genuine delivery is accepted exactly once
// across them — never twice, never zero times — when its copies arrive at both at the same moment, and when each
// copy carries a fresh X-Svc-Delivery id. Two receivers with a MemoryReplayStore each accept a delivery twice (the
// set-up this replaces). With Redis killed (by PID), fail-closed receivers answer 503 REPLAY_STORE_UNAVAILABLE and
// a fail-open one accepts, each warning once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisDatabase } from '../support/redis-database.js';
import { startRedis } from '../../scripts/redis.mjs';
import { timerFired } from '../support/timer.js';
import { delivery, send, startReceiver, tally, underFreshId, type Delivery, type Receiver } from './receivers.js';

const SLOW_MACHINE_MS = 2000;
const receivers: Receiver[] = [];
// Starts receivers together; each is stopped after the file (by PID).
const started = async <T extends Array<Promise<Receiver>>>(...list: T): Promise<{ [K in keyof T]: Receiver }> => {
  const all = await Promise.all(list);
  receivers.push(...all);
  return all as { [K in keyof T]: Receiver };
};
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
});

describe('two receiver processes sharing one redis-server', () => {
  let a: Receiver;
  let b: Receiver;
  beforeAll(async () => {
    const shared = {
      store: 'redis',
      redisUrl: await redisDatabase(),
      keyPrefix: `svc-a11y:test:replay:${Date.now()}:`,
      // Exactly-once is under test here, not the store's deadlines (the Redis-killed cases below and
      // replay-store.test judge those): under load a first connection, which loads the `redis` package, took over
      // the 1 s defaults, and the fail-closed receiver rightly answered 503 to 5 of 10 copies.
      connectTimeoutMs: 15_000,
      commandTimeoutMs: 15_000,
    } as const;
    [a, b] = await started(startReceiver({ ...shared, format: 'esm' }), startReceiver({ ...shared, format: 'cjs' }));
  });

  // Every copy of every delivery at once, alternating between the receivers: one outcome tally per delivery.
  const sendAtOnce = async (deliveries: Delivery[], copies: (d: Delivery) => Delivery[]) => {
    const perDelivery = await Promise.all(
      deliveries.map((d) => Promise.all(copies(d).map((copy, i) => send(i % 2 ? b : a, copy)))),
    );
    return perDelivery.map(tally);
  };

  it('30 deliveries, each sent 10 times at once across both: each accepted exactly once, the 9 others REPLAYED', async () => {
    const deliveries = Array.from({ length: 30 }, (_, n) => delivery(n));
    const tallies = await sendAtOnce(deliveries, (d) => Array.from({ length: 10 }, () => d));
    for (const t of tallies) expect(t).toEqual({ accepted: 1, '200 REPLAYED': 9 });
  });

  it('20 deliveries, each sent 8 times at once with a fresh X-Svc-Delivery id per copy: each accepted exactly once', async () => {
    const deliveries = Array.from({ length: 20 }, (_, n) => delivery(100 + n));
    const tallies = await sendAtOnce(deliveries, (d) => Array.from({ length: 8 }, (_, i) => underFreshId(d, i)));
    for (const t of tallies) expect(t).toEqual({ accepted: 1, '200 REPLAYED': 7 });
  });

  it('one after the other: what one receiver accepted, the other refuses as REPLAYED (both ways)', async () => {
    for (let n = 0; n < 6; n++) {
      const d = delivery(200 + n);
      const [first, second] = n % 2 ? [a, b] : [b, a];
      expect(await send(first, d)).toEqual({ status: 204, text: '' });
      expect(await send(second, underFreshId(d, n))).toEqual({ status: 200, text: 'REPLAYED' });
      expect(await send(first, d)).toEqual({ status: 200, text: 'REPLAYED' });
    }
  });

  it('a tampered or unsigned copy is refused by both and does not use up the genuine delivery', async () => {
    const d = delivery(300);
    const tampered = { body: d.body.replace('COMPLETED', 'FAILED'), headers: d.headers };
    const unsigned = { body: d.body, headers: { ...d.headers, 'x-svc-signature': `v1=${'0'.repeat(64)}` } };
    const refused = await Promise.all([send(a, tampered), send(b, unsigned)]);
    expect(refused).toEqual([
      { status: 400, text: 'SIGNATURE_MISMATCH' },
      { status: 400, text: 'SIGNATURE_MISMATCH' },
    ]);
    expect(tally(await Promise.all([send(a, d), send(b, d)]))).toEqual({ accepted: 1, '200 REPLAYED': 1 });
    expect([await a.warnings(), await b.warnings()]).toEqual([[], []]);
  });
});

describe('the set-up it replaces', () => {
  it('two receivers with a MemoryReplayStore each accept the same delivery twice', async () => {
    const [a, b] = await started(startReceiver({ store: 'memory' }), startReceiver({ store: 'memory' }));
    const d = delivery(400);
    expect(tally(await Promise.all([send(a, d), send(b, d)]))).toEqual({ accepted: 2 });
  });
});

describe('Redis killed (SIGKILL, by PID) under running receivers', () => {
  it('fail-closed receivers answer 503 REPLAY_STORE_UNAVAILABLE, a fail-open one accepts; each warns once', {
    timeout: 30_000,
  }, async () => {
    const redis = await startRedis();
    try {
      const common = { store: 'redis', redisUrl: redis.url, commandTimeoutMs: 500, connectTimeoutMs: 500 } as const;
      const [closedEsm, closedCjs, open] = await started(
        startReceiver({ ...common, format: 'esm' }),
        startReceiver({ ...common, format: 'cjs', whenUnavailable: 'fail-closed' }),
        startReceiver({ ...common, format: 'esm', whenUnavailable: 'fail-open' }),
      );
      // Connected and working first: one delivery accepted once across the three. On a busy machine a first
      // answer can miss the 500 ms bound (that receiver then warns and recovers), so fresh deliveries are sent
      // until one is, and the warnings counted from there.
      const receivers = [closedEsm, closedCjs, open];
      for (let n = 0; ; n++) {
        const d = delivery(500 + n);
        const seen = tally(await Promise.all(receivers.map((r) => send(r, d))));
        if (n === 19 || (seen.accepted === 1 && seen['200 REPLAYED'] === 2)) {
          expect(seen).toEqual({ accepted: 1, '200 REPLAYED': 2 });
          break;
        }
      }
      const warnedBefore = await Promise.all(receivers.map(async (r) => (await r.warnings()).length));
      process.kill(redis.pid, 'SIGKILL');
      await redis.stop();
      const startedAt = Date.now();
      // A timer of the 500 ms bound set alongside: the bound is judged from when it actually fired.
      const fired = timerFired(500);
      const results = await Promise.all(
        [closedEsm, closedCjs, open].map((r, i) =>
          Promise.all(Array.from({ length: 5 }, (_, n) => send(r, delivery(600 + i * 10 + n)))),
        ),
      );
      // Each answer is bounded (a refused connection fails at once; at most one connect or command bound).
      expect(Date.now() - startedAt).toBeLessThan((await fired) + SLOW_MACHINE_MS);
      expect(tally(results[0]!)).toEqual({ '503 REPLAY_STORE_UNAVAILABLE': 5 });
      expect(tally(results[1]!)).toEqual({ '503 REPLAY_STORE_UNAVAILABLE': 5 });
      expect(tally(results[2]!)).toEqual({ accepted: 5 });
      // A second wave: still refused (or accepted), and no second warning within the outage.
      expect(await send(closedCjs, delivery(700))).toEqual({ status: 503, text: 'REPLAY_STORE_UNAVAILABLE' });
      expect(await send(open, delivery(701))).toEqual({ status: 204, text: '' });
      for (const [i, r] of receivers.entries())
        expect((await r.warnings()).slice(warnedBefore[i])).toEqual(['REPLAY_STORE_UNAVAILABLE']);
    } finally {
      await redis.stop();
    }
  });
});
