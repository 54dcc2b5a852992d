// The waits of check_pages, scan_page and verify_fix: the SDK's own (`createAndWait`, `verifyAndWait`), bounded by
// the input's `timeoutMs`, aborted by the client's cancellation, and reporting progress as the job moves.
import type { WaitOptions } from '../../index.js';
import { TIMEOUT_BOUNDS } from './input.js';
import type { ToolContext } from './tool.js';

/** How far a job is: done of total (pages, or the job itself), and a few words. */
export interface JobProgress {
  done: number;
  total: number | undefined;
  message: string;
}

/**
 * The SDK wait options of one tool call: its deadline (`timeoutMs`, default 600000), the call's signal, and a
 * progress report after each poll (`progressOf` of the polled job).
 * @example client.scans.createAndWait({ url }, waitFor(ctx, input.timeoutMs, (scan) => ({ done: 0, total: 1, message: scan.status })))
 */
export function waitFor<T>(
  ctx: ToolContext,
  timeoutMs: number | undefined,
  progressOf: (job: T) => JobProgress,
): WaitOptions<T> {
  return {
    timeoutMs: timeoutMs ?? TIMEOUT_BOUNDS.maximum,
    signal: ctx.signal,
    onProgress: (job) => {
      ctx.working((job as { id?: string }).id);
      const { done, total, message } = progressOf(job);
      ctx.progress(done, total, message);
    },
  };
}

/** True for the statuses the document calls results: anything but QUEUED and RUNNING (§3). */
export function isDone(status: string | undefined): boolean {
  return status !== undefined && status !== 'QUEUED' && status !== 'RUNNING';
}
