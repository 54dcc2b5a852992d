// The GitHub Action end to end: the committed bundle run as the runner runs it (node24, INPUT_* variables, the
// runner's files, real pull_request and push payloads) against the simulator and a loopback fake of GitHub's REST
// API. One story in order on one simulator: the baseline saved on a push to main, a pull request that passes (the
// comment is created), one that regresses (the same comment edited), a token without permission (a warning only).
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisDatabase } from '../support/redis-database.js';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runMultitool } from '../support/sarif-multitool.js';
import { warningsBesidesStore } from '../support/cli.js';
import { startFakeGitHub, type FakeGitHub } from './fake-github.js';
import { nodeForAction, runAction, type ActionRun } from './run-action.js';

const TOKEN = 'ghs_fakeInstallationToken0123456789abcdef';
const MARKER = '<!-- svc-a11y-action -->';
const root = 'https://shop.example.com/';
const checkout = 'https://shop.example.com/checkout';
const RUN_URL = 'https://github.com/acme/shop/actions/runs/19876543210';

let sim: Simulator;
let github: FakeGitHub;
const inputs = (extra: Record<string, string> = {}) => ({ 'api-key': sim.keys.full, 'base-url': sim.url, ...extra });
const prRun = (extra: Record<string, string>, eventFile = 'pull_request.opened.json') =>
  runAction({ inputs: inputs(extra), eventName: 'pull_request', eventFile, apiUrl: github.url, token: TOKEN });
const actionComments = () => (github.comments.get(7) ?? []).filter((c) => c.body.startsWith(MARKER));
// Everything a run wrote where a reader or a later step sees it.
const everything = (run: ActionRun) =>
  [
    run.stdout.replace(/^::add-mask::.*$/m, ''),
    run.stderr,
    run.summary,
    JSON.stringify(run.outputs),
    ...github.comments.get(7)!.map((c) => c.body),
  ].join('\n');
