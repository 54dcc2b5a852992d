// The retry rules as a table over the pure decision function: no loopback, no timing.
import { describe, expect, it } from 'vitest';
import { decideRetry, MAX_TIMER_MS, type Outcome } from '../../src/core/retry.js';

const policy = { maxRetries: 2, maxRetryDelayMs: 60_000 };
const half = () => 0.5; // jitter fixed: backoff(n) = 500·2ⁿ · 0.75
const status = (code: number, retryAfterMs?: number): Outcome => ({ kind: 'status', status: code, retryAfterMs });
const timeout: Outcome = { kind: 'timeout' };
const reset: Outcome = { kind: 'connection', notSent: false };
const refused: Outcome = { kind: 'connection', notSent: true };

// [outcome, attempt, method, expected delay (or 'fail')]
const table: Array<[string, Outcome, number, 'GET' | 'POST', number | 'fail']> = [
  ['429 with Retry-After 2 s, GET', status(429, 2000), 0, 'GET', 2000],
  ['429 with Retry-After 2 s, POST (not processed)', status(429, 2000), 0, 'POST', 2000],
  ['429 with Retry-After 0', status(429, 0), 0, 'GET', 0],
  ['429 without Retry-After → backoff', status(429), 0, 'POST', 375],
  ['429 with Retry-After above maxRetryDelayMs → fail at once', status(429, 60_001), 0, 'GET', 'fail'],
  ['429 at the last attempt → fail', status(429, 1000), 2, 'GET', 'fail'],
  ['503 GET → backoff', status(503), 0, 'GET', 375],
  ['503 GET second re-send → doubled backoff', status(503), 1, 'GET', 750],
  ['503 GET with Retry-After 3 s', status(503, 3000), 0, 'GET', 3000],
  ['500 POST → fail (may have been processed)', status(500), 0, 'POST', 'fail'],
  ['502 GET → backoff', status(502), 0, 'GET', 375],
  ['408 GET → backoff', status(408), 0, 'GET', 375],
  ['408 POST → fail', status(408), 0, 'POST', 'fail'],
  ['400 GET → fail', status(400), 0, 'GET', 'fail'],
  ['401 GET → fail', status(401), 0, 'GET', 'fail'],
  ['404 GET → fail', status(404), 0, 'GET', 'fail'],
  ['409 POST → fail', status(409), 0, 'POST', 'fail'],
  ['422 POST → fail', status(422), 0, 'POST', 'fail'],
  ['timeout GET → backoff', timeout, 0, 'GET', 375],
  ['timeout POST → fail', timeout, 0, 'POST', 'fail'],
  ['connection reset GET → backoff', reset, 1, 'GET', 750],
  ['connection reset POST → fail', reset, 0, 'POST', 'fail'],
  ['connection refused POST (never sent) → backoff', refused, 0, 'POST', 375],
  ['connection refused GET at the last attempt → fail', refused, 2, 'GET', 'fail'],
  ['backoff is capped at 8 s', status(503), 10, 'GET', 'fail'],
];

describe('decideRetry', () => {
  it.each(table)('%s', (_name, outcome, attempt, method, expected) => {
    const decision = decideRetry(outcome, attempt, method, policy, half);
    expect(decision).toEqual(expected === 'fail' ? { retry: false } : { retry: true, delayMs: expected });
  });

  it('maxRetries 0 never re-sends', () => {
    for (const outcome of [status(429, 0), status(503), timeout, refused])
      expect(decideRetry(outcome, 0, 'GET', { ...policy, maxRetries: 0 }, half)).toEqual({ retry: false });
  });

  it('backoff grows ×2 to an 8 s ceiling, jittered 50–100 %, never 0 ms', () => {
    const many = { maxRetries: 100, maxRetryDelayMs: 60_000 };
    expect(decideRetry(timeout, 5, 'GET', many, () => 0.999_999)).toEqual({ retry: true, delayMs: 8000 });
    expect(decideRetry(timeout, 5, 'GET', many, () => 0)).toEqual({ retry: true, delayMs: 4000 });
    expect(decideRetry(timeout, 0, 'GET', many, () => 0)).toEqual({ retry: true, delayMs: 250 });
  });

  it('a Retry-After beyond the timer range is clamped, not fired at once', () => {
    const patient = { maxRetries: 2, maxRetryDelayMs: Number.MAX_SAFE_INTEGER };
    expect(decideRetry(status(429, 30 * 86_400_000), 0, 'GET', patient, half)).toEqual({
      retry: true,
      delayMs: MAX_TIMER_MS,
    });
  });
});
