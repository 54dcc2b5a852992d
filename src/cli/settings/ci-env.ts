// Default `context` of a CI check, read from the usual variables of common CI systems, so the service can
// tell checks of different repositories, branches and pull requests apart without any flag.

/**
 * Repository, branch, commit and pull request from the CI environment (GitHub Actions, GitLab CI,
 * CircleCI, Buildkite, Azure Pipelines, Jenkins, generic `CI_*`); keys with no value are left out.
 * @example ciContext({ GITHUB_REPOSITORY: 'acme/shop', GITHUB_SHA: 'abc' }) // { repository: 'acme/shop', commit: 'abc', ci: 'github-actions' }
 */
export function ciContext(env: Record<string, string | undefined>): Record<string, string> {
  const first = (...names: string[]) => names.map((n) => env[n]).find((v) => v !== undefined && v !== '');
  const githubPr = /^refs\/pull\/(\d+)\//.exec(env.GITHUB_REF ?? '')?.[1];
  const context: Record<string, string | undefined> = {
    repository:
      first('GITHUB_REPOSITORY', 'CI_PROJECT_PATH', 'BUILDKITE_REPO', 'BUILD_REPOSITORY_NAME') ??
      (env.CIRCLE_PROJECT_USERNAME && env.CIRCLE_PROJECT_REPONAME
        ? `${env.CIRCLE_PROJECT_USERNAME}/${env.CIRCLE_PROJECT_REPONAME}`
        : undefined),
    branch: first(
      'GITHUB_HEAD_REF',
      'GITHUB_REF_NAME',
      'CI_COMMIT_REF_NAME',
      'CIRCLE_BRANCH',
      'BUILDKITE_BRANCH',
      'BUILD_SOURCEBRANCHNAME',
      'BRANCH_NAME',
      'GIT_BRANCH',
    ),
    commit: first(
      'GITHUB_SHA',
      'CI_COMMIT_SHA',
      'CIRCLE_SHA1',
      'BUILDKITE_COMMIT',
      'BUILD_SOURCEVERSION',
      'GIT_COMMIT',
    ),
    pullRequest:
      githubPr ??
      first(
        'CI_MERGE_REQUEST_IID',
        'CIRCLE_PR_NUMBER',
        'BUILDKITE_PULL_REQUEST',
        'SYSTEM_PULLREQUEST_PULLREQUESTNUMBER',
        'CHANGE_ID',
      ),
    ci: ciName(env),
  };
  // Buildkite reports "false" when the build is not for a pull request.
  if (context.pullRequest === 'false') context.pullRequest = undefined;
  return Object.fromEntries(Object.entries(context).filter((e): e is [string, string] => e[1] !== undefined));
}

/**
 * The CI this run is in, by the variable each sets (GitHub Actions, GitLab CI, CircleCI, Buildkite, Azure Pipelines,
 * Jenkins), or undefined.
 * @example ciName({ GITLAB_CI: 'true' }) // 'gitlab-ci'
 */
export function ciName(env: Record<string, string | undefined>): string | undefined {
  if (env.GITHUB_ACTIONS === 'true') return 'github-actions';
  if (env.GITLAB_CI) return 'gitlab-ci';
  if (env.CIRCLECI) return 'circleci';
  if (env.BUILDKITE) return 'buildkite';
  if (env.TF_BUILD) return 'azure-pipelines';
  if (env.JENKINS_URL) return 'jenkins';
  return undefined;
}

// Each CI's word that a run is for a pull or merge request, in the order checked: the variable, and whether a
// value means it (a few CIs set the variable to "false" on other builds).
const PULL_REQUEST_SIGNS: ReadonlyArray<readonly [variable: string, name: string, means?: (value: string) => boolean]> =
  [
    ['GITHUB_EVENT_NAME', "GitHub's pull_request event", (v) => v.startsWith('pull_request')],
    ['CI_MERGE_REQUEST_IID', 'a GitLab merge request'],
    ['CI_MERGE_REQUEST_ID', 'a GitLab merge request'],
    ['CI_PIPELINE_SOURCE', 'a GitLab merge request', (v) => v === 'merge_request_event'],
    ['CIRCLE_PULL_REQUEST', 'a CircleCI pull request'],
    ['CIRCLE_PR_NUMBER', 'a CircleCI pull request'],
    ['BUILDKITE_PULL_REQUEST', 'a Buildkite pull request', (v) => v !== 'false'],
    ['SYSTEM_PULLREQUEST_PULLREQUESTID', 'an Azure Pipelines pull request'],
    ['BUILD_REASON', 'an Azure Pipelines pull request', (v) => v === 'PullRequest'],
    ['CHANGE_ID', 'a Jenkins change request'],
    ['BITBUCKET_PR_ID', 'a Bitbucket pull request'],
    ['TRAVIS_PULL_REQUEST', 'a Travis CI pull request', (v) => v !== 'false'],
    ['DRONE_PULL_REQUEST', 'a Drone pull request'],
    ['CI_COMMIT_PULL_REQUEST', 'a Woodpecker pull request'],
    ['SEMAPHORE_GIT_PR_NUMBER', 'a Semaphore pull request'],
    ['APPVEYOR_PULL_REQUEST_NUMBER', 'an AppVeyor pull request'],
    ['CODEBUILD_WEBHOOK_EVENT', 'an AWS CodeBuild pull request', (v) => v.startsWith('PULL_REQUEST')],
  ];

/**
 * Whether this run is for a pull or merge request, as the CI says (GitHub's event name, GitLab's merge-request
 * variables, the pull-request variables of CircleCI, Buildkite, Azure Pipelines, Jenkins, Bitbucket, Travis, Drone,
 * Woodpecker, Semaphore, AppVeyor and CodeBuild): what it is in words, with the variable that says so, or undefined.
 * Code a pull request brings (its config file) must not move the baseline every other change is compared with.
 * @example pullRequestRun({ GITHUB_EVENT_NAME: 'pull_request' }) // "GitHub's pull_request event (GITHUB_EVENT_NAME)"
 */
export function pullRequestRun(env: Record<string, string | undefined>): string | undefined {
  for (const [variable, name, means] of PULL_REQUEST_SIGNS) {
    const value = env[variable]?.trim();
    if (value && (means ? means(value) : true)) return `${name} (${variable})`;
  }
  return undefined;
}
