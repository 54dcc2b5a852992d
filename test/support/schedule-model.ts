// A whole-site run in virtual time: the CLI's own schedule (runSchedule, with its planner and pacer) against a model
// of the service's CI checks, on a clock that jumps from one timer to the next. A run of minutes takes milliseconds
// and gives the same figures on every machine, so hundreds of seeded draws can hold the planner to its bounds (the
// real-time bench rows run the built CLI against the simulator).
import type { Batch } from '../../src/cli/gate/batches.js';
import { runSchedule, type ScheduleClock } from '../../src/cli/gate/schedule.js';
import type { A11yClient } from '../../src/index.js';
import { prng } from '../../src/testing/random.js';

/** One check of a draw: how long it takes from its create, the share of that it waits QUEUED, its pages' ends. */
export interface DrawnCheck {
  durationMs: number;
  queuedShare: number;
  /** Each page's end as a share of the RUNNING span, ascending, the last 1. */
  pageEnds: number[];
  /** Whether it has findings to read (counts not all zero). */
  findings: boolean;
}

/** How a draw is made. */
export interface DrawOptions {
  checks: number;
  pagesPerCheck: number;
  /** Durations drawn log-uniform between these (ms). */
  minMs: number;
  maxMs: number;
  /** The share of checks that wait QUEUED, and for what share of their duration. */
  queuedChecks: number;
  queuedShare: number;
  /** Spread (log-normal sigma) of the pages' own durations within a check. */
  pageSpread: number;
}

/** The draw measured from outside on the packed CLI: 500 URLs in 25 checks, 15–60 s log-uniform, a quarter queued a fifth. */
export const ISSUE_DRAW: DrawOptions = {
  checks: 25,
  pagesPerCheck: 20,
  minMs: 15_000,
  maxMs: 60_000,
  queuedChecks: 0.25,
  queuedShare: 0.2,
  pageSpread: 0.5,
};

/** The checks of one seeded draw. */
export function drawChecks(seed: number, options: DrawOptions = ISSUE_DRAW): DrawnCheck[] {
  const random = prng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Array.from({ length: options.checks }, () => {
    const durationMs = Math.round(options.minMs * (options.maxMs / options.minMs) ** random());
    const queuedShare = random() < options.queuedChecks ? options.queuedShare : 0;
    const pages = Array.from({ length: options.pagesPerCheck }, () => Math.exp(options.pageSpread * normal()));
    const total = pages.reduce((a, b) => a + b, 0);
    let sum = 0;
    const pageEnds = pages.map((p) => {
      sum += p;
      return sum / total;
    });
    pageEnds[pageEnds.length - 1] = 1;
    return { durationMs, queuedShare, pageEnds, findings: random() < 0.8 };
  });
}

/** A clock whose time moves only when the model moves it, to its next timer. */
export class VirtualClock implements ScheduleClock {
  #now: number;
  #timers = new Map<number, { at: number; callback: () => void }>();
  #next = 1;
  constructor(start: number) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), callback });
    return id;
  }
  clearTimeout(timer: unknown): void {
    this.#timers.delete(timer as number);
  }
  /** Moves to the earliest timer and runs it (and any other due then); false when none is set. */
  advance(): boolean {
    let first: [number, { at: number; callback: () => void }] | undefined;
    for (const entry of this.#timers) if (!first || entry[1].at < first[1].at) first = entry;
    if (!first) return false;
    this.#now = Math.max(this.#now, first[1].at);
    this.#timers.delete(first[0]);
    first[1].callback();
    return true;
  }
}

/** What one modelled run gave. */
export interface ModelResult {
  wallMs: number;
  idealMs: number;
  /** Requests per check (creates, polls, findings reads). */
  perCheck: number;
  /** Per check, how long after it finished a poll saw it finished (ms). */
  lateMs: number[];
  /** Requests the service would have refused: past its rate in a sliding minute. */
  overRate: number;
  /** Per check: created at, finished at, and when each poll reached the service (ms from the run's start). */
  checks: Array<{ createdAt: number; finishedAt: number; polls: number[] }>;
}

const START = Date.UTC(2026, 11, 1);
// Each request reaches the service after this long, and its answer comes back as long again.
const LATENCY_MS = 20;

/**
 * Runs the CLI's schedule over one draw against the model service in virtual time.
 * @example const r = await modelRun(drawChecks(7)); // r.lateMs, r.perCheck, r.wallMs / r.idealMs
 */
