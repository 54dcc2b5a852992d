// Where a rate budget lives: the interface every store implements (one atomic step per request), and the
// in-process store that is the default. The algorithm is GCRA (the generic cell rate algorithm, as in
// redis-cell): one number per budget — the theoretical arrival time of the next request — so a shared store
// needs one key and one round trip per request, with exact spacing and bursts up to `burst`.

/** The budget of one key: a sustained rate and how many requests may go at once after a quiet spell. */
export interface RateLimit {
  /** Sustained rate, in requests per minute. */
  readonly requestsPerMinute: number;
  /** Requests that may go at once after a quiet spell (≥ 1). */
  readonly burst: number;
}

/** A reserved slot: when it comes, and how many clients share the budget (when the store knows). */
export interface Reservation {
  /** Milliseconds to wait before sending (0: now). */
  waitMs: number;
  /**
   * Clients that used the budget in the last minute, this one included. A client whose shared store fails
   * spaces its own requests at the budget's rate divided by this, so a fleet stays near the key's rate.
   */
  sharers?: number;
}

/**
 * A rate budget store, shared by every client that uses it with the same key (several processes, with a
 * store such as `RedisRateLimitStore`). Each method is one atomic step.
 * @example
 * ```ts
 * const { waitMs } = await store.reserve(key, { requestsPerMinute: 120, burst: 1 }, clientId);
 * ```
 */
export interface RateLimitStore {
  /** Reserves the next slot of budget `key` for client `clientId`. */
  reserve(key: string, limit: RateLimit, clientId: string): Promise<Reservation>;
  /** A server-imposed pause (a 429's `Retry-After`): no sharer of `key` gets a slot before `delayMs` from now. */
  pause(key: string, limit: RateLimit, delayMs: number): Promise<void>;
  /** Gives back a reserved slot that was not used (its caller gave up while waiting). Optional. */
  refund?(key: string, limit: RateLimit): Promise<void>;
}

/** Emission interval and burst tolerance of a limit, in milliseconds. */
export function gcraParameters(limit: RateLimit): { intervalMs: number; toleranceMs: number } {
  const intervalMs = 60_000 / limit.requestsPerMinute;
  return { intervalMs, toleranceMs: (limit.burst - 1) * intervalMs };
}

/**
 * The in-process store (the default): GCRA state in a Map. One per client unless shared on purpose.
 * @example new A11yClient({ rateLimit: { requestsPerMinute: 120, store: new MemoryRateLimitStore() } })
 */
export class MemoryRateLimitStore implements RateLimitStore {
  // Theoretical arrival time of the next request, per key (ms since the epoch of `now`).
  readonly #tat = new Map<string, number>();

  /**
   * @param now - clock in milliseconds
   * @default now Date.now
   */
  constructor(readonly now: () => number = Date.now) {}

  /** {@inheritDoc RateLimitStore.reserve} */
  reserve(key: string, limit: RateLimit): Promise<Reservation> {
    const { intervalMs, toleranceMs } = gcraParameters(limit);
    const now = this.now();
    const tat = Math.max(this.#tat.get(key) ?? now, now);
    this.#tat.set(key, tat + intervalMs);
    return Promise.resolve({ waitMs: Math.max(0, tat - toleranceMs - now) });
  }

  /** {@inheritDoc RateLimitStore.pause} */
  pause(key: string, limit: RateLimit, delayMs: number): Promise<void> {
    const { toleranceMs } = gcraParameters(limit);
    const resume = this.now() + delayMs;
    // The next slot is then at `resume` at the earliest (no burst right after a 429).
    this.#tat.set(key, Math.max(this.#tat.get(key) ?? 0, resume + toleranceMs));
    return Promise.resolve();
  }

  /** {@inheritDoc RateLimitStore.refund} */
  refund(key: string, limit: RateLimit): Promise<void> {
    const tat = this.#tat.get(key);
    // The next reservation takes the given-back slot: the budget's rate is kept, not exceeded.
    if (tat !== undefined) this.#tat.set(key, Math.max(this.now(), tat - gcraParameters(limit).intervalMs));
    return Promise.resolve();
  }
}
