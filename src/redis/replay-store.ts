// The webhook replay guard shared by every receiver process behind a load balancer: one atomic `SET key 1 NX PX
// ttl` per verified delivery, so of any number of copies of one signed delivery arriving at any number of
// processes at once, exactly one finds the key absent. The key is the one `verifyWebhook` derives from the
// signed timestamp and body (nothing unsigned reaches it), and it lives until the delivery's timestamp leaves
// the tolerance, plus a margin for receivers whose clocks disagree. Every wait on Redis is bounded by the
// store's connection (connection.ts); when Redis fails, the store refuses (fail-closed, the default) or lets
// deliveries through unchecked (fail-open), and says so once per outage.
//
// An entry must outlive its delivery's window, so Redis must never evict one: only `maxmemory-policy noeviction`
// promises that (every `allkeys-*` policy evicts any key, every `volatile-*` one a key with a TTL, as all of these
// are). The policy is read on each new connection before its first delivery (CONFIG GET, or INFO memory where
// CONFIG is disabled) and after an outage, then again once a minute (by the store's clock) beside a delivery that
// does not wait for it: no round trip is added per delivery. Under a policy that can evict, fail-closed refuses
// deliveries (REPLAY_STORE_EVICTION), each reading the policy again instead of writing, and fail-open accepts them;
// either says so once. A policy neither command may read is said once too, and deliveries are accepted.
import { WebhookVerificationError } from '../webhooks/errors.js';
import type { ReplayStore } from '../webhooks/replay-store.js';
import { RedisConnection, sendCommand, type RedisConnectionOptions, type RedisLikeClient } from './connection.js';

/**
 * A warning the replay store gives the caller instead of writing a log: once when Redis fails, once when it is back;
 * once when Redis may evict the store's entries (or its policy cannot be read), once when it no longer may.
 */
