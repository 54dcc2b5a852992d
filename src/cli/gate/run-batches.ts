// Running the CI checks of a run: every batch under one deadline (`--timeout` covers the whole run) and one
// schedule (schedule.ts: one client, so its rate budget, in-process or shared through Redis, spaces every request
// of every batch; one poll planner; no fixed number of checks at a time), with one progress display. A batch whose
// wait ends first (the deadline, or a pause the service asked for past it) keeps what is known of its check; any
// other error (the check could not be created) stops the others and is the run's error.
import { type A11yClient, type CiCheck, type CiViolation, type FailOn, isTerminalStatus } from '../../index.js';
import { pagesDone } from '../../vocabulary/index.js';
import type { Batch } from './batches.js';
import { type CreateRefusals, type BatchEnd, runSchedule, type ScheduleOptions } from './schedule.js';

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
   * Most checks created and not yet finished at once (`--max-checks`).
   * @default Infinity (as many as the rate allows)
   */
  maxChecks?: number | undefined;
  /**
   * The key's rate in requests per minute (`--rate-limit`), which the schedule keeps under.
   * @default 120 (the service's default)
   */
  requestsPerMinute?: number | undefined;
  /** Called with the run's state whenever a batch reports progress. */
  onProgress?: ((state: { status: string; detail?: string | undefined }) => void) | undefined;
  /** Called with a warning line for stderr (the Free plan's re-split, said once). */
  onWarning?: ((line: string) => void) | undefined;
  /**
   * The recheck a finished check calls for (`recheckOf`, `--recheck`): each is a result of its own (`batch.recheck`
   * set), after the batches, in the order they finished; `withAttempts` reads them together.
   * @default undefined (no rechecks)
   */
  recheck?: ScheduleOptions['recheck'];
}

/**
 * Runs the batches and returns one result per batch, in batch order (after a Free-plan re-split, one per batch the
 * run ended with).
 * @throws the first error that is not a 429, a Free-plan refusal or the end of a wait (the others are stopped first)
 * @example const results = await runBatches(client, planBatches(urls), { timeoutMs: 600_000, limitText: '600000 ms (--timeout)' });
 */
export async function runBatches(
  client: A11yClient,
  batches: readonly Batch[],
  options: RunBatchesOptions,
): Promise<BatchResult[]> {
  const scheduled = await runSchedule(client, batches, {
    failOn: options.failOn,
    setBaseline: options.setBaseline,
    context: options.context,
    endsAt: Date.now() + options.timeoutMs,
    maxChecks: options.maxChecks,
    requestsPerMinute: options.requestsPerMinute,
    onWarning: options.onWarning,
    recheck: options.recheck,
    onProgress: (state) => options.onProgress?.(progressOf(state)),
  });
  return Promise.all(scheduled.map(({ batch, end }) => resultOf(client, batch, end, options.limitText)));
}

async function resultOf(client: A11yClient, batch: Batch, end: BatchEnd, limit: string): Promise<BatchResult> {
  if (end.kind === 'finished') return { batch, check: end.check, violations: end.violations };
  if (end.kind === 'not-started') {
    return notStarted(
      batch,
      end.pause
        ? refusedReason(end.pause, limit)
        : end.answered
          ? `the check was not started: the run's limit of ${limit} ran out first`
          : // The deadline came before the service answered the request creating the check: there is no check to
            // look at (it may exist on the service's side), and the batch cannot be judged.
            `the wait ended (${limit}) before the service answered the request starting the check`,
    );
  }
  const { jobId, seen, pause } = end;
  const ended = pause
    ? `was paused by the service${pause.retryAfterMs === undefined ? '' : ` for ${Math.ceil(pause.retryAfterMs / 1000)} s`}, past the wait's limit of ${limit}`
    : `did not finish within ${limit}`;
  // One quick look for its latest state (bounded: the service may be what made the wait end), else the last one
  // seen.
  const last = await client.ciChecks
    .get(jobId, { timeoutMs: 5_000, maxRetries: 0 })
    .catch((): CiCheck => seen ?? ({ id: jobId } as CiCheck));
  const reason = `${ended}; ${last.status ? `it was ${last.status} when last seen` : 'its status could not be read'}`;
  return {
    batch,
    check: last,
    violations: [],
    waitEnded: `the wait ${reason}`,
    endedMessage: `CI check ${jobId} ${reason}.`,
  };
}

const seconds = (ms: number) => `${Math.ceil(ms / 1000)} s`;

// Why creates refused with 429 left a check unstarted: the pause the service asked for when it alone reaches past
// the deadline; else the deadline, which the refusals in a row and the back-off between them used up (a
// `Retry-After: 0` asks for no pause at all, so "a pause of 0 s, past the limit" would blame the wrong thing).
function refusedReason(pause: CreateRefusals, limit: string): string {
  if (pause.pastDeadline && pause.retryAfterMs !== undefined)
    return `the check was not started: the service refused it (429) and asked for a pause of ${seconds(pause.retryAfterMs)}, past the run's limit of ${limit}`;
  const asked =
    pause.retryAfterMs === undefined ? 'named no pause' : `asked for a pause of ${seconds(pause.retryAfterMs)}`;
  const which = pause.refusals === 1 ? '' : pause.samePause ? ' each time' : ' the last time';
  const times = pause.refusals === 1 ? 'once' : `${pause.refusals} times`;
  return `the check was not started: the run's deadline (${limit}) ran out while the service kept answering 429 Too Many Requests (${times}; it ${asked}${which})`;
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
function progressOf(state: ReadonlyArray<{ batch: Batch; seen: CiCheck | undefined }>): {
  status: string;
  detail?: string | undefined;
} {
  if (state.length === 1) {
    const c = state[0]!.seen;
    return { status: c?.status ?? 'QUEUED', detail: pagesDetail(c?.pages) };
  }
  const done = state.filter((s) => s.seen !== undefined && isTerminalStatus(s.seen.status)).length;
  const pages = state.flatMap((s) => s.seen?.pages ?? s.batch.urls.map(() => ({ status: 'QUEUED' as const })));
  const status =
    done === state.length ? 'COMPLETED' : state.some((s) => s.seen?.status === 'RUNNING') ? 'RUNNING' : 'QUEUED';
  return { status, detail: `checks ${done}/${state.length}  ${pagesDetail(pages)}` };
}

/**
 * `pages 3/5` from a check's page entries (pages finished, of all: the SDK's `pagesDone`).
 * @example pagesDetail([{ status: 'DONE' }, { status: 'RUNNING' }]) // 'pages 1/2'
 */
function pagesDetail(pages: CiCheck['pages']): string | undefined {
  if (!pages?.length) return undefined;
  return `pages ${pagesDone(pages)}/${pages.length}`;
}
