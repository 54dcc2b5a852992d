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
    ci:
      env.GITHUB_ACTIONS === 'true'
        ? 'github-actions'
        : env.GITLAB_CI
          ? 'gitlab-ci'
          : env.CIRCLECI
            ? 'circleci'
            : env.BUILDKITE
              ? 'buildkite'
              : env.TF_BUILD
                ? 'azure-pipelines'
                : env.JENKINS_URL
                  ? 'jenkins'
                  : undefined,
  };
  // Buildkite reports "false" when the build is not for a pull request.
  if (context.pullRequest === 'false') context.pullRequest = undefined;
  return Object.fromEntries(Object.entries(context).filter((e): e is [string, string] => e[1] !== undefined));
}
