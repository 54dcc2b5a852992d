// Waiting that reads progress: how far a job is (pages finished of pages to do), and when it should finish,
// from the progress a poller has seen. Pure functions of their arguments (times are passed in, randomness
// is injected): `polling.ts` owns the clock and the timers.

/** Pages finished (`done`) of pages to do (`total`), as a job resource reports them. */
export interface JobProgress {
  done: number;
  total: number;
}

import { pagesDone } from '../core/vocabulary.js';

/**
 * The progress a job resource reports, whatever its kind: a CI check's or a fix verification's `pages[]`
 * (a page counts as done once DONE, TIMEOUT, UNREACHABLE or ERROR), a scan run's `pagesDone` of `pagesTotal`,
 * a fix verification's `pagesScanned` (+ `pagesFailed`) of `pagesRequested`. Anything else, or counts that
 * make no sense (absent, negative, fractional, NaN, done > total, no page at all), give undefined: the
 * poller then schedules as if the job reported nothing.
 * @example readProgress({ status: 'RUNNING', pagesDone: 3, pagesTotal: 12 }) // { done: 3, total: 12 }
 * @example readProgress({ status: 'RUNNING', pages: [{ status: 'DONE' }, { status: 'RUNNING' }] }) // { done: 1, total: 2 }
 * @example readProgress({ status: 'RUNNING' }) // undefined
 */
export function readProgress(resource: unknown): JobProgress | undefined {
  if (typeof resource !== 'object' || resource === null) return undefined;
  const r = resource as Record<string, unknown>;
  if (r.pagesTotal !== undefined || r.pagesDone !== undefined) return counted(r.pagesDone, r.pagesTotal);
  if (r.pagesRequested !== undefined) {
    // Failed pages are finished pages too: without them a verification whose pages fail would look stalled.
    const failed = r.pagesFailed === undefined ? 0 : r.pagesFailed;
    return typeof r.pagesScanned === 'number' && typeof failed === 'number'
      ? counted(r.pagesScanned + failed, r.pagesRequested)
      : undefined;
  }
  // A page counts once finished, successfully or not (the vocabulary's `pagesDone`).
  if (Array.isArray(r.pages)) return counted(pagesDone(r.pages as Array<{ status?: unknown } | null>), r.pages.length);
  return undefined;
}

function counted(done: unknown, total: unknown): JobProgress | undefined {
  if (!Number.isSafeInteger(done) || !Number.isSafeInteger(total)) return undefined;
  const d = done as number;
  const t = total as number;
  return t >= 1 && d >= 0 && d <= t ? { done: d, total: t } : undefined;
}

/**
 * What a wait has seen of a job so far (immutable; {@link trackJob} returns the next one). Times are in
 * milliseconds on the poller's clock.
 */
export interface JobTrack {
  /** Latest moment the job was known not to be RUNNING yet (created by this wait, or seen QUEUED). */
  readonly queuedAtMs?: number | undefined;
  /** First moment the job was seen RUNNING (since it was last seen QUEUED). */
  readonly runningSeenAtMs?: number | undefined;
  /**
   * Where the estimate counts from: a moment and the pages done then (fractional: a page under way counts
   * half), with how far off that moment may be (ms).
   */
  readonly anchor?: { readonly atMs: number; readonly pages: number; readonly uncertaintyMs: number } | undefined;
  /** The first progress seen since the job was seen RUNNING, and when. */
  readonly firstLook?: { readonly atMs: number; readonly done: number; readonly total: number } | undefined;
  /** The latest progress seen, and when. */
  readonly last?: { readonly atMs: number; readonly done: number; readonly total: number } | undefined;
  /** When the progress was first seen at its current value. */
  readonly changedAtMs?: number | undefined;
}

