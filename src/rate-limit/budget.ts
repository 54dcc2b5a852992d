// One client's view of its rate budget: take a slot before each request (waiting as the store says), pass a
// 429's pause on to every sharer, refuse at once a pause longer than the caller accepts, and never fail a
// call because a shared store is slow, down or holds garbage — then the in-process store stands in, the
// shared one is tried again later, and the caller hears of it once.
import { bounded } from '../internal/bounded.js';
import { abortReason, sleep } from '../internal/sleep.js';
import { pauseLength } from './pause.js';
import { MemoryRateLimitStore, type RateLimit, type RateLimitStore, type Reservation } from './store.js';

// The transport builds a refused call's error with it once this module is loaded (out of the root bundle).
export { pausedError } from './paused-error.js';

/** A warning the SDK gives the caller instead of writing a log. */
export interface Warning {
  /**
   * Stable code: `RATE_LIMIT_STORE_UNAVAILABLE` while the shared store fails, `RATE_LIMIT_STORE_RECOVERED`
   * after; `RATE_LIMIT_STORE_CORRUPT` when the store held a value it could not read (it was replaced with a
   * conservative one: the budget still limits).
   */
  code: 'RATE_LIMIT_STORE_UNAVAILABLE' | 'RATE_LIMIT_STORE_RECOVERED' | 'RATE_LIMIT_STORE_CORRUPT';
  message: string;
  /** The store's error, when there was one (never carries the API key: the store sees only a hash). */
  cause?: unknown;
}

/** How a budget reaches its store. */
export interface BudgetOptions {
  readonly store: RateLimitStore;
  /** Longest time one store operation may take before the in-process store stands in. */
  readonly storeTimeoutMs: number;
  /** How long to stay on the in-process store after a failure before trying the shared one again. */
  readonly storeRetryMs: number;
  readonly onWarning?: ((warning: Warning) => void) | undefined;
}

/** The rate budget of one client: one key (a hash of the API key) in one store, with a local stand-in. */
export class RateBudget {
  // The stand-in while the shared store fails: this client's share of the budget, as last seen.
  readonly #fallback = new MemoryRateLimitStore();
  // Web Crypto exists only in secure contexts in browsers: any unique-enough id serves for counting sharers.
  readonly #id = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  #sharers = 1;
  #downUntil = 0;
  #warned = false;
  #corruptWarned = false;

  /**
   * @param limit - the budget's rate and burst
   * @param key - the budget's key in the store (see {@link budgetKey})
   * @param options - the store and how to treat its failures
   */
  constructor(
    readonly limit: RateLimit,
    readonly key: Promise<string>,
    readonly options: BudgetOptions,
  ) {}