export interface ReplayStoreWarning {
  /**
   * - `REPLAY_STORE_UNAVAILABLE`: the first failure of an outage (Redis unreachable, too slow, or answering an
   *   error).
   * - `REPLAY_STORE_RECOVERED`: the first answer after an outage, or `maxmemory-policy` read as `noeviction` after
   *   one of the two warnings below.
   * - `REPLAY_STORE_EVICTION`: Redis' `maxmemory-policy` is not `noeviction`, so it may evict an entry before it
   *   expires and let its delivery be replayed; fail-closed refuses deliveries meanwhile, fail-open accepts them.
   *   Given once, and again when the policy read changes.
   * - `REPLAY_STORE_EVICTION_UNCHECKED`: neither `CONFIG GET maxmemory-policy` nor `INFO memory` was allowed, so
   *   the policy is unknown; deliveries are accepted in both modes (`cause` holds Redis' refusals).
   */
  code:
    | 'REPLAY_STORE_UNAVAILABLE'
    | 'REPLAY_STORE_RECOVERED'
    | 'REPLAY_STORE_EVICTION'
    | 'REPLAY_STORE_EVICTION_UNCHECKED';
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
   * `onWarning` hears of it once per outage. The same choice applies while Redis' `maxmemory-policy` is one that
   * can evict the store's entries (anything but `noeviction`): `'fail-closed'` refuses every delivery with reason
   * `REPLAY_STORE_EVICTION` (answer 503) until the policy is `noeviction`; `'fail-open'` accepts them with the
   * replay check, which an evicted entry escapes, and `onWarning` hears of it once.
   * @default 'fail-closed'
   */
  whenUnavailable?: 'fail-closed' | 'fail-open' | undefined;
  /**
   * Called once when Redis fails (`REPLAY_STORE_UNAVAILABLE`) and once when it answers again
   * (`REPLAY_STORE_RECOVERED`), once when its `maxmemory-policy` can evict the store's entries
   * (`REPLAY_STORE_EVICTION`) or cannot be read (`REPLAY_STORE_EVICTION_UNCHECKED`), whichever `whenUnavailable`.
   * A hook that throws is ignored.
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
// How long (by the store's clock) a policy read on the connection in use is trusted before it is read again, in the
// background: a `CONFIG SET maxmemory-policy` made while connected is noticed within about this long.
const POLICY_RECHECK_MS = 60_000;

// What the store knows of Redis' eviction policy: `noeviction` (the only one that never evicts an entry), another
// policy (all the others can evict these keys), or nothing, both ways to read it having been refused.
type EvictionPolicy =
  | { kind: 'noeviction' }
  | { kind: 'evicts'; name: string }
  | { kind: 'unreadable'; cause: unknown };

/**
 * A {@link ReplayStore} in Redis, shared by every receiver process that uses the same server and key prefix:
 * a delivery is accepted once across all of them, whichever process each copy reaches. Pass it to
 * `verifyWebhook` as `replayStore`. Needs Redis ≥ 2.6.12 with `maxmemory-policy noeviction` (Redis' default):
 * an evicted entry would let its delivery be replayed, while a full Redis refuses new deliveries
 * (`REPLAY_STORE_FULL`). The store reads the policy on each new connection (then once a minute while in use, and
 * after an outage): under any other policy, fail-closed refuses deliveries (`REPLAY_STORE_EVICTION`) and
 * fail-open accepts them; either way `onWarning` hears of it once.
 * @example
 * ```ts
 * import { verifyWebhook } from '@svc/a11y-sdk/webhooks';
 * import { RedisReplayStore } from '@svc/a11y-sdk/redis';
 * const replayStore = new RedisReplayStore({ url: process.env.SVC_REDIS_URL! });
 * const event = await verifyWebhook({ body, headers, secret, replayStore });
 * // REPLAYED → 200 (already accepted once); REPLAY_STORE_UNAVAILABLE, _FULL or _EVICTION → 503; others → 400.
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
  #outages = 0;
  // The eviction policy last read, the connection it was read on (read again on any other), when (by #now), the
  // read under way (shared by the deliveries waiting for it), and the policy last warned about ('' for none).
  #policy: EvictionPolicy | undefined;
  #policyClient: RedisLikeClient | undefined;
  #policyReadAt = 0;
  #policyRead: Promise<void> | undefined;
  #policyWarned = '';

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
   * @throws WebhookVerificationError `REPLAY_STORE_UNAVAILABLE` while Redis fails and `REPLAY_STORE_EVICTION`
   * while its `maxmemory-policy` can evict entries (both with `whenUnavailable` `'fail-closed'`; nothing
   * recorded), `REPLAY_STORE_FULL` when Redis is out of memory (nothing recorded)
   * @throws TypeError for an id `verifyWebhook` would not pass (nothing sent to Redis)
   */
  async checkAndRemember(id: string, expiresAtMs: number): Promise<boolean> {
    if (!SIGNED_ID.test(id) || !Number.isFinite(expiresAtMs))
      throw new TypeError("RedisReplayStore: id must be verifyWebhook's 'signed:' key and expiresAtMs a finite time.");
    // Relative to this process' clock, the one verifyWebhook judged the timestamp by (never below 1 ms: Redis
    // refuses 0). Kept longer, never shorter: an entry outliving its window costs memory, not safety.
    const ttlMs = Math.min(Math.max(1, Math.ceil(expiresAtMs - this.#now())) + this.#clockSkewMs, 2 ** 52);
    const key = this.#keyPrefix + id;
    try {
      await this.#knowPolicy();
    } catch (error) {
      return this.#unavailable(error);
    }
    const policy = this.#policy;
    if (policy?.kind === 'evicts' && !this.#failOpen) {
      throw new WebhookVerificationError(
        'REPLAY_STORE_EVICTION',
        `RedisReplayStore: Redis' maxmemory-policy is ${policy.name}, which can evict the replay store's entries before they expire (letting their deliveries be replayed), so the delivery was not accepted. Set maxmemory-policy noeviction.`,
      );
    }
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
    this.#answered();
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

  // The policy of the connection deliveries are sent on. Read, and waited for, on a connection not read yet, and
  // by every delivery while the policy refuses them (fail-closed under a policy that evicts: a read instead of the
  // SET, so the first delivery after the fix passes). Otherwise read again in the background once the last read is
  // POLICY_RECHECK_MS old: no round trip is added to a delivery. Rejects only when Redis fails.
  async #knowPolicy(): Promise<void> {
    const client = await this.#connection.connect();
    if (client !== this.#policyClient || (this.#policy?.kind === 'evicts' && !this.#failOpen))
      return this.#readPolicy();
    if (this.#now() - this.#policyReadAt >= POLICY_RECHECK_MS) {
      // Its failure is the next delivery's to find (an outage fails the SET too); the last policy read stands.
      this.#readPolicy().catch(() => undefined);
    }
  }

  #readPolicy(): Promise<void> {
    const outages = this.#outages;
    this.#policyRead ??= this.#connection
      .send(async (client) => ({ client, policy: await readPolicy(client) }))
      .then((read) => {
        const { client, policy } = read as { client: RedisLikeClient; policy: EvictionPolicy };
        this.#policyReadAt = this.#now();
        // An answer to a read sent before an outage began neither ends it nor vouches for the connection after it.
        if (outages === this.#outages) {
          this.#policyClient = client;
          this.#answered();
        }
        this.#setPolicy(policy);
      })
      .finally(() => {
        this.#policyRead = undefined;
      });
    return this.#policyRead;
  }

  // Warns once per policy read (not per delivery): again only when it changes, and once when it is safe again.
  #setPolicy(policy: EvictionPolicy): void {
    this.#policy = policy;
    const state = policy.kind === 'evicts' ? `evicts:${policy.name}` : policy.kind === 'unreadable' ? 'unreadable' : '';
    if (state === this.#policyWarned) return;
    this.#policyWarned = state;
    if (policy.kind === 'noeviction') {
      this.#warn({
        code: 'REPLAY_STORE_RECOVERED',
        message:
          "Redis' maxmemory-policy is noeviction now: the webhook replay store's entries are kept until they expire.",
      });
    } else if (policy.kind === 'evicts') {
      this.#warn({
        code: 'REPLAY_STORE_EVICTION',
        message: `Redis' maxmemory-policy is ${policy.name}, which can evict the webhook replay store's entries before they expire (an evicted delivery could be replayed): ${
          this.#failOpen
            ? 'deliveries are accepted, checked only against the entries still there (fail-open)'
            : 'deliveries are refused with REPLAY_STORE_EVICTION (fail-closed)'
        } until it is noeviction.`,
      });
    } else {
      this.#warn({
        code: 'REPLAY_STORE_EVICTION_UNCHECKED',
        message:
          "The webhook replay store cannot read Redis' maxmemory-policy (CONFIG GET and INFO memory were refused, see cause): deliveries are accepted, and if the policy is not noeviction an evicted delivery could be replayed. Make sure it is noeviction.",
        cause: policy.cause,
      });
    }
  }

  // Redis answered: the end of an outage, if there was one.
  #answered(): void {
    if (this.#down) {
      this.#down = false;
      this.#warn({ code: 'REPLAY_STORE_RECOVERED', message: 'Redis answers the webhook replay store again.' });
    }
  }

  #unavailable(error: unknown): false {
    const failOpen = this.#failOpen;
    // The connection that comes back (a caller's client reconnects by itself, maybe to another server) is read again.
    this.#policyClient = undefined;
    this.#outages++;
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

