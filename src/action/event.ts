// What the action needs of the event that started the workflow, read from the payload the runner writes to
// $GITHUB_EVENT_PATH: the pull request to comment on (and whether it comes from a fork, which gets no secrets),
// and whether this is a push to the repository's default branch (where `set-baseline: auto` saves the baseline).
import { readFileSync } from 'node:fs';

/** The pull request of a `pull_request` or `pull_request_target` event. */
interface PullRequestInfo {
  number: number;
  /** True when the head repository is not the base repository (or is gone): no secrets are passed. */
  fork: boolean;
  /** `owner/name` of the head repository, when known (for messages). */
  headRepository: string | undefined;
  /** The head commit. */
  headSha: string | undefined;
}

/** The parts of the event the action reads. */
export interface EventInfo {
  /** `$GITHUB_EVENT_NAME`, e.g. `pull_request` or `push`. */
  name: string;
  /** Set when the payload names a pull request. */
  pullRequest: PullRequestInfo | undefined;
  /** True on a push to the default branch the payload names (`repository.default_branch`). */
  pushToDefaultBranch: boolean;
  /** The default branch the payload names, if any. */
  defaultBranch: string | undefined;
}

type Json = Record<string, unknown>;
const object = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Reads `$GITHUB_EVENT_NAME` and the payload at `$GITHUB_EVENT_PATH`. A missing or unreadable payload reads as an
 * event with no pull request that is not a push to the default branch (the action then neither comments nor sets
 * a baseline on its own).
 * @example readEvent(process.env).pullRequest?.number
 */
export function readEvent(env: Record<string, string | undefined>): EventInfo {
  const name = env.GITHUB_EVENT_NAME ?? '';
  let payload: Json = {};
  try {
    if (env.GITHUB_EVENT_PATH) payload = object(JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'))) ?? {};
  } catch {
    payload = {};
  }
  return eventOf(name, payload);
}

/**
 * The event info of a parsed payload.
 * @example eventOf('push', { ref: 'refs/heads/main', repository: { default_branch: 'main' } }).pushToDefaultBranch // true
 */
export function eventOf(name: string, payload: Json): EventInfo {
  const defaultBranch = text(object(payload.repository)?.default_branch);
  const pr = object(payload.pull_request);
  const number = pr?.number;
  let pullRequest: PullRequestInfo | undefined;
  if (pr && typeof number === 'number' && Number.isInteger(number) && number > 0) {
    const head = object(pr.head);
    const headRepository = text(object(head?.repo)?.full_name);
    const baseRepository = text(object(object(pr.base)?.repo)?.full_name);
    // A deleted fork leaves head.repo null: still not the base repository.
    pullRequest = {
      number,
      fork: headRepository === undefined || headRepository !== baseRepository,
      headRepository,
      headSha: text(head?.sha),
    };
  }
  return {
    name,
    pullRequest,
    pushToDefaultBranch:
      name === 'push' && defaultBranch !== undefined && payload.ref === `refs/heads/${defaultBranch}`,
    defaultBranch,
  };
}