  /**
   * Resolves with undefined when a request may be sent, or, when the budget is paused (a 429's `Retry-After`)
   * for longer than `maxPauseMs`, at once with the pause's end (ms since the epoch) and nothing reserved.
   * Rejects with the signal's reason when it aborts first.
   * @param maxPauseMs - the longest pause the caller waits out
   * @default maxPauseMs Infinity
   */
  async take(signal?: AbortSignal, maxPauseMs = Infinity): Promise<number | undefined> {
    const key = await this.key;
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      const { store, limit, result } = await this.#run((s, l) => s.reserve(key, l, this.#id).then(checked));
      if (result.sharers !== undefined && result.sharers >= 1) this.#sharers = result.sharers;
      if (result.corrupt && !this.#corruptWarned) {
        this.#corruptWarned = true;
        this.#warn({
          code: 'RATE_LIMIT_STORE_CORRUPT',
          message: 'The shared rate-limit store held a value it could not read under this budget; it was replaced with a conservative one (no burst), and the budget still limits.',
        });
      }
      const pauseMs = result.pauseMs ?? 0;
      if (pauseMs > 0) {
        // A pause the caller would not wait out is refused now, not slept through (it may last an hour).
        if (pauseMs > maxPauseMs) return Date.now() + pauseMs;
        await sleep(pauseMs, signal);
        continue;
      }
      try {
        await sleep(result.waitMs, signal);
      } catch (error) {
        // A caller that gave up while waiting gives its slot back to the next one (bounded, not awaited: a
        // frozen store must not hold the caller's abort).
        const refund = store.refund;
        if (refund) void bounded(Promise.resolve().then(() => refund.call(store, key, limit)), this.options.storeTimeoutMs, 'refund').catch(() => undefined);
        throw error;
      }
      return undefined;
    }
  }

  /** Every sharer of the budget waits `delayMs` before its next request (a 429's `Retry-After`, at most a year). */
  async pause(delayMs: number): Promise<void> {
    const key = await this.key;
    const ms = pauseLength(delayMs);
    // The stand-in pauses too, so a store outage right after a 429 does not send early.
    if (!(this.options.store instanceof MemoryRateLimitStore)) await this.#fallback.pause(key, this.#share(), ms);
    await this.#run((s, l) => s.pause(key, l, ms));
  }

  // Runs `op` on the shared store within its time bound, else on the in-process stand-in at this client's
  // share; says which store and limit it used.
  async #run<T>(op: (store: RateLimitStore, limit: RateLimit) => Promise<T>): Promise<{ store: RateLimitStore; limit: RateLimit; result: T }> {
    const { store, storeTimeoutMs, storeRetryMs } = this.options;
    if (store instanceof MemoryRateLimitStore) return { store, limit: this.limit, result: await op(store, this.limit) };
    if (Date.now() >= this.#downUntil) {
      try {
        const result = await bounded(Promise.resolve().then(() => op(store, this.limit)), storeTimeoutMs, 'the shared rate-limit store');
        if (this.#warned) {
          this.#warned = false;
          this.#warn({ code: 'RATE_LIMIT_STORE_RECOVERED', message: 'The shared rate-limit store answers again; its budget is used again.' });
        }
        return { store, limit: this.limit, result };
      } catch (error) {
        this.#downUntil = Date.now() + storeRetryMs;
        if (!this.#warned) {
          this.#warned = true;
          this.#warn({
            code: 'RATE_LIMIT_STORE_UNAVAILABLE',
            message:
              `The shared rate-limit store failed or took over ${storeTimeoutMs} ms; this client spaces its own requests ` +
              `(1/${this.#sharers} of the budget, its share when last seen) and tries the store again in ${storeRetryMs} ms.`,
            cause: error,
          });
        }
      }
    }
    const share = this.#share();
    return { store: this.#fallback, limit: share, result: await op(this.#fallback, share) };
  }

  // This client's share of the budget (the stand-in's limit): the rate divided by the sharers last seen.
  #share(): RateLimit {
    return this.#sharers <= 1 ? this.limit : { requestsPerMinute: this.limit.requestsPerMinute / this.#sharers, burst: 1 };
  }

  #warn(warning: Warning): void {
    try {
      this.options.onWarning?.(warning);
    } catch {
      // A throwing hook must not fail the call it reports on.
    }
  }
}

// A reservation a store made up (a bug, a corrupt value read as NaN) must not disable the budget: a wait that
// is not a finite number ≥ 0 is a failure of the store, and the stand-in spaces requests instead.
function checked(r: Reservation): Reservation {
  if (!(Number.isFinite(r?.waitMs) && r.waitMs >= 0) || (r.pauseMs !== undefined && !(Number.isFinite(r.pauseMs) && r.pauseMs >= 0))) {
    throw new TypeError(`The rate-limit store answered an unreadable reservation (${JSON.stringify(r)})`);
  }
  return r;
}

/**
 * The budget key of an API key: `svc-a11y:rl:v1:` and the first 32 hex digits of its SHA-256, so a shared
 * store never holds the key in clear. Web Crypto: the same on Node, browsers and edge runtimes.
 * @example await budgetKey('svc_…') // 'svc-a11y:rl:v1:3f9c…'
 */
export async function budgetKey(apiKey: string): Promise<string> {
  // Without Web Crypto (a browser page over plain http) there is no shared store to hide the key from: the
  // in-process store needs a key, not a secret one.
  if (!globalThis.crypto?.subtle) return 'svc-a11y:rl:v1:local';
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(apiKey));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `svc-a11y:rl:v1:${hex.slice(0, 32)}`;
}