// Where in the window [last seen QUEUED, first seen RUNNING] the job most likely started RUNNING: early,
// since a job first seen RUNNING has usually been at it for a while (measured in bench/polling-model.mjs
// on jobs with a silent queued quarter: the midpoint cost ~0.4 more polls per job for the same lateness).
// This holds for a job this wait created and first saw RUNNING too: the service's document says a new job is
// queued, and counting it from its creation instead (as if it started at once) makes the waits of jobs whose
// queue ended shortly before the first poll several times too long (bench/polling-model.mjs, last table).
const START_IN_WINDOW = 0.25;

/**
 * The track after one more look at the job: `status` as answered, at `atMs`, with its `progress` if it
 * reported any. A job this wait created counts as seen QUEUED at the moment the wait began.
 * @example trackJob({}, { atMs: 0, status: 'QUEUED' }) // { queuedAtMs: 0 }
 */
export function trackJob(
  track: JobTrack,
  seen: { atMs: number; status: string; progress?: JobProgress | undefined },
): JobTrack {
  const { atMs, status, progress } = seen;
  // Seen QUEUED (again): whatever was learnt about a run no longer holds.
  if (status === 'QUEUED') return { queuedAtMs: atMs };
  let { runningSeenAtMs, anchor, changedAtMs } = track;
  if (runningSeenAtMs === undefined) {
    runningSeenAtMs = atMs;
    if (track.queuedAtMs !== undefined) {
      const window = Math.max(0, atMs - track.queuedAtMs);
      anchor = { atMs: track.queuedAtMs + window * START_IN_WINDOW, pages: 0, uncertaintyMs: window / 2 };
    }
  }
  if (!progress) return { ...track, runningSeenAtMs, anchor, last: undefined };
  // A job already running when the wait began (nothing known of its start): count from this first look.
  anchor ??= { atMs, pages: progress.done + 0.5, uncertaintyMs: 0 };
  const last = track.last;
  if (!last || last.done !== progress.done || last.total !== progress.total) changedAtMs = atMs;
  const look = { atMs, done: progress.done, total: progress.total };
  return { ...track, runningSeenAtMs, anchor, changedAtMs, firstLook: track.firstLook ?? look, last: look };
}

// How long a job first seen RUNNING with pages done is given, at least, from that look, in windows [last known
// queued, first seen RUNNING] (see estimateCompletion). Measured in bench/polling-model.mjs (with the first-look bounds): 1 saves
// ~0.05 requests of CI checks of 5–20 pages, 2 ~0.13; p95 lateness stays ≤ 1 but for jobs queued until just before
// the first poll at T = 10 s (1.13; 1.19 without it).
const LATE_START_WINDOWS = 2;

/** The estimate of {@link estimateCompletion}. */
export interface CompletionEstimate {
  /** Expected time left, from the latest look (ms). */
  remainingMs: number;
  /** Time per page so far (ms). */
  msPerPage: number;
  /** Relative uncertainty of `remainingMs` (standard deviation of its logarithm). */
  spread: number;
  /**
   * Time left if the job left the queue only just before it was first seen RUNNING, so that the pages done
   * by then went by in no time (ms), but at least two windows [last known queued, first seen RUNNING] from the
   * look that first saw it RUNNING: the estimate counts from a start it can only guess, and a look must not
   * come later than this. Absent when the estimate does not depend on that guess.
   */
  ifStartedLateMs?: number | undefined;
}

/**
 * When the job should finish, from its progress: pages finished over the time they took gives the time per
 * page, and the pages left (the one under way counting half) take that long each. The time per page is
 * measured from the anchor (the job's estimated start), or from the first look that saw progress when
 * enough pages have finished since to make that sharper (it needs no guess of the start). No estimate
 * (undefined) before a page has finished since the anchor: a job of one page, or one that has not finished a
 * page yet, tells nothing about its speed.
 * @example estimateCompletion({ anchor: { atMs: 0, pages: 0, uncertaintyMs: 0 }, last: { atMs: 2500, done: 2, total: 10 } })
 * // { remainingMs: 7500, msPerPage: 1000, spread: ≈0.72 }
 */
