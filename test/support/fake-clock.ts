// Running a wait to its end on vitest's fake clock: the tests that judge polling read every time on the clock the
// timers run on, so no assertion depends on the machine's speed.
import { vi } from 'vitest';

/**
 * Runs `promise` to its end on the fake clock: real turns let promise chains settle, then the clock jumps to the
 * next timer.
 * @example const resource = await onFakeClock(pollUntilTerminal('getScan', begin, { timeoutMs: 4_000 }));
 */
export async function onFakeClock<T>(promise: Promise<T>): Promise<T> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve));
    if (!settled) await vi.advanceTimersToNextTimerAsync();
  }
  return promise;
}
