// A time bound on a promise the SDK does not control (a store operation, a connection): the caller goes on
// after `ms` whatever the other side does, and the operation left behind can be cleaned up.
import { timerDelay } from './sleep.js';

/** The error of an operation that did not settle within its bound. */
class BoundExceededError extends Error {
  override name = 'BoundExceededError';
}

/**
 * `promise`, or a rejection with a {@link BoundExceededError} saying `what` took over `ms` (clamped to the
 * timer range). `onTimeout` runs when the bound is hit (to close a connection the operation still holds).
 * @example await bounded(client.connect(), 1000, 'connecting to Redis', () => client.destroy())
 */
export function bounded<T>(promise: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new BoundExceededError(`${what}: no answer within ${ms} ms`));
      try {
        onTimeout?.();
      } catch {
        // Cleaning up is best effort: the caller has its answer already.
      }
    }, timerDelay(ms));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