export function estimateCompletion(track: JobTrack): CompletionEstimate | undefined {
  const { anchor, last, firstLook: first } = track;
  if (!anchor || !last) return undefined;
  const pages = last.done + 0.5 - anchor.pages;
  const elapsedMs = last.atMs - anchor.atMs;
  if (pages < 1 || !(elapsedMs > 0)) return undefined;
  const left = last.total - last.done;
  // Pages vary (the spread of their durations is taken as about their mean): the rate measured over
  // `pages` pages is off by ~1/√pages, the sum of the `left` pages to come by ~1/√left; the anchor's
  // own uncertainty adds its share of the elapsed time.
  const leftShare = left > 0 ? 1 / left : 0;
  const estimate = (msPerPage: number, spread: number) => ({
    remainingMs: Math.max(0, (left - 0.5) * msPerPage),
    msPerPage,
    spread,
  });
  const fromAnchor = estimate(
    elapsedMs / pages,
    Math.sqrt(1 / pages + leftShare + (anchor.uncertaintyMs / elapsedMs) ** 2),
  );
  // Since the first look with progress: whole pages over the time between two looks, each count off by up
  // to a page (~half a page each way). Sharper than the anchor's once many pages finished since that look,
  // or when the start is barely known (a job seen QUEUED, then RUNNING with pages done already).
  const since = first && first.total === last.total && last.atMs > first.atMs ? last.done - first.done : 0;
  if (since >= 1) {
    const spread = Math.sqrt(1 / since + leftShare + (0.5 / since) ** 2);
    if (spread < fromAnchor.spread) return estimate((last.atMs - first!.atMs) / since, spread);
  }
  // Pages were done already when it was first seen RUNNING: had it started only just before, they went by in
  // no time, and all pages since the anchor took only the time since that look. Without this bound, jobs of
  // 20–100 pages queued until just before the first poll were noticed up to 6.9× their lateness target (p95 at
  // T = 4 s, bench/polling-model.mjs). Such a job is still given two windows [last known queued, first seen
  // RUNNING] from that look: a look one interval after it cost CI checks of 5–20 pages ~0.15 requests, and only
  // jobs shorter than about twice the window (~2 s at a first poll) could end before (bench/polling-model.mjs).
  if (anchor.uncertaintyMs > 0 && first && first.done >= 1 && track.runningSeenAtMs !== undefined) {
    const sinceSeenMs = last.atMs - track.runningSeenAtMs;
    const windowMs = track.runningSeenAtMs - (track.queuedAtMs ?? track.runningSeenAtMs);
    return {
      ...fromAnchor,
      ifStartedLateMs: Math.max(
        (fromAnchor.remainingMs * sinceSeenMs) / elapsedMs,
        LATE_START_WINDOWS * windowMs - sinceSeenMs,
      ),
    };
  }
  return fromAnchor;
}

// How much faster than the pages so far the pages not started yet may plausibly be, on the whole. Measured
// in bench/polling-model.mjs on jobs with progress from the start (T 4–30 s): without this bound ~0.3 more
// requests per job; 0.8 saves ~0.15 of them but brings p95 lateness over its target for jobs of 10 s queued
// until just before the first poll.
const SLOWER_PAGES_SHARE = 0.7;

// A job first seen RUNNING with no page finished, at that first look: the least time it still needs is counted
// from the guessed start (the anchor), but never more than this many times the window it may have been running
// in (from the moment it was last known queued to this look), in case it left the queue just before. Measured
// in bench/polling-model.mjs (with the first-look bounds): the look after one interval it replaces cost CI checks of 5–20 pages
// ~0.35 requests; 4 windows save 0.03 more but bring jobs queued until just before the first poll to p95 1.46 at
// T = 4 s.
const FIRST_LOOK_WINDOWS = 3;