const describeRun = (run: ActionRun) => `exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;

beforeAll(async () => {
  nodeForAction(); // installs Node 24 into the runtimes cache if this machine has not got it yet
  sim = await startSimulator({ durations: { ciCheck: 150 }, rateLimit: false });
  // 120 comments on the pull request before the action's: its own is found again only on the second page.
  github = await startFakeGitHub({ repository: 'acme/shop', token: TOKEN, seed: { issue: 7, count: 120 } });
}, 600_000);
afterAll(async () => {
  await github?.close();
  await sim?.stop();
});

describe('the action against the simulator (one baseline story, in order)', () => {
  let pass: ActionRun;
  let fail: ActionRun;

  it('1. a push to main: set-baseline auto saves the baseline; PASS under fail-on NONE; no comment (not a pull request)', async () => {
    const run = await runAction({
      inputs: inputs({ urls: `${root}\n# the checkout page\n${checkout}\n`, 'fail-on': 'NONE' }),
      eventName: 'push',
      eventFile: 'push.main.json',
      apiUrl: github.url,
      token: TOKEN,
    });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toContain(
      'set-baseline: this check is saved as the baseline (a push to the default branch main)',
    );
    expect(run.outputs.verdict).toBe('PASS');
    expect(Number(run.outputs['new-findings'])).toBeGreaterThan(0); // no baseline yet: every finding is new
    expect(run.outputs['comment-url']).toBe('');
    expect(github.requests).toHaveLength(0);
  }, 120_000);

  it('2. a pull request with nothing new: PASS, outputs, SARIF and JUnit files, summary, and the comment created', async () => {
    pass = await prRun({ urls: `${root}\n${checkout}` });
    expect(pass.code, describeRun(pass)).toBe(0);
    // The baseline of step 1 was applied (else its critical findings would be new and fail NEW_CRITICAL).
    expect(pass.outputs).toMatchObject({ verdict: 'PASS', 'new-findings': '0' });
    expect(pass.outputs['check-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(readFileSync(pass.outputs['sarif-file']!, 'utf8')).toContain('"version": "2.1.0"');
    expect(readFileSync(pass.outputs['junit-file']!, 'utf8')).toContain('<testsuites');
    expect(pass.outputs['sarif-file']!.startsWith(pass.temp)).toBe(true); // under $RUNNER_TEMP

    const comments = actionComments();
    expect(comments).toHaveLength(1);
    expect(pass.outputs['comment-url']).toBe(comments[0]!.html_url);
    expect(comments[0]!.body).toContain('## ✅ Accessibility check: PASS');
    expect(comments[0]!.body).toContain('**0 new findings** relative to the baseline');
    expect(comments[0]!.body).toContain(`[workflow run](${RUN_URL})`);
    expect(comments[0]!.body).toContain('commit 8d2f1c0');
    // Paged through the 120 earlier comments (100 a page) before creating its own.
    const listed = github.requests.filter((r) => r.method === 'GET');
    expect(listed.map((r) => r.query.get('page') ?? '1')).toEqual(['1', '2']);
    expect(github.requests.every((r) => r.authorization === `token ${TOKEN}`)).toBe(true);

    expect(pass.summary).toContain('## Accessibility check: PASS');
    expect(pass.summary).toContain(`Pull request comment: [updated on every run](${comments[0]!.html_url})`);
    expect(pass.stdout).not.toMatch(/^::error/m);
  }, 120_000);

  it('3. a regression: FAIL, the step fails, annotations on the mapped file, and the same comment edited in place', async () => {
    const before = actionComments()[0]!;
    const requestsBefore = github.requests.length;
    fail = await prRun({
      urls: `${root}?regress=2\n${checkout}`,
      'sarif-map': '/=src/pages/home.tsx\n/checkout=src/pages/checkout.tsx',
    });
    expect(fail.code, describeRun(fail)).toBe(1);
    expect(fail.outputs).toMatchObject({ verdict: 'FAIL', 'new-findings': '2' });

    // One action comment still, the same one, now saying FAIL and listing the two new critical findings.
    const comments = actionComments();
    expect(comments).toHaveLength(1);
    expect(comments[0]!.id).toBe(before.id);
    expect(fail.outputs['comment-url']).toBe(before.html_url);
    const body = comments[0]!.body;
    expect(body).toContain('## ❌ Accessibility check: FAIL');
    // Markdown-escaped as the step summary is (`\_` renders as `_`).
    expect(body).toContain('- Failed: 2 findings break the threshold NEW\\_CRITICAL');
    expect(body).toContain('**2 new findings** relative to the baseline');
    expect(body).toContain('### critical (2)');
    expect(
      body.match(
        /^\| \[image-alt\]\(https:\/\/dequeuniversity\.com\/[^)]+\) \| \[https:\/\/shop\.example\.com\/\?regress=2\]\(https:\/\/shop\.example\.com\/\?regress=2\) \| img\.promo-banner:nth-of-type\([12]\) \| 1\.1\.1 \| \*\*yes\*\* \|$/gm,
      ),
    ).toHaveLength(2);
    const edits = github.requests.slice(requestsBefore);
    expect(edits.filter((r) => r.method === 'PATCH').map((r) => r.path)).toEqual([
      `/repos/acme/shop/issues/comments/${before.id}`,
    ]);
    expect(edits.some((r) => r.method === 'POST' && r.path !== '/graphql')).toBe(false);
    // The unrelated comment quoting the marker mid-text (page 1) was never taken for the action's.
    expect(github.comments.get(7)!.filter((c) => c.body.includes(MARKER))).toHaveLength(2);

    // Annotations through @actions/core: on the mapped source file, line 1; then the step's failure.
    const errors = fail.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(
      errors.filter((l) =>
        l.startsWith('::error title=New critical accessibility finding%3A image-alt,file=src/pages/home.tsx,line=1::'),
      ),
    ).toHaveLength(2);
    expect(errors.at(-1)).toBe(
      "::error::Accessibility check FAIL: 2 findings break the threshold NEW_CRITICAL; the service's verdict is FAIL",
    );
    // The CLI's own annotations are not printed twice (the action writes them, with files).
    expect(fail.stderr).not.toMatch(/^::/m);

    // SARIF: accepted by Microsoft's validator with GitHub's ingestion rules; the alerts are on the mapped file.
    const sarif = JSON.parse(readFileSync(fail.outputs['sarif-file']!, 'utf8'));
    expect(sarif.runs[0].results).toHaveLength(2);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
      uri: 'src/pages/home.tsx',
      uriBaseId: '%SRCROOT%',
    });
    const work = mkdtempSync(join(tmpdir(), 'svc-a11y-action-sarif-'));
    copyFileSync(fail.outputs['sarif-file']!, join(work, 'a11y.sarif'));
    const validation = await runMultitool(['a11y.sarif'], work);
    expect(validation.problems).toEqual([]);
    expect(validation.findings.filter((f) => f.level === 'error')).toEqual([]);

    expect(fail.summary).toContain('## Accessibility check: FAIL');
    expect(existsSync(fail.outputs['junit-file']!)).toBe(true);
  }, 120_000);

  it('3b. reviewed suppressions (the default file in the working directory): the CLI passes, and so do the comment and annotations', async () => {
    const suppressions = JSON.stringify({
      suppressions: [
        {
          ruleId: 'image-alt',
          url: 'regress=',
          reason: 'Promo banner alt text lands with PROMO-12',
          expires: '2099-12-31',
        },
      ],
    });
    const run = await runAction({
      inputs: inputs({ urls: `${root}?regress=2\n${checkout}` }),
      files: { '.a11y-suppressions.json': suppressions },
      eventName: 'pull_request',
      eventFile: 'pull_request.opened.json',
      apiUrl: github.url,
      token: TOKEN,
    });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.outputs).toMatchObject({ verdict: 'PASS', 'new-findings': '2' });
    expect(run.stdout).not.toMatch(/^::error/m);
    const body = actionComments()[0]!.body;
    expect(body).toContain('## ✅ Accessibility check: PASS');
    expect(
      body.match(/\| no: suppressed until 2099-12-31 \(Promo banner alt text lands with PROMO-12\) \|$/gm),
    ).toHaveLength(2);
    expect(actionComments()).toHaveLength(1);
  }, 120_000);

  it('4. a token without permission (403): a warning, never a failure; the check still passes', async () => {
    github.forbidden = true;
    try {
      // The URLs and a report from a config file this time (as the CLI reads it), the reports in reports-dir.
      const config = JSON.stringify({ urls: [root, checkout], reports: { markdown: 'out/a11y.md' } });
      const run = await runAction({
        inputs: inputs({ config: 'a11y.json', 'reports-dir': 'reports' }),
        files: { 'a11y.json': config },
        eventName: 'pull_request',
        eventFile: 'pull_request.opened.json',
        apiUrl: github.url,
        token: TOKEN,
      });
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.outputs).toMatchObject({
        verdict: 'PASS',
        'comment-url': '',
        'sarif-file': join(run.workspace, 'reports/a11y.sarif'),
        'junit-file': join(run.workspace, 'reports/a11y-junit.xml'),
      });
      expect(readFileSync(join(run.workspace, 'out/a11y.md'), 'utf8')).toContain('## Accessibility check: PASS'); // the config's own report kept
      expect(run.stdout).toMatch(
        /^::warning title=Accessibility check comment::No pull request comment: the github-token may not write comments on this pull request \(GitHub answered 403\): give the job `permissions: pull-requests: write`/m,
      );
      expect(run.stdout).not.toMatch(/^::error/m);
      // The pull requests of steps 2–3 did not save a baseline (auto is false there): nothing fixed since main's.
      expect(run.summary).toContain('Fixed since the baseline: 0');
      expect(run.summary).toContain('## Accessibility check: PASS');
    } finally {
      github.forbidden = false;
    }
  }, 120_000);

  it('never writes the API key, anywhere a reader or a later step sees it', () => {
    for (const run of [pass, fail]) {
      expect(run.stdout).toContain(`::add-mask::${sim.keys.full}`); // the runner masks it in the log from then on
      expect(everything(run)).not.toContain(sim.keys.full);
      expect(readFileSync(run.outputs['sarif-file']!, 'utf8')).not.toContain(sim.keys.full);
    }
  });
});

