// Run counts of the fuzz properties: `FUZZ_RUNS` (npm run fuzz sets 100 000), else a default small enough
// that the whole reliability suite stays well under a minute inside `npm test` on a 2-core machine.
import type { Parameters as FcParameters } from 'fast-check';

const DEFAULT_RUNS = 1000;

const fromEnv = Number(process.env.FUZZ_RUNS);
/** Cases per property. */
export const FUZZ_RUNS = Number.isSafeInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_RUNS;

/** True when run by `npm run fuzz` (or any explicit FUZZ_RUNS). */
export const LONG_RUN = FUZZ_RUNS !== DEFAULT_RUNS;

/**
 * fast-check parameters: `runs` cases, a seed taken from `FUZZ_SEED` when given (to replay a failure),
 * and no time limit of fast-check's own (vitest's per-test timeout below is the bound).
 */
export function params<T>(runs = FUZZ_RUNS): FcParameters<T> {
  const seed = Number(process.env.FUZZ_SEED);
  return { numRuns: runs, ...(Number.isSafeInteger(seed) ? { seed } : {}) };
}

/** A vitest timeout for a property of `runs` cases costing at most `msPerCase` each (never below 60 s, the suite's hang guard). */
export function timeoutFor(msPerCase: number, runs = FUZZ_RUNS): number {
  return Math.max(60_000, Math.ceil(runs * msPerCase) + 10_000);
}

/** Prints the figures of one property (cases, failures, time) so a long run can be recorded. */
export function report(name: string, cases: number, ms: number, extra: Record<string, number> = {}): void {
  const more = Object.entries(extra)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  console.log(`[fuzz] ${name}: ${cases} cases, 0 failures, ${(ms / 1000).toFixed(1)} s${more ? ` (${more})` : ''}`);
}
