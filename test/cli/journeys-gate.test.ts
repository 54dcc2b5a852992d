// `ci --journey` (src/cli/gate/journeys.ts, journey-report.ts, journey-baseline.ts) against the simulator's seeded
// journeys: each is run with an empty body, its checkpoints' scans judged with the pages under one verdict; a failed
// journey is exit 4 naming its step; the service's refusals are exit 3 naming the journey; without a journey baseline
// NEW_CRITICAL is judged as ANY_CRITICAL and the reports say so; the baseline file is written only by a baseline run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A11yClient } from '../../src/index.js';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { journeyService } from '../support/journey-service.js';
import { problem, serveEach } from '../support/loopback.js';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.js';

let sim: Simulator;
let proxy: RecordingProxy;
let dir: string;
const env = () => ({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: proxy.url });
const serve = serveEach();
const journeyPosts = (since: number) =>
  proxy.requests.slice(since).filter((r) => r.method === 'POST' && /\/journeys\/[^/]+\/runs$/.test(r.path));
const ciPosts = (since: number) =>
  proxy.requests.slice(since).filter((r) => r.method === 'POST' && r.path.endsWith('/ci/checks'));

beforeAll(async () => {
  sim = await startSimulator({ durations: { journeyRun: 300, scan: 100, ciCheck: 150 }, rateLimit: false });
  proxy = await startRecordingProxy(sim.url);
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-journeys-'));
});
afterAll(async () => {
  await proxy.close();
  await sim.stop();
});

