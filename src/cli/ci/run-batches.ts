// Running the CI checks of a run: every batch started under one deadline (`--timeout` covers the whole run),
// a few at a time, through one client (so its rate budget, in-process or shared through Redis, spaces every
// request of every batch), with one progress display. A batch whose wait ends first (the deadline, or a pause
// the service asked for past it) keeps what is known of its check; any other error (the check could not be
// created) stops the others and is the run's error.
import {
  type A11yClient,
  type CiCheck,
  type CiViolation,
  type FailOn,
  PollTimeoutError,
  RateLimitError,
} from '../../index.js';
import { BATCH_CONTEXT_KEY, type Batch } from './batches.js';

/** What one batch gave. */
export interface BatchResult {
  batch: Batch;
  /** The check as last seen (for a batch never started: a placeholder in status QUEUED listing its pages). */
  check: CiCheck;
  /** Its findings (read only once it COMPLETED). */
  violations: CiViolation[];
  /** Set when the wait ended before the check did (or it never started): why, in words, for the reports. */
  waitEnded?: string | undefined;
  /** When the wait of a started check ended first: the line that says so on stderr. */
  endedMessage?: string | undefined;
}

/** Options of {@link runBatches}. */
export interface RunBatchesOptions {
  failOn?: FailOn | undefined;
  /** Sent with every batch: each completed check is saved as a baseline. */
  setBaseline?: boolean | undefined;
  /** Sent with every batch, plus the batch key under `BATCH_CONTEXT_KEY`. */
  context?: Record<string, string> | undefined;
  /** The whole run's deadline in milliseconds (every batch's wait ends by then). */
  timeoutMs: number;
  /** How the deadline is named in messages, e.g. `600000 ms (--timeout)`. */
  limitText: string;
  /**
   * Most checks waited on at once.
   * @default DEFAULT_CONCURRENCY (5)
   */
  concurrency?: number | undefined;
  /** Called with the run's state whenever a batch reports progress. */
  onProgress?: ((state: { status: string; detail?: string | undefined }) => void) | undefined;
}

/** Checks waited on at once by default: enough to keep a site's batches moving, few enough to poll gently. */
export const DEFAULT_CONCURRENCY = 5;

const finished = (status: string | undefined) => status !== undefined && status !== 'QUEUED' && status !== 'RUNNING';

/**
 * Runs the batches and returns one result per batch, in batch order.
 * @throws the first error that is not the end of a wait (the others are stopped first)
 * @example const results = await runBatches(client, planBatches(urls), { timeoutMs: 600_000, limitText: '600000 ms (--timeout)' });
 */
export async function runBatches(
  client: A11yClient,
  batches: readonly Batch[],
  options: RunBatchesOptions,
): Promise<BatchResult[]> {
  const endsAt = Date.now() + options.timeoutMs;
  const stop = new AbortController();
  const latest = new Map<number, CiCheck>();
  const showProgress = () => options.onProgress?.(progressOf(batches, latest));
  const results: BatchResult[] = new Array(batches.length);
  let next = 0;
  let failure: { error: unknown } | undefined;

  const runOne = async (i: number): Promise<void> => {
    const batch = batches[i]!;
    const remaining = endsAt - Date.now();
    if (remaining < 1) {
      results[i] = notStarted(
        batch,
        `the check was not started: the run's limit of ${options.limitText} ran out first`,
      );
      return;
    }
    let seen: CiCheck | undefined;
    try {
      const check = await client.ciChecks.createAndWait(
        {
          urls: batch.urls,
          failOn: options.failOn,
          setBaseline: options.setBaseline,
          context: { ...options.context, [BATCH_CONTEXT_KEY]: batch.key },
        },
        {
          timeoutMs: remaining,
          signal: stop.signal,
          onProgress: (c) => {
            seen = c;
            latest.set(i, c);
            showProgress();
          },
        },
      );
      latest.set(i, check);
      // Findings are read only after a terminal state, and a check that failed has none to read.
      const violations = check.status === 'COMPLETED' ? await client.ciChecks.listViolations(check.id) : [];
      results[i] = { batch, check, violations };
    } catch (error) {
      // The deadline came before the service answered the request creating the check: there is no check to look at
      // (it may exist on the service's side), and the batch cannot be judged.
      if (!stop.signal.aborted && error instanceof PollTimeoutError && error.jobId === undefined) {
        results[i] = notStarted(
          batch,
          `the wait ended (${options.limitText}) before the service answered the request starting the check`,
        );
        return;
      }
      const ended = stop.signal.aborted ? undefined : waitEnded(error, seen, options.limitText);
      if (!ended) throw error;
      // One quick look for its latest state (bounded: the service may be what made the wait end), else the
      // last one seen.
      const last = await client.ciChecks
        .get(ended.jobId, { timeoutMs: 5_000, maxRetries: 0 })
        .catch((): CiCheck => seen ?? { id: ended.jobId, status: ended.lastStatus as CiCheck['status'] });
      const reason = `${ended.reason}; ${last.status ? `it was ${last.status} when last seen` : 'its status could not be read'}`;
      results[i] = {
        batch,
        check: last,
        violations: [],
        waitEnded: `the wait ${reason}`,
        endedMessage: `CI check ${ended.jobId} ${reason}.`,
      };
    }
  };

  const worker = async (): Promise<void> => {
    while (failure === undefined && next < batches.length) {
      const i = next++;
      try {
        await runOne(i);
      } catch (error) {
        failure ??= { error };
        stop.abort(error);
      }
    }
  };
  const width = Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, batches.length));
  await Promise.all(Array.from({ length: width }, worker));
  if (failure) throw failure.error;
  return results;
}

