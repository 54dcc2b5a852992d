// The CLI's shared budget: --rate-limit / SVC_RATE_LIMIT and --redis-url / SVC_REDIS_URL, the built binary
// against the simulator and the run's redis-server.
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCli } from '../support/cli.js';
import { startLoopback } from '../support/loopback.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ rateLimit: false });
});
afterAll(() => sim.stop());

describe('svc-a11y with a shared rate budget', () => {
  it('SVC_REDIS_URL + SVC_RATE_LIMIT: the budget lives in Redis under a hashed key, and the process exits when done', async () => {
    const admin = createClient({ url: inject('redisUrl') });
    await admin.connect();
    try {
      const before = new Set(await admin.keys('svc-a11y:rl:v1:*'));
      const started = Date.now();
      const r = await runCli(['sites'], { env: { SVC_API_KEY: sim.keys.freePlan, SVC_BASE_URL: sim.url, SVC_REDIS_URL: inject('redisUrl'), SVC_RATE_LIMIT: '600' }, timeoutMs: 15_000 });
      expect(r.code).toBe(0);
      expect(r.stderr).not.toContain('warning');
      // No open connection kept the process alive.
      expect(Date.now() - started).toBeLessThan(5000);
      const added = (await admin.keys('svc-a11y:rl:v1:*')).filter((k) => !before.has(k));
      expect(added.length).toBeGreaterThan(0);
      for (const key of added) expect(key).not.toContain(sim.keys.freePlan);
    } finally {
      await admin.quit();
    }
  });

  it('--redis-url of a Redis that is down: the command still succeeds, with one warning on stderr', async () => {
    const closed = await startLoopback(() => undefined);
    await closed.close();
    const r = await runCli(['sites', '--rate-limit', '600', '--redis-url', closed.url.replace('http', 'redis')], { env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url } });
    expect(r.code).toBe(0);
    expect(r.stderr.match(/warning: The shared rate-limit store failed/g)).toHaveLength(1);
  });

  it.each([
    [['--rate-limit', '0'], /--rate-limit .* must be a positive number/],
    [['--rate-limit', 'fast'], /--rate-limit .* must be a positive number/],
    [['--redis-url', 'http://127.0.0.1:1'], /--redis-url .* must be a redis:\/\/ or rediss:\/\/ URL/],
  ])('%j → exit 2', async (flags, message) => {
    const r = await runCli(['sites', ...flags], { env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
