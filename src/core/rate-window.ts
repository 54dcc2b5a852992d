// The window's arithmetic of the rate budget (see rate-limit-store.ts): GCRA's slot, then no earlier than a
// window after the slot `capacity` places back. Used by the in-memory store, loaded with its first reservation
// (out of the root bundle), and by the Redis store's script arguments.
// It imports nothing: the store (in the root bundle) passes GCRA's numbers in, so no chunk is shared between the
// root and this one. A limit is typed by its shape (rate-limit-store.ts's RateLimit): importing the store would
// make a cycle, as it loads this file.
type RateLimit = { readonly requestsPerMinute: number; readonly burst: number };
/** GCRA's numbers of a limit (gcra.ts). */
type Gcra = { readonly intervalMs: number; readonly toleranceMs: number };

/**
 * The window the service counts in, in milliseconds (a sliding minute).
 * @example WINDOW_MS // 60000
 */
export const WINDOW_MS = 60_000;

// Requests do not reach the service at the moment of their slot, nor in the order and spacing they were sent: the
// first requests of a burst may arrive later than the request sent a window after them, and across processes
// sharing one budget in a store, one process's request may leave a few ms after its slot while another's a window
// later leaves on time (at strict spacing, slots `capacity` apart are exactly a minute apart, so a millisecond of
// such lag puts one request too many into the service's minute). Slots a window apart in the log are kept this much
// further apart, whatever the burst (~1.6 % of the rate when the window binds); a budget never sends a request more
// than SEND_LATENESS_MS after its slot (budget.ts), which leaves the rest of the margin to the network.
const WINDOW_MARGIN_MS = 1_000;

/**
 * Longest a request may leave after the slot the store counted it at: a client that finds itself later (a blocked
 * event loop, a slow store) takes a new slot instead of sending, so every request arrives within the window's margin
 * of its slot.
 * @example SEND_LATENESS_MS // 500
 */
export const SEND_LATENESS_MS = 500;

/**
 * The sliding window of a limit: at most `capacity` slots in any `windowMs` (the service's minute plus a margin
 * for requests that leave after their slot or arrive out of the order they were sent), the same at any burst.
 * @example windowParameters({ requestsPerMinute: 120, burst: 20 }) // { windowMs: 61000, capacity: 120 }
 */
export function windowParameters(limit: RateLimit): { windowMs: number; capacity: number } {
  return {
    windowMs: WINDOW_MS + WINDOW_MARGIN_MS,
    capacity: Math.max(1, Math.floor(limit.requestsPerMinute)),
  };
}

/**
 * Reserves the next slot of budget `key` at `now` in the in-memory store's state (GCRA's next arrival time, and the
 * slots of the last window, oldest first), and returns how long to wait for it (ms, ≥ 0). `gcra`: the limit's
 * interval and tolerance (gcra.ts).
 * @example reserveSlot(new Map(), new Map(), 'k', { requestsPerMinute: 120, burst: 20 }, { intervalMs: 500, toleranceMs: 9500 }, Date.now()) // 0
 */
export function reserveSlot(
  tats: Map<string, number>,
  logs: Map<string, number[]>,
  key: string,
  limit: RateLimit,
  gcra: Gcra,
  now: number,
): number {
  const { intervalMs, toleranceMs } = gcra;
  const { windowMs, capacity } = windowParameters(limit);
  const tat = Math.max(tats.get(key) ?? now, now);
  const log = logs.get(key) ?? [];
  // GCRA's slot, never before a slot already reserved (callers queue in order), and a window after the slot
  // `capacity` places back: then no window holds more than `capacity`.
  let slot = Math.max(now, tat - toleranceMs, log.at(-1) ?? now);
  if (log.length >= capacity) slot = Math.max(slot, log[log.length - capacity]! + windowMs);
  log.push(slot);
  // Slots that can no longer bind a later one (out of its window, or beyond `capacity` back) are dropped.
  let drop = 0;
  while (log.length - drop > capacity || log[drop]! <= slot - windowMs) drop++;
  log.splice(0, drop);
  logs.set(key, log);
  // A slot the window pushed later spends the spacing from there: the burst refills only after it.
  tats.set(key, Math.max(tat, slot) + intervalMs);
  return slot - now;
}