// A batch the deadline reached before it started: its pages listed as QUEUED, so the reports name them.
function notStarted(batch: Batch, reason: string): BatchResult {
  return {
    batch,
    check: { id: 'not started', status: 'QUEUED', pages: batch.urls.map((url) => ({ url, status: 'QUEUED' })) },
    violations: [],
    waitEnded: reason,
    endedMessage: `${reason[0]!.toUpperCase()}${reason.slice(1)}.`,
  };
}

// One check: its own status and pages (as before batches existed); several: how many checks are done, and pages.
function progressOf(
  batches: readonly Batch[],
  latest: Map<number, CiCheck>,
): { status: string; detail?: string | undefined } {
  if (batches.length === 1) {
    const c = latest.get(0);
    return { status: c?.status ?? 'QUEUED', detail: pagesDetail(c?.pages) };
  }
  const checks = batches.map((_, i) => latest.get(i));
  const done = checks.filter((c) => finished(c?.status)).length;
  const pages = checks.flatMap((c, i) => c?.pages ?? batches[i]!.urls.map(() => ({ status: 'QUEUED' as const })));
  const status =
    done === batches.length ? 'COMPLETED' : checks.some((c) => c?.status === 'RUNNING') ? 'RUNNING' : 'QUEUED';
  return { status, detail: `checks ${done}/${batches.length}  ${pagesDetail(pages)}` };
}

/**
 * `pages 3/5` from a check's page entries (pages no longer QUEUED or RUNNING, of all).
 * @example pagesDetail([{ status: 'DONE' }, { status: 'RUNNING' }]) // 'pages 1/2'
 */
export function pagesDetail(pages: CiCheck['pages']): string | undefined {
  if (!pages?.length) return undefined;
  const done = pages.filter((p) => p.status !== 'QUEUED' && p.status !== 'RUNNING').length;
  return `pages ${done}/${pages.length}`;
}

// `…/api/v1/ci/checks/{id}`: a poll of one check (its findings end in /violations and are read after the wait).
const CHECK_URL = /\/api\/v1\/ci\/checks\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[?#]|$)/i;

/**
 * Whether `error` ended the wait of a check that exists: the wait's deadline passed, or the service asked for
 * a pause that ends after it. Anything else (the check was never created, an API error) is not.
 */
function waitEnded(
  error: unknown,
  seen: CiCheck | undefined,
  limit: string,
): { jobId: string; lastStatus?: string | undefined; reason: string } | undefined {
  if (error instanceof PollTimeoutError && error.jobId !== undefined) {
    return { jobId: error.jobId, lastStatus: error.lastStatus, reason: `did not finish within ${limit}` };
  }
  // A pause the service asked for while the check was being polled (the first poll included, before any answer
  // was seen): the poll's URL names the check.
  const jobId = error instanceof RateLimitError ? (seen?.id ?? CHECK_URL.exec(error.url)?.[1]) : undefined;
  if (error instanceof RateLimitError && jobId !== undefined) {
    const until = error.retryAfterMs === undefined ? '' : ` for ${Math.ceil(error.retryAfterMs / 1000)} s`;
    return {
      jobId,
      lastStatus: seen?.status,
      reason: `was paused by the service${until}, past the wait's limit of ${limit}`,
    };
  }
  return undefined;
}
