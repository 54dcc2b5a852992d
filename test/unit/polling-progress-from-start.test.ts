// Waits on jobs that report progress from the start (RUNNING at once, pages moving from the first poll), at the
// default options, on an injected clock (vitest's fake timers drive Date.now and setTimeout): the simulator's
// own job timeline and seeded uneven pages answer each poll, so no assertion depends on the machine's speed.
// The target: for T from 4 to 30 s, ≤ 6.5 requests per job on average (the create included) and p95
// lateness within max(10 % of T, 1 s).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onFakeClock } from '../support/fake-clock.js';
import { type PolledJob, pollUntilTerminal } from '../../src/wait/polling.js';
import '../../src/wait/progress.js'; // loaded before the clock is faked: the wait imports it lazily
import { itemStage, phaseOf } from '../../src/testing/jobs.js';
import { drawPageEnds, pageDurationSource } from '../../src/testing/page-durations.js';
import { prng } from '../../src/testing/random.js';

const id = '396154c7-55f5-43ad-bac0-2dd077d2efcb';
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Waits for one CI check of `pages` seeded uneven pages lasting T ms, QUEUED for `queuedMs` first (0: progress from the start). */
async function waitForJob(T: number, pages: number, seed: number, queuedMs = 0, createTakesMs = 0) {
  const job = {
    id,
    createdAt: 0,
    durationMs: T,
    queuedShare: queuedMs / T,
    pageEnds: drawPageEnds(pageDurationSource({ seed, spread: 0.5 }, 1), pages),
  };
  let requests = 0;
  type Answer = { id: string; status: string; pages?: { status: string }[] };
  const pollOnce = async (): Promise<{ resource: Answer }> => {
    requests++;
    const phase = phaseOf(job, Date.now());
    if (phase.stage === 'DONE') return { resource: { id, status: 'COMPLETED' } };
    return {
      resource: {
        id,
        status: phase.stage,
        pages: job.pageEnds!.map((_, i, all) => ({ status: itemStage(i, all.length, phase, all) })),
      },
    };
  };
  const begin = async (): Promise<PolledJob<Answer>> => {
    requests++; // the create (its answer may take a while: a rate budget, a retry, a busy process)
    await new Promise((resolve) => setTimeout(resolve, createTakesMs));
    job.createdAt = Date.now();
    return { jobId: id, pollOnce, delayFirstPoll: true, status: 'QUEUED' };
  };
  const result = await onFakeClock(pollUntilTerminal('createCiCheck', begin));
  return { status: result.status, requests, latenessMs: Date.now() - (job.createdAt + T) };
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(0.95 * (xs.length - 1))]!;

/**
 * `count` seeded jobs (T drawn in [minMs, maxMs], pages in [minPages, maxPages]), waited for one after another;
 * each QUEUED for a time drawn in [minQueuedMs, maxQueuedMs] first (0: progress from the start), or for the first
 * quarter of T with `queuedQuarter`.
 */
async function batch(
  seed: number,
  count: number,
  minMs: number,
  maxMs: number,
  { minQueuedMs = 0, maxQueuedMs = 0, createTakesMs = 0, minPages = 5, maxPages = 20, queuedQuarter = false } = {},
) {
  // Seeded: the waits' jitter (Math.random), and each job's T, page count and page durations, from two streams: from
  // one, a change in how many jittered waits a job takes (one poll per intervalMs, issue 34) re-drew every later
  // job, and the batch measured other jobs (p95 lateness 0.98 → 1.19 on seed 5; on the same jobs 0.92 → 0.91).
  const random = prng(seed);
  vi.spyOn(Math, 'random').mockImplementation(prng(seed ^ 0x5bd1e995));
  const runs = [];
  for (let i = 0; i < count; i++) {
    const T = Math.round(minMs + (maxMs - minMs) * random());
    const pages = minPages + Math.floor((maxPages - minPages + 1) * random());
    const drawn = Math.round(minQueuedMs + (maxQueuedMs - minQueuedMs) * random());
    const queuedMs = queuedQuarter ? Math.round(T / 4) : drawn;
    runs.push({ T, ...(await waitForJob(T, pages, seed * 1000 + i, queuedMs, createTakesMs)) });
  }
  expect(runs.every((r) => r.status === 'COMPLETED')).toBe(true);
  // Completion is only ever seen after it happened (the clock is exact: no machine delay to blur it).
  expect(Math.min(...runs.map((r) => r.latenessMs))).toBeGreaterThanOrEqual(0);
  return {
    meanRequests: runs.reduce((a, r) => a + r.requests, 0) / count,
    maxRequests: Math.max(...runs.map((r) => r.requests)),
    // Lateness over each job's own target, max(10 % of T, 1 s).
    latenessP95: p95(runs.map((r) => r.latenessMs / Math.max(0.1 * r.T, 1000))),
  };
}

