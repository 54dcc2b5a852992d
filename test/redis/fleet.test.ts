// The fleet test: 6 processes × 50 calls with one key, sharing the rate budget through
// Redis the way docs/fleet.md's first use writes it — construct the store, pass it to the client, no connect()
// — against a service that allows the key 120 requests per 6 s window (a minute time-scaled by 10): no call
// fails, at most three answers are 429s, and the whole never runs faster than the service's rate allows.
import { describe, expect, it } from 'vitest';
import { redisDatabase } from '../support/redis-database.js';
import { oneWarningPerOutage, runFleet } from './fleet.js';

describe('a fleet on one key, one Redis budget, no connect() call', () => {
  it('6 processes × 50 calls: 0 failures, ≤ 3 × 429, never faster than the rate allows', {
    timeout: 90_000,
  }, async () => {
    const r = await runFleet({
      processes: 6,
      calls: 50,
      perWindow: 120,
      windowMs: 6000,
      redisUrl: await redisDatabase(),
      shareOfRate: 0.97,
    });
    console.log(
      `[fleet, no connect()] ${JSON.stringify({ ...r, answers: undefined, warningsByProcess: undefined, failures: r.failures.length })}`,
    );
    expect(r.failures).toEqual([]);
    expect(r.ok).toBe(300);
    expect(r.tooMany).toBeLessThanOrEqual(3);
    // Ideal: the window's rate for the requests the service accepted (the 3 % margin of the fleet's rate included).
    // The lower bound is the service's own limit (a fleet that beat it would have drawn 429s), which no machine's speed
    // can push it under. How close to the ideal a fleet comes depends on the machine (a busy one ran it 1 % past
    // 10 % over): it is measured in bench/fleet.mjs, beside the other fleets, not asserted here.
    expect(r.elapsedMs).toBeGreaterThanOrEqual(r.idealMs * 0.9);
    // No warning on a quiet machine; a busy one can stall a process past its 250 ms operation bound: then it
    // warns once, and once more when it finds Redis again.
    expect(oneWarningPerOutage(r)).toBe(true);
  });
});
