import type { APIPromise } from '../core/api-promise.js';
import { ops } from '../core/operations.js';
import type { RequestOptions } from '../core/options.js';
import type { WaitOptions } from '../wait/polling.js';
import type { FixVerification, FixVerificationAccepted } from '../core/types.js';
import { startAndWait, waitForJob } from './jobs.js';
import { Resource } from './resource.js';

/** Tracked fixes (`client.fixes`). */
export class Fixes extends Resource {
  /** Queues a targeted re-check of a tracked remediation item (202). Scope `scans:write`. */
  startVerification(remediationItemId: string, options?: RequestOptions): APIPromise<FixVerificationAccepted> {
    return this.transport.request(ops.createFixVerification, { path: { id: remediationItemId } }, options);
  }

  /**
   * Queues a fix verification and waits for its terminal state.
   * @example const check = await client.fixes.verifyAndWait(fix.id); console.log(check.outcome);
   */
  verifyAndWait(remediationItemId: string, options?: WaitOptions<FixVerification>): APIPromise<FixVerification> {
    return startAndWait(
      this.transport,
      ops.createFixVerification,
      { path: { id: remediationItemId } },
      ops.getFixVerification,
      options,
    );
  }
}

/** Fix verifications (`client.fixVerifications`). */
export class FixVerifications extends Resource {
  /** A fix verification's status, outcome and pages. Scope `scans:read`. */
  get(id: string, options?: RequestOptions): APIPromise<FixVerification> {
    return this.transport.request(ops.getFixVerification, { path: { id } }, options);
  }

  /** Polls the fix verification until its status is terminal, and returns it. */
  waitForCompletion(id: string, options?: WaitOptions<FixVerification>): APIPromise<FixVerification> {
    return waitForJob(this.transport, ops.getFixVerification, id, options);
  }
}
