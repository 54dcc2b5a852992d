// The merge request note of a GitLab pipeline: one note with the verdict and the new findings (the comment body the
// GitHub Action posts, `report/comment.ts`), posted with the token of `SVC_GITLAB_TOKEN` (or `GITLAB_TOKEN`:
// `CI_JOB_TOKEN` cannot write notes) through GitLab's API v4, and edited in place on later runs. Only a note whose
// author is the token's own user (`GET /user`) and that carries the marker is ever edited; a note is never written
// outside a merge request pipeline; failing to write one is a warning and never changes the exit code.
import type { CommandContext } from '../context.js';
import { parseUrl } from '../io/parse-url.js';
import { type RequestFetch, requestFetch } from '../io/proxy.js';
import { readResponseCapped } from '../io/read-response.js';
import { commentBody } from '../report/comment.js';
import type { PreparedReport } from '../verdict/prepare.js';

// The hidden marker on the note's first line: how the next run finds it.
const GITLAB_NOTE_MARKER = '<!-- svc-a11y-ci -->';

// One request to GitLab, as long as a slow API may take, and the whole note (its few calls, the notes' pages): the
// run's verdict is already decided, and a slow GitLab must not hold the pipeline much longer.
const REQUEST_TIMEOUT_MS = 15_000;
const NOTE_TIMEOUT_MS = 30_000;
// A page of notes (GitLab's largest) and how many pages are read for ours before a new note is written instead.
const NOTES_PER_PAGE = 100;
const MAX_NOTE_PAGES = 20;
// The longest answer read: a user or one note is a few kB, a page of notes a few hundred.
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** Where the note goes and with what, from the pipeline's variables. */
interface Target {
  api: string;
  project: string;
  iid: string;
  token: string;
}

/**
 * The merge request of this pipeline and the token to write its note with, or undefined when no note is written
 * here: not a merge request pipeline (`CI_MERGE_REQUEST_IID`), no token, or no usable `CI_API_V4_URL`.
 * @example gitLabTarget({ CI_MERGE_REQUEST_IID: '4', CI_PROJECT_ID: '7', CI_API_V4_URL: 'https://gitlab.com/api/v4', SVC_GITLAB_TOKEN: 'glpat-…' })
 */
function gitLabTarget(env: Record<string, string | undefined>): Target | undefined {
  const iid = env.CI_MERGE_REQUEST_IID?.trim();
  const project = env.CI_PROJECT_ID?.trim();
  const token = (env.SVC_GITLAB_TOKEN?.trim() || env.GITLAB_TOKEN?.trim()) ?? '';
  const api = parseUrl(env.CI_API_V4_URL?.trim() ?? '');
  if (!iid || !/^\d+$/.test(iid) || !project || !token || !api) return undefined;
  if (api.protocol !== 'https:' && api.protocol !== 'http:') return undefined;
  return { api: api.href.replace(/\/+$/, ''), project: encodeURIComponent(project), iid, token };
}

// Writes (or edits) the merge request's note; returns its id. Throws an Error saying which call failed and how GitLab
// answered (its status): never the token, never the answer's body.
async function writeGitLabNote(
  report: PreparedReport,
  errors: readonly string[],
  context: { env: Record<string, string | undefined>; target: Target; requests: RequestFetch },
): Promise<number | undefined> {
  const { target } = context;
  const whole = AbortSignal.timeout(NOTE_TIMEOUT_MS);
  const call = async (what: string, method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await context.requests.fetch(`${target.api}${path}`, {
      method,
      headers: {
        'PRIVATE-TOKEN': target.token,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      redirect: 'error',
      signal: AbortSignal.any([AbortSignal.timeout(REQUEST_TIMEOUT_MS), whole]),
    });
    const text = (
      await readResponseCapped(
        response,
        MAX_ANSWER_BYTES,
        () => new Error(`${what}: GitLab's answer is larger than ${MAX_ANSWER_BYTES} bytes`),
      )
    ).toString('utf8');
    if (!response.ok) throw new Error(`${what}: GitLab answered ${response.status}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`${what}: GitLab's answer is not JSON`);
    }
  };
  const me = (await call('reading the token’s user (GET /user)', 'GET', '/user')) as { id?: unknown };
  if (typeof me?.id !== 'number') throw new Error("reading the token's user (GET /user): no user id in the answer");
  const notesPath = `/projects/${target.project}/merge_requests/${target.iid}/notes`;
  let ours: number | undefined;
  for (let page = 1; page <= MAX_NOTE_PAGES && ours === undefined; page++) {
    const notes = await call(
      'reading the merge request notes',
      'GET',
      `${notesPath}?per_page=${NOTES_PER_PAGE}&page=${page}&sort=asc&order_by=created_at`,
    );
    if (!Array.isArray(notes)) throw new Error('reading the merge request notes: the answer is not a list');
    ours = notes.find(
      (n: { id?: unknown; body?: unknown; system?: unknown; author?: { id?: unknown } }) =>
        n?.system !== true &&
        n?.author?.id === me.id &&
        typeof n?.id === 'number' &&
        typeof n.body === 'string' &&
        n.body.startsWith(GITLAB_NOTE_MARKER),
    )?.id;
    if (notes.length < NOTES_PER_PAGE) break;
  }
  const body = commentBody(report, {
    marker: GITLAB_NOTE_MARKER,
    runUrl: context.env.CI_JOB_URL,
    runLabel: 'pipeline job',
    headSha: context.env.CI_COMMIT_SHA,
    errors,
    noun: 'note',
  });
  const written = (await (ours === undefined
    ? call('writing the merge request note', 'POST', notesPath, { body })
    : call('editing the merge request note', 'PUT', `${notesPath}/${ours}`, { body }))) as { id?: unknown };
  return typeof written?.id === 'number' ? written.id : ours;
}

/**
 * Writes this merge request's note for `report` after a run's reports (`ci`, or the `merge` of a matrix's shards): the
 * note's id on stderr, or one warning when GitLab refuses it; the exit code is never changed.
 * @example if (options.comment) await noteOnMergeRequest(ctx, report);
 */
export async function noteOnMergeRequest(ctx: CommandContext, report: PreparedReport): Promise<void> {
  const env = ctx.out.io.env;
  // Not a merge request pipeline with a token: nothing to write, and no client (nor proxy agent) made for it.
  const target = gitLabTarget(env);
  if (!target) return;
  const requests = requestFetch(env);
  try {
    const id = await writeGitLabNote(report, ctx.out.errors, { env, target, requests });
    if (id !== undefined && !ctx.values.quiet) ctx.out.err(`wrote the merge request note ${id}`);
  } catch (error) {
    ctx.out.err(
      `warning: could not write the merge request note (${error instanceof Error ? error.message : String(error)}); the exit code is unchanged`,
    );
  } finally {
    await requests.close();
  }
}
