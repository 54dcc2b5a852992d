// All tools share one client: its rate budget, and with SVC_REDIS_URL the fleet's budget in Redis as every other
// command's (a redis-server of this test's own: the simulator's keys are the same in every test, so the run's shared
// Redis may already hold their budget); the Redis connection closes with the server, which still exits 0 at once.
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis } from '../../scripts/redis.mjs';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { rawServers, until } from './support.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ rateLimit: false });
});
afterAll(() => sim.stop());
const raw = rawServers();

describe('the rate budget', () => {
  it('SVC_REDIS_URL: every tool call takes its slots from the budget in Redis, and the server exits 0 when stdin closes', async () => {
    const redis = await startRedis();
    const admin = createClient({ url: redis.url });
    await admin.connect();
    try {
      const before = new Set(await admin.keys('svc-a11y:rl:v1:*'));
      const server = raw({
        SVC_API_KEY: sim.keys.full,
        SVC_BASE_URL: sim.url,
        SVC_REDIS_URL: redis.url,
        SVC_RATE_LIMIT: '600',
      });
      const sent = sim.requestCount();
      server.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_sites', arguments: {} } });
      server.send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'explain_root_causes', arguments: { scanRunId: sim.ids.lastScanRun } },
      });
      await until(() => server.messages().filter((m) => m.id === 1 || m.id === 2).length === 2);
      for (const id of [1, 2])
        expect(server.messages().find((m) => m.id === id)?.result, `call ${id}`).not.toHaveProperty('isError');
      expect(sim.requestCount() - sent).toBe(2);
      // The two calls' requests went through one budget, kept in Redis under a hashed key (never the key itself).
      const added = (await admin.keys('svc-a11y:rl:v1:*')).filter((k) => !before.has(k));
      expect(added.length).toBeGreaterThan(0);
      for (const key of added) expect(key).not.toContain(sim.keys.full);
      expect(server.stderr()).not.toMatch(/warning: (?!The shared rate-limit store )/);
      // The open Redis connection does not keep the process alive.
      expect(await server.closeStdin()).toBe(0);
    } finally {
      await admin.quit();
      await redis.stop();
    }
  });
});
