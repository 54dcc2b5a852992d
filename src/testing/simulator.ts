// startSimulator(): options in, a listening simulator out. Wires the world, the server, the rate limiter
// and the webhook sender together, and owns their shutdown.
import { type JobKind, QUEUED_SHARE, phaseOf } from './jobs.js';
import { type SimulatorPageDurations, pageDurationSource } from './page-durations.js';
import { type SimulatorRateLimit, SlidingWindowLimiter } from './rate-limit.js';
import { scanRunView, seedScanRunHistory } from './scan-runs.js';
import { RequestCounter, listen } from './server.js';
import { SIM_KEYS, type SimulatorIds, type SimulatorKeys, seedOrganisation } from './state.js';
import { type SimulatorDelivery, type SimulatorWebhook, WebhookSender } from './webhooks.js';
import type { World } from './world.js';

/** Options of {@link startSimulator}. */
export interface SimulatorOptions {
  /**
   * TCP port on 127.0.0.1 (the simulator never binds another interface); 0 picks a free port.
   * @default 0
   */
  port?: number | undefined;
  /**
   * Seed of the findings and of the seeded ids: findings are a deterministic function of (seed, URL).
   * @default 1
   */
  seed?: number | undefined;
  /**
   * Time each job kind spends QUEUED + RUNNING, in ms (QUEUED for the first quarter, or `queuedShare`).
   * @default 400 for every kind
   * @example { ciCheck: 150, scanRun: 300 }
   */
  durations?: Partial<Record<JobKind, number>> | undefined;
  /**
   * Share of every job's duration (`durations`) spent QUEUED before it turns RUNNING, from 0 to 1 (less
   * than 1). 0 makes jobs RUNNING from creation, so a multi-page job's progress moves from its first poll,
   * as with a service that starts work at once; a job still takes its whole duration.
   * @default 0.25
   * @example { queuedShare: 0 }
   */
  queuedShare?: number | undefined;
  /**
   * Per-key request rate, or `false` for none.
   * @default { requestsPerMinute: 120, windowMs: 60000 }
   */
  rateLimit?: SimulatorRateLimit | false | undefined;
  /**
   * Receiver of signed `scan_run.completed` deliveries.
   * @default undefined (no deliveries)
   */
  webhook?: SimulatorWebhook | undefined;
  /**
   * Millisecond clock every state transition, timestamp and rate-limit window is computed from.
   * @default Date.now
   */
  clock?: (() => number) | undefined;
  /**
   * Send `Retry-After` (whole seconds until the job should finish) on 202 answers and on reads of a job
   * still QUEUED or RUNNING. The service's document shows no polling hint: this is off unless asked for,
   * to measure how a client uses one.
   * @default false
   */
  pollHints?: boolean | undefined;
  /**
   * Uneven pages: each page of a multi-page job (CI check, scan run, fix verification) takes a random,
   * seeded share of the job's RUNNING span, so `pages[].status`, `pagesDone` and `pagesScanned` move
   * unevenly over time. The job's duration (`durations`) and its QUEUED quarter stay as they are.
   * @default undefined (pages finish evenly)
   * @example { seed: 7, spread: 0.5 }
   */
  pageDurations?: SimulatorPageDurations | undefined;
  /**
   * Pages a scan run crawls, for long crawls whose `pagesDone` moves from the first poll: the site's seeded
   * paths first, then generated ones named by their place in the crawl (`/catalogue/8`, `/catalogue/9`, …
   * after the shop's 8); fewer keeps the first ones. A whole number from 1 to 1000, for every run (the seeded
   * history too). A site whose root is unreachable still crawls nothing.
   * @default the site's seeded paths (8 for the shop, 4 for the blog)
   * @example { crawlPages: 60, queuedShare: 0 }
   */
  crawlPages?: number | undefined;
  /**
   * Per-check timing of CI checks, for runs of many checks that do not all take as long nor wait as long: called
   * for each new CI check with its rank (0 for the first created) and its number of URLs, it returns the check's
   * duration (QUEUED + RUNNING, in ms) and the share of it spent QUEUED; what it leaves out keeps
   * `durations.ciCheck` and `queuedShare`. A duration must be a non-negative number of ms and a share a number from 0
   * to 1 (less than 1), else the create answers 500.
   * @default undefined (every check takes `durations.ciCheck`, QUEUED for `queuedShare` of it)
   * @example { ciCheckTiming: ({ rank }) => ({ durationMs: 20_000 + (rank % 5) * 10_000, queuedShare: rank % 4 === 0 ? 0.4 : 0.05 }) }
   */
  ciCheckTiming?: ((check: SimulatorCheckInfo) => SimulatorCheckTiming | undefined) | undefined;
}

