import type { APIPromise } from '../core/api-promise.js';
import { ops } from '../core/operations.js';
import type { RequestOptions } from '../core/options.js';
import type { WaitOptions } from '../wait/polling.js';
import type { CreateScanRequest, Scan, ScanAccepted, Violation } from '../core/types.js';
import { startAndWait, waitForJob } from './jobs.js';
import { Resource } from './resource.js';

/** Single-page scans (`client.scans`). */
export class Scans extends Resource {
  /** Queues a scan of one page of a registered site (202). Scope `scans:write`. */
  create(body: CreateScanRequest, options?: RequestOptions): APIPromise<ScanAccepted> {
    return this.transport.request(ops.createScan, { body }, options);
  }

  /** A scan's status and counters. Scope `scans:read`. */
  get(id: string, options?: RequestOptions): APIPromise<Scan> {
    return this.transport.request(ops.getScan, { path: { id } }, options);
  }

  /** A terminal scan's findings. Scope `scans:read`. */
  listViolations(id: string, options?: RequestOptions): APIPromise<Violation[]> {
    return this.transport.request(ops.listScanViolations, { path: { id } }, options);
  }

  /** Polls the scan until its status is terminal, and returns it. */
  waitForCompletion(id: string, options?: WaitOptions<Scan>): APIPromise<Scan> {
    return waitForJob(this.transport, ops.getScan, id, options);
  }

  /**
   * Queues a scan and waits for its terminal state.
   * @example const scan = await client.scans.createAndWait({ url: 'https://shop.example.com/' });
   */
  createAndWait(body: CreateScanRequest, options?: WaitOptions<Scan>): APIPromise<Scan> {
    return startAndWait(this.transport, ops.createScan, { body }, ops.getScan, options);
  }
}
