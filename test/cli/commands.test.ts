// The other commands of the CLI, in process, against the local simulator: output and exit codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';

let sim: Simulator;
const outputs: string[] = [];
const cli = async (args: string[], key?: string) => {
  const r = await runCliLikeBinary(args, { env: { SVC_API_KEY: key ?? sim.keys.full, SVC_BASE_URL: sim.url } });
  outputs.push(r.stdout, r.stderr);
  return r;
};

beforeAll(async () => {
  sim = await startSimulator({
    durations: { scan: 150, scanRun: 150, journeyRun: 150, fixVerification: 150 },
    rateLimit: false,
  });
});
afterAll(async () => {
  // No command ever printed the API key.
  for (const text of outputs) expect(text).not.toContain(sim.keys.full);
  await sim.stop();
});

describe('listing commands', () => {
  it('sites: a table with both seeded sites', async () => {
    const r = await cli(['sites']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ID\s+NAME\s+ROOT URL\s+VERIFIED/);
    expect(r.stdout).toContain('https://shop.example.com/');
    expect(r.stdout).toContain(sim.ids.unverifiedSite);
  });

  it('sites --json: the API records', async () => {
    const r = await cli(['sites', '--json']);
    expect(JSON.parse(r.stdout).map((s: { id: string }) => s.id)).toContain(sim.ids.verifiedSite);
  });

  it('journeys <siteId>', async () => {
    const r = await cli(['journeys', sim.ids.verifiedSite]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(sim.ids.guestJourney);
  });

  it('fixes <siteId>', async () => {
    const r = await cli(['fixes', sim.ids.verifiedSite]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(sim.ids.fix);
  });

  it('trend <siteId> --limit 2: a table and a text chart', async () => {
    const r = await cli(['trend', sim.ids.verifiedSite, '--limit', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/FINISHED\s+STATUS\s+PAGES\s+TOTAL/);
    expect(r.stdout).toContain('█');
  });

  it('trend with a plan lacking TREND_HISTORY → exit 3 FEATURE_NOT_IN_PLAN', async () => {
    const r = await cli(['trend', sim.ids.verifiedSite], sim.keys.freePlan);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('403 FEATURE_NOT_IN_PLAN');
  });

  it('root-causes <scanRunId>', async () => {
    const r = await cli(['root-causes', sim.ids.lastScanRun]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/groups cover \d+ of \d+ findings/);
  });

  it('an unknown site → exit 3 SITE_NOT_FOUND', async () => {
    const r = await cli(['journeys', '3fa85f64-5717-4562-b3fc-2c963f66afa6']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('404 SITE_NOT_FOUND');
  });
});

describe('job commands', () => {
  it('scan <url>: findings and exit 0', async () => {
    const r = await cli(['scan', 'https://shop.example.com/checkout']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Scan [0-9a-f-]{36}: COMPLETED/);
    expect(r.stdout).toMatch(/IMPACT\s+RULE\s+WCAG\s+URL\s+SELECTOR/);
  });

  it('scan of an unreachable page → FAILED → exit 4 with the failure reason', async () => {
    const r = await cli(['scan', 'https://shop.example.com/unreachable']);
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('FAILED (PAGE_UNREACHABLE');
  });

  it('site-run <siteId>: progress with pages on stderr, run-level findings, exit 0', async () => {
    const r = await cli(['site-run', sim.ids.verifiedSite]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Scan run [0-9a-f-]{36}: COMPLETED, pages (\d+)\/\1/);
    expect(r.stderr).toMatch(/COMPLETED {2}pages \d+\/\d+/);
  });

  it('site-run of a site whose root is unreachable → exit 4', async () => {
    const r = await cli(['site-run', sim.ids.offlineSite]);
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('ROOT_UNREACHABLE');
  });

  it('journey-run <journeyId>: checkpoints, exit 0; a failing journey → exit 4 naming the step', async () => {
    const ok = await cli(['journey-run', sim.ids.guestJourney]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/CHECKPOINT\s+STATUS\s+URL\s+SCAN/);
    const failing = await cli(['journey-run', sim.ids.failingJourney]);
    expect(failing.code).toBe(4);
    expect(failing.stdout).toContain('step 2: STEP_SELECTOR_NOT_FOUND');
  });

  it('journey-run of a journey whose site has no auth profile → exit 3 SITE_AUTH_NOT_CONFIGURED', async () => {
    const r = await cli(['journey-run', sim.ids.authJourneyNoProfile]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('422 SITE_AUTH_NOT_CONFIGURED');
  });

  it('verify-fix <remediationItemId>: outcome, exit 0; all pages unreachable → exit 4', async () => {
    const ok = await cli(['verify-fix', sim.ids.fix]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/outcome FIXED/);
    const failed = await cli(['verify-fix', sim.ids.unreachableFix]);
    expect(failed.code).toBe(4);
  });
});

describe('demo', () => {
  it('runs a CI check end to end against its own simulator, with no account', async () => {
    const r = await runCliLikeBinary(['demo'], { env: {}, timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('a local simulator of the service is running at http://127.0.0.1:');
    expect(r.stderr).toMatch(/COMPLETED {2}pages 2\/2/);
    expect(r.stdout).toMatch(/Accessibility check: (PASS|FAIL)/);
    expect(r.stdout).toContain('https://shop.example.com/checkout');
    // Its report's link is the simulator's, dead once the demo ends: the demo says so.
    expect(r.stderr).toMatch(
      /\(The Details link above is the local simulator's, http:\/\/127\.0\.0\.1:\d+: it is gone/,
    );
  });

  it('with SVC_BASE_URL and SVC_API_KEY it runs against that service instead', async () => {
    const r = await runCliLikeBinary(['demo', 'https://shop.example.com/clean'], {
      env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url },
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('local simulator');
    expect(r.stdout).toContain('Accessibility check: PASS');
  });
});
