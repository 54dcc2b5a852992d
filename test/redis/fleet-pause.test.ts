// A shared pause stops the whole fleet: one process of six gets a 429 with Retry-After: 3; during
// those 3 s the server sees at most 6 requests from the whole fleet (those already on their way when the pause
// was recorded), because every process checks the pause just before sending a slot it waited for, and Redis
// reserves nothing inside a pause. No connect() call, as in the first use docs/fleet.md shows.
import { describe, expect, it } from 'vitest';
import { redisDatabase } from '../support/redis-database.js';
import { json, problem, startLoopback } from '../support/loopback.js';
import { runFleet } from './fleet.js';

describe('a 429 on one process pauses the fleet', () => {
  it('6 processes × 30 calls; the 80th request gets Retry-After: 3: ≤ 6 requests fleet-wide during the pause, 0 failures', {
    timeout: 90_000,
  }, async () => {
    let pausedAt = 0;
    const ok = json(200, []);
    const tooMany = problem(429, 'RATE_LIMITED', { 'retry-after': '3' });
    const server = await startLoopback((req, res, index) => {
      if (index !== 80) return ok(req, res, index);
      pausedAt = Date.now();
      return tooMany(req, res, index);
    });
    try {
      const r = await runFleet({
        processes: 6,
        calls: 30,
        perWindow: 120,
        windowMs: 6000,
        redisUrl: await redisDatabase(),
        shareOfRate: 0.97,
        server,
      });
      // Inside the pause, less the 5 ms that Date.now() and the timers' whole-ms clock may differ by at its end (a
      // request sent by a timer of the pause's length can read a millisecond or two early).
      const during = server.requests.filter((q) => q.at > pausedAt && q.at < pausedAt + 3000 - 5).length;
      console.log(
        `[fleet, 3 s shared pause] ${JSON.stringify({ requests: server.requests.length, tooMany: r.tooMany, during, failures: r.failures.length })}`,
      );
      expect(pausedAt).toBeGreaterThan(0);
      expect(r.failures).toEqual([]);
      expect(r.ok).toBe(180);
      expect(r.tooMany).toBe(1);
      expect(during).toBeLessThanOrEqual(6);
      // The fleet went on after the pause.
      expect(server.requests.filter((q) => q.at >= pausedAt + 3000).length).toBeGreaterThan(50);
    } finally {
      await server.close();
    }
  });
});
