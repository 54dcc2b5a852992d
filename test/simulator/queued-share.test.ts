// SimulatorOptions.queuedShare: how much of each job's duration it spends QUEUED. 0 gives jobs that report
// progress from the start (RUNNING at once, pages moving from the first poll); the default keeps the
// silent queued quarter. Injected clock: states are exact functions of time.
import { afterEach, describe, expect, it } from 'vitest';
import { A11yClient } from '../../src/index.js';
import { type Simulator, startSimulator } from '../../src/testing/index.js';

const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);
const urls = [
  'https://shop.example.com/',
  'https://shop.example.com/cart',
  'https://shop.example.com/checkout',
  'https://shop.example.com/clean',
];
let now = T0;
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

/** A CI check of four pages created at T0 on a simulator with `queuedShare`; its status and pages at each time. */
async function checkAt(queuedShare: number | undefined, times: number[]) {
  sim = await startSimulator({
    clock: () => now,
    rateLimit: false,
    durations: { ciCheck: 1000, scanRun: 1000 },
    ...(queuedShare === undefined ? {} : { queuedShare }),
  });
  const client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url });
  now = T0;
  const { id } = await client.ciChecks.create({ urls });
  const seen = [];
  for (const t of times) {
    now = T0 + t;
    const c = await client.ciChecks.get(id);
    seen.push([c.status, c.pages?.filter((p) => p.status === 'DONE').length]);
  }
  return seen;
}

describe('queuedShare', () => {
  it('0: RUNNING from creation, pages finishing evenly over the whole duration', async () => {
    expect(await checkAt(0, [0, 249, 250, 500, 999, 1000])).toEqual([
      ['RUNNING', 0],
      ['RUNNING', 0],
      ['RUNNING', 1],
      ['RUNNING', 2],
      ['RUNNING', 3],
      ['COMPLETED', 4],
    ]);
  });

  it('default: QUEUED for the first quarter, then the pages over the other three', async () => {
    expect(await checkAt(undefined, [0, 249, 250, 999, 1000])).toEqual([
      ['QUEUED', 0],
      ['QUEUED', 0],
      ['RUNNING', 0],
      ['RUNNING', 3],
      ['COMPLETED', 4],
    ]);
  });

  it('applies to every job kind: a scan run moves from creation too', async () => {
    sim = await startSimulator({ clock: () => now, rateLimit: false, durations: { scanRun: 800 }, queuedShare: 0 });
    const client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url });
    now = T0;
    const { id } = await client.scanRuns.create({ siteId: sim.ids.verifiedSite });
    now = T0 + 400;
    expect(await client.scanRuns.get(id)).toMatchObject({ status: 'RUNNING', pagesDone: 4, pagesTotal: 8 });
  });

  it.each([-0.1, 1, Number.NaN, 2])('refuses %s (a share from 0 to 1, less than 1)', async (queuedShare) => {
    await expect(startSimulator({ queuedShare })).rejects.toThrow(/queuedShare must be a number from 0 to 1/);
  });
});
