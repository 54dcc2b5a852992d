import { fail } from './errors.js';

/**
 * Remembers verified deliveries so a captured, validly signed delivery cannot be replayed
 * within the timestamp tolerance window. Receivers running as more than one process share one store:
 * `RedisReplayStore` from `@svc/a11y-sdk/redis`, or your own over a database.
 *
 * `verifyWebhook` calls it only for a delivery whose signature verified, with a key derived from the signed
 * material alone (timestamp and raw body): `'signed:'` + 64 hex chars. The unsigned `X-Svc-Delivery` and
 * `X-Svc-Event` headers never reach the store, so resending a delivery under fresh ids neither adds entries
 * nor passes.
 */
export interface ReplayStore {
  /**
   * Returns `true` when `id` (the signed-content key) was already seen and has not expired; otherwise records it
   * until `expiresAtMs` (epoch milliseconds: the first instant at which the delivery's timestamp is out of
   * tolerance) and returns `false`. Must be atomic per key. An entry must not be dropped before `expiresAtMs`:
   * a store with no room throws instead. A `WebhookVerificationError` with reason `REPLAY_STORE_FULL`,
   * `REPLAY_STORE_UNAVAILABLE` or `REPLAY_STORE_EVICTION` reaches the caller with its reason and message; any
   * other error (or an answer that is not a boolean) is reported as `REPLAY_STORE_UNAVAILABLE`: the delivery is
   * refused (fail closed), yet not as a replay, which a receiver would acknowledge.
   */
  checkAndRemember(id: string, expiresAtMs: number): boolean | Promise<boolean>;
}

/** Options for {@link MemoryReplayStore}. */
export interface MemoryReplayStoreOptions {
  /**
   * Maximum entries kept. Expired entries are dropped to make room; an entry that has not expired never is: when
   * every entry is live, a new delivery is refused (`REPLAY_STORE_FULL`). Size it above the deliveries received
   * in one tolerance window (twice `toleranceSeconds`, since timestamps may be early or late).
   * @default 10000
   */
  maxEntries?: number | undefined;
  /**
   * Millisecond clock used to decide expiry.
   * @default Date.now
   */
  now?: (() => number) | undefined;
}

/**
 * In-memory, single-process {@link ReplayStore} with per-entry expiry and a bounded size. When full of live
 * entries it throws `WebhookVerificationError` (`REPLAY_STORE_FULL`) rather than forget one.
 *
 * @example
 * ```ts
 * const replayStore = new MemoryReplayStore();
 * await verifyWebhook({ body, headers, secret, replayStore }); // second identical delivery -> REPLAYED
 * ```
 */
export class MemoryReplayStore implements ReplayStore {
  // Map iteration order is insertion order. Timestamps of genuine deliveries are close to their arrival, so
  // the first keys are usually the first to expire.
  readonly #entries = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #now: () => number;
  // Lower bound on every stored expiry: while the clock is below it, nothing can be freed, which keeps a
  // refusal O(1) when the store is full of live entries.
  #earliestExpiry = Infinity;

  /**
   * Creates an empty store.
   * @param options - See {@link MemoryReplayStoreOptions}.
   */
  constructor(options: MemoryReplayStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? 10_000;
    if (!(Number.isInteger(maxEntries) && maxEntries > 0))
      throw new RangeError('MemoryReplayStore: maxEntries must be a positive integer');
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
  }

  /** Number of entries currently held (including expired ones not yet swept). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * {@inheritDoc ReplayStore.checkAndRemember}
   * @throws WebhookVerificationError `REPLAY_STORE_FULL` when `maxEntries` live entries are held (nothing recorded).
   */
  checkAndRemember(id: string, expiresAtMs: number): boolean {
    const entries = this.#entries;
    const max = this.#maxEntries;
    const now = this.#now();
    // `undefined > now` is false: an unknown key is new.
    if (entries.get(id)! > now) return true;
    // An expired entry is re-added at the end, as the newest.
    entries.delete(id);
    if (entries.size >= max) {
      // Expired entries at the front go first: each is deleted once, so this is O(1) amortised.
      for (const [key, expiry] of entries) {
        if (expiry > now) break;
        entries.delete(key);
      }
      // An expired entry behind a live one (a delivery timestamped late): one pass frees all of them.
      if (entries.size >= max && now >= this.#earliestExpiry) {
        this.#earliestExpiry = Infinity;
        for (const [key, expiry] of entries) {
          if (expiry <= now) entries.delete(key);
          else if (expiry < this.#earliestExpiry) this.#earliestExpiry = expiry;
        }
      }
      // Every entry is live: forgetting one would let its delivery be replayed, so this one is refused instead.
      if (entries.size >= max) {
        fail(
          'REPLAY_STORE_FULL',
          `MemoryReplayStore is full: its maxEntries (${max}) deliveries are all inside the tolerance window. Raise maxEntries.`,
        );
      }
    }
    entries.set(id, expiresAtMs);
    if (expiresAtMs < this.#earliestExpiry) this.#earliestExpiry = expiresAtMs;
    return false;
  }
}
