// Abortable delay: every wait in the SDK (retry backoff, Retry-After, polling, rate limiting) ends at once
// when the caller's signal aborts, rejecting with the signal's reason.

/**
 * Longest delay a timer can hold (2³¹−1 ms, about 24.8 days). Node and browsers fire a longer `setTimeout`
 * after 1 ms (Node also prints a `TimeoutOverflowWarning`), which would turn a huge wait into an immediate
 * one: every delay the SDK schedules is clamped to this.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` as a delay a timer can hold: within [0, MAX_TIMER_MS], NaN as 0. */
export function timerDelay(ms: number): number {
  return ms > MAX_TIMER_MS ? MAX_TIMER_MS : ms > 0 ? ms : 0;
}

/**
 * Resolves after `ms` (clamped to {@link MAX_TIMER_MS}: a longer wait ends early, never at once), or rejects
 * with the signal's reason when it aborts first.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  if (!(ms > 0)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, timerDelay(ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The signal's reason, or a DOMException `AbortError` where the runtime gives none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
