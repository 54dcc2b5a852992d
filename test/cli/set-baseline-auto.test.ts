// `--set-baseline auto`, the default in a recognised CI: a run saves the baseline on the repository's default branch
// only, as each CI says it (GitHub's event payload, GitLab's CI_DEFAULT_BRANCH, Buildkite's pipeline default, else
// `--default-branch` against the CI's branch variable), never on a pull or merge request and never on a guess;
// explicit flags win; outside CI nothing changes. Each case runs `ci` in process against a loopback service and
// reads the `setBaseline` the create sent.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultBranchRun } from '../../src/cli/settings/default-branch.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { createdWith, passingService, serveEach } from '../support/loopback.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-baseline-auto-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const serve = serveEach();
const PAGE = 'https://a.example/';
const KEY = 'svc_baseline_auto_key_1';
let events = 0;
// A GitHub event payload file (the runner writes one for every run).
const payload = (content: unknown) => {
  const file = join(dir, `event-${events++}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};
const gitHub = (event: string, ref: string, body: unknown = { repository: { default_branch: 'main' } }) => ({
  GITHUB_ACTIONS: 'true',
  GITHUB_EVENT_NAME: event,
  GITHUB_REF: ref,
  GITHUB_EVENT_PATH: payload(body),
});
const gitLab = (branch: string | undefined, extra: Record<string, string> = {}) => ({
  GITLAB_CI: 'true',
  CI_DEFAULT_BRANCH: 'main',
  ...(branch ? { CI_COMMIT_BRANCH: branch } : {}),
  ...extra,
});

const run = async (env: Record<string, string>, args: string[] = []) => {
  const api = await serve(passingService());
  const r = await runCliInProcess(['ci', PAGE, ...args], { SVC_API_KEY: KEY, SVC_BASE_URL: api.url, ...env });
  expect(r.code, r.stderr).toBe(0);
  return { saved: createdWith(api).setBaseline as boolean, stderr: r.stderr };
};

describe('--set-baseline auto: the default branch as each CI says it', () => {
  const cases: Array<[string, Record<string, string>, string[], boolean]> = [
    ['GitHub: a push to the default branch', gitHub('push', 'refs/heads/main'), [], true],
    ['GitHub: a schedule on the default branch', gitHub('schedule', 'refs/heads/main'), [], true],
    ['GitHub: a workflow_dispatch on the default branch', gitHub('workflow_dispatch', 'refs/heads/main'), [], true],
    ['GitHub: a push to another branch', gitHub('push', 'refs/heads/feature'), [], false],
    ['GitHub: a pull_request', gitHub('pull_request', 'refs/pull/7/merge'), [], false],
    // Its ref is the default branch's, and still it never sets one.
    ['GitHub: a pull_request_target', gitHub('pull_request_target', 'refs/heads/main'), [], false],
    ['GitHub: a push whose payload names no default branch', gitHub('push', 'refs/heads/main', {}), [], false],
    ['GitHub: a push whose payload is not JSON', gitHub('push', 'refs/heads/main', '{"repository": '), [], false],
    ['GitHub: a push to a tag', gitHub('push', 'refs/tags/v1'), [], false],
    ['GitLab: a pipeline on the default branch', gitLab('main'), [], true],
    ['GitLab: a pipeline on another branch', gitLab('feature'), [], false],
    [
      'GitLab: a merge request sign wins over CI_COMMIT_BRANCH',
      gitLab('main', { CI_MERGE_REQUEST_IID: '3' }),
      [],
      false,
    ],
    ['GitLab: a merge-request pipeline', gitLab(undefined, { CI_PIPELINE_SOURCE: 'merge_request_event' }), [], false],
    [
      "Buildkite: the pipeline's default branch",
      { BUILDKITE: 'true', BUILDKITE_BRANCH: 'main', BUILDKITE_PIPELINE_DEFAULT_BRANCH: 'main' },
      [],
      true,
    ],
    ['CircleCI with --default-branch', { CIRCLECI: 'true', CIRCLE_BRANCH: 'main' }, ['--default-branch', 'main'], true],
    ['CircleCI without --default-branch', { CIRCLECI: 'true', CIRCLE_BRANCH: 'main' }, [], false],
    [
      'Azure Pipelines with SVC_DEFAULT_BRANCH',
      { TF_BUILD: 'True', BUILD_SOURCEBRANCH: 'refs/heads/main', SVC_DEFAULT_BRANCH: 'main' },
      [],
      true,
    ],
    [
      'Jenkins: GIT_BRANCH origin/main with --default-branch',
      { JENKINS_URL: 'http://ci/', GIT_BRANCH: 'origin/main' },
      ['--default-branch=main'],
      true,
    ],
    [
      'Jenkins: a change request is never the default branch',
      { JENKINS_URL: 'http://ci/', BRANCH_NAME: 'main', CHANGE_ID: '9' },
      ['--default-branch', 'main'],
      false,
    ],
    ['outside CI: nothing changes (off)', {}, [], false],
    ['outside CI, asked for: no CI says which branch is the default', {}, ['--set-baseline', 'auto'], false],
    ['an explicit --no-set-baseline wins on the default branch', gitLab('main'), ['--no-set-baseline'], false],
    ['an explicit --set-baseline wins on another branch', gitLab('feature'), ['--set-baseline'], true],
    ['--set-baseline=auto, written with =', gitLab('main'), ['--set-baseline=auto'], true],
    // A config file committed on a branch cannot name that branch the default where the CI names its own.
    ['GitLab: --default-branch cannot override CI_DEFAULT_BRANCH', gitLab('fix'), ['--default-branch', 'fix'], false],
    [
      'GitHub: --default-branch stands in for a payload that names none',
      gitHub('push', 'refs/heads/main', {}),
      ['--default-branch', 'main'],
      true,
    ],
  ];

  it.each(cases)('%s', async (_name, env, args, expected) => {
    const { saved, stderr } = await run(env, args);
    expect(saved).toBe(expected);
    // Saving is said, naming what decided it; not saving is silent.
    if (expected && !args.includes('--set-baseline'))
      expect(stderr).toMatch(/^note: set-baseline auto: saving the baseline: /m);
    else expect(stderr).not.toContain('set-baseline auto: saving');
  });

  it('a config file may say "auto"; the run then decides as the flag would', async () => {
    const config = join(dir, 'auto.json');
    writeFileSync(config, JSON.stringify({ setBaseline: 'auto' }));
    expect((await run(gitLab('main'), ['--config', config])).saved).toBe(true);
    expect((await run(gitLab('feature'), ['--config', config])).saved).toBe(false);
  });

  it('the reason names the variables read', () => {
    expect(defaultBranchRun(gitLab('main'), undefined).why).toBe(
      'CI_COMMIT_BRANCH main is the default branch (CI_DEFAULT_BRANCH)',
    );
    expect(defaultBranchRun({ CIRCLECI: 'true', CIRCLE_BRANCH: 'main' }, undefined).why).toBe(
      'no default branch is known (--default-branch is not given)',
    );
    expect(defaultBranchRun(gitHub('pull_request_target', 'refs/heads/main'), undefined).why).toMatch(
      /pull_request event.*never saves the baseline/,
    );
  });
});