/**
 * What {@link SimulatorOptions.ciCheckTiming} is told of a new CI check.
 * @example const slowFirst = ({ rank }: SimulatorCheckInfo) => ({ durationMs: rank === 0 ? 60_000 : 20_000 });
 */
export interface SimulatorCheckInfo {
  /** How many CI checks were created before this one. */
  rank: number;
  /** Its number of URLs. */
  urls: number;
}

/**
 * A CI check's timing, as {@link SimulatorOptions.ciCheckTiming} gives it.
 * @example const timing: SimulatorCheckTiming = { durationMs: 40_000, queuedShare: 0.35 };
 */
export interface SimulatorCheckTiming {
  /** Time spent QUEUED + RUNNING, in ms. */
  durationMs?: number | undefined;
  /** Share of `durationMs` spent QUEUED, from 0 to 1 (less than 1). */
  queuedShare?: number | undefined;
}

/** A running simulator. */
export interface Simulator {
  /** `http://127.0.0.1:PORT`: the service's `{base_url}` (paths add `/api/v1`). */
  readonly url: string;
  /** API keys of the seeded organisation. */
  readonly keys: SimulatorKeys;
  /** Ids of the seeded resources. */
  readonly ids: SimulatorIds;
  /**
   * Requests received (every request, answered or refused); with `key`, those that carried that bearer key.
   * @example sim.requestCount(sim.keys.full) // 7
   */
  requestCount(key?: string): number;
  /** Every webhook delivery attempt so far, in order (a live, read-only view). */
  readonly deliveries: ReadonlyArray<SimulatorDelivery>;
  /** Closes the server, its connections, and every timer and delivery in flight. */
  stop(): Promise<void>;
}

const DEFAULT_DURATION_MS = 400;
const KINDS: JobKind[] = ['scan', 'scanRun', 'ciCheck', 'journeyRun', 'fixVerification'];