/**
 * The least time the job still plausibly needs, from the page under way (undefined when nothing bounds
 * it): that page has not finished, so each page since the anchor took at least the time since the job was
 * first seen RUNNING (it surely ran by then; when it started before, nobody knows) divided by their count
 * (the one under way counting whole), and each page not started yet takes at least 70 % of that. Unlike
 * {@link estimateCompletion} it needs no finished page: a job of 10 pages still on its first page 1 s after
 * it was seen running needs ~6 s more. At the first look that sees a job RUNNING with no page finished (a job
 * this wait created or saw QUEUED), the first page has been under way since the guessed start: the same bound
 * counts from the anchor, up to 3 times the window since the job was last known queued.
 * @example remainingAtLeast({ runningSeenAtMs: 0, anchor: { atMs: 0, pages: 0, uncertaintyMs: 0 }, last: { atMs: 1000, done: 0, total: 10 } }) // 6300
 * @example remainingAtLeast({ queuedAtMs: 0, runningSeenAtMs: 1000, anchor: { atMs: 250, pages: 0, uncertaintyMs: 500 }, last: { atMs: 1000, done: 0, total: 10 } }) // 3000 (0.7 · 9 · 750 = 4725, at most 3 · 1000)
 */
export function remainingAtLeast(track: JobTrack): number | undefined {
  const { anchor, last, runningSeenAtMs, queuedAtMs } = track;
  if (!anchor || !last || runningSeenAtMs === undefined) return undefined;
  if (last.atMs === runningSeenAtMs && last.done === 0 && queuedAtMs !== undefined && anchor.pages === 0) {
    // The first look: without this, no bound until a second look, one interval later (bench/polling-model.mjs:
    // that look was ~0.35 of the 6.9 requests of a CI check of 5–20 pages reporting progress from the start).
    const sinceStartMs = last.atMs - anchor.atMs;
    const notStartedYet = last.total - 1;
    if (!(sinceStartMs > 0) || notStartedYet < 1) return undefined;
    return Math.min(
      SLOWER_PAGES_SHARE * notStartedYet * sinceStartMs,
      FIRST_LOOK_WINDOWS * (runningSeenAtMs - queuedAtMs),
    );
  }
  // Not from the anchor: a job first seen RUNNING may have left the queue just before that look, and counting
  // from earlier would read its first page as slow (seconds late for jobs queued until just before the first poll).
  const elapsedMs = last.atMs - runningSeenAtMs;
  // The pages that elapsed time spans: those finished since the anchor and the one under way, plus, for a job
  // first seen already running, the rest of the page under way then (whole: how much of it was left is unknown).
  const pages = last.done + 1 - Math.floor(anchor.pages);
  const notStarted = last.total - last.done - 1;
  if (!(elapsedMs > 0) || pages <= 0 || notStarted < 1) return undefined;
  return (SLOWER_PAGES_SHARE * notStarted * elapsedMs) / pages;
}

/** Bounds of {@link progressWait}. */
export interface ProgressWaitOptions {
  intervalMs: number;
  maxIntervalMs: number;
  /** The job's age: milliseconds since its create answered (a job this wait created), else since the wait began. */
  waitedMs: number;
  /** Milliseconds left before the wait's deadline (none: unbounded). */
  untilDeadlineMs?: number | undefined;
}

// How late completion may be noticed, as a share of the job's (estimated) duration; never less than one interval.
const LATENESS_SHARE = 0.1;
// How far into that allowance a poll aims, past the earliest plausible completion. Measured in
// bench/polling-model.mjs: 0.5 costs ~0.2 more requests per job; 0.8 brings p95 lateness over its target;
// 0.65 (with the bounds at the first look) saves ~0.1 on 0.6; p95 ≤ 1.01 in every cell of the model's
// tables but one, jobs queued until just before the first poll at T = 10 s: 1.13 (1.18 at 0.6, 0.99 before the bounds at the first look).
const AIM_INTO_ALLOWANCE = 0.65;
// The least wait, as a share of that allowance: a job that finishes right after this look is noticed one wait
// later, so a wait within the allowance is never too late, whatever the estimate says; waiting less only spends
// requests (polls at ~0.65 of the allowance while the last pages ran: ~0.02 requests per job in the model; the
// whole allowance brings p95 over 1, the allowance being estimated).
const WAIT_AT_LEAST_SHARE = 0.9;

