// The simulator's opt-in uneven pages (pageDurations): progress of every multi-page job kind moves unevenly,
// seeded; answers stay valid against openapi.yaml (through a validating Prism proxy); and the client, reading
// that progress, notices completion of a multi-page job in time with few requests.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { A11yClient } from '../../src/index.js';
import { readProgress } from '../../src/wait/progress.js';
import { type Simulator, type SimulatorOptions, startSimulator } from '../../src/testing/index.js';
import { throughProxy } from '../support/upstream-router.js';

const shop = 'https://shop.example.com';
const T = 1000;
// Time is the test's: a job's progress is read at every 25 ms of its life without waiting for it.
const STEP = 25;
let now = Date.UTC(2026, 0, 5, 9);
const clock = () => now;
const options = (pageDurations?: SimulatorOptions['pageDurations']): SimulatorOptions => ({
  clock,
  rateLimit: false,
  durations: { ciCheck: T, scanRun: T, fixVerification: T },
  ...(pageDurations ? { pageDurations } : {}),
});

const sims: Simulator[] = [];
beforeAll(async () => {
  // Seed 3 twice, seed 4, even pages, and seed 3 again behind the run's validating Prism proxy.
  sims.push(
    ...(await Promise.all(
      [options({ seed: 3 }), options({ seed: 3 }), options({ seed: 4 }), options(), options({ seed: 3 })].map((o) =>
        startSimulator(o),
      ),
    )),
  );
}, 60_000);
afterAll(async () => {
  await Promise.all(sims.map((s) => s.stop()));
});

interface Traced {
  /** Pages done at each STEP ms of the job's life (0…T). */
  done: number[];
  total: number;
  statuses: string[];
}

/** A fetch noting when each request was sent, and every Prism violation (or 5xx) in the answers. */
function recordingFetchFor() {
  const sent: number[] = [];
  const answered: number[] = [];
  const violations: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    sent.push(performance.now());
    const response = await globalThis.fetch(input, init);
    answered.push(performance.now());
    const violation = response.headers.get('sl-violations');
    if (violation !== null || response.status >= 500) violations.push(`${response.status} ${violation}`);
    return response;
  };
  return { fetch, sent, answered, violations };
}

type Kind = 'ci' | 'run' | 'fix';

/**
 * Creates one job of each multi-page kind at `now` (always in the same order: the pages of the n-th job
 * created derive from the seed and n), then reads those of `kinds` every STEP ms of their life.
 */
async function trace(
  baseUrl: string,
  sim: Simulator,
  kinds: Kind[],
): Promise<Record<Kind, Traced> & { violations: string[] }> {
  const { fetch, violations } = recordingFetchFor();
  const client = new A11yClient({ apiKey: sim.keys.full, baseUrl, fetch, maxRetries: 0, validateResponses: true });
  const start = now;
  const ci = await client.ciChecks.create({ urls: Array.from({ length: 10 }, (_, i) => `${shop}/page-${i}`) });
  const run = await client.scanRuns.create({ siteId: sim.ids.verifiedSite });
  const fix = await client.fixes.startVerification(sim.ids.fix);
  const read = {
    ci: () => client.ciChecks.get(ci.id),
    run: () => client.scanRuns.get(run.id),
    fix: () => client.fixVerifications.get(fix.id),
  };
  const out = { ci: blank(), run: blank(), fix: blank() };
  for (let t = 0; t <= T; t += STEP) {
    now = start + t;
    for (const key of kinds) {
      const answer: { status: unknown } = await read[key]();
      const p = readProgress(answer);
      out[key].done.push(p?.done ?? 0);
      out[key].total = Math.max(out[key].total, p?.total ?? 0);
      out[key].statuses.push(answer.status as string);
    }
  }
  now = start + 10 * T; // every job of this simulator is over before the next trace
  return { ...out, violations };
}
const blank = (): Traced => ({ done: [], total: 0, statuses: [] });

