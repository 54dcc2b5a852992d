// SimulatorOptions.crawlPages: how many pages a scan run crawls, for long crawls whose pagesDone moves from the
// first poll. Injected clock: states are exact functions of time.
import { afterEach, describe, expect, it } from 'vitest';
import { A11yClient } from '../../src/index.js';
import { type Simulator, type SimulatorOptions, startSimulator } from '../../src/testing/index.js';

const T0 = Date.UTC(2026, 10, 27, 10, 0, 0);
let now = T0;
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

async function start(options: SimulatorOptions) {
  now = T0;
  sim = await startSimulator({ clock: () => now, rateLimit: false, durations: { scanRun: 1000 }, ...options });
  return new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url });
}

describe('crawlPages', () => {
  it("a run crawls that many pages: the site's seeded paths, then generated ones, progress moving from creation", async () => {
    const client = await start({ crawlPages: 60, queuedShare: 0 });
    const { id } = await client.scanRuns.create({ siteId: sim!.ids.verifiedSite });
    const seen = [];
    for (const t of [0, 17, 500, 999, 1000]) {
      now = T0 + t;
      const run = await client.scanRuns.get(id);
      seen.push([run.status, run.pagesDone, run.pagesTotal]);
    }
    expect(seen).toEqual([
      ['RUNNING', 0, 60],
      ['RUNNING', 1, 60],
      ['RUNNING', 30, 60],
      ['RUNNING', 59, 60],
      ['COMPLETED', 60, 60],
    ]);
    // Every crawled page feeds the run's findings; the seeded history runs crawl as many.
    expect((await client.scanRuns.getRootCauses(id)).summary?.pagesTotal).toBe(60);
    expect((await client.scanRuns.get(sim!.ids.lastScanRun)).pagesTotal).toBe(60);
  });

  it('fewer than the seeded paths keeps the first ones; a site whose root is unreachable still crawls nothing', async () => {
    const client = await start({ crawlPages: 3 });
    now = T0;
    const run = await client.scanRuns.create({ siteId: sim!.ids.verifiedSite });
    now = T0 + 1000;
    expect((await client.scanRuns.get(run.id)).pagesTotal).toBe(3);
    now = T0 + 2000;
    const offline = await client.scanRuns.create({ siteId: sim!.ids.offlineSite });
    now = T0 + 3000;
    expect(await client.scanRuns.get(offline.id)).toMatchObject({ status: 'FAILED', pagesTotal: 0 });
  });

  it.each([0, 1001, 2.5, Number.NaN, -1])(
    '%s: refused at start, naming the option and its rule',
    async (crawlPages) => {
      await expect(startSimulator({ crawlPages })).rejects.toThrow(
        new RangeError(`crawlPages must be a whole number from 1 to 1000, got ${crawlPages}.`),
      );
    },
  );
});
