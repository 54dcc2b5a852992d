// The replay guard is keyed on what is signed (timestamp + raw body), never on the unsigned X-Svc-Delivery id:
// a genuine delivery resent under any number of fresh ids is refused after the first, nothing unsigned or invalid
// creates or evicts an entry, a full store refuses (REPLAY_STORE_FULL) rather than forget a live entry, and entries
// past the tolerance are freed. Clocks are injected: nothing here depends on the machine's speed.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  MemoryReplayStore,
  WebhookVerificationError,
  verifyWebhook,
  type ReplayStore,
  type VerifyWebhookOptions,
  type WebhookVerificationReason,
} from '../../src/webhooks/index.js';
import { verifyWebhookWith } from '../../src/webhooks/verify.js';

const SECRET = 'whsec_replay_test_secret';
const T0 = 1_700_000_000;
const TOLERANCE = 300;

/** A mutable millisecond clock shared by verifyWebhook and the store. */
function clockAt(seconds: number) {
  const clock = { ms: seconds * 1000, now: () => clock.ms };
  return clock;
}

/** A genuine delivery: signed with node:crypto (independently of the code under test) over `timestamp.body`. */
function delivery(n: number, timestamp = T0, id = `dlv_${n}`) {
  const body = JSON.stringify({ type: 'scan_run.completed', scanRun: { id: `sr_${n}`, status: 'COMPLETED' } });
  const signature = `v1=${createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex')}`;
  const headers: Record<string, string> = {
    'x-svc-event': 'scan_run.completed',
    'x-svc-delivery': id,
    'x-svc-timestamp': String(timestamp),
    'x-svc-signature': signature,
  };
  return { body, headers };
}

function options(
  d: { body: string; headers: Record<string, string> },
  replayStore: ReplayStore,
  now: () => number,
  extra: Partial<VerifyWebhookOptions> = {},
): VerifyWebhookOptions {
  return { body: d.body, headers: d.headers, secret: SECRET, toleranceSeconds: TOLERANCE, now, replayStore, ...extra };
}

async function outcome(promise: Promise<unknown>): Promise<'accepted' | WebhookVerificationReason> {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return error.reason;
  }
}

/** The same signed delivery under `count` fresh ids (and event kinds): every outcome, counted by kind. */
async function replayUnderFreshIds(
  d: { body: string; headers: Record<string, string> },
  store: ReplayStore,
  now: () => number,
  count: number,
) {
  const outcomes = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const headers = {
      ...d.headers,
      'x-svc-delivery': `attacker_${i}_${'x'.repeat(i % 7)}`,
      'x-svc-event': `kind_${i % 3}`,
    };
    const result = await outcome(verifyWebhook(options({ body: d.body, headers }, store, now)));
    outcomes.set(result, (outcomes.get(result) ?? 0) + 1);
  }
  return Object.fromEntries(outcomes);
}

describe('a genuine delivery replayed under fresh X-Svc-Delivery ids', () => {
  it.each([
    ['the default store (maxEntries 10 000)', undefined, 10_050],
    ['maxEntries 100', 100, 10_050],
    ['maxEntries 1', 1, 2_000],
  ])('%s: accepted once, refused every time after, the store holds one entry', async (_label, maxEntries, replays) => {
    const clock = clockAt(T0);
    const store = new MemoryReplayStore({ maxEntries, now: clock.now });
    const genuine = delivery(1);
    expect(await outcome(verifyWebhook(options(genuine, store, clock.now)))).toBe('accepted');
    expect(await replayUnderFreshIds(genuine, store, clock.now, replays)).toEqual({ REPLAYED: replays });
    // Nothing unsigned created an entry, so nothing was flushed: the original, under its own id, is still refused.
    expect(store.size).toBe(1);
    expect(await outcome(verifyWebhook(options(genuine, store, clock.now)))).toBe('REPLAYED');
  });

  it('with the store otherwise full of other genuine deliveries: still REPLAYED (not REPLAY_STORE_FULL), nothing evicted', async () => {
    const clock = clockAt(T0);
    const store = new MemoryReplayStore({ maxEntries: 100, now: clock.now });
    const all = Array.from({ length: 100 }, (_, n) => delivery(n));
    for (const d of all) expect(await outcome(verifyWebhook(options(d, store, clock.now)))).toBe('accepted');
    clock.ms += 60_000; // still inside the tolerance
    expect(await replayUnderFreshIds(all[0]!, store, clock.now, 10_050)).toEqual({ REPLAYED: 10_050 });
    expect(store.size).toBe(100);
    for (const d of all) expect(await outcome(verifyWebhook(options(d, store, clock.now)))).toBe('REPLAYED');
  });
});

