// Every job kind through the SDK against the simulator: QUEUED → RUNNING → terminal, findings, baseline
// comparison, verdicts, trend and fix state. Tests in this file run in order and share one simulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A11yClient, type CiCheck, type ScanRun } from '../../src/index.js';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { FAST, ISO_Z } from './helpers.js';

const shop = 'https://shop.example.com';
let sim: Simulator;
let client: A11yClient;

beforeAll(async () => {
  sim = await startSimulator({
    durations: { scan: 150, scanRun: 400, ciCheck: 150, journeyRun: 150, fixVerification: 150 },
    rateLimit: false,
  });
  client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url });
});
afterAll(() => sim.stop());

const total = (c: { critical?: number; serious?: number; moderate?: number; minor?: number } = {}) =>
  (c.critical ?? 0) + (c.serious ?? 0) + (c.moderate ?? 0) + (c.minor ?? 0);

describe('sites', () => {
  it('lists the seeded sites, journeys, trend history and fixes', async () => {
    const sites = await client.sites.list();
    expect(sites.map((s) => [s.id, s.verified])).toEqual(
      expect.arrayContaining([
        [sim.ids.verifiedSite, true],
        [sim.ids.unverifiedSite, false],
      ]),
    );
    const journeys = await client.sites.listJourneys(sim.ids.verifiedSite);
    expect(journeys.map((j) => j.id)).toEqual(expect.arrayContaining([sim.ids.guestJourney, sim.ids.authJourney]));
    expect(journeys.find((j) => j.id === sim.ids.authJourney)?.usesAuth).toBe(true);
    const trend = await client.sites.getTrend(sim.ids.verifiedSite);
    expect(trend.points?.map((p) => p.scanRunId).at(-1)).toBe(sim.ids.lastScanRun);
    expect(trend.points?.[1]?.resolvedCount).toBe(2); // 3 then 1 seeded extra critical findings
    expect((await client.sites.getTrend(sim.ids.verifiedSite, { limit: 1 })).points).toHaveLength(1);
    const fixes = await client.sites.listFixes(sim.ids.verifiedSite);
    expect(fixes.find((f) => f.id === sim.ids.fix)).toMatchObject({ status: 'OPEN', verifiable: true });
    expect(fixes.find((f) => f.id === sim.ids.unverifiableFix)?.verifiable).toBe(false);
  });
});

