// With an injected clock, job states are exact functions of time: QUEUED for the first quarter of the
// duration, RUNNING (with progress) until it ends, then terminal; timestamps come from the clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A11yClient } from '../../src/index.js';
import { type Simulator, startSimulator } from '../../src/testing/index.js';

const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);
let now = T0;
let sim: Simulator;
let client: A11yClient;

beforeAll(async () => {
  sim = await startSimulator({ clock: () => now, rateLimit: false }); // default durations: 400 ms each
  client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url });
});
afterAll(() => sim.stop());

describe('lifecycle against an injected clock', () => {
  it('moves a CI check page by page from QUEUED to COMPLETED', async () => {
    now = T0;
    const { id } = await client.ciChecks.create({
      urls: ['https://shop.example.com/', 'https://shop.example.com/cart'],
    });
    const at = async (t: number) => {
      now = T0 + t;
      const c = await client.ciChecks.get(id);
      return [c.status, c.pages?.map((p) => p.status), c.verdict];
    };
    expect(await at(0)).toEqual(['QUEUED', ['QUEUED', 'QUEUED'], undefined]);
    expect(await at(99)).toEqual(['QUEUED', ['QUEUED', 'QUEUED'], undefined]);
    expect(await at(100)).toEqual(['RUNNING', ['RUNNING', 'QUEUED'], undefined]);
    expect(await at(250)).toEqual(['RUNNING', ['DONE', 'RUNNING'], undefined]);
    expect(await client.ciChecks.listViolations(id)).toEqual([]); // not a result yet
    expect(await at(400)).toEqual(['COMPLETED', ['DONE', 'DONE'], expect.stringMatching(/^(PASS|FAIL)$/)]);
    expect((await client.ciChecks.listViolations(id)).length).toBeGreaterThan(0);
  });

  it('shows scan-run progress as a function of time', async () => {
    now = T0 + 1_000;
    const { id } = await client.scanRuns.create({ siteId: sim.ids.verifiedSite });
    const at = async (t: number) => {
      now = T0 + 1_000 + t;
      const r = await client.scanRuns.get(id);
      return [r.status, r.pagesDone, r.pagesTotal];
    };
    expect(await at(50)).toEqual(['QUEUED', 0, 0]);
    expect(await at(100)).toEqual(['RUNNING', 0, 8]);
    expect(await at(250)).toEqual(['RUNNING', 4, 8]);
    expect(await at(399)).toEqual(['RUNNING', 7, 8]);
    expect(await at(400)).toEqual(['COMPLETED', 8, 8]);
  });

  it('stamps journey runs and problems with the clock', async () => {
    now = T0 + 2_000;
    const queued = await client.journeys.startRun(sim.ids.guestJourney);
    expect(queued).toMatchObject({ status: 'QUEUED', checkpoints: [], createdAt: '2026-11-20T10:00:02.000Z' });
    expect(queued.startedAt).toBeUndefined();
    // RUNNING from +100; three checkpoints share 300 ms, each a scan QUEUED for its first quarter.
    now = T0 + 2_200;
    expect((await client.journeyRuns.get(queued.id)).checkpoints?.map((c) => c.status)).toEqual([
      'COMPLETED',
      'QUEUED',
    ]);
    now = T0 + 2_250;
    const running = await client.journeyRuns.get(queued.id);
    expect(running).toMatchObject({ status: 'RUNNING', startedAt: '2026-11-20T10:00:02.100Z' });
    expect(running.checkpoints?.map((c) => c.status)).toEqual(['COMPLETED', 'RUNNING']);
    now = T0 + 2_400;
    expect(await client.journeyRuns.get(queued.id)).toMatchObject({
      status: 'COMPLETED',
      finishedAt: '2026-11-20T10:00:02.400Z',
    });
    const e = await client.journeyRuns.get('00000000-0000-4000-8000-000000000000').catch((error: unknown) => error);
    expect(e).toMatchObject({ status: 404, code: 'JOURNEY_NOT_FOUND', timestamp: '2026-11-20T10:00:02.400Z' });
  });
});
