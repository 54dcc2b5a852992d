// The waits of check_pages, scan_page and verify_fix: the SDK's own (`createAndWait`, `verifyAndWait`), bounded by
// the input's `timeoutMs`, aborted by the client's cancellation, and reporting progress as the job moves.
import { isTerminalStatus, type WaitOptions } from '../../index.js';
import { TIMEOUT_BOUNDS } from './input.js';
import type { ToolContext } from './tool.js';

/** How much sooner than the call's bound the SDK's wait ends. */
const WAIT_MARGIN_MS = 500;

/** How far a job is: done of total (pages, or the job itself), and a few words. */
export interface ProgressReport {
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
  progressOf: (job: T) => ProgressReport,
): WaitOptions<T> {
  const bound = timeoutMs ?? TIMEOUT_BOUNDS.maximum;
  return {
    // A little inside the call's own bound (the server answers at the bound whatever is in flight): a wait that runs
    // out by itself says what it last saw of the job, which the server's bound cannot know.
    timeoutMs: bound - Math.min(WAIT_MARGIN_MS, bound / 10),
    signal: ctx.signal,
    onProgress: (job) => {
      ctx.working((job as { id?: string }).id);
      const { done, total, message } = progressOf(job);
      ctx.progress(done, total, message);
    },
  };
}

/**
 * True for the statuses the document calls results (the SDK's `isTerminalStatus`); false for none at all.
 * @example isDone('COMPLETED') // true
 */
export function isDone(status: string | undefined): boolean {
  return status !== undefined && isTerminalStatus(status);
}
