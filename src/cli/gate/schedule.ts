// One schedule for every CI check of a run: each batch is created as soon as the rate allows (no fixed number at a
// time), each check is polled when the run predicts it has finished (poll-planner.ts, learning from its siblings),
// and a finished check's findings are read at once. Every request goes through one client (its budget, in process
// or shared through Redis) and one count of the key's window (request-pacer.ts), which hands the scarce slots out
// in order: findings, creates, then the polls due first. A create the service refuses with 429 (its rate, or a
// limit on checks at a time, whichever it has) waits its Retry-After and is sent again; the run never fails for it.
import { setMaxListeners } from 'node:events';
import {
  type A11yClient,
  type CiCheck,
  type CiViolation,
  type FailOn,
  isTerminalStatus,
  RateLimitError,
} from '../../index.js';
import { FREE_PLAN_URLS_PER_CHECK, pagesDone } from '../../vocabulary/index.js';
import { BATCH_CONTEXT_KEY, type Batch } from './batches.js';
import { freePlanWarning, isFreePlanRefusal, resplit } from './free-plan.js';
import { type Plan, PollPlanner } from './poll-planner.js';
import { RequestPacer } from './request-pacer.js';

/**
 * The 429s that refused creates until no further try fitted before the deadline.
 * @example { retryAfterMs: 0, pastDeadline: false, refusals: 2, samePause: true }
 */
export interface CreateRefusals {
  /** The last refusal's `Retry-After` in milliseconds (undefined: it named no pause). */
  retryAfterMs: number | undefined;
  /**
   * Whether that pause alone reaches past the deadline; false when the run's own back-off between refusals in a row
   * (or their number) used the time up.
   */
  pastDeadline: boolean;
  /** Creates refused in a row (since the last one accepted). */
  refusals: number;
  /** Whether every one of those refusals asked for the same pause. */
  samePause: boolean;
}

/**
 * How one batch ended.
 * @example if (end.kind === 'finished') console.log(end.check.verdict);
 */
export type BatchEnd =
  /** The check finished (any terminal status) and its findings were read when it COMPLETED with any. */
  | { kind: 'finished'; check: CiCheck; violations: CiViolation[] }
  /**
   * The run's deadline came first: the check was never created (`answered` false: its create had no answer yet;
   * `pause`: the service kept refusing creates with 429 until the next try would start past the deadline).
   */
  | { kind: 'not-started'; answered: boolean; pause?: CreateRefusals }
  /** The check exists but its wait ended first: the deadline, or a pause the service asked for past it. */
  | { kind: 'ended'; jobId: string; seen: CiCheck | undefined; pause?: { retryAfterMs: number | undefined } };

/**
 * A batch of the run, and how it ended.
 * @example for (const { batch, end } of await runSchedule(client, batches, options)) console.log(batch.key, end.kind);
 */
export interface Scheduled {
  batch: Batch;
  end: BatchEnd;
}

/** Options of {@link runSchedule}. */
export interface ScheduleOptions {
  failOn?: FailOn | undefined;
  setBaseline?: boolean | undefined;
  /** Sent with every check, plus the batch key under `BATCH_CONTEXT_KEY`. */
  context?: Record<string, string> | undefined;
  /** The run's deadline (ms since the epoch): every wait ends by then. */
  endsAt: number;
  /**
   * Most checks created and not yet finished at once.
   * @default Infinity (as many as the rate allows)
   */
  maxChecks?: number | undefined;
  /**
   * The key's rate, in requests per minute.
   * @default 120 (the service's default, document §8)
   */
  requestsPerMinute?: number | undefined;
  /** Called after each poll with every batch and the check as last seen (undefined: not polled yet). */
  onProgress?: ((state: ReadonlyArray<{ batch: Batch; seen: CiCheck | undefined }>) => void) | undefined;
  /** Called with a warning line for stderr (the Free plan's re-split, said once). */
  onWarning?: ((line: string) => void) | undefined;
  /**
   * Asked when a check finished before the deadline: the batch to check next for it (its pages that could not be
   * checked, `--recheck`), or undefined. A recheck joins the schedule at once, as any batch, and never sets the
   * baseline.
   * @default undefined (no rechecks)
   */
  recheck?: ((batch: Batch, end: BatchEnd) => Batch | undefined) | undefined;
  /**
   * The clock the schedule reads and sleeps on: a model of a run (test/support/schedule-model.ts) passes a virtual
   * one, so hundreds of runs of minutes each take seconds and their figures do not depend on the machine.
   * @default the real clock (`Date.now`, `setTimeout`)
   */
  clock?: ScheduleClock | undefined;
}

