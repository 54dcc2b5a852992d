// The fleet test (issue 12): 6 processes × 50 calls with one key, sharing the rate budget through Redis,
// against a service that allows the key 120 requests per 6 s window (a minute time-scaled by 10): no call
// fails, at most 1 % of answers are 429s, and the whole runs within 10 % of the ideal time.
import { describe, expect, inject, it } from 'vitest';
import { runFleet } from './fleet.js';

describe('a fleet on one key, one Redis budget', () => {
  it('6 processes × 50 calls: 0 failures, ≤ 1 % 429s, elapsed within 10 % of the ideal', { timeout: 60_000 }, async () => {
    const r = await runFleet({ processes: 6, calls: 50, perWindow: 120, windowMs: 6000, redisUrl: inject('redisUrl'), shareOfRate: 0.97 });
    console.log(`[fleet] ${JSON.stringify({ ...r, failures: r.failures.length })}`);
    expect(r.failures).toEqual([]);
    expect(r.ok).toBe(300);
    expect(r.tooMany / r.requests).toBeLessThanOrEqual(0.01);
    // Ideal: the window's rate for the requests the service accepted (the 3 % margin of the fleet's rate included).
    expect(r.elapsedMs).toBeGreaterThanOrEqual(r.idealMs * 0.9);
    expect(r.elapsedMs).toBeLessThanOrEqual((r.idealMs / 0.97) * 1.1);
    expect(r.warnings).toEqual([]);
  });
});