/** The moments (ms into the job) each page finished, from a trace. */
const finishTimes = (t: Traced) => Array.from({ length: t.total }, (_, i) => t.done.findIndex((d) => d > i) * STEP);
const QUEUED_STEPS = 250 / STEP;

describe('pageDurations', () => {
  let seeded: Awaited<ReturnType<typeof trace>>;
  beforeAll(async () => {
    seeded = await trace(sims[0]!.url, sims[0]!, ['ci', 'run', 'fix']);
  }, 90_000);

  it('CI checks, scan runs and fix verifications finish their pages unevenly, all at the end at the latest', () => {
    for (const [kind, total] of [
      ['ci', 10],
      ['run', 8],
      ['fix', 2],
    ] as const) {
      const t = seeded[kind];
      expect(t.total).toBe(total);
      // QUEUED for the first quarter, RUNNING with moving progress, terminal at T with every page done.
      expect(t.statuses.slice(0, QUEUED_STEPS).every((s) => s === 'QUEUED')).toBe(true);
      expect(t.statuses.slice(QUEUED_STEPS, -1).every((s) => s === 'RUNNING')).toBe(true);
      expect(t.statuses.at(-1)).toMatch(/^(COMPLETED|FAILED)$/);
      expect(t.done.at(-1)).toBe(total);
      expect(t.done.slice(0, -1).every((d) => d < total)).toBe(true);
      expect(t.done.every((d, i) => i === 0 || d >= t.done[i - 1]!)).toBe(true);
    }
    // Uneven: evenly, pages would take 75 ms each (the RUNNING 750 ms over 10).
    const ends = finishTimes(seeded.ci);
    const durations = ends.map((e, i) => e - (i === 0 ? 250 : ends[i - 1]!));
    expect(Math.max(...durations) / Math.max(STEP, Math.min(...durations))).toBeGreaterThan(2);
    // Two pages: the first does not end at the middle of the RUNNING span (625 ms).
    expect(Math.abs(finishTimes(seeded.fix)[0]! - 625)).toBeGreaterThan(20);
  });

  it("answers stay valid against openapi.yaml (validating Prism proxy, and the SDK's response validation)", async () => {
    // Every kind QUEUED, RUNNING early and late, and terminal (Prism proxies slowly: a few moments only).
    const { fetch, violations } = recordingFetchFor();
    const client = new A11yClient({
      apiKey: sims[4]!.keys.full,
      baseUrl: inject('prismProxyUrl'),
      fetch: throughProxy(sims[4]!.url, fetch),
      maxRetries: 0,
      validateResponses: true,
    });
    const start = now;
    const ci = await client.ciChecks.create({ urls: Array.from({ length: 10 }, (_, i) => `${shop}/page-${i}`) });
    const run = await client.scanRuns.create({ siteId: sims[4]!.ids.verifiedSite });
    const fix = await client.fixes.startVerification(sims[4]!.ids.fix);
    const seen: string[] = [];
    for (const t of [0, 300, 700, 950, T]) {
      now = start + t;
      for (const answer of [
        await client.ciChecks.get(ci.id),
        await client.scanRuns.get(run.id),
        await client.fixVerifications.get(fix.id),
      ])
        seen.push(answer.status);
    }
    now = start + 10 * T;
    expect(seen.slice(0, 3)).toEqual(['QUEUED', 'QUEUED', 'QUEUED']);
    expect(seen.slice(3, 12).every((s) => s === 'RUNNING')).toBe(true);
    expect(seen.slice(12)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
    expect(violations).toEqual([]);
    expect(seeded.violations).toEqual([]); // the traces, validated by the SDK alone
  });

  it('is seeded: the same seed gives the same pages, another seed others; without the option, pages stay even', async () => {
    const same = await trace(sims[1]!.url, sims[1]!, ['ci', 'run']);
    const other = await trace(sims[2]!.url, sims[2]!, ['ci']);
    const even = await trace(sims[3]!.url, sims[3]!, ['ci', 'fix']);
    expect(same.ci.done).toEqual(seeded.ci.done);
    expect(same.run.done).toEqual(seeded.run.done);
    expect(other.ci.done).not.toEqual(seeded.ci.done);
    // Even (the default, unchanged): page i of n ends at 250 + 750·(i+1)/n ms, the last at T.
    expect(finishTimes(even.ci)).toEqual([325, 400, 475, 550, 625, 700, 775, 850, 925, 1000]);
    expect(finishTimes(even.fix)).toEqual([625, 1000]);
  });

  it('refuses a bad option before starting', async () => {
    await expect(startSimulator({ pageDurations: { spread: -1 } })).rejects.toThrow(RangeError);
    await expect(startSimulator({ pageDurations: { seed: Number.NaN } })).rejects.toThrow(RangeError);
  });
});

describe('createAndWait on a multi-page job with uneven pages (real time, scaled ÷20)', () => {
  it('notices completion within max(10 % of T, intervalMs) with few requests', async () => {
    // T = 1.5 s (a 30 s job ÷20), 12 pages; the defaults ÷20: 50 ms first interval, 500 ms cap.
    const duration = 1500;
    // The simulator's clock is read on this process's timeline (performance.now()), and every reading is kept: the
    // instant the simulator answered a request is its last reading while that request was in flight. Judged on
    // those instants, the aim below owes nothing to how late a busy machine delivers a request or its answer.
    const readings: number[] = [];
    const origin = Date.now() - performance.now();
    const clock = () => {
      const at = performance.now();
      readings.push(at);
      return origin + at;
    };
    const answeredAt = (from: number, to: number) => readings.filter((at) => at >= from && at <= to).at(-1)!;
    const sim = await startSimulator({
      durations: { ciCheck: duration },
      rateLimit: false,
      pageDurations: { seed: 11 },
      clock,
    });
    try {
      const one = async () => {
        const { fetch, sent, answered } = recordingFetchFor();
        // The wait each poll planned, from the debug log ("… at poll 3; next poll in 180 ms (planned from progress)").
        const planned = new Map<number, number>();
        const debug = (line: string) => {
          const match = /at poll (\d+); next poll in (\d+) ms/.exec(line);
          if (match) planned.set(Number(match[1]), Number(match[2]));
        };
        const logger = { debug, info: () => {}, warn: () => {}, error: () => {} };
        const client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url, fetch, logLevel: 'debug', logger });
        const check = await client.ciChecks.createAndWait(
          { urls: Array.from({ length: 12 }, (_, i) => `${shop}/p/${i}`) },
          { intervalMs: 50, maxIntervalMs: 500, timeoutMs: 10_000 },
        );
        // Where the look that found the job finished was aimed: the simulator's answer to the last poll that saw it
        // running (poll n is request n; the create is request 0) plus the wait planned from it. The job finished T
        // after the simulator created it (its answer to the create).
        const lastRunning = sent.length - 2;
        const aim = answeredAt(sent[lastRunning]!, answered[lastRunning]!) + (planned.get(lastRunning) ?? Number.NaN);
        const finished = answeredAt(sent[0]!, answered[0]!) + duration;
        return { status: check.status, lateness: aim - finished, requests: sent.length };
      };
      // One after another: each request's answer is then the only reading of the simulator's clock in its flight.
      const jobs = [await one(), await one(), await one()];
      expect(jobs.map((j) => j.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
      // Target max(150, 50) ms. The backoff alone (50 ms ×1.5, 500 ms cap) would look at ~1.09 s and then ~1.59 s:
      // ~90 ms late at best, up to 500 ms.
      for (const j of jobs) expect(j.lateness).toBeLessThanOrEqual(150);
      // The backoff's own count is 9 (create + 8 polls); the floor with this cap, 5–6.
      expect(jobs.reduce((a, j) => a + j.requests, 0) / jobs.length).toBeLessThanOrEqual(10);
    } finally {
      await sim.stop();
    }
  });
});