/**
 * Starts a stateful in-memory implementation of the Developer API v1 on a loopback port (Node only).
 *
 * Seeded organisation: `sim.ids` (sites, journeys, tracked fixes, a completed scan run) and `sim.keys`
 * (`full`, `noCi` without `ci:check`, `freePlan` without `TREND_HISTORY` and with a 5-URL CI cap).
 * Every job is created QUEUED, turns RUNNING after a quarter of its duration (`queuedShare`), and is
 * terminal after it.
 *
 * Findings are a deterministic function of (seed, URL). URL conventions steer outcomes:
 * - a path containing `/unreachable`, `/timeout` or `/error`: page status `UNREACHABLE`, `TIMEOUT` or `ERROR`
 *   (a scan of it ends FAILED; a CI check whose every page is such ends FAILED);
 * - a path containing `/clean`: no findings;
 * - query `?regress=N` (N ≤ 50): N extra critical `image-alt` findings; the parameter is not part of the
 *   fingerprint, so a CI check of `…?regress=1` against a baseline of `…` shows exactly N new findings;
 * - query `?flaky=N` (N ≤ 50): the page is `UNREACHABLE` in the first N CI checks that hold it (counted per page
 *   in this simulator), then checked as usual; the parameter is not part of the fingerprint either.
 *
 * @param options - see {@link SimulatorOptions}
 * @default options {}
 * @example
 * ```ts
 * import { startSimulator } from '@svc/a11y-sdk/testing';
 * import { A11yClient } from '@svc/a11y-sdk';
 * const sim = await startSimulator({ durations: { ciCheck: 150 } });
 * const client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url });
 * const check = await client.ciChecks.createAndWait({ urls: ['https://shop.example.com/?regress=1'] }, { intervalMs: 20 });
 * await sim.stop();
 * ```
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const clock = options.clock ?? Date.now;
  const seed = options.seed ?? 1;
  const durations = Object.fromEntries(
    KINDS.map((kind) => {
      const ms = options.durations?.[kind] ?? DEFAULT_DURATION_MS;
      if (!Number.isFinite(ms) || ms < 0)
        throw new RangeError(`durations.${kind} must be a non-negative number of ms, got ${ms}.`);
      return [kind, ms];
    }),
  ) as Record<JobKind, number>;
  const queuedShare = options.queuedShare ?? QUEUED_SHARE;
  if (!(queuedShare >= 0 && queuedShare < 1))
    throw new RangeError(`queuedShare must be a number from 0 to 1 (less than 1), got ${queuedShare}.`);
  const pageDurations = pageDurationSource(options.pageDurations, seed);
  const crawlPages = options.crawlPages;
  if (crawlPages !== undefined && !(Number.isSafeInteger(crawlPages) && crawlPages >= 1 && crawlPages <= 1000))
    throw new RangeError(`crawlPages must be a whole number from 1 to 1000, got ${crawlPages}.`);
  const now = clock();
  const { org, ids: orgIds } = seedOrganisation(seed, now);
  const sender = new WebhookSender(options.webhook, clock);
  const world: World = {
    seed,
    clock,
    durations,
    queuedShare,
    org,
    baseUrl: '',
    pollHints: options.pollHints ?? false,
    pageDurations,
    crawlPages,
    ciCheckTiming: options.ciCheckTiming,
    scans: new Map(),
    scanRuns: new Map(),
    ciChecks: new Map(),
    journeyRuns: new Map(),
    fixVerifications: new Map(),
    attempts: new Map(),
    scanRunObserved: (run, created) => {
      if (!sender.enabled || run.delivered) return;
      const phase = phaseOf(run, clock());
      if (phase.stage === 'DONE') {
        run.delivered = true;
        sender.send('scan_run.completed', {
          type: 'scan_run.completed',
          createdAt: new Date(clock()).toISOString(),
          scanRun: scanRunView(run, clock()),
        });
        return;
      }
      // Deliver without waiting for a poll: re-check when the run should be done (and again, at most every
      // 25 ms, while an injected clock lags behind real time).
      if (created || phase.finishedAt > clock())
        sender.schedule(Math.max(25, phase.finishedAt - clock() + 1), () => world.scanRunObserved(run, false));
    },
  };
  const verified = org.sites.find((s) => s.id === orgIds.verifiedSite)!;
  const ids: SimulatorIds = Object.freeze({ ...orgIds, lastScanRun: seedScanRunHistory(world, verified, now) });
  const rate = options.rateLimit === undefined ? { requestsPerMinute: 120, windowMs: 60_000 } : options.rateLimit;
  const limiter = rate === false ? undefined : new SlidingWindowLimiter(rate);
  const counter = new RequestCounter();
  const server = await listen(world, limiter, counter, options.port ?? 0);
  let stopping: Promise<void> | undefined;
  return {
    url: world.baseUrl,
    keys: SIM_KEYS,
    ids,
    deliveries: sender.deliveries,
    requestCount: (key) => (key === undefined ? counter.total : (counter.byKey.get(key) ?? 0)),
    stop: () =>
      (stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await sender.stop();
        await closed;
      })()),
  };
}