describe('waiting on jobs that report progress from the start (default options, injected clock)', () => {
  // The earlier waits on the same jobs (bench/polling-model.mjs): 7.5 requests per job for T = 4–30 s, 6.8 for
  // T = 10 s, 8.9 for T = 30 s; before issue 35's bound at the first look and least wait, 6.9 / 6.7 / 7.9. Issue 22's
  // ≤ 6 on average holds for jobs of 20–100 pages; on 5–20 pages it would need a job first seen RUNNING to be counted
  // from its creation, which the cases of jobs queued until just before the first poll show to be unsafe
  // (docs/benchmarks.md). These jobs take 6.34 / 5.86 / 7.0 (exact: the clock is injected and the draws seeded).
  it('T from 4 to 30 s: ≤ 6.5 requests per job on average, p95 lateness within max(10 % of T, 1 s)', async () => {
    const { meanRequests, latenessP95 } = await batch(4, 200, 4000, 30_000);
    expect(meanRequests).toBeLessThanOrEqual(6.5);
    expect(latenessP95).toBeLessThanOrEqual(1);
  });

  it('T = 10 s: ≤ 6 requests per job on average, p95 lateness ≤ 1 s', async () => {
    // 6.4 before a job first seen RUNNING with pages done was looked at again after one interval (it may have
    // started just before that look: the last test but one shows what skipping that look costs); issue 35 gives
    // such a job two windows [create, first look] instead, and bounds the first look that sees no page done.
    const { meanRequests, latenessP95 } = await batch(10, 100, 10_000, 10_000);
    expect(meanRequests).toBeLessThanOrEqual(6);
    expect(latenessP95).toBeLessThanOrEqual(1);
  });

  it('T = 30 s: ≤ 7.1 requests per job on average (the 10 s cap alone needs 5), p95 lateness ≤ 3 s', async () => {
    // The create, a first look at ~1 s, then one look per 10 s at most: ≥ 5 requests for any client. A first
    // look that sees no page finished cannot tell a 30 s job from a 10 s one, so looks follow within seconds.
    const { meanRequests, latenessP95 } = await batch(30, 100, 30_000, 30_000);
    expect(meanRequests).toBeLessThanOrEqual(7.1);
    expect(latenessP95).toBeLessThanOrEqual(1);
  });

  it('jobs QUEUED until just before the first poll (0.4–0.95 s) are not taken for jobs that started at once', async () => {
    // Counting a job first seen RUNNING from its creation would read their first page as slow and plan the next
    // look seconds late: p95 lateness 6.8× the target for T = 4 s (bench/polling-model.mjs, last table).
    const short = await batch(6, 100, 4000, 4000, { minQueuedMs: 400, maxQueuedMs: 950 });
    expect(short.latenessP95).toBeLessThanOrEqual(1);
    const mixed = await batch(5, 200, 4000, 30_000, { minQueuedMs: 400, maxQueuedMs: 950 });
    expect(mixed.latenessP95).toBeLessThanOrEqual(1);
  });

  // Whole-site scan runs of 20–100 pages: their counts move from the first poll, as the issue describes these jobs.
  it('jobs of 20–100 pages, T from 4 to 30 s: ≤ 6 requests per job on average, p95 lateness within target', async () => {
    const { meanRequests, latenessP95 } = await batch(8, 200, 4000, 30_000, { minPages: 20, maxPages: 100 });
    expect(meanRequests).toBeLessThanOrEqual(6);
    expect(latenessP95).toBeLessThanOrEqual(1);
  });

  it('jobs of 20–100 pages QUEUED until just before the first poll, or for the first quarter: p95 lateness within target', async () => {
    // Pages already done at the first look that saw them RUNNING may have gone by in no time: counting them from
    // a guessed start read the job as several times slower than it is (p95 6.9× the target for T = 4 s before).
    const pages = { minPages: 20, maxPages: 100 };
    const short = await batch(9, 100, 4000, 4000, { minQueuedMs: 400, maxQueuedMs: 950, ...pages });
    expect(short.latenessP95).toBeLessThanOrEqual(1);
    const mixed = await batch(11, 200, 4000, 30_000, { minQueuedMs: 400, maxQueuedMs: 950, ...pages });
    expect(mixed.latenessP95).toBeLessThanOrEqual(1);
    const quarter = await batch(12, 200, 4000, 30_000, { queuedQuarter: true, ...pages });
    expect(quarter.latenessP95).toBeLessThanOrEqual(1);
  });

  it("a create that takes 3 s (rate budget, retries) does not count towards the job's age", async () => {
    const { meanRequests, latenessP95 } = await batch(7, 200, 4000, 30_000, { createTakesMs: 3000 });
    expect(latenessP95).toBeLessThanOrEqual(1);
    expect(meanRequests).toBeLessThanOrEqual(6.5);
  });
});