describe('CI checks', () => {
  it('completes with counts, fingerprinted violations and a verdict (no baseline yet: all new)', async () => {
    const seen: string[] = [];
    const check = await client.ciChecks.createAndWait(
      { urls: [`${shop}/`, `${shop}/checkout`, `${shop}/clean`] },
      { ...FAST, onProgress: (c) => seen.push(c.status) },
    );
    // Only forward, to COMPLETED. (Exact times are clock.test.ts's: a busy machine's first poll, 16–20 ms after
    // the 202, may come after the QUEUED quarter of these 150 ms.)
    expect(seen.join(' ')).toMatch(/^(QUEUED )*(RUNNING )*COMPLETED$/);
    expect(check).toMatchObject({
      status: 'COMPLETED',
      failOn: 'NEW_CRITICAL',
      baselineMissing: true,
      fixedCount: 0,
      unchangedCount: 0,
    });
    expect(check.baselineCheckId).toBeUndefined();
    expect(check.appUrl).toBe(`${sim.url}/app/ci/checks/${check.id}`);
    expect(check.pages?.map((p) => p.status)).toEqual(['DONE', 'DONE', 'DONE']);
    expect(total(check.pages?.[2]?.counts)).toBe(0); // /clean
    expect(check.newCounts).toEqual(check.counts);
    expect(check.verdict).toBe((check.counts?.critical ?? 0) > 0 ? 'FAIL' : 'PASS');
    const violations = await client.ciChecks.listViolations(check.id);
    expect(violations).toHaveLength(total(check.counts));
    expect(total(check.counts)).toBeGreaterThan(0);
    expect(new Set(violations.map((v) => v.fingerprint)).size).toBe(violations.length);
    for (const v of violations) {
      expect(v.fingerprint).toMatch(/^[0-9a-f]{16}$/);
      expect(v).toMatchObject({ isNew: true, helpUrl: expect.stringContaining(v.ruleId!), target: expect.any(String) });
    }
  });

  it('ends FAILED with failureReason when no page can be reached', async () => {
    const check = await client.ciChecks.createAndWait(
      { urls: [`${shop}/unreachable`, `${shop}/timeout/slow`, `${shop}/error`] },
      FAST,
    );
    expect(check.status).toBe('FAILED');
    expect(check.failureReason).toEqual(expect.any(String));
    expect(check.verdict).toBeUndefined();
    expect(check.pages?.map((p) => p.status)).toEqual(['UNREACHABLE', 'TIMEOUT', 'ERROR']);
  });

  it('derives the verdict from failOn', async () => {
    const urls = [`${shop}/clean?regress=1`];
    const verdict = async (failOn: CiCheck['failOn']) =>
      (await client.ciChecks.createAndWait({ urls, failOn }, FAST)).verdict;
    expect(await verdict('NONE')).toBe('PASS');
    expect(await verdict('ANY_CRITICAL')).toBe('FAIL');
    expect(await verdict('SERIOUS_OR_WORSE')).toBe('FAIL');
    expect(await verdict('NEW_CRITICAL')).toBe('FAIL'); // no baseline: the critical finding is new
    expect(
      (await client.ciChecks.createAndWait({ urls: [`${shop}/clean`], failOn: 'SERIOUS_OR_WORSE' }, FAST)).verdict,
    ).toBe('PASS');
  });

  it('compares with the saved baseline: new, unchanged and fixed findings', async () => {
    const urls = [`${shop}/`, `${shop}/sale`];
    const baseline = await client.ciChecks.createAndWait({ urls, setBaseline: true, failOn: 'NONE' }, FAST);
    expect(baseline.status).toBe('COMPLETED');
    const known = total(baseline.counts);

    const regressed = await client.ciChecks.createAndWait({ urls: [`${shop}/?regress=1`, `${shop}/sale`] }, FAST);
    expect(regressed).toMatchObject({
      status: 'COMPLETED',
      verdict: 'FAIL',
      baselineMissing: false,
      baselineCheckId: baseline.id,
      newCounts: { critical: 1, serious: 0, moderate: 0, minor: 0 },
      unchangedCount: known,
      fixedCount: 0,
    });
    const fresh = (await client.ciChecks.listViolations(regressed.id)).filter((v) => v.isNew);
    expect(fresh).toEqual([
      expect.objectContaining({ ruleId: 'image-alt', impact: 'critical', target: 'img.promo-banner:nth-of-type(1)' }),
    ]);

    const same = await client.ciChecks.createAndWait({ urls }, FAST);
    expect(same).toMatchObject({ verdict: 'PASS', baselineCheckId: baseline.id, unchangedCount: known, fixedCount: 0 });
    expect(total(same.newCounts)).toBe(0);
    expect((await client.ciChecks.listViolations(same.id)).every((v) => !v.isNew)).toBe(true);

    // A new baseline with two extra findings; checking without them shows both as fixed.
    const worse = await client.ciChecks.createAndWait(
      { urls: [`${shop}/sale?regress=2`], setBaseline: true, failOn: 'NONE' },
      FAST,
    );
    const better = await client.ciChecks.createAndWait({ urls: [`${shop}/sale`] }, FAST);
    expect(better).toMatchObject({ baselineCheckId: worse.id, fixedCount: 2, verdict: 'PASS' });
  });
});

describe('scans', () => {
  it('completes a single-page scan and lists its findings', async () => {
    const scan = await client.scans.createAndWait({ url: `${shop}/products` }, FAST);
    expect(scan).toMatchObject({ status: 'COMPLETED', siteId: sim.ids.verifiedSite, requestedUrl: `${shop}/products` });
    const violations = await client.scans.listViolations(scan.id);
    expect(violations).toHaveLength(scan.totalViolations!);
    expect(total(scan.counts)).toBe(scan.totalViolations);
    expect(violations[0]).toMatchObject({
      url: `${shop}/products`,
      htmlSnippet: expect.stringMatching(/^</),
      wcagSc: expect.any(Array),
    });
  });

  it('fails a scan of an unreachable page with a failure reason', async () => {
    const scan = await client.scans.createAndWait({ url: `${shop}/unreachable/page` }, FAST);
    expect(scan).toMatchObject({
      status: 'FAILED',
      failureReason: { code: 'PAGE_UNREACHABLE', reason: expect.any(String) },
    });
    expect(await client.scans.listViolations(scan.id)).toEqual([]);
  });
});

