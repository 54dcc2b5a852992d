// A shared store as a budget uses it: every operation within its bound, the in-process stand-in at this
// client's share the moment the store fails or is slow, the store tried again in the background (a read that
// spends no budget) while calls go on, and one warning per outage. Until the store has answered once, the
// first operation may wait for the connection (STARTUP_BOUND_MS), and the stand-in assumes a conservative
// share: a process never spends the whole budget because its connection was late.
import { bounded } from '../internal/bounded.js';
import type { Observe } from '../core/events.js';
import type { LogLevel, Warning } from '../core/callbacks.js';
import { MemoryRateLimitStore, type RateLimit, type RateLimitStore } from '../core/rate-limit-store.js';

/** How a budget reaches its store. */
export interface BudgetOptions {
  readonly store: RateLimitStore;
  /** Longest time one store operation may take before the in-process store stands in. */
  readonly storeTimeoutMs: number;
  /** How long to stay on the in-process store after a failure before trying the shared one again. */
  readonly storeRetryMs: number;
  readonly onWarning?: ((warning: Warning) => void) | undefined;
  /** The client's observer, when it logs: the budget's waits and the store's state are debug lines. */
  readonly observe?: Observe | undefined;
}

/**
 * How long an operation may wait for a store that has not answered yet (its connection is part of it), and
 * a background check for one that failed: a connection takes longer than a round trip.
 */
const STARTUP_BOUND_MS = 1000;

/**
 * Sharers assumed until the store has said how many clients use the budget: the stand-in then spends a
 * quarter of it, so a fleet that cannot reach its store stays near the key's rate up to four processes,
 * instead of each one spending the whole budget.
 */
const UNKNOWN_SHARERS = 4;

/** What an operation ran on: the shared store, or the stand-in at this client's share. */
export interface Ran<T> {
  store: RateLimitStore;
  limit: RateLimit;
  result: T;
}

/** The guard of one budget's store (see the file's header). */
export class StoreGuard {
  // The stand-in while the shared store fails: this client's share of the budget.
  readonly #standIn = new MemoryRateLimitStore();
  #sharers: number | undefined;
  #reached = false;
  #down = false;
  #retryAt = 0;
  #probing = false;
  #warned = false;
  #corruptWarned = false;

  /**
   * @param limit - the budget's rate and burst
   * @param options - the store and how to treat its failures
   */
  constructor(
    readonly limit: RateLimit,
    readonly options: BudgetOptions,
  ) {}

