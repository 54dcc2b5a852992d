// Waiting for an asynchronous job: poll until the status is terminal, under one deadline and one AbortSignal,
// each wait from the server's hint, else the job's progress, else bounded exponential backoff with jitter.
// The document's rule (§3): QUEUED and RUNNING are not results; any other status is terminal.
import { ApiConnectionError, ConfigurationError, PollTimeoutError, ResponseValidationError } from '../core/errors.js';
import { InternalServerError, RateLimitError } from '../core/errors.js';
import { abortReason, sleep } from '../internal/sleep.js';
import { setWaitDeadline } from '../internal/wait-deadline.js';
import { atLeast } from '../core/options.js';
import type { Observe, Observed } from '../core/events.js';
import type { JobTrack } from './progress.js';
import { MAX_TIMER_MS } from '../core/retry.js';
import { parseUrl } from '../internal/parse-url.js';

/**
 * The deadline of a wait (`createAndWait`, `waitFor…`) when `timeoutMs` is not given: 10 minutes.
 * @example await client.scans.createAndWait({ url }, { timeoutMs: DEFAULT_WAIT_TIMEOUT_MS / 2 })
 */
export const DEFAULT_WAIT_TIMEOUT_MS = 600_000;

/**
 * True for every status but `QUEUED` and `RUNNING` (the document shows no other non-terminal status). A type
 * guard: on a CI check's status union it narrows to `'COMPLETED' | 'FAILED'`.
 * @example isTerminalStatus('COMPLETED') // true
 * @example if (isTerminalStatus(check.status)) report(check.status) // 'COMPLETED' | 'FAILED'
 */
export function isTerminalStatus<S extends 'QUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED'>(
  status: S,
): status is Exclude<S, 'QUEUED' | 'RUNNING'>;
export function isTerminalStatus(status: string): boolean;
export function isTerminalStatus(status: string): boolean {
  return status !== 'QUEUED' && status !== 'RUNNING';
}

/** Options of `waitForCompletion` and the `*AndWait` helpers. Invalid values throw `ConfigurationError` before anything is sent. */
export interface WaitOptions<T = unknown> {
  /**
   * First wait between polls, in milliseconds (a finite number ≥ 1); later waits grow by half each time,
   * unless the server's `Retry-After` or the job's progress says when to look again. Also the shortest
   * wait planned from progress (but for a last look just before the deadline).
   * @default 1000
   */
  intervalMs?: number | undefined;
  /**
   * Longest wait between polls, in milliseconds (a finite number ≥ 1; below `intervalMs` it is raised to it).
   * @default 10000
   */
  maxIntervalMs?: number | undefined;
  /**
   * Overall deadline of the wait, in milliseconds (a finite number ≥ 1), covering the request that starts
   * the job in `*AndWait`; then `PollTimeoutError`. Beyond ~24.8 days (the longest timer) it is clamped.
   * @default 600000 (10 minutes)
   */
  timeoutMs?: number | undefined;
  /** Aborts the whole wait, including a request in flight. */
  signal?: AbortSignal | undefined;
  /** Called with the resource after every poll (for progress display). */
  onProgress?: ((resource: T) => void) | undefined;
}

/** One poll's answer: the resource, and the server's hint of when to ask again (its `Retry-After`). */
export interface Polled<T> {
  resource: T;
  /** Milliseconds the server asked the client to wait before the next poll, when it said. */
  retryAfterMs?: number | undefined;
}

/** Fetches the job once; must honour the signal. */
export type PollOnce<T> = (signal: AbortSignal) => Promise<Polled<T>>;

/** The job a wait polls, known at once (`waitForCompletion`) or once the request starting it has answered. */
export interface PolledJob<T> {
  jobId: string;
  pollOnce: PollOnce<T>;
  /** A job just created is QUEUED: its first poll waits (the 202's hint, else one interval) instead of asking at once. */
  delayFirstPoll?: boolean;
  /** The 202's `Retry-After`, in milliseconds. */
  retryAfterMs?: number | undefined;
  /** The job's status as the request that started it answered (QUEUED), until a poll says otherwise. */
  status?: unknown;
}

/**
 * The wait before the next poll. A server hint (`Retry-After` on the 202 or on a QUEUED/RUNNING answer)
 * is followed, within [intervalMs / 2, maxIntervalMs] so a hint of 0 cannot turn into a storm of polls;
 * without one, exponential backoff (×1.5 from `intervalMs`, capped) with −20 % jitter. Between two polls the
 * wait loop raises it further: one poll per `intervalMs` at most, counted between their starts.
 */
