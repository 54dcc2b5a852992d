// One client's view of its rate budget: take a slot before each request (waiting as the store says), pass a
// 429's pause on to every sharer, and never fail a call because a shared store is slow or down — then the
// in-process store stands in, the shared one is tried again later, and the caller hears of it once.
import { abortReason, sleep } from '../internal/sleep.js';
import { MemoryRateLimitStore, type RateLimit, type RateLimitStore } from './store.js';

/** A warning the SDK gives the caller instead of writing a log. */
export interface Warning {
  /** Stable code: `RATE_LIMIT_STORE_UNAVAILABLE` while the shared store fails, `RATE_LIMIT_STORE_RECOVERED` after. */
  code: 'RATE_LIMIT_STORE_UNAVAILABLE' | 'RATE_LIMIT_STORE_RECOVERED';
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

  /** Resolves when a request may be sent; rejects with the signal's reason when it aborts first. */
  async take(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw abortReason(signal);
    const key = await this.key;
    const { store, limit, result } = await this.#run((s, l) => s.reserve(key, l, this.#id));
    if (result.sharers !== undefined && result.sharers >= 1) this.#sharers = result.sharers;
    try {
      await sleep(result.waitMs, signal);
    } catch (error) {
      // A caller that gave up while waiting gives its slot back to the next one.
      await store.refund?.(key, limit).catch(() => undefined);
      throw error;
    }
  }

  /** Every sharer of the budget waits `delayMs` before its next request (a 429's `Retry-After`). */
  async pause(delayMs: number): Promise<void> {
    const key = await this.key;
    // The stand-in pauses too, so a store outage right after a 429 does not send early.
    if (!(this.options.store instanceof MemoryRateLimitStore)) await this.#fallback.pause(key, this.#share(), delayMs);
    await this.#run((s, l) => s.pause(key, l, delayMs));
  }

  // Runs `op` on the shared store within its time bound, else on the in-process stand-in at this client's
  // share; says which store and limit it used.
  async #run<T>(op: (store: RateLimitStore, limit: RateLimit) => Promise<T>): Promise<{ store: RateLimitStore; limit: RateLimit; result: T }> {
    const { store, storeTimeoutMs, storeRetryMs } = this.options;
    if (store instanceof MemoryRateLimitStore) return { store, limit: this.limit, result: await op(store, this.limit) };
    if (Date.now() >= this.#downUntil) {
      try {
        const result = await bounded(op(store, this.limit), storeTimeoutMs);
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

/** `promise`, or a rejection after `ms`. */
function bounded<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
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
