// The run's own count of the requests it sends, over the same sliding minute the service counts (document §8: 120
// requests per minute per key by default, then 429 RATE_LIMITED). The schedule asks it *when* a request may go, so
// it can give the scarce slots to the requests that matter most (findings, creates, then the polls due first)
// instead of queueing them blindly in the client's budget. A burst within the window is fine: the service
// counts requests in a sliding minute, not their spacing.

import { SERVICE_REQUESTS_PER_MINUTE } from '../../vocabulary/index.js';

/** Options of {@link RequestPacer}. */
export interface RequestPacerOptions {
  /**
   * Requests the key may send per minute (the client's `--rate-limit`, else the service's default).
   * @default 120
   */
  requestsPerMinute?: number | undefined;
  /**
   * The window the service counts in, in ms.
   * @default 60000
   */
  windowMs?: number | undefined;
}

// Arrival times at the service differ from send times by a few ms either way (a loaded machine, a slow proxy): the
// window counted here is a little longer than the service's, and two slots are kept spare.
const WINDOW_MARGIN_MS = 1_000;
const SPARE_SLOTS = 2;

/**
 * One request counted by a {@link RequestPacer}: {@link RequestPacer.settle} it when its answer comes.
 * @example const sent: PacedRequest = pacer.take(Date.now());
 */
export interface PacedRequest {
  at: number;
}

/**
 * A sliding-window count of the requests sent, which says when the next one may go. A request counts from when it
 * was sent until its answer came (the service counted it somewhere in between) plus the window: on a loaded
 * machine, or behind a slow proxy, a burst may reach the service seconds after it left.
 * @example
 * const pacer = new RequestPacer({ requestsPerMinute: 120 });
 * if (pacer.nextSlotAt(Date.now()) <= Date.now()) {
 *   const sent = pacer.take(Date.now());
 *   await send();
 *   pacer.settle(sent, Date.now());
 * }
 */
export class RequestPacer {
  readonly #sent: PacedRequest[] = [];
  readonly #limit: number;
  readonly #windowMs: number;

  constructor(options: RequestPacerOptions = {}) {
    const rate = options.requestsPerMinute ?? SERVICE_REQUESTS_PER_MINUTE;
    const windowMs = options.windowMs ?? 60_000;
    // The rate is per minute; a window of another length (a time-scaled service) holds its share of it.
    const perWindow = (rate * windowMs) / 60_000;
    this.#limit = Math.max(1, Math.floor(perWindow) - (perWindow > SPARE_SLOTS * 4 ? SPARE_SLOTS : 0));
    this.#windowMs = windowMs + Math.min(WINDOW_MARGIN_MS, windowMs / 20);
  }

  /**
   * The earliest moment (ms, on the caller's clock) the next request may be sent: `now` when a slot is free.
   * @example pacer.nextSlotAt(Date.now()) // Date.now() while the window has room
   */
  nextSlotAt(now: number): number {
    this.#forget(now);
    if (this.#sent.length < this.#limit) return now;
    // The slot frees when the request `limit` places back leaves the window.
    const times = this.#sent.map((r) => r.at).sort((a, b) => a - b);
    return times[times.length - this.#limit]! + this.#windowMs;
  }

  /**
   * How many requests may be sent at `now` without waiting.
   * @example pacer.free(Date.now()) // 118 at the start of a run at 120 per minute
   */
  free(now: number): number {
    this.#forget(now);
    return Math.max(0, this.#limit - this.#sent.length);
  }

  /** Counts a request sent at `now`. */
  take(now: number): PacedRequest {
    const request = { at: now };
    this.#sent.push(request);
    return request;
  }

  /** The answer to `request` came at `now`: it counts from then. */
  settle(request: PacedRequest, now: number): void {
    request.at = Math.max(request.at, now);
  }

  #forget(now: number): void {
    for (let i = this.#sent.length - 1; i >= 0; i--)
      if (this.#sent[i]!.at <= now - this.#windowMs) this.#sent.splice(i, 1);
  }
}
