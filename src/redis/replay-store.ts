// The webhook replay guard shared by every receiver process behind a load balancer: one atomic `SET key 1 NX PX
// ttl` per verified delivery, so of any number of copies of one signed delivery arriving at any number of
// processes at once, exactly one finds the key absent. The key is the one `verifyWebhook` derives from the
// signed timestamp and body (nothing unsigned reaches it), and it lives until the delivery's timestamp leaves
// the tolerance, plus a margin for receivers whose clocks disagree. Every wait on Redis is bounded by the
// store's connection (connection.ts); when Redis fails, the store refuses (fail-closed, the default) or lets
// deliveries through unchecked (fail-open), and says so once per outage.
import { WebhookVerificationError } from '../webhooks/errors.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import { RedisConnection, sendCommand, type RedisConnectionOptions } from './connection.js';

/** A warning the replay store gives the caller instead of writing a log: once when Redis fails, once when it is back. */
export interface ReplayStoreWarning {
  /**
   * `REPLAY_STORE_UNAVAILABLE` on the first failure of an outage (Redis unreachable, too slow, or answering an
   * error), `REPLAY_STORE_RECOVERED` on the first answer after it.
   */
  code: 'REPLAY_STORE_UNAVAILABLE' | 'REPLAY_STORE_RECOVERED';
  /** What happened and what the store does meanwhile (never holds the Redis URL or its password). */
  message: string;
  /** Redis' or the connection's error, when there was one. */
  cause?: unknown;
}

/** Options of {@link RedisReplayStore}: how to reach Redis (as for `RedisRateLimitStore`) and what to do without it. */
export type RedisReplayStoreOptions = RedisConnectionOptions & {
  /**
   * What `verifyWebhook` does with a delivery while Redis fails or does not answer within the bounds:
   * `'fail-closed'` refuses it with reason `REPLAY_STORE_UNAVAILABLE` (answer 503: the sender delivers it again
   * later); `'fail-open'` accepts it without the replay check (a replay within the tolerance would pass), and
   * `onWarning` hears of it once per outage.
   * @default 'fail-closed'
   */
  whenUnavailable?: 'fail-closed' | 'fail-open' | undefined;
  /**
   * Called once when Redis fails (`REPLAY_STORE_UNAVAILABLE`) and once when it answers again
   * (`REPLAY_STORE_RECOVERED`), whichever `whenUnavailable`. A hook that throws is ignored.
   * @default undefined
   * @example { onWarning: (w) => console.warn(`[webhooks] ${w.code}: ${w.message}`) }
   */
  onWarning?: ((warning: ReplayStoreWarning) => void) | undefined;
  /**
   * Prefix of the store's keys in Redis (each key is the prefix, `signed:` and 64 hex digits).
   * @default 'svc-a11y:replay:v1:'
   */
  keyPrefix?: string | undefined;
  /**
   * How much longer than the delivery's tolerance window each entry is kept, in milliseconds: the receivers'
   * clocks may disagree by up to this much, and a receiver whose clock is behind still accepts the timestamp
   * after a receiver on time would have let the entry expire.
   * @default 60000
   */
  clockSkewMs?: number | undefined;
  /**
   * Millisecond clock the entries' lifetimes are computed from (`verifyWebhook`'s `now`, if you pass one).
   * @default Date.now
   */
  now?: (() => number) | undefined;
};

// The only ids verifyWebhook passes: a hash of the signed material. Anything else never creates a key.
const SIGNED_ID = /^signed:[\da-f]{64}$/;

/**
 * A {@link ReplayStore} in Redis, shared by every receiver process that uses the same server and key prefix:
 * a delivery is accepted once across all of them, whichever process each copy reaches. Pass it to
 * `verifyWebhook` as `replayStore`. Needs Redis ≥ 2.6.12 with `maxmemory-policy noeviction` (Redis' default):
 * an evicted entry would let its delivery be replayed, while a full Redis refuses new deliveries
 * (`REPLAY_STORE_FULL`).
 * @example
 * ```ts
 * import { verifyWebhook } from '@svc/a11y-sdk/webhooks';
 * import { RedisReplayStore } from '@svc/a11y-sdk/redis';
 * const replayStore = new RedisReplayStore({ url: process.env.SVC_REDIS_URL! });
 * const event = await verifyWebhook({ body, headers, secret, replayStore });
 * // REPLAYED → 200 (already accepted once); REPLAY_STORE_UNAVAILABLE or _FULL → 503; other reasons → 400.
 * ```
 */
export class RedisReplayStore implements ReplayStore {
  readonly #connection: RedisConnection;
  readonly #failOpen: boolean;
  readonly #onWarning: ((warning: ReplayStoreWarning) => void) | undefined;
  readonly #keyPrefix: string;
  readonly #clockSkewMs: number;
  readonly #now: () => number;
  #down = false;

