// One comment per pull request, edited in place: the comments are read page by page (100 a page, every page if
// need be) until the one whose body starts with the marker is found; it is edited, else one is created. A token
// without permission (403, or 404 where GitHub hides what the token cannot see) is a warning for the caller, never
// a failure of the step: the verdict is what the step reports.
import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { bundledUndici, requestFetch } from '../cli/index.js';

/** The client the comment is written with (@octokit/core with the REST pagination plugin). */
export const GitHubClient = Octokit.plugin(paginateRest);
/** An instance of {@link GitHubClient}. */
export type GitHubClient = InstanceType<typeof GitHubClient>;

/**
 * A client for `$GITHUB_API_URL` (GitHub Enterprise Server and tests point it elsewhere). Its requests go through
 * the proxy of `env` (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), exactly as the CLI's own do (src/cli/io/proxy.ts).
 * @default apiUrl 'https://api.github.com'
 * @default env process.env
 */
export function gitHubClient(
  token: string,
  apiUrl: string | undefined,
  userAgent: string,
  env: Record<string, string | undefined> = process.env,
): GitHubClient {
  const requests = requestFetch(env, { undici: bundledUndici });
  return new GitHubClient({
    auth: token,
    baseUrl: (apiUrl || 'https://api.github.com').replace(/\/+$/, ''),
    userAgent,
    ...(requests.proxied ? { request: { fetch: requests.fetch } } : {}),
  });
}

/** Where the comment goes and what it says. */
export interface CommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
  /** The hidden marker the comment starts with. */
  marker: string;
  body: string;
}

/** What {@link upsertComment} did. */
export interface CommentResult {
  action: 'created' | 'updated';
  /** The comment's page (`html_url`). */
  url: string | undefined;
  id: number | bigint;
}

/** The identity of the workflow's own token (`${{ github.token }}`), which writes as the GitHub Actions app. */
const WORKFLOW_TOKEN_LOGIN = 'github-actions[bot]';

/**
 * The login the token writes comments as: GraphQL's `viewer` (which answers for user tokens and app installation
 * tokens alike, e.g. `my-app[bot]`), else `GET /user`, else the workflow token's `github-actions[bot]` (an
 * installation token that may read neither).
 * @example await tokenLogin(gitHubClient(token, apiUrl, 'svc-a11y-action')) // 'github-actions[bot]'
 */
export async function tokenLogin(client: GitHubClient): Promise<string> {
  try {
    const { viewer } = await client.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }');
    if (typeof viewer?.login === 'string' && viewer.login !== '') return viewer.login;
  } catch {
    // Not every token may query GraphQL: the REST user next.
  }
  try {
    const { data } = await client.request('GET /user');
    if (typeof data.login === 'string' && data.login !== '') return data.login;
  } catch {
    // An installation token has no user.
  }
  return WORKFLOW_TOKEN_LOGIN;
}

/**
 * Finds the comment starting with `marker` and written by `author` (the token's own login: anyone may post a comment
 * that starts with the marker, and the action must never edit theirs) through every page of the pull request's
 * comments and edits it, or creates it when there is none.
 * @throws the client's RequestError (with `status`) when GitHub refuses
 */
export async function upsertComment(
  client: GitHubClient,
  target: CommentTarget & { author: string },
): Promise<CommentResult> {
  const { owner, repo, issueNumber, marker, body } = target;
  const author = target.author.toLowerCase();
  // Comment ids are int64: the types allow a bigint, JSON gives numbers.
  let existing: number | bigint | undefined;
  const pages = client.paginate.iterator('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
    owner,
    repo,
    issue_number: issueNumber,
    per_page: 100,
  });
  for await (const page of pages) {
    existing = page.data.find((c) => (c.body ?? '').startsWith(marker) && c.user?.login?.toLowerCase() === author)?.id;
    if (existing !== undefined) break;
  }
  if (existing !== undefined) {
    const { data } = await client.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
      owner,
      repo,
      comment_id: existing,
      body,
    });
    return { action: 'updated', url: data.html_url, id: data.id };
  }
  const { data } = await client.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
    owner,
    repo,
    issue_number: issueNumber,
    body,
  });
  return { action: 'created', url: data.html_url, id: data.id };
}

/**
 * Why a comment could not be written, in words for a warning, naming the permission it needs when GitHub said no.
 * @example commentFailure({ status: 403 }) // 'the github-token may not write … (403) …'
 */
export function commentFailure(error: unknown): string {
  const status = (error as { status?: unknown }).status;
  if (status === 403 || status === 404) {
    return `the github-token may not write comments on this pull request (GitHub answered ${status}): give the job \`permissions: pull-requests: write\`; a pull request from a fork gets a read-only token, so it gets no comment`;
  }
  const why =
    typeof status === 'number' ? `GitHub answered ${status}` : error instanceof Error ? error.message : String(error);
  return `the pull request comment could not be written (${why})`;
}