function nextWait(attempt: number, hintMs: number | undefined, intervalMs: number, maxIntervalMs: number): number {
  if (hintMs !== undefined) return Math.min(maxIntervalMs, Math.max(intervalMs / 2, hintMs));
  return Math.min(maxIntervalMs, intervalMs * 1.5 ** attempt) * (0.8 + Math.random() * 0.2);
}

/**
 * Runs `begin` (the request that starts the job, if any) and then polls until the resource's `status` is
 * terminal, and returns that resource, all under one deadline and one AbortSignal. A terminal failure
 * (such as `FAILED` with its reason) is returned, not thrown. 429s and transient failures during the
 * polls are waited out (their `Retry-After` when given) and polling continues, inside the deadline.
 *
 * Each wait: the server's hint when it sent one (see `nextWait`); else, when the job reports progress
 * (pages done of pages to do, see `progress.ts`), a poll near its estimated completion and before the
 * deadline (`progressWait`); else the backoff. Whatever plans it (a hint, progress, the backoff, a failure's
 * backoff or `Retry-After`), no poll starts less than `intervalMs` after the previous one started, near the
 * deadline too; when no further poll fits before the deadline, the wait sleeps until it and ends with
 * `PollTimeoutError`.
 */
export async function pollUntilTerminal<T extends { status?: unknown }>(
  operationId: string,
  begin: (signal: AbortSignal) => Promise<PolledJob<T>>,
  options: WaitOptions<T> = {},
  observe?: Observe,
): Promise<T> {
  // Checked before anything is sent: 0, negative or NaN intervals would poll hundreds of times a second.
  const intervalMs = atLeast('intervalMs', options.intervalMs, 1_000, 1);
  const maxIntervalMs = Math.max(intervalMs, atLeast('maxIntervalMs', options.maxIntervalMs, 10_000, 1));
  const timeoutMs = atLeast('timeoutMs', options.timeoutMs, DEFAULT_WAIT_TIMEOUT_MS, 1);
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function')
    throw new ConfigurationError('onProgress must be a function.');
  const started = Date.now();
  let jobId: string | undefined;
  let lastStatus: string | undefined;

  // One signal for everything in flight: the caller's abort, or the deadline.
  const controller = new AbortController();
  const user = options.signal;
  const onUserAbort = () => controller.abort(abortReason(user!));
  if (user?.aborted) throw abortReason(user);
  user?.addEventListener('abort', onUserAbort, { once: true });
  // A longer timer would fire at once (see MAX_TIMER_MS): a deadline beyond ~24.8 days is clamped to it.
  const deadline = setTimeout(
    () => controller.abort(new PollTimeoutError(jobId, lastStatus, Date.now() - started)),
    Math.min(timeoutMs, MAX_TIMER_MS),
  );
  const signal = controller.signal;
  // Requests see the deadline too: one that would wait past it for a paused rate budget fails at once.
  const endsAt = started + Math.min(timeoutMs, MAX_TIMER_MS);
  setWaitDeadline(signal, endsAt);

  // Reading progress is only needed once a job runs: loaded beside the request that starts it (a chunk of its
  // own, ~0.8 kB gzip out of the root bundle), ready long before the first poll.
  // Each poll's decision, for the log (when the client logs; the observer formats it).
  const tell = (n: number, seen: Seen) => observe?.({ e: 'poll', op: operationId, job: jobId, n, ...seen });
  const loading = import('./progress.js');
  loading.catch(() => {});
  try {
    const job = await begin(signal);
    jobId = job.jobId;
    if (typeof job.status === 'string') lastStatus = job.status;
    // A job this wait created was QUEUED when its 202 came back: its age counts from then, not from the wait's
    // start (the create may have waited for the rate budget, been retried, or queued in a busy process).
    const createdAt = Date.now();
    const { trackJob, progressWait, readProgress } = await loading;
    // A job this wait created did not run before it was created: the estimate of its start is bounded.
    let track: JobTrack = job.delayFirstPoll ? trackJob({}, { atMs: createdAt, status: 'QUEUED' }) : {};
    const bornAt = job.delayFirstPoll ? createdAt : started;
    if (job.delayFirstPoll) {
      const wait = nextWait(0, job.retryAfterMs, intervalMs, maxIntervalMs);
      tell(0, { hint: job.retryAfterMs, ms: wait });
      await sleep(wait, signal);
    }
    for (let attempt = 0; ; attempt++) {
      let wait: number;
      // What the log says of this poll (when the client logs): its answer, or the failure it outlived.
      let seen: Seen;
      // The spacing of polls is counted from their starts: a slow answer must not let the next one come sooner.
      const polledAt = Date.now();
      try {
        const { resource, retryAfterMs } = await job.pollOnce(signal);
        const status = resource?.status;
        if (typeof status !== 'string')
          throw new ResponseValidationError(operationId, 'body.status', 'is required to tell whether the job is done');
        lastStatus = status;
        options.onProgress?.(resource);
        if (isTerminalStatus(status)) {
          tell(attempt + 1, { resource, terminal: true });
          return resource;
        }
        const now = Date.now();
        track = trackJob(track, { atMs: now, status, progress: readProgress(resource) });
        // The server's hint wins; progress only plans the waits the server left to the client.
        const untilDeadlineMs = Math.min(timeoutMs, MAX_TIMER_MS) - (now - started);
        const fromProgress =
          retryAfterMs === undefined
            ? progressWait(track, now, { intervalMs, maxIntervalMs, waitedMs: now - bornAt, untilDeadlineMs })
            : undefined;
        wait = fromProgress ?? nextWait(attempt, retryAfterMs, intervalMs, maxIntervalMs);
        seen = { resource, hint: retryAfterMs, planned: fromProgress };
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (!isTransient(error)) throw error;
        wait =
          (error instanceof RateLimitError && error.retryAfterMs) || Math.min(maxIntervalMs, intervalMs * 2 ** attempt);
        // The service's pause ends after the deadline: sleeping until the deadline could only end in a timeout;
        // the RateLimitError says now until when (`retryAt`).
        if (error instanceof RateLimitError && error.retryAfterMs && Date.now() + error.retryAfterMs > endsAt)
          throw error;
        seen = { error };
      }
      // One poll per intervalMs at most, whatever planned the wait: a hint of 0 or a 429's short Retry-After, the
      // backoff's jitter, or a planner near the deadline once planned waits of 0 ms (hundreds of polls in the last
      // second, a burst of 429s on a key of 120 a minute).
      const now = Date.now();
      wait = Math.max(wait, polledAt + intervalMs - now);
      if (now + wait >= endsAt) {
        // No further poll fits before the deadline: sleep until it (its timer aborts the signal with the
        // PollTimeoutError), rather than racing it with a timer of the same length that could poll at the deadline.
        tell(attempt + 1, { ...seen, ms: endsAt - now });
        // Only the deadline's (or the caller's) abort ends this sleep.
        await sleep(MAX_TIMER_MS, signal);
      }
      tell(attempt + 1, { ...seen, ms: wait });
      // A Retry-After beyond the timer range must not become a 1 ms wait (a re-poll storm): the deadline ends it.
      await sleep(Math.min(wait, MAX_TIMER_MS), signal);
    }
  } catch (error) {
    if (!signal.aborted) throw error;
    // Once aborted, the abort's reason is the error. A deadline that passed while the 202 was being read and checked
    // did not know the job yet: the job exists, and its timeout says so (a caller tells "never created" from "did
    // not finish" by the id).
    const reason = signal.reason;
    throw reason instanceof PollTimeoutError && reason.jobId !== jobId
      ? new PollTimeoutError(jobId, lastStatus, reason.elapsedMs)
      : reason;
  } finally {
    clearTimeout(deadline);
    user?.removeEventListener('abort', onUserAbort);
  }
}

