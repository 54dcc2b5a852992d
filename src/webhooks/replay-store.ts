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
  maxEntries?: number;
  /**
   * Millisecond clock used to decide expiry.
   * @default Date.now
   */
  now?: () => number;
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
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError('MemoryReplayStore: maxEntries must be a positive integer');
    }
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
  }

  /** Number of ids currently held (including expired ones not yet swept). */
  get size(): number {
    return this.#entries.size;
  }

  /** {@inheritDoc ReplayStore.checkAndRemember} */
  checkAndRemember(id: string, expiresAtMs: number): boolean {
    const now = this.#now();
    const existing = this.#entries.get(id);
    if (existing !== undefined) {
      if (existing > now) return true;
      this.#entries.delete(id);
    }
    if (this.#entries.size >= this.#maxEntries) this.#evict(now);
    this.#entries.set(id, expiresAtMs);
    if (expiresAtMs < this.#earliestExpiry) this.#earliestExpiry = expiresAtMs;
    return false;
  }

  #evict(now: number): void {
    if (now >= this.#earliestExpiry) {
      let earliest = Infinity;
      for (const [key, expiresAt] of this.#entries) {
        if (expiresAt <= now) this.#entries.delete(key);
        else if (expiresAt < earliest) earliest = expiresAt;
      }
      this.#earliestExpiry = earliest;
    }
    for (const key of this.#entries.keys()) {
      if (this.#entries.size < this.#maxEntries) break;
      this.#entries.delete(key);
    }
  }
}