describe('ci --journey', () => {
  it('a journey alone: run with no body, no CI check created, each checkpoint a page; without a baseline NEW_CRITICAL is judged as ANY_CRITICAL', async () => {
    const since = proxy.requests.length;
    const json = join(dir, 'alone.json');
    const md = join(dir, 'alone.md');
    const r = await runCliLikeBinary(
      ['ci', '--journey', sim.ids.guestJourney, '--report', `json=${json}`, '--report', `markdown=${md}`],
      { env: env() },
    );
    expect([0, 1]).toContain(r.code);
    const posts = journeyPosts(since);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.path).toBe(`/api/v1/journeys/${sim.ids.guestJourney}/runs`);
    expect(posts[0]!.body).toBe('');
    expect(ciPosts(since)).toHaveLength(0);
    const report = JSON.parse(await readFile(json, 'utf8'));
    expect(report.journeys).toHaveLength(1);
    const [journey] = report.journeys;
    expect(journey).toMatchObject({ name: 'Guest checkout', failOn: 'ANY_CRITICAL', baseline: false, runs: 1 });
    expect(journey.checkpoints.map((c: { label: string }) => c.label)).toEqual(['Cart', 'Shipping', 'Payment']);
    expect(report.check.pages.map((p: { url: string }) => p.url)).toEqual([
      'https://shop.example.com/cart',
      'https://shop.example.com/checkout/shipping',
      'https://shop.example.com/checkout/payment',
    ]);
    expect(report.check.pages[0].checkpoint).toEqual({ journey: 'Guest checkout', label: 'Cart' });
    expect(report.pageThresholds.map((p: { failOn: string }) => p.failOn)).toEqual([
      'ANY_CRITICAL',
      'ANY_CRITICAL',
      'ANY_CRITICAL',
    ]);
    expect(r.stdout).toContain('ANY_CRITICAL');
    expect(r.stdout).toContain('(journey Guest checkout, checkpoint Cart)');
    expect(r.stderr).toContain('note: journey findings of Guest checkout are judged as ANY_CRITICAL');
    expect(await readFile(md, 'utf8')).toContain('journey Guest checkout, checkpoint Shipping');
    // The verdict is the threshold's over the checkpoints' findings: ANY_CRITICAL fails on any critical one.
    const critical = report.violations.filter((v: { impact: string }) => v.impact === 'critical').length;
    expect(r.code).toBe(critical > 0 ? 1 : 0);
  });

  it('with pages: one verdict, and checkpoint URLs are never sent as CI check URLs', async () => {
    const since = proxy.requests.length;
    // Named twice (once in capitals): run once.
    const r = await runCliLikeBinary(
      [
        'ci',
        'https://shop.example.com/clean',
        '--journey',
        sim.ids.guestJourney,
        '--journey',
        sim.ids.guestJourney.toUpperCase(),
        '--fail-on',
        'NONE',
        '--json',
      ],
      { env: env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(journeyPosts(since)).toHaveLength(1);
    const created = ciPosts(since).map((p) => JSON.parse(p.body).urls);
    expect(created).toEqual([['https://shop.example.com/clean']]);
    const report = JSON.parse(r.stdout);
    expect(report.batches.map((b: { label: string }) => b.label)).toEqual([
      'shop.example.com',
      'journey Guest checkout',
    ]);
    expect(report.verdict.outcome).toBe('PASS');
    // The service's verdict is its CI check's: a journey has none to add.
    expect(report.check.verdict).toBe('PASS');
  });

  it('the journey baseline: written by a baseline run only; a later run fails NEW_CRITICAL only on findings not in it', async () => {
    const file = join(dir, 'journeys.json');
    const save = await runCliLikeBinary(
      ['ci', '--journey', sim.ids.guestJourney, '--journey-baseline', file, '--set-baseline', '--fail-on', 'NONE'],
      { env: env() },
    );
    expect(save.code, save.stderr).toBe(0);
    expect(save.stderr).toContain(`note: journey baseline: saved the findings of 1 journey to ${file}`);
    // Under NEW_CRITICAL, the run that writes the first entry judges as ANY_CRITICAL, and says it has just written it.
    const first = join(dir, 'first.json');
    const writes = await runCliLikeBinary(
      ['ci', '--journey', sim.ids.guestJourney, '--journey-baseline', first, '--set-baseline'],
      { env: env() },
    );
    expect(writes.stderr).toContain(
      `judged as ANY_CRITICAL: NEW_CRITICAL needs a journey baseline (this run has written theirs to ${first}`,
    );
    const saved = await readFile(file, 'utf8');
    const entry = JSON.parse(saved).journeys[sim.ids.guestJourney];
    expect(entry.name).toBe('Guest checkout');
    expect(entry.fingerprints.length).toBeGreaterThan(0);
    for (const print of entry.fingerprints) expect(print).toMatch(/^j1:[0-9a-f]{32}$/);

    const json = join(dir, 'compared.json');
    const read = await runCliLikeBinary(
      ['ci', '--journey', sim.ids.guestJourney, '--journey-baseline', file, '--report', `json=${json}`],
      { env: env() },
    );
    // The same findings again (fingerprints hold no run or scan id): nothing new, so NEW_CRITICAL passes.
    expect(read.code, read.stdout).toBe(0);
    const report = JSON.parse(await readFile(json, 'utf8'));
    expect(report.journeys[0]).toMatchObject({ failOn: 'NEW_CRITICAL', baseline: true });
    expect(report.violations.every((v: { isNew: boolean }) => v.isNew === false)).toBe(true);
    expect(read.stderr).not.toContain('judged as ANY_CRITICAL');
    expect(await readFile(file, 'utf8')).toBe(saved);

    // A baseline missing one finding: that one is new, and fails NEW_CRITICAL when it is critical.
    const critical = report.violations.find((v: { impact: string }) => v.impact === 'critical');
    // The seeded guest journey has a critical finding on one of its pages (seed 1).
    expect(critical).toBeDefined();
    {
      const edited = join(dir, 'edited.json');
      await writeFile(
        edited,
        JSON.stringify({
          version: 1,
          journeys: {
            [sim.ids.guestJourney]: {
              fingerprints: entry.fingerprints.filter((p: string) => p !== critical.fingerprint),
            },
          },
        }),
      );
      const fails = await runCliLikeBinary(['ci', '--journey', sim.ids.guestJourney, '--journey-baseline', edited], {
        env: env(),
      });
      expect(fails.code).toBe(1);
    }
  });

  it('a journey baseline that cannot be written: one warning, the verdict and reports stand', async () => {
    const blocked = join(dir, 'not-a-folder');
    await writeFile(blocked, 'a file where the baseline wants a folder');
    const r = await runCliLikeBinary(
      [
        'ci',
        '--journey',
        sim.ids.guestJourney,
        '--journey-baseline',
        join(blocked, 'journeys.json'),
        '--set-baseline',
        '--fail-on',
        'NONE',
      ],
      { env: env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: journey baseline: .*not-a-folder\/journeys\.json could not be written/);
    expect(r.stdout).toContain('Accessibility check: PASS');
  });

  it('a pull request cannot steer by committing the baseline: a file git tracks is not read in a merge request', async () => {
    const repo = await mkdtemp(join(tmpdir(), 'svc-a11y-journey-repo-'));
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: repo,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@x',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@x',
        },
      });
    git('init', '-q', '-b', 'fix');
    // The change's own baseline: every finding it has, so none would count as new.
    const save = await runCliLikeBinary(
      [
        'ci',
        '--journey',
        sim.ids.guestJourney,
        '--journey-baseline',
        'journeys.json',
        '--set-baseline',
        '--fail-on',
        'NONE',
      ],
      { env: env(), cwd: repo },
    );
    expect(save.code, save.stderr).toBe(0);
    git('add', 'journeys.json');
    git('commit', '-q', '-m', 'my baseline');
    const args = ['ci', '--journey', sim.ids.guestJourney, '--journey-baseline', 'journeys.json'];
    const branch = await runCliLikeBinary(args, { env: env(), cwd: repo });
    expect(branch.code, branch.stdout).toBe(0); // read outside a merge request: nothing new
    const mr = await runCliLikeBinary(args, { env: { ...env(), CI_MERGE_REQUEST_IID: '3' }, cwd: repo });
    expect(mr.stderr).toContain(
      "warning: journey baseline: journeys.json is committed in the repository, so on a GitLab merge request (CI_MERGE_REQUEST_IID) it may be the change's own: not read",
    );
    // Judged as having no baseline: ANY_CRITICAL, and the guest journey has critical findings.
    expect(mr.code).toBe(1);
  });

  it('a journey baseline that is not one is exit 2 naming the file, with nothing sent', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"version": 2}');
    const since = proxy.requests.length;
    const r = await runCliLikeBinary(['ci', '--journey', sim.ids.guestJourney, '--journey-baseline', bad], {
      env: env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`journey baseline: ${bad}: version`);
    expect(journeyPosts(since)).toHaveLength(0);
  });

  it('a journey that fails at a step is run again once, then exit 4 naming the journey, the step and the reason', async () => {
    const since = proxy.requests.length;
    // --fail-on NONE: the checkpoints before the failing step are judged too, and a FAIL there would win over the 4.
    const r = await runCliLikeBinary(['ci', '--journey', sim.ids.failingJourney, '--fail-on', 'NONE'], { env: env() });
    expect(r.code).toBe(4);
    expect(journeyPosts(since)).toHaveLength(2);
    expect(r.stderr).toContain('journey Gift card purchase failed at step 2: STEP_SELECTOR_NOT_FOUND');
    expect(r.stdout).toContain('Accessibility check: UNKNOWN');
    const off = proxy.requests.length;
    const once = await runCliLikeBinary(
      ['ci', '--journey', sim.ids.failingJourney, '--recheck', '0', '--fail-on', 'NONE'],
      { env: env() },
    );
    expect(once.code).toBe(4);
    expect(journeyPosts(off)).toHaveLength(1);
  });

  it('a journey that fails on its first run only is judged on its second', async () => {
    const since = proxy.requests.length;
    const json = join(dir, 'flaky.json');
    const r = await runCliLikeBinary(
      ['ci', '--journey', sim.ids.flakyJourney, '--fail-on', 'NONE', '--report', `json=${json}`],
      { env: env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(journeyPosts(since)).toHaveLength(2);
    const report = JSON.parse(await readFile(json, 'utf8'));
    expect(report.journeys[0]).toMatchObject({ name: 'Newsletter sign-up', runs: 2, status: 'COMPLETED' });
  });

  it('a journey already running (409) is waited out, then run', async () => {
    const client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url });
    await client.journeys.startRun(sim.ids.authJourney);
    const since = proxy.requests.length;
    const r = await runCliLikeBinary(['ci', '--journey', sim.ids.authJourney, '--fail-on', 'NONE'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    // Refused while the other run went on (300 ms), then accepted.
    expect(journeyPosts(since)).toHaveLength(2);
  });

  it('a journey still running at the deadline: exit 4 naming the 409', async () => {
    const slow = await startSimulator({ durations: { journeyRun: 60_000 }, rateLimit: false });
    try {
      const busy = new A11yClient({ apiKey: slow.keys.full, baseUrl: slow.url });
      await busy.journeys.startRun(slow.ids.guestJourney);
      const r = await runCliLikeBinary(['ci', '--journey', slow.ids.guestJourney, '--timeout', '1s'], {
        env: { SVC_API_KEY: slow.keys.full, SVC_BASE_URL: slow.url },
      });
      expect(r.code).toBe(4);
      // Its name is read from its site's list once a run of it starts: until then it is named by its id.
      expect(r.stderr).toContain(`journey ${slow.ids.guestJourney} was already running (409 JOURNEY_ALREADY_RUNNING)`);
    } finally {
      await slow.stop();
    }
  });

  it('refusals are exit 3 naming the journey: 404 its id, 422 the auth profile, 403 the plan feature', async () => {
    const missing = '7f3e2d1c-0b9a-4876-8543-210fedcba987';
    const notFound = await runCliLikeBinary(['ci', '--journey', missing], { env: env() });
    expect(notFound.code).toBe(3);
    expect(notFound.stderr).toContain(`The journey ${missing} was not found`);

    const noProfile = await runCliLikeBinary(['ci', '--journey', sim.ids.authJourneyNoProfile], { env: env() });
    expect(noProfile.code).toBe(3);
    expect(noProfile.stderr).toContain('SITE_AUTH_NOT_CONFIGURED');
    expect(noProfile.stderr).toContain('its site needs a saved auth profile');

    const plan = await serve(problem(403, 'FEATURE_NOT_IN_PLAN'));
    const refused = await runCliLikeBinary(['ci', '--journey', missing], {
      env: { SVC_API_KEY: 'svc_test_key', SVC_BASE_URL: plan.url },
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('needs the plan feature JOURNEYS (and AUTHENTICATED_SCANS');
    expect(plan.requests.filter((q) => q.url.endsWith('/ci/checks'))).toHaveLength(0);
  });

  it("a status the document does not show is never a pass; a suppression covers a checkpoint's finding as a page's", async () => {
    const JID = '4e5f6a7b-8c9d-4e0f-8a1b-2c3d4e5f6a7b';
    const RUN = '5f6a7b8c-9d0e-4f1a-8b2c-3d4e5f6a7b8c';
    const SCAN = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
    const runAs = (status: string) => ({
      id: RUN,
      journeyId: JID,
      siteId: sim.ids.verifiedSite,
      status,
      checkpoints: [{ scanId: SCAN, label: 'Basket', url: 'https://shop.example.com/basket', status: 'COMPLETED' }],
    });
    const finding = {
      ruleId: 'image-alt',
      impact: 'critical',
      url: 'https://shop.example.com/basket',
      target: 'img.hero',
      wcagSc: ['1.1.1'],
    };
    const service = (status: string) =>
      serve(
        journeyService({ run: runAs(status), violations: [finding], scan: () => ({ id: SCAN, status: 'COMPLETED' }) }),
      );
    const cancelled = await service('CANCELLED_BY_OPERATOR');
    const r = await runCliLikeBinary(['ci', '--journey', JID, '--recheck', '0', '--fail-on', 'NONE'], {
      env: { SVC_API_KEY: 'svc_test_key', SVC_BASE_URL: cancelled.url },
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`journey ${JID} ended CANCELLED_BY_OPERATOR`);

    const done = await service('COMPLETED');
    const folder = await mkdtemp(join(tmpdir(), 'svc-a11y-journey-suppressed-'));
    await writeFile(
      join(folder, 'suppressions.json'),
      JSON.stringify({
        suppressions: [
          {
            ruleId: 'image-alt',
            url: 'https://shop.example.com/basket',
            reason: 'hero image replaced in #88',
            expires: '2099-01-01',
          },
        ],
      }),
    );
    const failing = await runCliLikeBinary(['ci', '--journey', JID], {
      env: { SVC_API_KEY: 'svc_test_key', SVC_BASE_URL: done.url },
    });
    expect(failing.code).toBe(1); // a critical finding, no journey baseline: ANY_CRITICAL
    const suppressed = await runCliLikeBinary(
      ['ci', '--journey', JID, '--suppressions', join(folder, 'suppressions.json')],
      { env: { SVC_API_KEY: 'svc_test_key', SVC_BASE_URL: done.url } },
    );
    expect(suppressed.code, suppressed.stdout).toBe(0);
    expect(suppressed.stdout).toContain('suppressed');
  });

  it('a run listing 1 000 checkpoints: the first 200 read, 4 at a time, the rest named as not judged', async () => {
    const JID = '7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e';
    const RUN = '8c9d0e1f-2a3b-4c4d-8e5f-6a7b8c9d0e1f';
    const checkpoints = Array.from({ length: 1000 }, (_, i) => ({
      scanId: `9d0e1f2a-3b4c-4d5e-8f6a-${String(i).padStart(12, '0')}`,
      label: `step ${i}`,
      url: `https://shop.example.com/step/${i}`,
      status: 'COMPLETED',
    }));
    let inFlight = 0;
    let most = 0;
    let scanReads = 0;
    const api = await serve(
      journeyService({
        run: { id: RUN, journeyId: JID, siteId: sim.ids.verifiedSite, status: 'COMPLETED', checkpoints },
        scan: (req) => ({ id: req.url.split('/').at(-1), status: 'COMPLETED' }),
        onScan: async () => {
          scanReads++;
          most = Math.max(most, ++inFlight);
          await new Promise((r) => setTimeout(r, 2));
          inFlight--;
        },
      }),
    );
    const r = await runCliLikeBinary(['ci', '--journey', JID, '--json'], {
      env: { SVC_API_KEY: 'svc_test_key', SVC_BASE_URL: api.url, SVC_RATE_LIMIT: '100000' },
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('lists 1000 checkpoints: the first 200 were read, the rest not judged');
    expect(scanReads).toBe(400); // each of the 200: its scan, then its findings
    expect(most).toBeLessThanOrEqual(4);
    expect(JSON.parse(r.stdout).journeys[0].checkpoints).toHaveLength(200);
  });

  it('bad ids are exit 2 naming the setting, and journeys cannot be sharded', async () => {
    const bad = await runCliLikeBinary(['ci', '--journey', 'checkout'], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--journey must be a journey id');
    const sharded = await runCliLikeBinary(
      ['ci', 'https://shop.example.com/', '--journey', sim.ids.guestJourney, '--shard', '1/2'],
      {
        env: env(),
      },
    );
    expect(sharded.code).toBe(2);
    expect(sharded.stderr).toContain('journeys cannot be sharded');
    expect(existsSync(join(dir, 'nothing'))).toBe(false);
  });
});
