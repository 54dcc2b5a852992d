// Where a rate budget lives: the interface every store implements (one atomic step per request), and the
// in-process store that is the default. The service counts a sliding minute (at most `requestsPerMinute`
// requests in any 60 s), so the budget is two rules checked together on each reservation:
// - GCRA (the generic cell rate algorithm, as in redis-cell): the theoretical arrival time of the next request,
//   one number, spacing requests at the rate with bursts up to `burst`. Alone it lets `burst − 1` requests more
//   than the rate into some minute (a burst, then the rate's spacing for the rest of the minute).
// - a sliding-window log of the slots of the last minute (at most `requestsPerMinute` of them): a slot comes no
//   earlier than a minute after the one `requestsPerMinute` places back. With it, no 60 s window ever holds more
//   than `requestsPerMinute` requests, whatever the burst; at `burst` 1 it never binds (the spacing keeps it).
// A server-imposed pause (a 429's `Retry-After`) is kept apart from both, so a caller can tell "wait your turn"
// from "the service said stop until then".
import { gcraParameters } from './gcra.js';

/**
 * The budget of one key: at most `requestsPerMinute` requests in any sliding 60 s window, of which `burst` may
 * go at once after a quiet spell (the rest spaced at the rate).
 * @example const limit: RateLimit = { requestsPerMinute: 120, burst: 20 };
 */
export interface RateLimit {
  /** Sustained rate, in requests per minute: no 60 s window holds more requests than this (rounded down, ≥ 1). */
  readonly requestsPerMinute: number;
  /** Requests that may go at once after a quiet spell (≥ 1; 1: strict spacing at the rate). */
  readonly burst: number;
}

/** A reserved slot (or none, during a pause): when it comes, and how many clients share the budget. */
export interface Reservation {
  /** Milliseconds to wait before sending (0: now). */
  waitMs: number;
  /**
   * Clients that used the budget in the last minute, this one included. A client whose shared store fails
   * spaces its own requests at the budget's rate divided by this, so a fleet stays near the key's rate.
   */
  sharers?: number;
  /**
   * Milliseconds left of a pause recorded by {@link RateLimitStore.pause} (a 429's `Retry-After`). When above
   * 0, no slot was reserved: the caller waits out the pause (or gives up) and reserves again.
   */
  pauseMs?: number;
  /**
   * True when the store found a value under this budget it could not read (not a number, NaN, infinite,
   * negative, far in the future, of another type) and replaced it with a conservative one (the burst spent,
   * the next slot one interval away). The client warns once.
   */
  corrupt?: boolean;
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
  /** Reserves the next slot of budget `key` for client `clientId`; reserves nothing while the key is paused. */
  reserve(key: string, limit: RateLimit, clientId: string): Promise<Reservation>;
  /** A server-imposed pause (a 429's `Retry-After`): no sharer of `key` gets a slot before `delayMs` from now. */
  pause(key: string, limit: RateLimit, delayMs: number): Promise<void>;
  /** Gives back a reserved slot that was not used (its caller gave up while waiting). Optional. */
  refund?(key: string, limit: RateLimit): Promise<void>;
  /**
   * Milliseconds left of the pause recorded on `key` (0: none). Read-only and optional: the client asks just
   * before sending a request that waited for its slot (a sharer's 429 may have paused the key meanwhile), and
   * to learn, without spending budget, that a store which failed answers again.
   */
  pausedFor?(key: string): Promise<number>;
}

// The window's arithmetic (rate-window.ts), loaded with a store's first reservation: out of the root bundle, where
// this store is (in it, ~0.13 kB gzip; the root is capped at 20 kB). Every reservation after the first waits one
// microtask for it, as it did for the store's promise.
let rateWindow: Promise<typeof import('./rate-window.js')> | undefined;

/**
 * The in-process store (the default): per key, GCRA's next arrival time and the log of the last window's slots,
 * in Maps. One per client unless shared on purpose.
 * @example new A11yClient({ rateLimit: { requestsPerMinute: 120, store: new MemoryRateLimitStore() } })
 */
export class MemoryRateLimitStore implements RateLimitStore {
  // Theoretical arrival time of the next request, per key (ms since the epoch of `now`).
  readonly #tat = new Map<string, number>();
  // The slots reserved within the last window, oldest first, per key (at most the limit's capacity).
  readonly #log = new Map<string, number[]>();
  // End of the last pause a 429 imposed, per key.
  readonly #pauseEnd = new Map<string, number>();

  /**
   * @param now - clock in milliseconds
   * @default now Date.now
   */
  constructor(readonly now: () => number = Date.now) {}

  /** {@inheritDoc RateLimitStore.reserve} */
  reserve(key: string, limit: RateLimit): Promise<Reservation> {
    const now = this.now();
    const pauseMs = (this.#pauseEnd.get(key) ?? 0) - now;
    // Nothing is reserved inside a pause: a slot there would be sent the moment the pause ends, all at once.
    if (pauseMs > 0) return Promise.resolve({ waitMs: 0, pauseMs });
    // `now` is read at the call: a slot is never placed earlier than when it was asked for.
    rateWindow ??= import('./rate-window.js');
    return rateWindow.then((w) => ({
      waitMs: w.reserveSlot(this.#tat, this.#log, key, limit, gcraParameters(limit), now),
    }));
  }

  /** {@inheritDoc RateLimitStore.pause} */
  pause(key: string, limit: RateLimit, delayMs: number): Promise<void> {
    const resume = this.now() + delayMs;
    this.#pauseEnd.set(key, Math.max(this.#pauseEnd.get(key) ?? 0, resume));
    // The next slot is then at `resume` at the earliest (no burst right after a 429).
    this.#tat.set(key, Math.max(this.#tat.get(key) ?? 0, resume + gcraParameters(limit).toleranceMs));
    return Promise.resolve();
  }

  /** {@inheritDoc RateLimitStore.refund} */
  refund(key: string, limit: RateLimit): Promise<void> {
    const tat = this.#tat.get(key);
    // The next reservation takes the given-back slot: the budget's rate is kept, not exceeded. The window's log
    // keeps the slot: which of the queued slots went unused is not known, and dropping a later one that is still
    // sent could let a window hold one request too many (a slot counted that is never sent only costs time).
    if (tat !== undefined) this.#tat.set(key, Math.max(this.now(), tat - gcraParameters(limit).intervalMs));
    return Promise.resolve();
  }

  /** {@inheritDoc RateLimitStore.pausedFor} */
  pausedFor(key: string): Promise<number> {
    return Promise.resolve(Math.max(0, (this.#pauseEnd.get(key) ?? 0) - this.now()));
  }
}
