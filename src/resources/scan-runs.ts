import type { APIPromise } from '../core/api-promise.js';
import { ops } from '../core/operations.js';
import type { RequestOptions } from '../core/options.js';
import type { WaitOptions } from '../wait/polling.js';
import type { CreateScanRunRequest, RootCauses, ScanAccepted, ScanRun, Violation } from '../core/types.js';
import { startAndWait, waitForJob } from './jobs.js';
import { Resource } from './resource.js';

/** Full-site scan runs (`client.scanRuns`). */
export class ScanRuns extends Resource {
  /** Queues a crawl of a site (202). Scope `scans:write`. */
  create(body: CreateScanRunRequest, options?: RequestOptions): APIPromise<ScanAccepted> {
    return this.transport.request(ops.createScanRun, { body }, options);
  }

  /** A run's status, progress (`pagesDone`/`pagesTotal`) and counters. Scope `scans:read`. */
  get(id: string, options?: RequestOptions): APIPromise<ScanRun> {
    return this.transport.request(ops.getScanRun, { path: { id } }, options);
  }

  /** A terminal run's findings, deduplicated by rule. Scope `scans:read`. */
  listViolations(id: string, options?: RequestOptions): APIPromise<Violation[]> {
    return this.transport.request(ops.listScanRunViolations, { path: { id } }, options);
  }

  /** A run's deterministic root-cause groups. Scope `scans:read`. */
  getRootCauses(id: string, options?: RequestOptions): APIPromise<RootCauses> {
    return this.transport.request(ops.getScanRunRootCauses, { path: { id } }, options);
  }

  /** Polls the run until its status is terminal, and returns it. */
  waitForCompletion(id: string, options?: WaitOptions<ScanRun>): APIPromise<ScanRun> {
    return waitForJob(this.transport, ops.getScanRun, id, options);
  }

  /**
   * Queues a run and waits for its terminal state.
   * @example const run = await client.scanRuns.createAndWait({ siteId }, { onProgress: (r) => console.log(r.pagesDone) });
   */
  createAndWait(body: CreateScanRunRequest, options?: WaitOptions<ScanRun>): APIPromise<ScanRun> {
    return startAndWait(this.transport, ops.createScanRun, { body }, ops.getScanRun, options);
  }
}