/**
 * The wait before the next poll, from the job's progress; undefined when progress tells nothing (then the
 * caller backs off as without progress). Aims at the earliest plausible completion — the estimate shrunk
 * by its uncertainty (no later than the time left had the job started just before it was first seen
 * RUNNING, when that start is a guess), and never before {@link remainingAtLeast} — plus 65 % of the
 * lateness allowed (a tenth of the job's estimated duration, at least `intervalMs`): if the job finishes in
 * that span it is noticed in time, and if it has not, this poll brings fresher progress and a sharper
 * estimate. Never less than 90 % of that allowance (unless the estimate hangs on a guessed start): a job
 * finishing right after this look is still noticed in time. When the
 * progress stops moving for longer than two pages' time, waits grow by half of the time since it last moved
 * (×1.5 per poll, the backoff's growth), so a stalled job is never hammered. Bounded to [intervalMs,
 * maxIntervalMs], and a look that would fall after the deadline comes half an interval before it instead, but
 * never sooner than `intervalMs` from now; when that is not before the deadline, no look fits and the wait is
 * the time left (`untilDeadlineMs`, at least 0): the wait ends at the deadline. No
 * jitter: each wait is planned from the job's own progress, and taking up to 20 % off it (as the backoff
 * does) makes the poll land before the completion it aims at (~0.5 more requests per job in the model).
 * @example progressWait(track, 2_500, { intervalMs: 1000, maxIntervalMs: 10000, waitedMs: 3000 })
 */
export function progressWait(track: JobTrack, nowMs: number, options: ProgressWaitOptions): number | undefined {
  const estimate = estimateCompletion(track);
  const atLeastMs = remainingAtLeast(track);
  if (!estimate && atLeastMs === undefined) return undefined;
  const { intervalMs, maxIntervalMs, waitedMs, untilDeadlineMs } = options;
  const sinceLook = Math.max(0, nowMs - (track.last?.atMs ?? nowMs));
  const remainingMs = estimate ? Math.max(0, estimate.remainingMs - sinceLook) : undefined;
  const earliestMs = Math.max(
    remainingMs !== undefined
      ? Math.min(remainingMs * Math.exp(-estimate!.spread), (estimate!.ifStartedLateMs ?? Infinity) - sinceLook)
      : 0,
    (atLeastMs ?? 0) - sinceLook,
  );
  const allowanceMs = Math.max(intervalMs, LATENESS_SHARE * (waitedMs + (remainingMs ?? earliestMs)));
  // The least wait holds only where the allowance does not hang on a guessed start: a job that may have started just
  // before it was first seen RUNNING may be far shorter than estimated, and its allowance with it.
  const atLeastShare = estimate?.ifStartedLateMs === undefined ? WAIT_AT_LEAST_SHARE : 0;
  let wait = Math.max(earliestMs + AIM_INTO_ALLOWANCE * allowanceMs, atLeastShare * allowanceMs);
  // Time per page so far (the page under way counting whole when none has finished yet).
  const { anchor, last } = track as Required<JobTrack>;
  const msPerPage = estimate?.msPerPage ?? (last.atMs - anchor.atMs) / (last.done + 1 - Math.floor(anchor.pages));
  const stillMs = nowMs - (track.changedAtMs ?? nowMs);
  if (stillMs > 2 * msPerPage + intervalMs) wait = Math.max(wait, stillMs / 2);
  wait = Math.min(maxIntervalMs, Math.max(intervalMs, wait));
  // A look after the deadline would never happen: the last one comes just before it. Not sooner than one interval
  // from now, though: near the deadline that bound planned waits of 0 ms, and every look that answered then planned
  // another (a storm of polls in the last half interval). When even that look would not come before the deadline,
  // none fits: wait out the time left.
  if (untilDeadlineMs !== undefined && wait > untilDeadlineMs - intervalMs / 2) {
    const lastLook = Math.max(intervalMs, untilDeadlineMs - intervalMs / 2);
    wait = lastLook < untilDeadlineMs ? lastLook : Math.max(0, untilDeadlineMs);
  }
  return wait;
}