  /** Runs `op` on the shared store within its bound, else on the stand-in at this client's share. */
  async run<T>(key: string, op: (store: RateLimitStore, limit: RateLimit) => Promise<T>): Promise<Ran<T>> {
    const { store, storeTimeoutMs } = this.options;
    if (store instanceof MemoryRateLimitStore) return { store, limit: this.limit, result: await op(store, this.limit) };
    if (this.#down) this.#tryAgain(key);
    if (!this.#down) {
      try {
        const bound = this.#reached ? storeTimeoutMs : Math.max(storeTimeoutMs, STARTUP_BOUND_MS);
        const result = await bounded(
          Promise.resolve().then(() => op(store, this.limit)),
          bound,
          'the shared rate-limit store',
        );
        this.#reached = true;
        if (this.#warned && !this.#down) this.#recovered();
        return { store, limit: this.limit, result };
      } catch (error) {
        this.#failed(error);
      }
    }
    const share = this.#share();
    return { store: this.#standIn, limit: share, result: await op(this.#standIn, share) };
  }

  /** Records what the store said of the budget: how many clients share it, and whether it held garbage. */
  saw(reservation: { sharers?: number | undefined; corrupt?: boolean | undefined }): void {
    const { sharers, corrupt } = reservation;
    if (sharers !== undefined && sharers >= 1) this.#sharers = sharers;
    if (corrupt && !this.#corruptWarned) {
      this.#corruptWarned = true;
      this.#warn({
        code: 'RATE_LIMIT_STORE_CORRUPT',
        message:
          'The shared rate-limit store held a value it could not read under this budget; it was replaced with a conservative one (no burst), and the budget still limits.',
      });
    }
  }

  /**
   * Milliseconds left of a pause on `key`: the store's (read within its bound), else the stand-in's. A store
   * without that read (`pausedFor`) reports pauses through its reservations only: 0 while it answers.
   */
  async pausedFor(key: string): Promise<number> {
    const { store } = this.options;
    if (!store.pausedFor) return this.#down ? this.#standIn.pausedFor(key) : 0;
    const left = (await this.run(key, (s) => s.pausedFor!(key))).result;
    return Number.isFinite(left) && left > 0 ? left : 0;
  }

  /** Pauses the stand-in too, so an outage right after a 429 does not send early. */
  pauseStandIn(key: string, delayMs: number): Promise<void> {
    return this.options.store instanceof MemoryRateLimitStore
      ? Promise.resolve()
      : this.#standIn.pause(key, this.#share(), delayMs);
  }

  // While the store is down, calls never wait for it: it is checked again in the background after
  // storeRetryMs, with a read that spends no budget (pausedFor). A store without that read is tried again by
  // the next operation, within its bound.
  #tryAgain(key: string): void {
    const { store, storeTimeoutMs } = this.options;
    if (this.#probing || Date.now() < this.#retryAt) return;
    const check = store.pausedFor;
    if (!check) {
      this.#down = false;
      return;
    }
    this.#probing = true;
    bounded(
      Promise.resolve().then(() => check.call(store, key)),
      Math.max(storeTimeoutMs, STARTUP_BOUND_MS),
      'the shared rate-limit store',
    )
      .then(
        () => {
          this.#down = false;
          this.#reached = true;
          if (this.#warned) this.#recovered();
        },
        () => (this.#retryAt = Date.now() + this.#retryMs()),
      )
      .finally(() => (this.#probing = false));
  }

  #failed(error: unknown): void {
    const { storeTimeoutMs } = this.options;
    this.#down = true;
    this.#retryAt = Date.now() + this.#retryMs();
    if (this.#warned) return;
    this.#warned = true;
    const share =
      this.#sharers === undefined
        ? `1/${UNKNOWN_SHARERS} of the budget until the store says how many clients share it`
        : `1/${this.#sharers} of the budget, its share when last seen`;
    this.#warn({
      code: 'RATE_LIMIT_STORE_UNAVAILABLE',
      message: `The shared rate-limit store failed or took over ${this.#reached ? storeTimeoutMs : Math.max(storeTimeoutMs, STARTUP_BOUND_MS)} ms; this client spaces its own requests (${share}) and checks the store again every ${this.#retryMs()} ms.`,
      cause: error,
    });
  }

  // A store never reached is most likely still connecting (a busy machine, a cold start): it is checked again
  // after a second, so a late connection costs the fleet a second of conservative share, not storeRetryMs.
  #retryMs(): number {
    return this.#reached ? this.options.storeRetryMs : Math.min(this.options.storeRetryMs, STARTUP_BOUND_MS);
  }

  #recovered(): void {
    this.#warned = false;
    this.#warn({
      code: 'RATE_LIMIT_STORE_RECOVERED',
      message: 'The shared rate-limit store answers again; its budget is used again.',
    });
  }

  // This client's share of the budget (the stand-in's limit): the rate divided by the sharers last seen.
  #share(): RateLimit {
    const sharers = this.#sharers ?? UNKNOWN_SHARERS;
    return sharers <= 1 ? this.limit : { requestsPerMinute: this.limit.requestsPerMinute / sharers, burst: 1 };
  }

  /** Writes a line to the client's log, when it has one. */
  log(level: Exclude<LogLevel, 'off'>, text: string): void {
    void this.options.observe?.({ e: 'log', level, text });
  }

  #warn(warning: Warning): void {
    this.log(warning.code === 'RATE_LIMIT_STORE_RECOVERED' ? 'info' : 'warn', `rate-limit store: ${warning.message}`);
    try {
      this.options.onWarning?.(warning);
    } catch {
      // A throwing hook must not fail the call it reports on.
    }
  }
}
