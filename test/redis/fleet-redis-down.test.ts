// The fleet test with Redis killed mid-run (issue 12): no call fails because of it. Each process then spaces
// its own requests at its share of the budget (the number of sharers Redis last reported) and warns once.
import { describe, expect, it } from 'vitest';
import { startRedis } from '../../scripts/redis.mjs';
import { runFleet } from './fleet.js';

describe('a fleet on one key when Redis dies', () => {
  it('6 processes × 50 calls, redis-server killed (SIGKILL, by PID) after 5 s: 0 failures', { timeout: 60_000 }, async () => {
    const redis = await startRedis();
    let killedAt = 0;
    const r = await runFleet({
      processes: 6,
      calls: 50,
      perWindow: 120,
      windowMs: 6000,
      redisUrl: redis.url,
      shareOfRate: 0.97,
      during: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5000));
        process.kill(redis.pid, 'SIGKILL');
        killedAt = Date.now();
      },
    });
    await redis.stop();
    console.log(`[fleet, redis killed] ${JSON.stringify({ ...r, failures: r.failures.length, warnings: r.warnings.length })}`);
    expect(killedAt).toBeGreaterThan(0);
    expect(r.failures).toEqual([]);
    expect(r.ok).toBe(300);
    // Every process noticed, and said so once (never with the key).
    expect(r.warnings.filter((w) => w === 'RATE_LIMIT_STORE_UNAVAILABLE')).toHaveLength(6);
  });
});