// What the log is told of one poll (see `Observed`): its answer, or the failure it outlived, and the wait.
type Seen = Omit<Extract<Observed, { e: 'poll' }>, 'e' | 'op' | 'job' | 'n'>;

// Failures that a later poll can outlive: rate limiting, a failing or unreachable service.
function isTransient(error: unknown): boolean {
  return error instanceof RateLimitError || error instanceof InternalServerError || error instanceof ApiConnectionError;
}

/**
 * Resolves a 202's `Location` against the request URL (RFC 9110 §10.2.2). Followed only when it names a
 * resource of this API: an http(s) URL under `baseUrl + /api/v1/`, without credentials. Anything else (another
 * origin, another tenant's path prefix on the same host, a path outside the API, `blob:`…) gives undefined,
 * and the caller polls the job's own route: the API key is only ever sent to the API.
 */
export function resolveLocation(location: string | null, requestUrl: string, baseUrl: string): string | undefined {
  const url = location ? parseUrl(location, requestUrl) : undefined;
  const base = parseUrl(baseUrl);
  if (!url || !base) return undefined;
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return undefined;
  // Both pathnames are normalised by the URL parser (dot segments, %2e), so a prefix test is exact.
  const prefix = `${base.pathname.replace(/\/+$/, '')}/api/v1/`;
  if (url.origin !== base.origin || !url.pathname.startsWith(prefix)) return undefined;
  url.hash = '';
  return url.href;
}
