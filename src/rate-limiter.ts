// Client-side token bucket: spaces requests so a busy client (many parallel polls) stays under the key's
// rate instead of collecting 429s. One bucket per client; waits are abortable.
import { abortReason, sleep } from './internal/sleep.js';

/** A token bucket refilled continuously at `requestsPerMinute`, holding at most `burst` tokens. */
export class TokenBucket {
  #tokens: number;
  #updatedAt: number;
  readonly #perMs: number;
  // Callers are served in arrival order: each waits for the previous reservation.
  #queue: Promise<void> = Promise.resolve();

  /**
   * @param requestsPerMinute - sustained rate
   * @param burst - how many requests may go at once after a quiet spell
   * @param now - clock in ms
   * @default burst 1
   * @default now Date.now
   * @example new TokenBucket(120).take(signal)
   */
  constructor(
    requestsPerMinute: number,
    readonly burst = 1,
    readonly now: () => number = Date.now,
  ) {
    this.#perMs = requestsPerMinute / 60_000;
    this.#tokens = burst;
    this.#updatedAt = now();
  }

  /** Resolves when a request may be sent; rejects with the signal's reason when it aborts first. */
  take(signal?: AbortSignal): Promise<void> {
    const turn = this.#queue.then(() => this.#reserve(signal));
    // A caller that aborts must not block the ones behind it.
    this.#queue = turn.catch(() => undefined);
    return signal ? untilAborted(turn, signal) : turn;
  }

  async #reserve(signal?: AbortSignal): Promise<void> {
    for (;;) {
      // A caller that gave up while queued takes no token when its turn comes.
      if (signal?.aborted) throw abortReason(signal);
      const now = this.now();
      this.#tokens = Math.min(this.burst, this.#tokens + (now - this.#updatedAt) * this.#perMs);
      this.#updatedAt = now;
      if (this.#tokens >= 1) {
        this.#tokens -= 1;
        return;
      }
      await sleep(Math.ceil((1 - this.#tokens) / this.#perMs), signal);
    }
  }
}

// A caller waiting in the queue is released as soon as its signal aborts, not when its turn comes.
function untilAborted(turn: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    turn.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