describe('a full store refuses rather than forgets', () => {
  it('full of live entries: a new genuine delivery → REPLAY_STORE_FULL (not recorded); replays still REPLAYED', async () => {
    const clock = clockAt(T0);
    const store = new MemoryReplayStore({ maxEntries: 100, now: clock.now });
    const stored = Array.from({ length: 100 }, (_, n) => delivery(n));
    for (const d of stored) await verifyWebhook(options(d, store, clock.now));

    const fresh = delivery(1_000);
    const error = await verifyWebhook(options(fresh, store, clock.now)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('REPLAY_STORE_FULL');
    expect((error as WebhookVerificationError).message).toMatch(/maxEntries \(100\)/);
    expect(store.size).toBe(100);
    // Every stored delivery is still refused, first and last alike, under its own id or a fresh one.
    for (const d of stored) expect(await outcome(verifyWebhook(options(d, store, clock.now)))).toBe('REPLAYED');
    expect(
      await outcome(
        verifyWebhook(
          options({ ...stored[0]!, headers: { ...stored[0]!.headers, 'x-svc-delivery': 'fresh' } }, store, clock.now),
        ),
      ),
    ).toBe('REPLAYED');
    // The refused delivery left no entry: it is refused as full again, not as a replay.
    expect(await outcome(verifyWebhook(options(fresh, store, clock.now)))).toBe('REPLAY_STORE_FULL');
  });

  it('a custom store throwing REPLAY_STORE_FULL or REPLAY_STORE_UNAVAILABLE keeps its reason and message; any other store error is REPLAY_STORE_UNAVAILABLE (fail closed, never REPLAYED)', async () => {
    const clock = clockAt(T0);
    const errorOf = async (store: ReplayStore) =>
      (await verifyWebhook(options(delivery(1), store, clock.now)).catch(
        (e: unknown) => e,
      )) as WebhookVerificationError;
    for (const reason of ['REPLAY_STORE_FULL', 'REPLAY_STORE_UNAVAILABLE'] as const) {
      const refusing: ReplayStore = {
        checkAndRemember: () => Promise.reject(new WebhookVerificationError(reason, `redis store: ${reason}`)),
      };
      const error = await errorOf(refusing);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect([error.reason, error.message]).toEqual([reason, `redis store: ${reason}`]);
      // The same refusal from another copy of the package (its CommonJS entry's class): recognised by its reason.
      class OtherCopy extends Error {
        override name = 'WebhookVerificationError';
        constructor(readonly reason: string) {
          super(`other copy: ${reason}`);
        }
      }
      const fromOtherCopy = await errorOf({ checkAndRemember: () => Promise.reject(new OtherCopy(reason)) });
      expect(fromOtherCopy).toBeInstanceOf(WebhookVerificationError);
      expect([fromOtherCopy.reason, fromOtherCopy.message]).toEqual([reason, `other copy: ${reason}`]);
    }
    for (const thrown of [
      new WebhookVerificationError('SIGNATURE_MISMATCH', 'not a store reason'),
      new WebhookVerificationError('REPLAYED', 'a store must answer true, not throw'),
      new Error('ECONNREFUSED'),
      'a string',
    ]) {
      const other: ReplayStore = {
        checkAndRemember: () => {
          throw thrown;
        },
      };
      const error = await errorOf(other);
      expect(error.reason).toBe('REPLAY_STORE_UNAVAILABLE');
      expect(error.cause).toBe(thrown);
    }
  });
});

describe('entries past the tolerance are freed', () => {
  it('a full store takes new deliveries once its entries expire; the expired ones are refused by their timestamp', async () => {
    const clock = clockAt(T0);
    const store = new MemoryReplayStore({ maxEntries: 100, now: clock.now });
    const old = Array.from({ length: 100 }, (_, n) => delivery(n));
    for (const d of old) await verifyWebhook(options(d, store, clock.now));
    // Last millisecond of their window: still full.
    clock.ms = (T0 + TOLERANCE) * 1000;
    expect(await outcome(verifyWebhook(options(delivery(500, T0 + TOLERANCE), store, clock.now)))).toBe(
      'REPLAY_STORE_FULL',
    );
    // One millisecond later every entry has expired: room for a full store of new deliveries.
    clock.ms += 1;
    const later = Array.from({ length: 100 }, (_, n) => delivery(1_000 + n, T0 + TOLERANCE));
    expect(await outcome(verifyWebhook(options(later[0]!, store, clock.now)))).toBe('accepted');
    expect(store.size).toBe(1);
    for (const d of later.slice(1)) expect(await outcome(verifyWebhook(options(d, store, clock.now)))).toBe('accepted');
    expect(store.size).toBe(100);
    // A freed delivery is never accepted again: its timestamp is now out of tolerance.
    for (const d of old.slice(0, 5))
      expect(await outcome(verifyWebhook(options(d, store, clock.now)))).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
  });

  it('an expired entry behind live ones (deliveries timestamped early and late) is found and freed', async () => {
    const clock = clockAt(T0);
    const store = new MemoryReplayStore({ maxEntries: 3, now: clock.now });
    // Inserted first, but timestamped late (allowed: the tolerance applies both ways), so it expires last.
    const late = delivery(1, T0 + TOLERANCE);
    const early = delivery(2, T0 - TOLERANCE);
    const onTime = delivery(3, T0);
    for (const d of [late, early, onTime])
      expect(await outcome(verifyWebhook(options(d, store, clock.now)))).toBe('accepted');
    // `early` expires first, though it is not the oldest entry.
    clock.ms = T0 * 1000 + 1;
    expect(await outcome(verifyWebhook(options(delivery(4, T0), store, clock.now)))).toBe('accepted');
    expect(store.size).toBe(3);
    // The live ones were kept: `late` and `onTime` are still refused.
    expect(await outcome(verifyWebhook(options(late, store, clock.now)))).toBe('REPLAYED');
    expect(await outcome(verifyWebhook(options(onTime, store, clock.now)))).toBe('REPLAYED');
    expect(await outcome(verifyWebhook(options(delivery(5, T0), store, clock.now)))).toBe('REPLAY_STORE_FULL');
  });
});

describe('nothing unsigned or invalid touches the store', () => {
  const genuine = delivery(7);
  const tamper = (headers: Record<string, string | undefined>, body = genuine.body) => ({
    body,
    headers: { ...genuine.headers, ...headers } as Record<string, string>,
  });
  const otherMac = createHmac('sha256', 'whsec_wrong').update(`${T0}.${genuine.body}`).digest('hex');
  const invalid: [string, { body: string; headers: Record<string, string> }, WebhookVerificationReason][] = [
    ['a wrong signature', tamper({ 'x-svc-signature': `v1=${otherMac}` }), 'SIGNATURE_MISMATCH'],
    ['a tampered body', tamper({}, genuine.body.replace('COMPLETED', 'FAILED')), 'SIGNATURE_MISMATCH'],
    ['a timestamp moved by a second', tamper({ 'x-svc-timestamp': String(T0 + 1) }), 'SIGNATURE_MISMATCH'],
    ['a malformed signature', tamper({ 'x-svc-signature': 'v1=zz' }), 'MALFORMED_SIGNATURE'],
    ['no signature', tamper({ 'x-svc-signature': undefined }), 'MISSING_HEADER'],
    ['no delivery id', tamper({ 'x-svc-delivery': undefined }), 'MISSING_HEADER'],
    ['an out-of-tolerance timestamp', delivery(8, T0 - TOLERANCE - 1), 'TIMESTAMP_OUT_OF_TOLERANCE'],
  ];

  it.each([
    ['a store with room', 10],
    ['a full store', 3],
  ])(
    '%s: every invalid delivery is refused for its own reason, the store is never called',
    async (_label, maxEntries) => {
      const clock = clockAt(T0);
      const memory = new MemoryReplayStore({ maxEntries, now: clock.now });
      let calls = 0;
      const store: ReplayStore = {
        checkAndRemember: (key, expiry) => {
          calls++;
          return memory.checkAndRemember(key, expiry);
        },
      };
      const stored = [delivery(1), delivery(2), delivery(3)];
      for (const d of stored) await verifyWebhook(options(d, store, clock.now));
      const before = calls;
      for (const [, d, reason] of invalid) {
        for (let i = 0; i < 50; i++) {
          const headers = d.headers['x-svc-delivery'] ? { ...d.headers, 'x-svc-delivery': `fresh_${i}` } : d.headers;
          expect(await outcome(verifyWebhook(options({ body: d.body, headers }, store, clock.now)))).toBe(reason);
        }
      }
      expect(calls).toBe(before);
      expect(memory.size).toBe(3);
      // The stored entries are intact (none evicted) ...
      for (const d of stored) expect(await outcome(verifyWebhook(options(d, store, clock.now)))).toBe('REPLAYED');
      // ... and, with room, the genuine delivery the invalid ones imitated is accepted once (they created nothing).
      expect(await outcome(verifyWebhook(options(genuine, store, clock.now)))).toBe(
        maxEntries > 3 ? 'accepted' : 'REPLAY_STORE_FULL',
      );
    },
  );

  it('a signed body that is not JSON is refused before the store (INVALID_PAYLOAD), and leaves no entry', async () => {
    const clock = clockAt(T0);
    const store = new MemoryReplayStore({ now: clock.now });
    const body = 'not json';
    const signature = `v1=${createHmac('sha256', SECRET).update(`${T0}.${body}`).digest('hex')}`;
    const headers = { ...delivery(1).headers, 'x-svc-signature': signature };
    expect(await outcome(verifyWebhook(options({ body, headers }, store, clock.now)))).toBe('INVALID_PAYLOAD');
    expect(store.size).toBe(0);
  });
});

describe('concurrent verification of one delivery', () => {
  it.each([
    ['node:crypto, synchronous store', false, false],
    ['Web Crypto, synchronous store', true, false],
    ['node:crypto, asynchronous store', false, true],
    ['Web Crypto, asynchronous store', true, true],
  ])('%s: Promise.all of 50 (fresh ids) accepts exactly one', async (_label, forceWebCrypto, asyncStore) => {
    const clock = clockAt(T0);
    const memory = new MemoryReplayStore({ now: clock.now });
    const store: ReplayStore = asyncStore
      ? { checkAndRemember: async (key, expiry) => memory.checkAndRemember(key, expiry) }
      : memory;
    const d = delivery(1);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        outcome(
          verifyWebhookWith(
            options(
              {
                body: d.body,
                headers: { ...d.headers, 'x-svc-delivery': i % 2 ? d.headers['x-svc-delivery']! : `c_${i}` },
              },
              store,
              clock.now,
            ),
            { forceWebCrypto },
          ),
        ),
      ),
    );
    expect(results.filter((r) => r === 'accepted')).toHaveLength(1);
    expect(results.filter((r) => r === 'REPLAYED')).toHaveLength(49);
    expect(memory.size).toBe(1);
  });
});
