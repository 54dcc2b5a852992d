// A timer set beside the work a test bounds: a busy machine delays the code's own timers and this one alike, so an
// upper bound on time is judged from when this one actually fired, not from the bound on the clock.

/**
 * Resolves with the milliseconds that actually passed when a timer of `ms` fired, as Date.now() reads them: the base
 * of an upper bound, never a lower one (timers run on the loop's whole-ms monotonic clock, and Date.now() can read
 * `ms - 1` across a timer of `ms`; a lower bound is judged from before the timer, less a few ms).
 * @example const fired = timerFired(1000); await work(); expect(elapsed).toBeLessThan((await fired) + 800);
 */
export function timerFired(ms: number): Promise<number> {
  const started = Date.now();
  return new Promise<number>((resolve) => setTimeout(() => resolve(Date.now() - started), ms));
}

/**
 * A timer of `ms` whose firing a test reads afterwards: work that must not wait `ms` (a back-off, a Retry-After it
 * should refuse) is judged by whether it finished before this timer, set just before the wait could begin, fired.
 * A busy machine delays both alike, so the order holds at any speed; a bug that waits `ms` loses the race.
 * @example const timer = raceTimer(1000); await work(); expect(timer.fired()).toBe(false); timer.clear();
 */
export function raceTimer(ms: number): { fired: () => boolean; clear: () => void } {
  let fired = false;
  const handle = setTimeout(() => {
    fired = true;
  }, ms);
  return { fired: () => fired, clear: () => clearTimeout(handle) };
}