/** What the schedule needs of a clock: the time (ms since the epoch) and a timer. */
export interface ScheduleClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const REAL_CLOCK: ScheduleClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

type State = 'waiting' | 'creating' | 'running' | 'polling' | 'finished' | 'reading' | 'done';

interface Task {
  batch: Batch;
  state: State;
  id?: string | undefined;
  /** The check as the latest poll read it. */
  seen?: CiCheck | undefined;
  end?: BatchEnd | undefined;
}

// A create refused 429 without Retry-After waits 1 s, then twice as long after each further refusal, up to 30 s.
const createBackoffMs = (refusals: number) => Math.min(30_000, 1_000 * 2 ** Math.min(refusals, 5));
// What a running check still needs, in requests (a poll at its finish, one more when that poll finds it unfinished,
// and a read of its findings), what a check not created yet needs (its create and the rest, the window recycling its
// slots by then), and the slots kept beyond: while the window has fewer free, the planner is told the rate is tight.
// 3 per running check where it once was 2: with 2, polls on the way took the slots of the polls at the finishes of
// 25 checks in the rate's first minute, which then waited for it to roll over (8 of 200 draws saw one past 15 s).
const NEEDED_PER_RUNNING = 3;
const NEEDED_PER_WAITING = 2;
const SPARE_SLOTS = 4;
// Longest single sleep of the loop (a timer holds at most 2³¹−1 ms; the loop wakes on every answer anyway).
const MAX_SLEEP_MS = 60_000;

/**
 * Runs every batch under one schedule and returns how each ended, in batch order (after a Free-plan re-split, the
 * batches the run ended with).
 * @throws the first error that is not a 429, a Free-plan refusal or the end of a wait (the others are stopped first)
 * @example const done = await runSchedule(client, planBatches(urls), { endsAt: Date.now() + 600_000 });
 */
