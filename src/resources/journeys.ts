import type { APIPromise } from '../core/api-promise.js';
import { ops } from '../core/operations.js';
import type { RequestOptions } from '../core/options.js';
import type { WaitOptions } from '../wait/polling.js';
import type { JourneyRun } from '../core/types.js';
import { startAndWait, waitForJob } from './jobs.js';
import { Resource } from './resource.js';

/** Saved journeys (`client.journeys`). Credentials come only from the site's saved auth profile. */
export class Journeys extends Resource {
  /** Queues a run of a saved journey (202, the queued run). Scope `scans:write`; plan feature `JOURNEYS`. */
  startRun(journeyId: string, options?: RequestOptions): APIPromise<JourneyRun> {
    return this.transport.request(ops.createJourneyRun, { path: { id: journeyId } }, options);
  }

  /**
   * Queues a run of a saved journey and waits for its terminal state.
   * @example const run = await client.journeys.runAndWait(journeyId);
   */
  runAndWait(journeyId: string, options?: WaitOptions<JourneyRun>): APIPromise<JourneyRun> {
    return startAndWait(this.transport, ops.createJourneyRun, { path: { id: journeyId } }, ops.getJourneyRun, options);
  }
}

/** Journey runs (`client.journeyRuns`). */
export class JourneyRuns extends Resource {
  /** A journey run's status and checkpoints. Scope `scans:read`. */
  get(id: string, options?: RequestOptions): APIPromise<JourneyRun> {
    return this.transport.request(ops.getJourneyRun, { path: { id } }, options);
  }

  /** Polls the journey run until its status is terminal, and returns it. */
  waitForCompletion(id: string, options?: WaitOptions<JourneyRun>): APIPromise<JourneyRun> {
    return waitForJob(this.transport, ops.getJourneyRun, id, options);
  }
}
