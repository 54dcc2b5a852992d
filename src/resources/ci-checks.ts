import type { APIPromise } from '../core/api-promise.js';
import { ops } from '../core/operations.js';
import type { RequestOptions } from '../core/options.js';
import type { WaitOptions } from '../wait/polling.js';
import type { CiCheck, CiCheckAccepted, CiViolation, CreateCiCheckRequest } from '../core/types.js';
import { startAndWait, waitForJob } from './jobs.js';
import { Resource } from './resource.js';

/** CI checks with a pass/fail verdict against a baseline (`client.ciChecks`). */
export class CiChecks extends Resource {
  /** Queues a check of 1–20 URLs of one verified site (202). Scope `ci:check`. */
  create(body: CreateCiCheckRequest, options?: RequestOptions): APIPromise<CiCheckAccepted> {
    return this.transport.request(ops.createCiCheck, { body }, options);
  }

  /** A check's progress, baseline delta and verdict. Scope `ci:check`. */
  get(id: string, options?: RequestOptions): APIPromise<CiCheck> {
    return this.transport.request(ops.getCiCheck, { path: { id } }, options);
  }

  /** A terminal check's findings, with fingerprints and `isNew`. Scope `ci:check`. */
  listViolations(id: string, options?: RequestOptions): APIPromise<CiViolation[]> {
    return this.transport.request(ops.listCiCheckViolations, { path: { id } }, options);
  }

  /** Polls the check until its status is terminal, and returns it. */
  waitForCompletion(id: string, options?: WaitOptions<CiCheck>): APIPromise<CiCheck> {
    return waitForJob(this.transport, ops.getCiCheck, id, options);
  }

  /**
   * Queues a check and waits for its verdict.
   * @example
   * ```ts
   * const check = await client.ciChecks.createAndWait({ urls: ['https://shop.example.com/'], failOn: 'NEW_CRITICAL' });
   * if (check.verdict === 'FAIL') process.exitCode = 1;
   * ```
   */
  createAndWait(body: CreateCiCheckRequest, options?: WaitOptions<CiCheck>): APIPromise<CiCheck> {
    return startAndWait(this.transport, ops.createCiCheck, { body }, ops.getCiCheck, options);
  }
}
