// Per-key sliding-window rate limit: at most `requestsPerMinute` accepted requests in any `windowMs`.
// A sliding log (not a fixed window) makes Retry-After exact: the time until the oldest request leaves.

/** Rate limit of the simulator, per API key. */
export interface SimulatorRateLimit {
  /** Requests accepted per window and key. */
  requestsPerMinute: number;
  /**
   * Length of the window in ms; shorten it to time-scale "a minute" in tests.
   * @default 60000
   */
  windowMs?: number;
}

/**
 * The sliding-window limiter.
 * @example new SlidingWindowLimiter({ requestsPerMinute: 5, windowMs: 1000 })
 */
export class SlidingWindowLimiter {
  readonly #log = new Map<string, number[]>();
  readonly #limit: number;
  readonly #windowMs: number;

  constructor(options: SimulatorRateLimit) {
    this.#limit = Math.max(0, Math.floor(options.requestsPerMinute));
    this.#windowMs = Math.max(1, options.windowMs ?? 60_000);
  }

  /**
   * Records a request of `key` at `now` when a slot is free and returns undefined; otherwise records nothing
   * and returns the whole seconds until a slot frees (rounded up, at least 0).
   * @example limiter.take('svc_sim_full_key', Date.now()) // undefined, or 12 (seconds to wait)
   */
  take(key: string, now: number): number | undefined {
    const since = now - this.#windowMs;
    const log = (this.#log.get(key) ?? []).filter((t) => t > since);
    this.#log.set(key, log);
    if (log.length < this.#limit) {
      log.push(now);
      return undefined;
    }
    // The slot frees when the request `limit` places back leaves the window.
    const oldest = log[log.length - this.#limit] ?? now;
    return Math.max(0, Math.ceil((oldest + this.#windowMs - now) / 1000));
  }
}
