// The error of a call the rate budget did not send: the key is paused (a 429's Retry-After, this client's or
// a sharer's) until later than the call accepts. Loaded with the budget, not in the root bundle.
import type { RateLimitError } from '../core/errors.js';

/**
 * A RateLimitError (429, `RATE_LIMITED`) whose `retryAt` is the pause's end, naming the limit the pause
 * exceeds: `maxRetryDelayMs`, or the deadline of the wait the call belongs to (when `maxWaitMs` is below it).
 * The class is passed in: imported here, the errors module would leave the root bundle's chunk for one of its
 * own, which costs every user ~0.3 kB gzip.
 */
export function pausedError(
  Class: typeof RateLimitError,
  untilMs: number,
  info: { method: string; url: string },
  maxRetryDelayMs: number,
  maxWaitMs: number,
): RateLimitError {
  const retryAt = new Date(Math.min(untilMs, 8.64e15));
  const limit =
    maxWaitMs < maxRetryDelayMs
      ? `the deadline of its wait (${Math.round(maxWaitMs)} ms away)`
      : `maxRetryDelayMs (${maxRetryDelayMs} ms)`;
  const detail = `this API key's rate budget is paused until ${retryAt.toISOString()} (a 429's Retry-After, shared by every client of the budget), later than this call accepts: ${limit}. Nothing was sent`;
  const error = new Class(429, { code: 'RATE_LIMITED', title: 'Rate limited', detail } as never, new Headers(), info);
  error.retryAfterMs = Math.max(0, untilMs - Date.now());
  error.retryAt = retryAt;
  return error;
}
