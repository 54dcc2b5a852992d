// The simulator's whole state and the shapes handlers work with. One World per simulator instance.
import { type JobKind, type JobTiming, phaseOf } from './jobs.js';
import type { CiCheckJob, FixVerificationJob, JourneyRunJob, ScanJob, ScanRunJob } from './records.js';
import type { PageDurationSource } from './page-durations.js';
import type { KeyInfo, Organisation } from './state.js';

/** Everything one simulator instance knows. */
export interface World {
  seed: number;
  clock: () => number;
  /** `http://127.0.0.1:PORT`, set once the server listens. */
  baseUrl: string;
  durations: Record<JobKind, number>;
  /** Share of every new job's duration spent QUEUED. */
  queuedShare: number;
  /** Send `Retry-After` (whole seconds until the job should finish) on 202s and non-terminal job reads. */
  pollHints: boolean;
  /** Uneven pages of multi-page jobs (undefined: pages finish evenly). */
  pageDurations?: PageDurationSource | undefined;
  /** Pages a scan run of a reachable site crawls (undefined: its seeded paths). */
  crawlPages?: number | undefined;
  /** Per-check timing of CI checks (`SimulatorOptions.ciCheckTiming`). */
  ciCheckTiming?:
    | ((check: {
        rank: number;
        urls: number;
      }) => { durationMs?: number | undefined; queuedShare?: number | undefined } | undefined)
    | undefined;
  org: Organisation;
  scans: Map<string, ScanJob>;
  scanRuns: Map<string, ScanRunJob>;
  ciChecks: Map<string, CiCheckJob>;
  journeyRuns: Map<string, JourneyRunJob>;
  fixVerifications: Map<string, FixVerificationJob>;
  /** How many CI checks each `?flaky=N` page was in so far (by its fingerprint URL), and runs of each journey. */
  attempts: Map<string, number>;
  /** Called when a scan run is created, and whenever one is read (webhook deliveries hang off it). */
  scanRunObserved: (run: ScanRunJob, created: boolean) => void;
}

/** What a route handler receives. */
export interface Ctx {
  world: World;
  /** The clock's time when the request arrived. */
  now: number;
  key: KeyInfo;
  /** The path's `{id}`, when the route has one. */
  id: string;
  query: URLSearchParams;
  /** The parsed JSON body (undefined when there was none). */
  body: unknown;
}

/** What a route handler returns (problems are thrown as SimProblem). */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A 202 answer naming the resource to poll (with a poll hint when the world sends them). */
export function accepted(location: string, body: unknown, world?: World, job?: JobTiming): Reply {
  return { status: 202, body, headers: { Location: location, ...pollHint(world, job, job?.createdAt ?? 0) } };
}

/** A 200 answer; about a job still QUEUED or RUNNING it carries a poll hint when the world sends them. */
export function ok(body: unknown, world?: World, job?: JobTiming, now = 0): Reply {
  const hint = pollHint(world, job, now);
  return hint ? { status: 200, body, headers: hint } : { status: 200, body };
}

// The service's document shows no polling hint; this is an opt-in simulator option (`pollHints`) for
// measuring how a client uses one. Retry-After is whole seconds (RFC 9110 §10.2.3), rounded up.
function pollHint(
  world: World | undefined,
  job: JobTiming | undefined,
  now: number,
): Record<string, string> | undefined {
  if (!world?.pollHints || !job) return undefined;
  const phase = phaseOf(job, now);
  if (phase.stage === 'DONE') return undefined;
  return { 'Retry-After': String(Math.max(1, Math.ceil((phase.finishedAt - now) / 1000))) };
}
