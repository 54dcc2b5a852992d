// Contract: the SDK → Prism proxy (validating every request and response against openapi.yaml, --errors)
// → simulator. A response that breaks openapi.yaml becomes a 500 with `sl-violations`: none may appear.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { A11yClient } from '../../src/index.js';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { json, startLoopback } from '../support/loopback.js';
import { throughProxy } from '../support/upstream-router.js';
import { FAST, expectProblem } from './helpers.js';

const shop = 'https://shop.example.com';
interface Seen {
  method: string;
  url: string;
  status: number;
  violations: string | null;
}

let sim: Simulator;
let limitedSim: Simulator;
let slowSim: Simulator;
const seen: Seen[] = [];

// Every answer passing through Prism, for the no-violation assertion.
const recordingFetch: typeof fetch = async (input, init) => {
  const request = input instanceof Request ? input : new Request(input, init);
  const response = await fetch(input, init);
  seen.push({
    method: request.method,
    url: request.url,
    status: response.status,
    violations: response.headers.get('sl-violations'),
  });
  return response;
};
// Through the run's validating Prism proxy, routed on to the simulator named.
const clientFor = (upstream: Simulator, apiKey: string) =>
  new A11yClient({
    apiKey,
    baseUrl: inject('prismProxyUrl'),
    fetch: throughProxy(upstream.url, recordingFetch),
    maxRetries: 0,
    validateResponses: true,
  });

