// A timer set beside the work a test bounds: a busy machine delays the code's own timers and this one alike, so an
// upper bound on time is judged from when this one actually fired, not from the bound on the clock.

/**
 * Resolves with the milliseconds that actually passed when a timer of `ms` fired.
 * @example const fired = timerFired(1000); await work(); expect(elapsed).toBeLessThan((await fired) + 800);
 */
export function timerFired(ms: number): Promise<number> {
  const started = Date.now();
  return new Promise<number>((resolve) => setTimeout(() => resolve(Date.now() - started), ms));
}
