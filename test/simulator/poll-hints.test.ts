// The simulator's opt-in polling hints, and the client following them: one poll per job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A11yClient } from '../../src/index.js';
import { startSimulator, type Simulator } from '../../src/testing/index.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ durations: { ciCheck: 700 }, rateLimit: false, pollHints: true });
});
afterAll(() => sim.stop());

describe('pollHints', () => {
  it('202 and QUEUED/RUNNING answers carry Retry-After (whole seconds until done); terminal ones do not', async () => {
    const post = await fetch(`${sim.url}/api/v1/ci/checks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.keys.full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ urls: ['https://shop.example.com/'] }),
    });
    expect(post.headers.get('retry-after')).toBe('1');
    const { id } = await post.json();
    const read = () =>
      fetch(`${sim.url}/api/v1/ci/checks/${id}`, { headers: { authorization: `Bearer ${sim.keys.full}` } });
    expect((await read()).headers.get('retry-after')).toBe('1');
    await new Promise((r) => setTimeout(r, 800));
    const done = await read();
    expect((await done.json()).status).toBe('COMPLETED');
    expect(done.headers.get('retry-after')).toBeNull();
  });

  it('createAndWait following the hints needs the minimum: the create and one poll', async () => {
    const client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url });
    const before = sim.requestCount(sim.keys.full);
    const check = await client.ciChecks.createAndWait({ urls: ['https://shop.example.com/'] }, { intervalMs: 50 });
    expect(check.status).toBe('COMPLETED');
    expect(sim.requestCount(sim.keys.full) - before).toBe(2);
  });
});