beforeAll(async () => {
  const durations = { scan: 150, scanRun: 300, ciCheck: 150, journeyRun: 150, fixVerification: 150 };
  [sim, limitedSim, slowSim] = await Promise.all([
    startSimulator({ durations, rateLimit: false }),
    startSimulator({ durations, rateLimit: { requestsPerMinute: 1, windowMs: 60_000 } }),
    // Jobs that outlast the test: a second start finds the first one still running on any machine (at 150 ms, a busy
    // machine once let the first journey run end between the two requests).
    startSimulator({ durations: { scanRun: 600_000, journeyRun: 600_000 }, rateLimit: false }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([sim?.stop(), limitedSim?.stop(), slowSim?.stop()]);
});

describe('simulator answers conform to openapi.yaml (through a validating Prism proxy)', () => {
  it('serves every job kind and list without a violation', async () => {
    const client = clientFor(sim, sim.keys.full);
    const sites = await client.sites.list();
    expect(sites.length).toBe(3);
    await client.sites.listJourneys(sim.ids.verifiedSite);
    await client.sites.listFixes(sim.ids.verifiedSite);

    const baseline = await client.ciChecks.createAndWait(
      { urls: [`${shop}/`, `${shop}/checkout`], setBaseline: true, context: { branch: 'main' } },
      FAST,
    );
    const check = await client.ciChecks.createAndWait(
      { urls: [`${shop}/?regress=1`, `${shop}/checkout`], failOn: 'NEW_CRITICAL' },
      FAST,
    );
    expect(check).toMatchObject({ status: 'COMPLETED', verdict: 'FAIL', baselineCheckId: baseline.id });
    expect((await client.ciChecks.listViolations(check.id)).some((v) => v.isNew)).toBe(true);
    expect((await client.ciChecks.createAndWait({ urls: [`${shop}/unreachable`] }, FAST)).status).toBe('FAILED');

    const scan = await client.scans.createAndWait({ url: `${shop}/checkout` }, FAST);
    expect(scan.status).toBe('COMPLETED');
    await client.scans.listViolations(scan.id);
    expect((await client.scans.createAndWait({ url: `${shop}/timeout` }, FAST)).status).toBe('FAILED');

    const run = await client.scanRuns.createAndWait({ siteId: sim.ids.verifiedSite }, FAST);
    expect(run.status).toBe('COMPLETED');
    await client.scanRuns.listViolations(run.id);
    expect((await client.scanRuns.getRootCauses(run.id)).clusters?.length).toBeGreaterThan(0);
    expect((await client.scanRuns.createAndWait({ siteId: sim.ids.offlineSite }, FAST)).status).toBe('FAILED');
    expect((await client.sites.getTrend(sim.ids.verifiedSite, { limit: 10 })).points?.at(-1)?.scanRunId).toBe(run.id);

    expect((await client.journeys.runAndWait(sim.ids.guestJourney, FAST)).status).toBe('COMPLETED');
    expect((await client.journeys.runAndWait(sim.ids.failingJourney, FAST)).status).toBe('FAILED');

    const verification = await client.fixes.verifyAndWait(sim.ids.fix, FAST);
    expect(verification.outcome).toBe('FIXED');
    await client.fixVerifications.get(verification.id);
    expect((await client.fixes.verifyAndWait(sim.ids.unreachableFix, FAST)).status).toBe('FAILED');
    await client.sites.listFixes(sim.ids.verifiedSite);
  });

  it('serves documented problems without a violation', async () => {
    const full = clientFor(sim, sim.keys.full);
    await expectProblem(clientFor(sim, 'svc_sim_not_a_key').sites.list(), 401, 'API_KEY_INVALID');
    await expectProblem(
      clientFor(sim, sim.keys.noCi).ciChecks.create({ urls: [`${shop}/`] }),
      403,
      'API_KEY_SCOPE_MISSING',
    );
    await expectProblem(
      clientFor(sim, sim.keys.freePlan).sites.getTrend(sim.ids.verifiedSite),
      403,
      'FEATURE_NOT_IN_PLAN',
    );
    await expectProblem(full.ciChecks.get(randomUUID()), 404, 'CI_CHECK_NOT_FOUND');
    await expectProblem(full.scans.create({ url: 'https://unknown.example.com/' }), 404, 'SITE_NOT_FOUND');
    await expectProblem(full.scanRuns.getRootCauses(randomUUID()), 404, 'SCAN_NOT_FOUND');
    await expectProblem(full.fixVerifications.get(randomUUID()), 404, undefined);
    await expectProblem(full.ciChecks.create({ urls: ['https://blog.example.org/'] }), 409, 'DOMAIN_NOT_VERIFIED');
    const slow = clientFor(slowSim, slowSim.keys.full);
    await slow.journeys.startRun(slowSim.ids.authJourney);
    await expectProblem(slow.journeys.startRun(slowSim.ids.authJourney), 409, 'JOURNEY_ALREADY_RUNNING');
    await slow.scanRuns.create({ siteId: slowSim.ids.unverifiedSite });
    await expectProblem(slow.scanRuns.create({ siteId: slowSim.ids.unverifiedSite }), 409, 'SCAN_ALREADY_RUNNING');
    await expectProblem(full.journeys.startRun(sim.ids.authJourneyNoProfile), 422, 'SITE_AUTH_NOT_CONFIGURED');
    await expectProblem(full.ciChecks.create({ urls: ['https://[shop'] }), 422, 'INVALID_URL');
    await expectProblem(full.fixes.startVerification(sim.ids.unverifiableFix), 422, undefined);

    const limited = clientFor(limitedSim, limitedSim.keys.full);
    await limited.sites.list();
    const e = await expectProblem(limited.sites.list(), 429, 'RATE_LIMITED');
    expect(e.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('saw no Prism violation and no 500 in any answer', () => {
    expect(seen.length).toBeGreaterThan(40);
    expect(seen.filter((s) => s.status >= 500 || s.violations !== null)).toEqual([]);
  });
});

describe("the run's validating proxy is live", () => {
  it('an answer that breaks openapi.yaml becomes a 500 naming the violation; an unrouted request is refused', async () => {
    // A site whose id is a number and which lacks its other required fields.
    const wrong = await startLoopback(json(200, [{ id: 5 }]));
    try {
      const request = () =>
        throughProxy(wrong.url)(`${inject('prismProxyUrl')}/api/v1/sites`, {
          headers: { authorization: 'Bearer svc_sim_any' },
        });
      const answer = await request();
      expect(answer.status).toBe(500);
      expect(answer.headers.get('sl-violations')).toMatch(/id/);
      expect(wrong.requests).toHaveLength(1);
      // Without the routing header the router names it, and no simulator sees the request.
      const unrouted = await fetch(`${inject('prismProxyUrl')}/api/v1/sites`, {
        headers: { authorization: 'Bearer svc_sim_any' },
      });
      expect(unrouted.status).toBeGreaterThanOrEqual(500);
      expect(await unrouted.text()).toContain('x-svc-test-upstream');
      expect(wrong.requests).toHaveLength(1);
    } finally {
      await wrong.close();
    }
  });
});