  /**
   * Creates the store; nothing connects until {@link RedisReplayStore.connect} or the first delivery (the
   * `redis` package starts loading now).
   * @param options - `{ url }` or `{ client }`, the time bounds, and what to do while Redis fails
   * @throws TypeError when neither `url` nor `client` is given, or an option is out of range
   */
  constructor(options: RedisReplayStoreOptions) {
    this.#connection = new RedisConnection(options, 'RedisReplayStore');
    const { whenUnavailable = 'fail-closed', keyPrefix = 'svc-a11y:replay:v1:', clockSkewMs = 60_000 } = options;
    if (whenUnavailable !== 'fail-closed' && whenUnavailable !== 'fail-open')
      throw new TypeError(`RedisReplayStore: whenUnavailable must be 'fail-closed' or 'fail-open'.`);
    if (typeof keyPrefix !== 'string') throw new TypeError('RedisReplayStore: keyPrefix must be a string.');
    if (!(Number.isSafeInteger(clockSkewMs) && clockSkewMs >= 0))
      throw new TypeError('RedisReplayStore: clockSkewMs must be a whole number of milliseconds ≥ 0.');
    this.#failOpen = whenUnavailable === 'fail-open';
    this.#onWarning = options.onWarning;
    this.#keyPrefix = keyPrefix;
    this.#clockSkewMs = clockSkewMs;
    this.#now = options.now ?? Date.now;
  }

  /**
   * {@inheritDoc ReplayStore.checkAndRemember}
   * @throws WebhookVerificationError `REPLAY_STORE_UNAVAILABLE` while Redis fails (with `whenUnavailable`
   * `'fail-closed'`), `REPLAY_STORE_FULL` when Redis is out of memory (nothing recorded)
   * @throws TypeError for an id `verifyWebhook` would not pass (nothing sent to Redis)
   */
  async checkAndRemember(id: string, expiresAtMs: number): Promise<boolean> {
    if (!SIGNED_ID.test(id) || !Number.isFinite(expiresAtMs))
      throw new TypeError("RedisReplayStore: id must be verifyWebhook's 'signed:' key and expiresAtMs a finite time.");
    // Relative to this process' clock, the one verifyWebhook judged the timestamp by (never below 1 ms: Redis
    // refuses 0). Kept longer, never shorter: an entry outliving its window costs memory, not safety.
    const ttlMs = Math.min(Math.max(1, Math.ceil(expiresAtMs - this.#now())) + this.#clockSkewMs, 2 ** 52);
    const key = this.#keyPrefix + id;
    let reply: unknown;
    try {
      reply = await this.#connection.send((client) =>
        sendCommand(client, ['SET', key, '1', 'NX', 'PX', String(ttlMs)]),
      );
      // 'OK': this call created the key (the first copy); null: it existed.
      if (reply !== 'OK' && reply !== null) throw new TypeError(`Redis answered SET NX with ${typeof reply}.`);
    } catch (error) {
      // Out of memory under noeviction (Redis refuses every write then, even one that would change nothing):
      // nothing was recorded, and forgetting older entries is not ours to do. A delivery already recorded is
      // still a replay, which a read (allowed under OOM) tells.
      if (/^OOM\b/.test(String((error as Error)?.message))) return this.#full(key, error);
      return this.#unavailable(error);
    }
    if (this.#down) {
      this.#down = false;
      this.#warn({ code: 'REPLAY_STORE_RECOVERED', message: 'Redis answers the webhook replay store again.' });
    }
    return reply === null;
  }

  /**
   * Connects now (from `{ url }`) instead of on the first delivery. Rejects when the `redis` package is missing
   * or Redis cannot be reached within `connectTimeoutMs`.
   */
  async connect(): Promise<void> {
    await this.#connection.connect();
  }

  /**
   * Closes the connection the store opened from `{ url }`, at once; a client you passed is yours to close.
   * The store is not used again: later deliveries are treated as while Redis is down.
   */
  async close(): Promise<void> {
    this.#connection.close();
  }

  async #full(key: string, error: unknown): Promise<true> {
    const exists = await this.#connection.send((client) => sendCommand(client, ['EXISTS', key])).catch(() => 0);
    if (Number(exists) === 1) return true;
    throw new WebhookVerificationError(
      'REPLAY_STORE_FULL',
      'RedisReplayStore: Redis is out of memory (maxmemory), so the delivery could not be recorded. Raise maxmemory.',
      { cause: error },
    );
  }

  #unavailable(error: unknown): false {
    const failOpen = this.#failOpen;
    if (!this.#down) {
      this.#down = true;
      this.#warn({
        code: 'REPLAY_STORE_UNAVAILABLE',
        message: `The webhook replay store cannot reach Redis (see cause): ${
          failOpen
            ? 'deliveries are accepted without the replay check (fail-open)'
            : 'deliveries are refused with REPLAY_STORE_UNAVAILABLE (fail-closed)'
        } until it answers again.`,
        cause: error,
      });
    }
    if (failOpen) return false;
    throw new WebhookVerificationError(
      'REPLAY_STORE_UNAVAILABLE',
      'RedisReplayStore: Redis did not answer (see cause), so the delivery cannot be confirmed as new; it was not accepted.',
      { cause: error },
    );
  }

  #warn(warning: ReplayStoreWarning): void {
    try {
      this.#onWarning?.(warning);
    } catch {
      // A throwing hook must not change the delivery's outcome.
    }
  }
}
