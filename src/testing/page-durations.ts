// Opt-in uneven pages (`SimulatorOptions.pageDurations`): each page of a multi-page job (CI check, scan run,
// fix verification) takes a random share of the job's RUNNING span, so its progress moves unevenly, as a
// real crawl's does. Seeded: the same seed and the same order of job creation give the same pages.
// (Single-page jobs, journeys and their checkpoints are not affected.)
import { hash32, prng } from './random.js';

/** Options of `SimulatorOptions.pageDurations`. */
export interface SimulatorPageDurations {
  /**
   * Seed of the page durations; a job's pages derive from it and the job's rank among the multi-page jobs
   * created so far.
   * @default the simulator's `seed`
   */
  seed?: number;
  /**
   * How much page durations vary: the standard deviation of their logarithm (log-normal). 0 makes every
   * page equal; 0.5 puts most pages within ×0.4–×2.7 of the median page; 1 is very uneven.
   * @default 0.5
   */
  spread?: number;
}

/** The validated option, with the count of jobs drawn so far. */
export interface PageDurationSource {
  readonly seed: number;
  readonly spread: number;
  drawn: number;
}

const DEFAULT_SPREAD = 0.5;

/** Validates `SimulatorOptions.pageDurations` (undefined: pages finish evenly, the default). */
export function pageDurationSource(
  options: SimulatorPageDurations | undefined,
  simulatorSeed: number,
): PageDurationSource | undefined {
  if (options === undefined) return undefined;
  const seed = options.seed ?? simulatorSeed;
  const spread = options.spread ?? DEFAULT_SPREAD;
  if (!Number.isFinite(seed)) throw new RangeError(`pageDurations.seed must be a finite number, got ${seed}.`);
  if (!Number.isFinite(spread) || spread < 0 || spread > 3)
    throw new RangeError(`pageDurations.spread must be a number from 0 to 3, got ${spread}.`);
  return { seed, spread, drawn: 0 };
}

/**
 * When each of a new job's `count` pages finishes, as shares of its RUNNING span (ascending; the last is 1),
 * or undefined (pages finish evenly) without the option or for a single page.
 * @example drawPageEnds({ seed: 1, spread: 0.5, drawn: 0 }, 4) // e.g. [0.18, 0.31, 0.77, 1]
 */
export function drawPageEnds(source: PageDurationSource | undefined, count: number): number[] | undefined {
  if (!source || count < 2) return undefined;
  const next = prng(hash32(`${source.seed}|pages|${source.drawn++}`));
  // Log-normal durations (Box–Muller for the normal deviate).
  const durations = Array.from({ length: count }, () =>
    Math.exp(source.spread * Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next())),
  );
  const sum = durations.reduce((a, b) => a + b, 0);
  let elapsed = 0;
  const ends = durations.map((d) => {
    elapsed += d;
    return elapsed / sum;
  });
  ends[count - 1] = 1;
  return ends;
}
