// The deadline of a wait (`waitForCompletion`, `*AndWait`), attached to the signal the wait gives each
// request, so a request that would have to wait past it (a rate budget paused by a 429) fails at once
// instead of sleeping until the deadline aborts it. A WeakMap: nothing outlives the signal.
const deadlines = new WeakMap<AbortSignal, number>();

/** Records that `signal` aborts at `atMs` (ms since the epoch) at the latest. */
export function setWaitDeadline(signal: AbortSignal, atMs: number): void {
  deadlines.set(signal, atMs);
}

/** Milliseconds left before `signal`'s wait deadline; Infinity when it has none. */
export function timeLeft(signal: AbortSignal | undefined, now: number = Date.now()): number {
  const at = signal && deadlines.get(signal);
  return at === undefined ? Infinity : Math.max(0, at - now);
}
