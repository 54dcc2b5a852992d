// How long a store records a 429's pause: the service's Retry-After, within what every store (and the Lua
// script's arithmetic) holds exactly. Used by the budget and the Redis store, not by the root bundle.

/**
 * Longest pause a store records (one year). A longer `Retry-After` still fails the call that received it
 * with its own value; sharers then see a one-year pause, after which the service is asked again.
 */
export const MAX_PAUSE_MS = 365 * 24 * 3600 * 1000;

/** `delayMs` as a pause a store records: within [0, MAX_PAUSE_MS], rounded up to whole ms, NaN as 0. */
export function pauseLength(delayMs: number): number {
  return delayMs > MAX_PAUSE_MS ? MAX_PAUSE_MS : delayMs > 0 ? Math.ceil(delayMs) : 0;
}