describe('scan runs', () => {
  it('shows crawl progress, then run-level findings, root causes and a new trend point', async () => {
    const progress: ScanRun[] = [];
    const run = await client.scanRuns.createAndWait(
      { siteId: sim.ids.verifiedSite },
      { ...FAST, maxIntervalMs: 20, onProgress: (r) => progress.push(r) },
    );
    expect(run).toMatchObject({ status: 'COMPLETED', pagesTotal: 8, pagesDone: 8 });
    const running = progress.filter((r) => r.status === 'RUNNING');
    expect(running.some((r) => r.pagesDone! > 0 && r.pagesDone! < r.pagesTotal!)).toBe(true);
    const done = progress.map((r) => r.pagesDone!);
    expect(done).toEqual([...done].sort((a, b) => a - b)); // never goes back

    const violations = await client.scanRuns.listViolations(run.id);
    expect(new Set(violations.map((v) => v.ruleId)).size).toBe(violations.length); // deduplicated by rule
    const causes = await client.scanRuns.getRootCauses(run.id);
    expect(causes).toMatchObject({
      status: 'COMPLETED',
      summary: { findingsTotal: run.totalViolations, pagesTotal: 8 },
    });
    expect(causes.coverageDisclaimer).toMatch(/not a compliance verdict/);
    expect(causes.clusters!.length).toBeGreaterThan(0);
    for (const c of causes.clusters!) expect(c.nodesCount).toBeGreaterThan(1);

    const trend = await client.sites.getTrend(sim.ids.verifiedSite);
    expect(trend.points!.at(-1)).toMatchObject({
      scanRunId: run.id,
      status: 'COMPLETED',
      totalViolations: run.totalViolations,
      finishedAt: expect.stringMatching(ISO_Z),
    });
  });

  it('fails a run of a site whose root is unreachable', async () => {
    const run = await client.scanRuns.createAndWait({ siteId: sim.ids.offlineSite }, FAST);
    expect(run).toMatchObject({
      status: 'FAILED',
      failureReason: { code: 'ROOT_UNREACHABLE', reason: expect.any(String) },
    });
  });
});

describe('journeys', () => {
  it('runs a guest journey: checkpoints are scans', async () => {
    const run = await client.journeys.runAndWait(sim.ids.guestJourney, FAST);
    expect(run).toMatchObject({ status: 'COMPLETED', journeyId: sim.ids.guestJourney, siteId: sim.ids.verifiedSite });
    expect(run.checkpoints?.map((c) => [c.label, c.status])).toEqual([
      ['Cart', 'COMPLETED'],
      ['Shipping', 'COMPLETED'],
      ['Payment', 'COMPLETED'],
    ]);
    expect(Date.parse(run.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(run.startedAt!));
    const scan = await client.scans.get(run.checkpoints![0]!.scanId!);
    expect(scan).toMatchObject({ status: 'COMPLETED', requestedUrl: `${shop}/cart` });
  });

  it('runs an auth journey on a site with a saved profile, and reports a broken journey step', async () => {
    expect((await client.journeys.runAndWait(sim.ids.authJourney, FAST)).status).toBe('COMPLETED');
    const broken = await client.journeys.runAndWait(sim.ids.failingJourney, FAST);
    expect(broken).toMatchObject({
      status: 'FAILED',
      failedStepIndex: 2,
      failureReasonCode: 'STEP_SELECTOR_NOT_FOUND',
    });
    expect(broken.checkpoints).toHaveLength(2);
  });
});

describe('fix verifications', () => {
  it('verifies a fix (FIXED), after which the fix shows as VERIFIED', async () => {
    const v = await client.fixes.verifyAndWait(sim.ids.fix, FAST);
    expect(v).toMatchObject({
      status: 'COMPLETED',
      outcome: 'FIXED',
      remediationItemId: sim.ids.fix,
      pagesRequested: 2,
      pagesScanned: 2,
      nodesFound: 0,
    });
    expect(await client.fixVerifications.get(v.id)).toEqual(v);
    const fix = (await client.sites.listFixes(sim.ids.verifiedSite)).find((f) => f.id === sim.ids.fix);
    expect(fix).toMatchObject({ status: 'VERIFIED', verifiedAt: v.finishedAt, verifiedPagesCount: 2 });
  });

  it('reports a fix still present (NOT_FIXED) and a verification whose pages all fail', async () => {
    const still = await client.fixes.verifyAndWait(sim.ids.regressedFix, FAST);
    expect(still).toMatchObject({ status: 'COMPLETED', outcome: 'NOT_FIXED', nodesFound: 2 });
    const failed = await client.fixes.verifyAndWait(sim.ids.unreachableFix, FAST);
    expect(failed).toMatchObject({
      status: 'FAILED',
      failureReasonCode: 'ALL_PAGES_FAILED',
      pagesScanned: 0,
      pagesFailed: 2,
    });
    expect(failed.pages?.map((p) => p.status)).toEqual(['UNREACHABLE', 'TIMEOUT']);
  });
});
