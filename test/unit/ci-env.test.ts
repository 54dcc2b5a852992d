// The CI check's default context from the usual CI variables.
import { describe, expect, it } from 'vitest';
import { ciContext } from '../../src/cli/settings/ci-env.js';

describe('ciContext', () => {
  it('GitHub Actions pull request', () => {
    expect(
      ciContext({
        GITHUB_ACTIONS: 'true',
        GITHUB_REPOSITORY: 'acme/shop',
        GITHUB_REF: 'refs/pull/42/merge',
        GITHUB_HEAD_REF: 'feature/cart',
        GITHUB_REF_NAME: '42/merge',
        GITHUB_SHA: 'abc123',
      }),
    ).toEqual({
      repository: 'acme/shop',
      branch: 'feature/cart',
      commit: 'abc123',
      pullRequest: '42',
      ci: 'github-actions',
    });
  });

  it('GitLab CI merge request', () => {
    expect(
      ciContext({
        GITLAB_CI: 'true',
        CI_PROJECT_PATH: 'acme/shop',
        CI_COMMIT_REF_NAME: 'main',
        CI_COMMIT_SHA: 'def',
        CI_MERGE_REQUEST_IID: '7',
      }),
    ).toEqual({
      repository: 'acme/shop',
      branch: 'main',
      commit: 'def',
      pullRequest: '7',
      ci: 'gitlab-ci',
    });
  });

  it('CircleCI and Buildkite; "false" is not a pull request', () => {
    expect(
      ciContext({
        CIRCLECI: 'true',
        CIRCLE_PROJECT_USERNAME: 'acme',
        CIRCLE_PROJECT_REPONAME: 'shop',
        CIRCLE_BRANCH: 'dev',
        CIRCLE_SHA1: 'f00',
      }),
    ).toEqual({ repository: 'acme/shop', branch: 'dev', commit: 'f00', ci: 'circleci' });
    expect(ciContext({ BUILDKITE: 'true', BUILDKITE_PULL_REQUEST: 'false', BUILDKITE_BRANCH: 'main' })).toEqual({
      branch: 'main',
      ci: 'buildkite',
    });
  });

  it('no CI variables → an empty context', () => {
    expect(ciContext({ PATH: '/bin' })).toEqual({});
  });
});