export async function modelRun(draw: DrawnCheck[], requestsPerMinute = 120): Promise<ModelResult> {
  const clock = new VirtualClock(START);
  const arrivals: number[] = [];
  const created = new Map<
    string,
    { check: DrawnCheck; at: number; rank: number; seenDoneAt?: number; polls: number[] }
  >();
  let requests = 0;
  // A request reaches the service after LATENCY_MS; its answer, computed then, comes back LATENCY_MS later.
  const serve = <T>(answer: (at: number) => T): Promise<T> =>
    new Promise((resolve) => {
      requests++;
      clock.setTimeout(() => {
        const at = clock.now();
        arrivals.push(at);
        const value = answer(at);
        clock.setTimeout(() => resolve(value), LATENCY_MS);
      }, LATENCY_MS);
    });
  const stateAt = (id: string, at: number) => {
    const c = created.get(id)!;
    const since = at - c.at;
    const queued = c.check.queuedShare * c.check.durationMs;
    const counts = { critical: c.check.findings ? 1 : 0, serious: 0, moderate: 0, minor: 0 };
    if (since >= c.check.durationMs) {
      c.seenDoneAt ??= at;
      return { id, status: 'COMPLETED', counts, pages: c.check.pageEnds.map(() => ({ status: 'DONE' })) };
    }
    if (since < queued) return { id, status: 'QUEUED', pages: c.check.pageEnds.map(() => ({ status: 'QUEUED' })) };
    const share = (since - queued) / (c.check.durationMs - queued);
    return {
      id,
      status: 'RUNNING',
      pages: c.check.pageEnds.map((end) => ({ status: end <= share ? 'DONE' : 'RUNNING' })),
    };
  };
  const client = {
    ciChecks: {
      create: () =>
        serve((at) => {
          const id = `c${created.size}`;
          created.set(id, { check: draw[created.size]!, at, rank: created.size, polls: [] });
          return { id, status: 'QUEUED' };
        }),
      get: (id: string) =>
        serve((at) => {
          created.get(id)!.polls.push(at - START);
          return stateAt(id, at);
        }),
      listViolations: () => serve(() => []),
    },
  } as unknown as A11yClient;
  const batches: Batch[] = draw.map((check, i) => ({
    key: `https://shop.example.com ${i + 1}/${draw.length}`,
    origin: 'https://shop.example.com',
    index: i + 1,
    of: draw.length,
    urls: check.pageEnds.map((_, p) => `https://shop.example.com/p/${i}/${p}`),
  }));

  let ended = false;
  let failed: unknown;
  const run = runSchedule(client, batches, { endsAt: START + 600_000, clock, requestsPerMinute }).then(
    () => {
      ended = true;
    },
    (error: unknown) => {
      ended = true;
      failed = error;
    },
  );
  for (;;) {
    // Every promise the last timer settled runs before the next immediate: the schedule is idle, waiting on a timer.
    await new Promise((resolve) => setImmediate(resolve));
    if (ended) break;
    if (!clock.advance()) throw new Error('the schedule waits on nothing: the model stalled');
  }
  await run;
  if (failed) throw failed;
  const wallMs = clock.now() - START;
  const ranked = [...created.values()];
  const reads = ranked.filter((c) => c.check.findings).length;
  const budgetMs = ((2 * ranked.length + reads) / requestsPerMinute) * 60_000;
  const durationMs = Math.max(...ranked.map((c) => (c.rank * 60_000) / requestsPerMinute + c.check.durationMs));
  let overRate = 0;
  for (let i = 0; i < arrivals.length; i++) {
    let inWindow = 0;
    for (let j = i; j >= 0 && arrivals[j]! > arrivals[i]! - 60_000; j--) inWindow++;
    if (inWindow > requestsPerMinute) overRate++;
  }
  return {
    wallMs,
    idealMs: Math.max(budgetMs, durationMs) + 1_000,
    perCheck: requests / ranked.length,
    lateMs: ranked.map((c) => (c.seenDoneAt ?? Number.POSITIVE_INFINITY) - (c.at + c.check.durationMs)),
    overRate,
    checks: ranked.map((c) => ({
      createdAt: c.at - START,
      finishedAt: c.at - START + c.check.durationMs,
      polls: c.polls,
    })),
  };
}

/**
 * The median of `values`.
 * @example median([3, 1, 2]) // 2
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
