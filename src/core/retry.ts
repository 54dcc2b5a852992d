// When to re-send: one pure function of what happened, the attempt number, the method and the policy, so
// every retry rule is tested by a table, without loopback timing.
import { MAX_TIMER_MS } from '../internal/sleep.js';

/** What one attempt ended with, when it did not end with a 2xx body. */
export type Outcome =
  /** A non-2xx answer; `retryAfterMs` is its parsed `Retry-After`, when it had a valid one. */
  | { readonly kind: 'status'; readonly status: number; readonly retryAfterMs?: number | undefined }
  /** No answer (or no whole body) within the attempt's `timeoutMs`. */
  | { readonly kind: 'timeout' }
  /** The connection failed. `notSent`: it failed before the request could reach the service (refused, DNS). */
  | { readonly kind: 'connection'; readonly notSent: boolean };

/** The client's retry settings. */
export interface RetryPolicy {
  /** Re-sends allowed after the first attempt. */
  readonly maxRetries: number;
  /** Longest wait accepted before a re-send; a longer `Retry-After` fails at once. */
  readonly maxRetryDelayMs: number;
}

/** Re-send after `delayMs`, or fail with the outcome's error. */
export type Decision = { readonly retry: true; readonly delayMs: number } | { readonly retry: false };

/** Longest delay a timer can hold (2³¹−1 ms): see `internal/sleep.ts`. Re-exported for the modules that import it from here. */
export { MAX_TIMER_MS };

const FAIL: Decision = { retry: false };

/**
 * Whether attempt `attempt` (0 for the first) is followed by a re-send.
 * - 429 (any method: the service did not process the request): after `Retry-After`, else backoff; a wait
 *   above `maxRetryDelayMs` fails at once, so the caller learns the wait instead of hammering early.
 * - 408, 5xx, timeouts and connection failures: re-sent for GET only (a POST may have been processed),
 *   except failures before the request left (`notSent`), which are re-sent for any method.
 * - anything else (4xx, redirects, oversized bodies never reach here): fail.
 * @param random - source of the backoff's jitter, in [0, 1)
 * @default random Math.random
 * @example decideRetry({ kind: 'status', status: 503 }, 0, 'GET', { maxRetries: 2, maxRetryDelayMs: 60_000 }) // { retry: true, delayMs: 250…500 }
 */
export function decideRetry(
  outcome: Outcome,
  attempt: number,
  method: string,
  policy: RetryPolicy,
  random: () => number = Math.random,
): Decision {
  if (attempt >= policy.maxRetries) return FAIL;
  const idempotent = method === 'GET' || method === 'HEAD';
  if (outcome.kind === 'status') {
    const { status, retryAfterMs } = outcome;
    if (status !== 429 && !(idempotent && (status === 408 || status >= 500))) return FAIL;
    if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryDelayMs) return FAIL;
    return { retry: true, delayMs: Math.min(retryAfterMs ?? backoffDelay(attempt, random), MAX_TIMER_MS) };
  }
  if (!idempotent && !(outcome.kind === 'connection' && outcome.notSent)) return FAIL;
  return { retry: true, delayMs: backoffDelay(attempt, random) };
}

/**
 * Exponential backoff with jitter: 500 ms·2ⁿ capped at 8 s, then a random 50–100 % of it, so a fleet of
 * clients spreads out and a wait is never 0 ms.
 * @param attempt - 0 for the first re-send
 * @param random - source of randomness in [0, 1)
 * @default random Math.random
 * @example backoffDelay(0) // 250…500
 */
function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(8_000, 500 * 2 ** attempt);
  return Math.max(1, Math.round(ceiling * (0.5 + random() * 0.5)));
}
