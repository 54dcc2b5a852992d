// Whether a CI run is on the repository's default branch, as each CI says it: `--set-baseline auto` saves the
// baseline there and nowhere else. A pull or merge request never is (whatever its ref), and a CI that does not say
// which branch is the default is told by `--default-branch NAME`; without either, the answer is no: a baseline is
// never saved on a guess (GitHub's event payload without `repository.default_branch` does not mean `main`).
import { readTextFile } from '../io/read-file.js';
import { ciName, pullRequestRun } from './ci-env.js';
import type { Env } from './spec.js';

/** Whether the run is on the default branch, and why, in words naming the variables read. */
export interface BranchVerdict {
  onDefault: boolean;
  why: string;
}

// GitHub events that run on a branch as pushed or as scheduled; any other (pull_request, pull_request_target, a
// release, a tag) is not the default branch's own run.
const GITHUB_BRANCH_EVENTS = ['push', 'schedule', 'workflow_dispatch'];

// The event payload is GitHub's own file; a bound keeps a hostile or endless one from stalling the run.
const MAX_EVENT_BYTES = 16 * 1024 * 1024;

// The CIs that name their default branch: the run's branch variable, and the default's.
const NAMED_DEFAULTS: ReadonlyArray<readonly [ci: string, variable: string, defaultVariable: string]> = [
  ['gitlab-ci', 'CI_COMMIT_BRANCH', 'CI_DEFAULT_BRANCH'],
  ['buildkite', 'BUILDKITE_BRANCH', 'BUILDKITE_PIPELINE_DEFAULT_BRANCH'],
];

/**
 * The branch variable of each CI that does not name its default branch (compared with `--default-branch`), and how
 * its value becomes a branch name.
 */
const BRANCH_VARIABLES: ReadonlyArray<readonly [ci: string, variable: string, name: (value: string) => string]> = [
  ['circleci', 'CIRCLE_BRANCH', (v) => v],
  ['azure-pipelines', 'BUILD_SOURCEBRANCH', (v) => v.replace(/^refs\/heads\//, '')],
  ['jenkins', 'BRANCH_NAME', (v) => v],
  ['jenkins', 'GIT_BRANCH', (v) => v.replace(/^(?:refs\/heads\/|origin\/)/, '')],
];

/**
 * Whether this run is on the default branch. GitHub Actions: a push, schedule or workflow_dispatch on the branch the
 * event payload names as `repository.default_branch`. GitLab CI: `CI_COMMIT_BRANCH` = `CI_DEFAULT_BRANCH`, never in
 * a merge request pipeline. Buildkite: `BUILDKITE_BRANCH` = `BUILDKITE_PIPELINE_DEFAULT_BRANCH`. CircleCI
 * (`CIRCLE_BRANCH`), Azure Pipelines (`BUILD_SOURCEBRANCH`) and Jenkins (`BRANCH_NAME`, else `GIT_BRANCH`): the
 * branch = `defaultBranch` (`--default-branch`). Where the CI names its default, that one counts (a config file a pull
 * request commits cannot name another); `defaultBranch` only stands in when it names none.
 * @example defaultBranchRun({ GITLAB_CI: 'true', CI_COMMIT_BRANCH: 'main', CI_DEFAULT_BRANCH: 'main' }, undefined).onDefault // true
 */
export function defaultBranchRun(env: Env, defaultBranch: string | undefined): BranchVerdict {
  const pr = pullRequestRun(env);
  if (pr !== undefined) return { onDefault: false, why: `${pr}: a pull or merge request never saves the baseline` };
  const ci = ciName(env);
  // The CI's own default when it names one, else --default-branch; `defWhat` says where it came from.
  const compare = (branch: string | undefined, variable: string, named: string | undefined, defWhat: string) => {
    const def = named ?? defaultBranch;
    const from = named === undefined && defaultBranch !== undefined ? `--default-branch ${defaultBranch}` : defWhat;
    if (!branch) return { onDefault: false, why: `${variable} names no branch` };
    if (!def) return { onDefault: false, why: `no default branch is known (${defWhat})` };
    return branch === def
      ? { onDefault: true, why: `${variable} ${branch} is the default branch (${from})` }
      : { onDefault: false, why: `${variable} ${branch} is not the default branch ${def} (${from})` };
  };
  if (ci === 'github-actions') {
    const event = env.GITHUB_EVENT_NAME ?? '';
    if (!GITHUB_BRANCH_EVENTS.includes(event))
      return { onDefault: false, why: `GitHub's ${event || 'unnamed'} event is not a push, schedule or dispatch` };
    const ref = env.GITHUB_REF ?? '';
    const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
    return compare(
      branch,
      'GITHUB_REF',
      eventDefaultBranch(env.GITHUB_EVENT_PATH),
      "the event payload's repository.default_branch",
    );
  }
  for (const [name, variable, defaultVariable] of NAMED_DEFAULTS)
    if (name === ci) return compare(env[variable], variable, env[defaultVariable] || undefined, defaultVariable);
  for (const [name, variable, branchOf] of BRANCH_VARIABLES) {
    const value = env[variable]?.trim();
    if (name !== ci || !value) continue;
    return compare(branchOf(value), variable, undefined, '--default-branch is not given');
  }
  return {
    onDefault: false,
    why: ci === undefined ? 'not a recognised CI' : `${ci} sets no branch variable this tool reads`,
  };
}

// `repository.default_branch` of GitHub's event payload, or undefined (no file, not JSON, no such field).
function eventDefaultBranch(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    const payload = JSON.parse(readTextFile(file, { what: 'GitHub event payload', maxBytes: MAX_EVENT_BYTES })) as {
      repository?: { default_branch?: unknown };
    };
    const name = payload?.repository?.default_branch;
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    return undefined;
  }
}