export async function runSchedule(
  client: A11yClient,
  batches: readonly Batch[],
  options: ScheduleOptions,
): Promise<Scheduled[]> {
  const clock = options.clock ?? REAL_CLOCK;
  let tasks: Task[] = batches.map((batch) => ({ batch, state: 'waiting' }));
  const planner = new PollPlanner<Task>();
  const pacer = new RequestPacer({ requestsPerMinute: options.requestsPerMinute });
  const maxChecks = options.maxChecks ?? Number.POSITIVE_INFINITY;
  // Aborts what the deadline cuts short (creates and polls); findings of a finished check are still read.
  const deadline = new AbortController();
  const stop = new AbortController();
  const signal = AbortSignal.any([deadline.signal, stop.signal]);
  // Every request in flight listens to these: hundreds of checks may be, which is no leak.
  setMaxListeners(0, signal, stop.signal);
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  let wakeUp: (() => void) | undefined;
  let createPausedUntil = 0;
  let createRefusals = 0;
  // The Retry-After values of the refusals in a row, so the message can say whether they all asked the same.
  let refusedPauses = new Set<number | undefined>();
  let pollsPausedUntil = 0;
  // Until a create of more than the Free plan's five URLs is accepted, one such create is sent at a time: a
  // Free-plan key then refuses one, not every batch sent at once.
  let largeAccepted = false;
  let resplitDone = false;

  const launch = (work: () => Promise<void>) => {
    const p: Promise<void> = work()
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => {
        inFlight.delete(p);
        wakeUp?.();
      });
    inFlight.add(p);
  };
  const progress = () => options.onProgress?.(tasks.map((t) => ({ batch: t.batch, seen: t.seen })));
  const finish = (task: Task, end: BatchEnd) => {
    task.end = end;
    task.state = 'done';
    planner.forget(task);
    // Past the deadline (or after a failure) no recheck could start: the attempt that ended stands.
    const again = signal.aborted ? undefined : options.recheck?.(task.batch, end);
    if (again) tasks.push({ batch: again, state: 'waiting' });
  };

  const create = async (task: Task): Promise<void> => {
    task.state = 'creating';
    const sentAt = clock.now();
    const urls = task.batch.urls;
    try {
      // No retries inside the call: a 429 comes back here, so the schedule waits it out without holding a slot.
      const accepted = await client.ciChecks.create(
        {
          urls,
          failOn: options.failOn,
          // A recheck holds a few pages of a check: saved as the baseline, it would replace the whole site's.
          setBaseline: task.batch.recheck && options.setBaseline ? false : options.setBaseline,
          context: { ...options.context, [BATCH_CONTEXT_KEY]: task.batch.key },
        },
        { signal, maxRetries: 0 },
      );
      task.id = accepted.id;
      task.state = 'running';
      planner.created(task, urls.length, sentAt);
      createRefusals = 0;
      refusedPauses = new Set();
      if (urls.length > FREE_PLAN_URLS_PER_CHECK) largeAccepted = true;
    } catch (error) {
      if (deadline.signal.aborted) return finish(task, { kind: 'not-started', answered: false });
      if (stop.signal.aborted) throw error;
      task.state = 'waiting';
      if (error instanceof RateLimitError) {
        const now = clock.now();
        const asked = error.retryAfterMs;
        createPausedUntil = now + Math.max(asked ?? 0, createBackoffMs(createRefusals++));
        refusedPauses.add(asked);
        // A pause past the deadline: no check still waiting can start in time, so they end now rather than
        // sleeping to the deadline (the checks already running go on).
        if (createPausedUntil >= options.endsAt) {
          const pause: CreateRefusals = {
            retryAfterMs: asked,
            // The service's own pause, or the back-off this run added to it: the message names the right one.
            pastDeadline: asked !== undefined && now + asked >= options.endsAt,
            refusals: createRefusals,
            samePause: refusedPauses.size === 1,
          };
          for (const t of tasks) if (t.state === 'waiting') finish(t, { kind: 'not-started', answered: true, pause });
        }
        return;
      }
      if (!resplitDone && isFreePlanRefusal(error, urls.length)) {
        // A refused create started nothing (document §7: a 4xx is not processed): its pages are sent again.
        resplitDone = true;
        options.onWarning?.(freePlanWarning(urls.length));
        const before = new Map(tasks.map((t) => [t.batch, t]));
        tasks = resplit(
          tasks.map((t) => t.batch),
          (b) => before.get(b)!.state === 'waiting',
        ).map((b) => before.get(b) ?? { batch: b, state: 'waiting' });
        return;
      }
      throw error;
    }
  };

  const poll = async (task: Task, plan: Plan): Promise<void> => {
    task.state = 'polling';
    const sentAt = clock.now();
    planner.sent(plan, sentAt);
    let check: CiCheck;
    try {
      check = await client.ciChecks.get(task.id!, { signal });
    } catch (error) {
      if (deadline.signal.aborted) return finish(task, { kind: 'ended', jobId: task.id!, seen: task.seen });
      if (stop.signal.aborted || !(error instanceof RateLimitError)) throw error;
      // A pause the service asked for: past the deadline it ends this wait; before it, every poll waits it out.
      const until = clock.now() + (error.retryAfterMs ?? createBackoffMs(0));
      if (until >= options.endsAt)
        return finish(task, {
          kind: 'ended',
          jobId: task.id!,
          seen: task.seen,
          pause: { retryAfterMs: error.retryAfterMs },
        });
      pollsPausedUntil = Math.max(pollsPausedUntil, until);
      task.state = 'running';
      return;
    }
    task.seen = check;
    progress();
    const done = pagesDone(check.pages);
    if (!isTerminalStatus(check.status)) {
      planner.observed(task, sentAt, { status: check.status === 'QUEUED' ? 'QUEUED' : 'RUNNING', done });
      task.state = 'running';
      return;
    }
    planner.observed(task, sentAt, { status: 'TERMINAL', done });
    // Findings exist only on a COMPLETED check, and none when its counts are all zero.
    if (check.status === 'COMPLETED' && !noFindings(check)) task.state = 'finished';
    else finish(task, { kind: 'finished', check, violations: [] });
  };

  const read = async (task: Task): Promise<void> => {
    task.state = 'reading';
    const violations = await client.ciChecks.listViolations(task.id!, { signal: stop.signal });
    finish(task, { kind: 'finished', check: task.seen!, violations });
  };

  // The next request to send and when it is due: findings first, then creates, then the poll due first.
  const next = (now: number): { at: number; run: () => Promise<void> } | undefined => {
    const reading = tasks.find((t) => t.state === 'finished');
    if (reading) return { at: now, run: () => read(reading) };
    let best: { at: number; run: () => Promise<void> } | undefined;
    const active = tasks.filter((t) => t.state === 'creating' || t.state === 'running' || t.state === 'polling');
    const creating = active.filter((t) => t.state === 'creating');
    const waiting = tasks.find((t) => t.state === 'waiting');
    const large = (t: Task) => t.batch.urls.length > FREE_PLAN_URLS_PER_CHECK;
    if (
      waiting &&
      active.length < maxChecks &&
      // After a refused create, one create at a time until one is accepted.
      (createRefusals === 0 || creating.length === 0) &&
      (largeAccepted || !large(waiting) || !creating.some(large))
    )
      best = { at: Math.max(now, createPausedUntil), run: () => create(waiting) };
    // Polls on the way to a prediction are worth their requests only while the window has room for what every
    // check still needs; below that the planner stretches its bounds (see NEEDED_PER_RUNNING).
    const needed =
      NEEDED_PER_RUNNING * active.length +
      NEEDED_PER_WAITING * tasks.filter((t) => t.state === 'waiting').length +
      SPARE_SLOTS;
    for (const [task, plan] of planner.plan({ tight: pacer.free(now) < needed })) {
      if (task.state !== 'running') continue;
      const at = Math.max(plan.at, pollsPausedUntil);
      if (!best || at < best.at) best = { at, run: () => poll(task, plan) };
    }
    return best;
  };

  const sleep = (until: number) =>
    new Promise<void>((resolve) => {
      const timer = clock.setTimeout(resolve, Math.min(MAX_SLEEP_MS, Math.max(0, until - clock.now())));
      wakeUp = () => {
        clock.clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wakeUp = undefined;
    });

  for (;;) {
    if (failure) break;
    const now = clock.now();
    if (now >= options.endsAt) {
      deadline.abort();
      break;
    }
    if (tasks.every((t) => t.state === 'done')) break;
    const action = next(now);
    const at = action ? Math.max(action.at, pacer.nextSlotAt(now)) : options.endsAt;
    if (action && at <= now) {
      const sent = pacer.take(now);
      launch(() => action.run().finally(() => pacer.settle(sent, clock.now())));
      continue;
    }
    await sleep(Math.min(at, options.endsAt));
  }

  if (failure) stop.abort(failure.error);
  // What the deadline cut short: never created, or created and not finished (a poll answered just after the
  // deadline included). A check seen finished still has its findings read.
  const sweep = () => {
    if (failure) return;
    for (const t of tasks) {
      if (t.state === 'waiting') finish(t, { kind: 'not-started', answered: true });
      else if (t.state === 'running') finish(t, { kind: 'ended', jobId: t.id!, seen: t.seen });
      else if (t.state === 'finished') {
        const sent = pacer.take(clock.now());
        launch(() => read(t).finally(() => pacer.settle(sent, clock.now())));
      }
    }
  };
  sweep();
  while (inFlight.size) {
    await Promise.all(inFlight);
    sweep();
  }
  if (failure) throw failure.error;
  return tasks.map((t) => ({ batch: t.batch, end: t.end! }));
}

// A COMPLETED check whose counts are all zero has no findings to read (counts cover every finding, new or not).
function noFindings(check: CiCheck): boolean {
  const c = check.counts;
  return c !== undefined && c.critical === 0 && c.serious === 0 && c.moderate === 0 && c.minor === 0;
}
