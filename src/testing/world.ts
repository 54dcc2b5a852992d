// The simulator's whole state and the shapes handlers work with. One World per simulator instance.
import type { CiCheckJob } from './ci.js';
import type { FixVerificationJob } from './fixes.js';
import type { JobKind } from './jobs.js';
import type { JourneyRunJob } from './journeys.js';
import type { ScanRunJob } from './scan-runs.js';
import type { ScanJob } from './scans.js';
import type { KeyInfo, Organisation } from './state.js';

/** Everything one simulator instance knows. */
export interface World {
  seed: number;
  clock: () => number;
  /** `http://127.0.0.1:PORT`, set once the server listens. */
  baseUrl: string;
  durations: Record<JobKind, number>;
  org: Organisation;
  scans: Map<string, ScanJob>;
  scanRuns: Map<string, ScanRunJob>;
  ciChecks: Map<string, CiCheckJob>;
  journeyRuns: Map<string, JourneyRunJob>;
  fixVerifications: Map<string, FixVerificationJob>;
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

/** A 202 answer naming the resource to poll. */
export function accepted(location: string, body: unknown): Reply {
  return { status: 202, body, headers: { Location: location } };
}

/** A 200 answer. */
export function ok(body: unknown): Reply {
  return { status: 200, body };
}
