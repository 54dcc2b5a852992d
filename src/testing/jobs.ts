// Job lifecycle, computed lazily from the clock: a job is QUEUED for the first quarter of its duration (or
// its `queuedShare`), RUNNING for the rest, then terminal. Nothing is scheduled per job, so state can never drift from time.

/**
 * The five kinds of asynchronous job (keys of `SimulatorOptions.durations`).
 * @example
 * ```ts
 * import type { SimulatorJobKind } from '@svc/a11y-sdk/testing';
 * const kind: SimulatorJobKind = 'ciCheck';
 * ```
 */
export type JobKind = 'scan' | 'scanRun' | 'ciCheck' | 'journeyRun' | 'fixVerification';

/** What every stored job carries. */
export interface JobTiming {
  id: string;
  /** Creation time (ms since the epoch, from the simulator's clock). */
  createdAt: number;
  /** Time spent QUEUED + RUNNING, in ms. */
  durationMs: number;
  /**
   * When each page finishes, as shares of the RUNNING span (ascending, the last is 1): uneven pages
   * (`SimulatorOptions.pageDurations`). Absent: the pages finish evenly.
   */
  pageEnds?: number[] | undefined;
  /** Share of `durationMs` spent QUEUED (`SimulatorOptions.queuedShare`). Absent: a quarter. */
  queuedShare?: number | undefined;
}

/** Where a job stands at a given time. */
export interface Phase {
  stage: 'QUEUED' | 'RUNNING' | 'DONE';
  /** Fraction of the RUNNING span elapsed: 0 while QUEUED, 1 once DONE. */
  progress: number;
  /** When the job left QUEUED (ms). */
  startedAt: number;
  /** When the job reaches its terminal state (ms). */
  finishedAt: number;
}

/** Share of a job's duration spent QUEUED unless `SimulatorOptions.queuedShare` says otherwise. @internal */
export const QUEUED_SHARE = 0.25;

/**
 * The phase of `job` at time `now`.
 * @example phaseOf({ id, createdAt: 0, durationMs: 400 }, 200) // { stage: 'RUNNING', progress: 1/3, … }
 */
export function phaseOf(job: JobTiming, now: number): Phase {
  const startedAt = job.createdAt + Math.round(job.durationMs * (job.queuedShare ?? QUEUED_SHARE));
  const finishedAt = job.createdAt + job.durationMs;
  if (now >= finishedAt) return { stage: 'DONE', progress: 1, startedAt, finishedAt };
  if (now < startedAt) return { stage: 'QUEUED', progress: 0, startedAt, finishedAt };
  return { stage: 'RUNNING', progress: (now - startedAt) / Math.max(1, finishedAt - startedAt), startedAt, finishedAt };
}

/**
 * How many of `total` sequential items are finished at `progress`: evenly over the RUNNING span, or at
 * `ends` (shares of the span) when given; the last one only when the job is DONE.
 * @example itemsDone(8, { stage: 'RUNNING', progress: 0.5, startedAt, finishedAt }) // 4
 * @example itemsDone(3, { stage: 'RUNNING', progress: 0.5, startedAt, finishedAt }, [0.1, 0.2, 1]) // 2
 */
export function itemsDone(total: number, phase: Phase, ends?: readonly number[]): number {
  if (phase.stage === 'DONE') return total;
  if (phase.stage === 'QUEUED') return 0;
  if (ends && ends.length === total) {
    let done = 0;
    while (done < total - 1 && ends[done]! <= phase.progress) done++;
    return done;
  }
  return Math.max(0, Math.min(total - 1, Math.floor(phase.progress * total)));
}

/** Status of the i-th of a job's sequential items (pages, checkpoints) at `phase` (`ends` as in {@link itemsDone}). */
export function itemStage(
  index: number,
  total: number,
  phase: Phase,
  ends?: readonly number[],
): 'QUEUED' | 'RUNNING' | 'DONE' {
  const done = itemsDone(total, phase, ends);
  if (index < done) return 'DONE';
  return index === done && phase.stage === 'RUNNING' ? 'RUNNING' : 'QUEUED';
}

/** ISO 8601 UTC date-time of a clock value (always ends in `Z`). */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
