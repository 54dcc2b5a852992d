// What a pull request controls cannot steer the gate: on a pull or merge request a config file's
// `setBaseline` is ignored with a warning (only an explicit --set-baseline sets it, and warns), and under an explicit
// --fail-on a file's per-URL threshold may make a page stricter, never more lenient; every report names the
// threshold applied to a page where it differs from the run's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pullRequestRun } from '../../src/cli/settings/ci-env.js';
import { stricterFailOn } from '../../src/cli/verdict/url-fail-on.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { createdWith, passingService, serveEach } from '../support/loopback.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-steer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const serve = serveEach();
const PAGE = 'https://a.example/';
const KEY = 'svc_pr_steering_key_1';
let configs = 0;
const config = (content: object) => {
  const file = join(dir, `config-${configs++}.json`);
  writeFileSync(file, JSON.stringify(content));
  return file;
};

// A service that completes every check with PASS over the pages asked, and the findings given.
const service = (violations: object[] = []) => serve(passingService(violations));
const sent = createdWith;

describe('a pull request cannot move the baseline', () => {
  const pullRequests: Array<[string, Record<string, string>]> = [
    ['GitHub pull_request', { GITHUB_EVENT_NAME: 'pull_request' }],
    ['GitHub pull_request_target', { GITHUB_EVENT_NAME: 'pull_request_target' }],
    ['a GitLab merge request', { GITLAB_CI: 'true', CI_MERGE_REQUEST_IID: '12' }],
    ['a GitLab merge-request pipeline', { CI_PIPELINE_SOURCE: 'merge_request_event' }],
    ['a CircleCI pull request', { CIRCLE_PULL_REQUEST: 'https://github.com/acme/shop/pull/7' }],
    ['a Buildkite pull request', { BUILDKITE_PULL_REQUEST: '7' }],
    ['an Azure Pipelines pull request', { BUILD_REASON: 'PullRequest' }],
    ['a Jenkins change request', { CHANGE_ID: '7' }],
    ['a Bitbucket pull request', { BITBUCKET_PR_ID: '7' }],
  ];

  it.each(pullRequests)('%s: the config file\'s "setBaseline": true is ignored, with a warning', async (_name, env) => {
    const api = await service();
    const r = await runCliInProcess(['ci', PAGE, '--config', config({ setBaseline: true })], {
      SVC_API_KEY: KEY,
      SVC_BASE_URL: api.url,
      ...env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(sent(api).setBaseline).toBe(false);
    expect(r.stderr).toMatch(
      /^warning: setBaseline in .*config-\d+\.json is ignored on .*: a pull request cannot move the baseline/m,
    );
  });

  it.each(pullRequests)('%s: an explicit --set-baseline still sets it, with a warning', async (_name, env) => {
    const api = await service();
    const r = await runCliInProcess(['ci', PAGE, '--set-baseline'], {
      SVC_API_KEY: KEY,
      SVC_BASE_URL: api.url,
      ...env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(sent(api).setBaseline).toBe(true);
    expect(r.stderr).toMatch(/^warning: --set-baseline on .*: these checks become the baseline/m);
  });

  it.each([
    ['no CI', {}],
    ['a push on GitHub', { GITHUB_EVENT_NAME: 'push' }],
    ['Buildkite outside a pull request', { BUILDKITE_PULL_REQUEST: 'false' }],
    ['Travis outside a pull request', { TRAVIS_PULL_REQUEST: 'false' }],
    ['an Azure Pipelines CI build', { BUILD_REASON: 'IndividualCI' }],
  ])('%s: the config file sets it, without a warning', async (_name, env: Record<string, string>) => {
    const api = await service();
    const r = await runCliInProcess(['ci', PAGE, '--config', config({ setBaseline: true })], {
      SVC_API_KEY: KEY,
      SVC_BASE_URL: api.url,
      ...env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(sent(api).setBaseline).toBe(true);
    expect(r.stderr).not.toMatch(/warning/);
  });

  it('--no-set-baseline beats the config file; with --set-baseline too it is a usage error and nothing is sent', async () => {
    const api = await service();
    const file = config({ setBaseline: true });
    const r = await runCliInProcess(['ci', PAGE, '--config', file, '--no-set-baseline'], {
      SVC_API_KEY: KEY,
      SVC_BASE_URL: api.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(sent(api).setBaseline).toBe(false);
    const both = await runCliInProcess(['ci', PAGE, '--set-baseline', '--no-set-baseline'], {
      SVC_API_KEY: KEY,
      SVC_BASE_URL: api.url,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--set-baseline and --no-set-baseline contradict each other/);
    expect(api.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
  });

  it('pullRequestRun names the CI and the variable that said so', () => {
    expect(pullRequestRun({ CI_MERGE_REQUEST_IID: '3' })).toBe('a GitLab merge request (CI_MERGE_REQUEST_IID)');
    expect(pullRequestRun({ GITHUB_EVENT_NAME: 'push', CHANGE_ID: '' })).toBeUndefined();
    expect(pullRequestRun({ CHANGE_ID: '  ' })).toBeUndefined();
  });
});

describe('flags beat files, per page too', () => {
  const critical = { ruleId: 'image-alt', impact: 'critical', isNew: false, url: PAGE, target: 'img' };
  const newCritical = { ...critical, isNew: true };
  const serious = { ruleId: 'color-contrast', impact: 'serious', isNew: true, url: PAGE, target: 'p' };
  const cases: Array<{
    name: string;
    args: string[];
    file: object;
    violations: object[];
    code: number;
    says: RegExp;
  }> = [
    {
      name: '--fail-on ANY_CRITICAL, a file loosening every page to NONE: the critical finding fails the gate',
      args: ['--fail-on', 'ANY_CRITICAL'],
      file: { failOnByUrl: [{ url: '.*', failOn: 'NONE' }] },
      violations: [critical],
      code: 1,
      says: /^Accessibility check: FAIL\n {2}1 finding breaks the threshold ANY_CRITICAL/,
    },
    {
      name: '--fail-on NEW_CRITICAL, a file loosening the page to NONE: a new critical finding fails the gate',
      args: ['--fail-on', 'NEW_CRITICAL'],
      file: { failOnByUrl: [{ url: 'a\\.example', failOn: 'NONE' }] },
      violations: [newCritical],
      code: 1,
      says: /1 finding breaks the threshold NEW_CRITICAL/,
    },
    {
      name: '--fail-on SERIOUS_OR_WORSE, a file loosening the page to ANY_CRITICAL: a serious finding fails the gate',
      args: ['--fail-on', 'SERIOUS_OR_WORSE'],
      file: { failOnByUrl: [{ url: '/$', failOn: 'ANY_CRITICAL' }] },
      violations: [serious],
      code: 1,
      says: /1 finding breaks the threshold SERIOUS_OR_WORSE/,
    },
    {
      name: '--fail-on NEW_CRITICAL, a file making the page stricter (SERIOUS_OR_WORSE): the stricter one applies, and is named',
      args: ['--fail-on', 'NEW_CRITICAL'],
      file: { failOnByUrl: [{ url: '.*', failOn: 'SERIOUS_OR_WORSE' }] },
      violations: [serious],
      code: 1,
      says: /^Threshold NEW_CRITICAL: 1 finding breaks it\n {2}other thresholds: https:\/\/a\.example\/ SERIOUS_OR_WORSE$/m,
    },
    {
      name: 'the file alone (no flag) may judge a page more leniently than its own failOn',
      args: [],
      file: { failOn: 'ANY_CRITICAL', failOnByUrl: [{ url: '.*', failOn: 'NONE' }] },
      violations: [critical],
      code: 0,
      says: /^Threshold ANY_CRITICAL: 0 findings break it\n {2}other thresholds: https:\/\/a\.example\/ NONE$/m,
    },
  ];

  it.each(cases)('$name', async (c) => {
    const api = await service(c.violations);
    const r = await runCliInProcess(['ci', PAGE, '--config', config(c.file), ...c.args], {
      SVC_API_KEY: KEY,
      SVC_BASE_URL: api.url,
    });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(c.code);
    expect(r.stdout).toMatch(c.says);
  });

  it("every report names the threshold applied to a page where it differs from the run's", async () => {
    const api = await service([serious]);
    const file = (name: string) => join(dir, `thresholds-${name}`);
    const reports = ['json', 'junit', 'sarif', 'markdown', 'html'].flatMap((k) => ['--report', `${k}=${file(k)}`]);
    const r = await runCliInProcess(
      [
        'ci',
        PAGE,
        '--config',
        config({ failOnByUrl: [{ url: '.*', failOn: 'SERIOUS_OR_WORSE' }] }),
        '--fail-on',
        'NEW_CRITICAL',
        ...reports,
      ],
      { SVC_API_KEY: KEY, SVC_BASE_URL: api.url },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(readFileSync(file('json'), 'utf8')).pageThresholds).toEqual([
      { url: PAGE, failOn: 'SERIOUS_OR_WORSE' },
    ]);
    expect(JSON.parse(readFileSync(file('sarif'), 'utf8')).runs[0].properties.pageThresholds).toEqual([
      { url: PAGE, failOn: 'SERIOUS_OR_WORSE' },
    ]);
    expect(readFileSync(file('junit'), 'utf8')).toMatch(
      /<testsuite name="https:\/\/a\.example\/"[^>]*>\n {4}<properties><property name="failOn" value="SERIOUS_OR_WORSE"\/><\/properties>/,
    );
    // Markdown escapes the underscores.
    expect(readFileSync(file('markdown'), 'utf8')).toMatch(
      /Pages judged by other thresholds: https:\/\/a\.example\/ SERIOUS\\?_OR\\?_WORSE\./,
    );
    expect(readFileSync(file('html'), 'utf8')).toContain(
      'NEW_CRITICAL; other thresholds: https://a.example/ SERIOUS_OR_WORSE',
    );
  });

  it('stricterFailOn orders the thresholds by the findings they count', () => {
    const order = ['NONE', 'NEW_CRITICAL', 'ANY_CRITICAL', 'SERIOUS_OR_WORSE'] as const;
    for (const [i, a] of order.entries())
      for (const [j, b] of order.entries()) expect(stricterFailOn(a, b)).toBe(order[Math.max(i, j)]);
  });
});
