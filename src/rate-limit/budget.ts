// One client's view of its rate budget: take a slot before each request (waiting as the store says, and
// checking just before sending that no sharer's 429 paused the key meanwhile), pass a 429's pause on to every
// sharer, and refuse at once a pause longer than the caller accepts. The store's failures never fail a call
// (see store-guard.ts).
import { bounded } from '../internal/bounded.js';
import { abortReason, sleep } from '../internal/sleep.js';
import { pauseLength } from './pause.js';
import { StoreGuard, type BudgetOptions } from './store-guard.js';
import type { RateLimit, RateLimitStore, Reservation } from '../core/rate-limit-store.js';
import { SEND_LATENESS_MS } from '../core/rate-window.js';

// How many times a request that found itself late for its slot takes a new one before it is sent anyway.
const MAX_LATE_RETRIES = 3;

// The transport builds a refused call's error with it once this module is loaded (out of the root bundle).
export { pausedError } from './paused-error.js';
export { budgetKey } from './key.js';
export type { BudgetOptions } from './store-guard.js';
export type { Warning } from '../core/callbacks.js';

/** The rate budget of one client: one key (a hash of the API key) in one store, with a local stand-in. */
export class RateBudget {
  // Web Crypto exists only in secure contexts in browsers: any unique-enough id serves for counting sharers.
  readonly #id =
    globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  readonly #guard: StoreGuard;

  /**
   * @param limit - the budget's rate and burst
   * @param key - the budget's key in the store (see {@link budgetKey})
   * @param options - the store and how to treat its failures
   */
  constructor(
    readonly limit: RateLimit,
    readonly key: Promise<string>,
    readonly options: BudgetOptions,
  ) {
    this.#guard = new StoreGuard(limit, options);
  }

  /**
   * Resolves with undefined when a request may be sent, or, when the budget is paused (a 429's `Retry-After`)
   * for longer than `maxPauseMs`, at once with the pause's end (ms since the epoch) and nothing reserved.
   * Rejects with the signal's reason when it aborts first.
   * @param maxPauseMs - the longest pause the caller waits out
   * @default maxPauseMs Infinity
   */
  async take(signal?: AbortSignal, maxPauseMs = Infinity): Promise<number | undefined> {
    const key = await this.key;
    let late = 0;
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      const { store, limit, result } = await this.#guard.run(key, (s, l) => s.reserve(key, l, this.#id).then(checked));
      // The slot is `waitMs` after the store's answer was made, which is just before it arrived here.
      const answered = Date.now();
      this.#guard.saw(result);
      let pauseMs = result.pauseMs ?? 0;
      if (pauseMs === 0 && result.waitMs > 0) {
        this.#guard.log(
          'debug',
          `rate budget: waiting ${Math.ceil(result.waitMs)} ms for a slot (${where(store, this.options)})`,
        );
        try {
          await sleep(result.waitMs, signal);
        } catch (error) {
          // A caller that gave up while waiting gives its slot back to the next one.
          this.#giveBack(store, key, limit);
          throw error;
        }
        // A sharer's 429 may have paused the key while this slot waited: the slot was reserved before the
        // pause, and sending it now would land inside it. One cheap read, just before sending.
        pauseMs = await this.#guard.pausedFor(key);
      }
      if (!(pauseMs > 0)) {
        // A request that would leave more than the window's margin after its slot could share the service's minute
        // with one sent a window later: it takes a new slot instead (the late one is given back to the spacing, and
        // stays in the window's count). A machine that cannot keep the schedule at all still sends, after 3 tries.
        const lateness = Date.now() - (answered + result.waitMs);
        if (lateness <= SEND_LATENESS_MS || late >= MAX_LATE_RETRIES) return undefined;
        late += 1;
        this.#guard.log('debug', `rate budget: ${Math.round(lateness)} ms late for its slot; taking a new one`);
        this.#giveBack(store, key, limit);
        continue;
      }
      // A pause the caller would not wait out is refused now, not slept through (it may last an hour).
      if (pauseMs > maxPauseMs) {
        this.#guard.log(
          'debug',
          `rate budget: paused for ${Math.ceil(pauseMs)} ms more (a 429's Retry-After), longer than this call waits (${maxPauseMs} ms)`,
        );
        return Date.now() + pauseMs;
      }
      this.#guard.log(
        'debug',
        `rate budget: waiting ${Math.ceil(pauseMs)} ms, paused by a 429's Retry-After (${where(store, this.options)})`,
      );
      await sleep(pauseMs, signal);
    }
  }

  // Gives an unused slot back to the spacing (bounded, not awaited: a frozen store must not hold the caller).
  #giveBack(store: RateLimitStore, key: string, limit: RateLimit): void {
    const refund = store.refund;
    if (refund)
      void bounded(
        Promise.resolve().then(() => refund.call(store, key, limit)),
        this.options.storeTimeoutMs,
        'refund',
      ).catch(() => undefined);
  }

  /** Every sharer of the budget waits `delayMs` before its next request (a 429's `Retry-After`, at most a year). */
  async pause(delayMs: number): Promise<void> {
    const key = await this.key;
    const ms = pauseLength(delayMs);
    this.#guard.log('debug', `rate budget: a 429 pauses every sharer of the budget for ${ms} ms`);
    await this.#guard.pauseStandIn(key, ms);
    await this.#guard.run(key, (s, l) => s.pause(key, l, ms));
  }
}

// Which store granted the slot: the shared one, or this client's stand-in while it fails.
function where(store: unknown, options: BudgetOptions): string {
  return store === options.store
    ? `store: ${options.store.constructor?.name ?? 'custom'}`
    : "the shared store failed: this client's own share";
}

// A reservation a store made up (a bug, a corrupt value read as NaN) must not disable the budget: a wait that
// is not a finite number ≥ 0 is a failure of the store, and the stand-in spaces requests instead.
function checked(r: Reservation): Reservation {
  if (
    !(Number.isFinite(r?.waitMs) && r.waitMs >= 0) ||
    (r.pauseMs !== undefined && !(Number.isFinite(r.pauseMs) && r.pauseMs >= 0))
  ) {
    throw new TypeError(`The rate-limit store answered an unreadable reservation (${JSON.stringify(r)})`);
  }
  return r;
}
