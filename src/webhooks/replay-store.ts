/**
 * Remembers delivery ids so a captured, validly signed delivery cannot be replayed
 * within the timestamp tolerance window. Implement this over Redis, a database, etc.
 * when running more than one process.
 */
export interface ReplayStore {
  /**
   * Returns `true` when `id` was already seen and has not expired; otherwise records it
   * until `expiresAtMs` (epoch milliseconds) and returns `false`. Must be atomic per id.
   */
  checkAndRemember(id: string, expiresAtMs: number): boolean | Promise<boolean>;
}

/** Options for {@link MemoryReplayStore}. */
export interface MemoryReplayStoreOptions {
  /**
   * Maximum ids kept; when full, expired ids are dropped first, then the oldest.
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
 * In-memory, single-process {@link ReplayStore} with per-id expiry and a bounded size.
 *
 * @example
 * ```ts
 * const replayStore = new MemoryReplayStore();
 * await verifyWebhook({ body, headers, secret, replayStore }); // second identical delivery -> REPLAYED
 * ```
 */
export class MemoryReplayStore implements ReplayStore {
  // Map iteration order is insertion order, so the first key is the oldest entry.
  readonly #entries = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #now: () => number;
  // Lower bound on every stored expiry: while the clock is below it, a sweep cannot free anything,
  // which keeps inserts O(1) when the store is full of live ids.
  #earliestExpiry = Infinity;

  /**
   * Creates an empty store.
   * @param options - See {@link MemoryReplayStoreOptions}.
   */
  constructor(options: MemoryReplayStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? 10_000;
    if (!(Number.isInteger(maxEntries) && maxEntries > 0)) throw new RangeError('MemoryReplayStore: maxEntries must be a positive integer');
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
  }

  /** Number of ids currently held (including expired ones not yet swept). */
  get size(): number {
    return this.#entries.size;
  }

  /** {@inheritDoc ReplayStore.checkAndRemember} */
  checkAndRemember(id: string, expiresAtMs: number): boolean {
    const entries = this.#entries;
    const now = this.#now();
    // `undefined > now` is false: an unknown id is new.
    if (entries.get(id)! > now) return true;
    // An expired entry is re-added at the end, as the newest.
    entries.delete(id);
    if (entries.size >= this.#maxEntries && now >= this.#earliestExpiry) {
      // Full: drop expired ids first.
      this.#earliestExpiry = Infinity;
      for (const [key, expiry] of entries) {
        if (expiry <= now) entries.delete(key);
        else if (expiry < this.#earliestExpiry) this.#earliestExpiry = expiry;
      }
    }
    // Still full of live ids: drop the oldest.
    while (entries.size >= this.#maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(id, expiresAtMs);
    if (expiresAtMs < this.#earliestExpiry) this.#earliestExpiry = expiresAtMs;
    return false;
  }
}