// Redis' refusal of a command (an error reply, its code first: `ERR unknown command`, `NOPERM`, a provider's own),
// as against a lost connection or a bound exceeded. A server loading, busy or failing over refuses the SET as well:
// that is an outage, not a policy nobody may read.
function refused(error: unknown): boolean {
  const message = String((error as Error | undefined)?.message ?? '');
  return (
    /^[A-Z]{2,}\b/.test(message) && !/^(LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|NOAUTH|WRONGPASS)\b/.test(message)
  );
}

// The policy's name, as either command gives it (bounded in length: it ends up in messages).
function policyOf(name: unknown): EvictionPolicy | undefined {
  const text = String(name ?? '')
    .trim()
    .toLowerCase();
  if (!/^[a-z][\w-]{0,63}$/.test(text)) return undefined;
  return text === 'noeviction' ? { kind: 'noeviction' } : { kind: 'evicts', name: text };
}

// `CONFIG GET maxmemory-policy` (a [name, value] list in RESP2, a map in RESP3), else `INFO memory`'s
// `maxmemory_policy` line (Redis ≥ 3.2; where CONFIG is renamed or disabled, as on many managed services). Throws
// only when Redis fails; two refusals make the policy unreadable.
async function readPolicy(client: RedisLikeClient): Promise<EvictionPolicy> {
  const refusals: unknown[] = [];
  try {
    const reply = await sendCommand(client, ['CONFIG', 'GET', 'maxmemory-policy']);
    const value = Array.isArray(reply)
      ? reply[reply.findIndex((word) => String(word).toLowerCase() === 'maxmemory-policy') + 1]
      : reply instanceof Map
        ? reply.get('maxmemory-policy')
        : (reply as Record<string, unknown> | null)?.['maxmemory-policy'];
    const policy = policyOf(value);
    if (policy) return policy;
    refusals.push(new Error('CONFIG GET maxmemory-policy answered no policy.'));
  } catch (error) {
    if (!refused(error)) throw error;
    refusals.push(error);
  }
  try {
    const info = await sendCommand(client, ['INFO', 'memory']);
    const policy = policyOf(/^maxmemory_policy:(.*)$/m.exec(String(info))?.[1]);
    if (policy) return policy;
    refusals.push(new Error('INFO memory answered no maxmemory_policy.'));
  } catch (error) {
    if (!refused(error)) throw error;
    refusals.push(error);
  }
  return { kind: 'unreadable', cause: new AggregateError(refusals, "Redis' maxmemory-policy could not be read.") };
}
