// The simulator's stored job records: types only, so the world (world.ts) and the handlers that create and read
// the records (ci.ts, scans.ts, …) depend on this file rather than on each other.
import type { PageResult } from './findings.js';
import type { JobTiming } from './jobs.js';
import type { FixRecord } from './state.js';

/** Minimum impact that makes a check fail. */
export type FailOn = 'NEW_CRITICAL' | 'ANY_CRITICAL' | 'SERIOUS_OR_WORSE' | 'NONE';

/** A stored CI check. */
export interface CiCheckJob extends JobTiming {
  siteId: string;
  failOn: FailOn;
  setBaseline: boolean;
  pages: PageResult[];
  /** The site's saved baseline when this check was created. */
  baselineId: string | undefined;
}

/** A stored fix verification. */
export interface FixVerificationJob extends JobTiming {
  fix: FixRecord;
  pages: PageResult[];
}

/** A stored journey run. */
export interface JourneyRunJob extends JobTiming {
  journeyId: string;
  siteId: string;
  checkpoints: Array<{ label: string; url: string; scanId: string }>;
  /** Index of the failing step, for a broken journey. */
  failedStepIndex?: number;
  failedStepLabel?: string;
}

/** A stored single-page scan. */
export interface ScanJob extends JobTiming {
  siteId: string;
  page: PageResult;
  /** Created by a journey run (a checkpoint): never blocks a scan requested through the API. */
  fromJourney: boolean;
}

/** A stored scan run. */
export interface ScanRunJob extends JobTiming {
  siteId: string;
  /** Every crawled page's result, in crawl order (empty when the root is unreachable). */
  pages: PageResult[];
  rootUnreachable: boolean;
  /** A `scan_run.completed` delivery was started (or is not wanted: seeded history). */
  delivered: boolean;
}
