// Findings are a deterministic function of (seed, URL): two simulators with one seed agree on every finding
// and fingerprint; another seed gives other findings. Durations of 0 make every job terminal at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A11yClient } from '../../src/index.js';
import { normalizePageUrl } from '../../src/testing/findings.js';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { fingerprint } from '../../src/testing/random.js';

const urls = ['/', '/checkout', '/products/running-shoe', '/sale', '/help'].map((p) => `https://shop.example.com${p}`);
const zero = { scan: 0, scanRun: 0, ciCheck: 0, journeyRun: 0, fixVerification: 0 };
const sims: Simulator[] = [];

beforeAll(async () => {
  sims.push(
    ...(await Promise.all([7, 7, 8].map((seed) => startSimulator({ seed, durations: zero, rateLimit: false })))),
  );
});
afterAll(() => Promise.all(sims.map((s) => s.stop())));

/** Findings of one CI check of `urls`, root causes of one scan run, and the seeded ids. */
async function observe(sim: Simulator) {
  const client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url });
  const { id } = await client.ciChecks.create({ urls });
  const check = await client.ciChecks.get(id);
  const violations = await client.ciChecks.listViolations(id);
  const run = await client.scanRuns.create({ siteId: sim.ids.verifiedSite });
  const causes = await client.scanRuns.getRootCauses(run.id);
  const scan = await client.scans.create({ url: urls[1]! });
  return {
    counts: check.counts,
    pages: check.pages,
    violations: violations.map(({ ruleId, impact, url, target, fingerprint, failureSummary }) => ({
      ruleId,
      impact,
      url,
      target,
      fingerprint,
      failureSummary,
    })),
    clusters: causes.clusters?.map((c) => [c.key, c.nodesCount, c.samplePages]),
    scanFindings: await client.scans.listViolations(scan.id),
    ids: { ...sim.ids, lastScanRun: undefined }, // seeded run ids are random; the others derive from the seed
  };
}

describe('determinism', () => {
  it('gives identical findings, fingerprints, root causes and seeded ids for the same seed', async () => {
    const [a, b] = await Promise.all([observe(sims[0]!), observe(sims[1]!)]);
    expect(a.violations.length).toBeGreaterThan(urls.length);
    expect(b).toEqual(a);
  });

  it('gives other findings and ids for another seed, with fingerprints that depend only on (rule, URL, target)', async () => {
    const [a, c] = await Promise.all([observe(sims[0]!), observe(sims[2]!)]);
    expect(c.violations).not.toEqual(a.violations);
    expect(c.ids.verifiedSite).not.toBe(a.ids.verifiedSite);
    // Whatever the seed, a fingerprint is the hash of (rule, normalized URL, target).
    for (const v of [...a.violations, ...c.violations]) {
      expect(v.fingerprint).toBe(fingerprint(v.ruleId!, normalizePageUrl(v.url!), v.target!));
    }
  });

  it('is stable over time: reading a terminal job twice gives the same answer', async () => {
    const client = new A11yClient({ apiKey: sims[0]!.keys.full, baseUrl: sims[0]!.url });
    const { id } = await client.ciChecks.create({ urls });
    const first = await client.ciChecks.listViolations(id);
    await new Promise((r) => setTimeout(r, 20));
    expect(await client.ciChecks.listViolations(id)).toEqual(first);
  });
});