describe('a pull request from a fork, which gets no secrets (empty api-key)', () => {
  it('if-no-key: fail (the default) fails saying why and how to choose skip; nothing is sent', async () => {
    const requests = sim.requestCount();
    const githubRequests = github.requests.length;
    const run = await runAction({
      inputs: { 'api-key': '', 'base-url': sim.url },
      eventName: 'pull_request',
      eventFile: 'pull_request.fork.json',
      apiUrl: github.url,
      token: TOKEN,
    });
    expect(run.code, describeRun(run)).toBe(1);
    const error = run.stdout.split('\n').find((l) => l.startsWith('::error::'));
    expect(error).toContain(
      'No API key: the api-key input is empty; this pull request comes from the fork outside-contributor/shop',
    );
    expect(error).toContain('GitHub passes no secrets to workflows run for pull requests from forks');
    expect(error).toContain('set `if-no-key: skip` on this step');
    expect(run.outputs).toEqual({
      verdict: 'UNKNOWN',
      'check-id': '',
      'new-findings': '',
      'sarif-file': '',
      'junit-file': '',
      'json-file': '',
      'comment-url': '',
    });
    expect(run.summary).toContain('## Accessibility check: not run');
    expect(sim.requestCount()).toBe(requests);
    expect(github.requests.length).toBe(githubRequests);
  }, 120_000);

  it('if-no-key: skip ends green with a warning annotation and a summary saying the check did not run', async () => {
    const requests = sim.requestCount();
    const run = await runAction({
      inputs: { 'api-key': '', 'base-url': sim.url, 'if-no-key': 'skip' },
      eventName: 'pull_request',
      eventFile: 'pull_request.fork.json',
      apiUrl: github.url,
      token: TOKEN,
    });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toMatch(
      /^::warning title=Accessibility check skipped::The accessibility check did not run: the api-key input is empty \(this pull request comes from the fork outside-contributor\/shop/m,
    );
    expect(run.stdout).not.toMatch(/^::error/m);
    expect(run.summary).toContain('## Accessibility check: skipped');
    expect(run.summary).toContain('The check did not run, and the step passes (`if-no-key: skip`)');
    expect(run.outputs).toMatchObject({ verdict: 'UNKNOWN', 'sarif-file': '', 'junit-file': '' });
    expect(sim.requestCount()).toBe(requests);
  }, 120_000);
});

describe('inputs the CLI refuses, and set-baseline on other branches', () => {
  it("a bad fail-on fails the step with the CLI's rule; no report files; the comment says the check did not run", async () => {
    const run = await prRun({ urls: root, 'fail-on': 'SOMETIMES', 'comment-key': 'bad-input' });
    expect(run.code, describeRun(run)).toBe(1);
    expect(run.stdout).toMatch(
      /^::error::svc-a11y ci exited 2 \(an input, the config file or a report path was refused.*\): --fail-on must be one of NEW_CRITICAL, ANY_CRITICAL, SERIOUS_OR_WORSE, NONE, got "SOMETIMES"$/m,
    );
    expect(run.outputs).toMatchObject({ verdict: 'UNKNOWN', 'sarif-file': '', 'junit-file': '' });
    const comment = github.comments.get(7)!.find((c) => c.body.startsWith('<!-- svc-a11y-action:bad-input -->'));
    expect(comment?.body).toContain('## ⚠️ Accessibility check: UNKNOWN');
    expect(comment?.body).toContain('--fail-on must be one of');
    expect(actionComments()).toHaveLength(1); // the keyed comment is another one; the default one is untouched
  }, 120_000);

  it('set-baseline auto is false on a push to another branch; a set-baseline value the action does not know is refused', async () => {
    const run = await runAction({
      inputs: inputs({ urls: root, 'fail-on': 'NONE' }),
      eventName: 'push',
      eventFile: 'push.main.json',
      payload: (p) => (p.ref = 'refs/heads/promo-banner'),
      apiUrl: github.url,
      token: TOKEN,
    });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).not.toContain('set-baseline:');
    const bad = await prRun({ urls: root, 'set-baseline': 'sometimes' });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('::error::input set-baseline must be one of auto, true, false, got "sometimes"');
  }, 120_000);
});

describe('redis-url: the bundled Redis client shares the rate budget', () => {
  it("the budget lives in Redis under a hashed key (never the key), with no warning but the store's own", async () => {
    const redisUrl = await redisDatabase();
    const admin = createClient({ url: redisUrl });
    await admin.connect();
    try {
      // The budget key of this API key, in this test's own database (test/support/redis-database.ts).
      const budgetKey = `svc-a11y:rl:v1:${createHash('sha256').update(sim.keys.full).digest('hex').slice(0, 32)}`;
      await admin.del(budgetKey);
      const run = await prRun({ urls: root, 'redis-url': redisUrl, 'rate-limit': '600', comment: 'false' });
      expect(run.code, describeRun(run)).toBe(0);
      // No warning but the store's own (the budget still lands in Redis, below).
      expect(warningsBesidesStore(run.stderr)).toEqual([]);
      const keys = await admin.keys('svc-a11y:rl:v1:*');
      expect(keys.some((k) => k.startsWith(budgetKey))).toBe(true);
      for (const key of keys) expect(key).not.toContain(sim.keys.full);
      expect(run.outputs['comment-url']).toBe('');
    } finally {
      await admin.quit();
    }
  }, 120_000);
});
