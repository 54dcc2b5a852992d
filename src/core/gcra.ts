// GCRA's two numbers for a rate limit, shared by the in-memory store (pause, refund: in the root bundle), the
// window's arithmetic (rate-window.ts, loaded with a store's first reservation) and the Redis store's script.
// The limit is typed by its shape: this file imports nothing, so neither importer makes a cycle.

/**
 * Emission interval and burst tolerance of a limit, in milliseconds.
 * @example gcraParameters({ requestsPerMinute: 120, burst: 3 }) // { intervalMs: 500, toleranceMs: 1000 }
 */
export function gcraParameters(limit: { readonly requestsPerMinute: number; readonly burst: number }): {
  intervalMs: number;
  toleranceMs: number;
} {
  const intervalMs = 60_000 / limit.requestsPerMinute;
  return { intervalMs, toleranceMs: (limit.burst - 1) * intervalMs };
}
