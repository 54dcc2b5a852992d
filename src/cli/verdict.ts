// The one decision of whether a CI check lets a change through. It fails closed: PASS needs positive evidence
// for every part of it, a finding our threshold counts fails the gate even when the service says PASS, and
// anything that cannot be judged is UNKNOWN (exit 4) with the reasons in words. Every reporter shows this
// result; none decides on its own.
import type { CiCheck, FailOn } from '../index.js';
import { ExitCode } from './exit-codes.js';

/** What the gate says: PASS (exit 0), FAIL (exit 1) or UNKNOWN (exit 4: the check cannot be judged). */
export type GateOutcome = 'PASS' | 'FAIL' | 'UNKNOWN';

/** The gate's decision on one CI check. */
export interface GateVerdict {
  outcome: GateOutcome;
  /** The CLI's exit code for it: 0, 1 or 4. */
  exitCode: 0 | 1 | 4;
  /** Why, in words: what failed the check, what could not be judged, or what made it pass. Never empty. */
  reasons: string[];
}

/** What the decision reads. */
export interface GateInput {
  /** The check as last seen (already made safe to print: its strings go into the reasons). */
  check: CiCheck;
  /** How many findings break `failOn`. */
  failures: number;
  /** The threshold applied (`--fail-on`, else the check's, else the default). */
  failOn: FailOn;
  /** Set when the wait ended before the check did (a timeout, a pause past the deadline): the reason in words. */
  waitEnded?: string | undefined;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
// The page list in a reason stays short: the reports list every page.
const LISTED_PAGES = 3;

/**
 * Decides the gate: PASS only when the check is COMPLETED, the service's verdict is PASS, at least one page was
 * reported and every page is DONE, and no finding breaks `failOn`; FAIL when the check completed and a finding
 * breaks `failOn` or the service's verdict is FAIL (a known failure outranks what could not be judged); otherwise
 * UNKNOWN, with every reason.
 * @example decideVerdict({ check: { status: 'COMPLETED', verdict: 'PASS', pages: [] }, failures: 0, failOn: 'NEW_CRITICAL' }).outcome // 'UNKNOWN'
 */
export function decideVerdict({ check, failures, failOn, waitEnded }: GateInput): GateVerdict {
  const completed = check.status === 'COMPLETED' && waitEnded === undefined;
  const failed: string[] = [];
  if (completed && failures > 0) failed.push(`${plural(failures, 'finding')} ${failures === 1 ? 'breaks' : 'break'} the threshold ${failOn}`);
  if (completed && check.verdict === 'FAIL') failed.push("the service's verdict is FAIL");
  if (failed.length) return { outcome: 'FAIL', exitCode: ExitCode.VERDICT_FAIL, reasons: failed };

  const unknown: string[] = [];
  if (waitEnded !== undefined) unknown.push(waitEnded);
  else if (check.status !== 'COMPLETED') {
    unknown.push(`the check did not complete (status ${check.status ?? 'missing'})${check.failureReason ? `: ${check.failureReason}` : ''}`);
  } else {
    if (check.verdict === undefined) unknown.push('the service gave no verdict');
    else if (check.verdict !== 'PASS') unknown.push(`the service's verdict ${String(check.verdict)} is not one this version knows`);
    const pages = check.pages ?? [];
    const notDone = pages.filter((p) => p?.status !== 'DONE');
    if (pages.length === 0) unknown.push('the check lists no pages, so none is known to have been checked');
    else if (notDone.length) {
      const listed = notDone.slice(0, LISTED_PAGES).map((p) => `${p?.url ?? '(unknown page)'} (${p?.status ?? 'no status'})`);
      const more = notDone.length > LISTED_PAGES ? ` and ${notDone.length - LISTED_PAGES} more` : '';
      unknown.push(`${plural(notDone.length, 'page')} of ${pages.length} ${notDone.length === 1 ? 'was' : 'were'} not checked: ${listed.join(', ')}${more}`);
    }
  }
  if (unknown.length) return { outcome: 'UNKNOWN', exitCode: ExitCode.INCOMPLETE, reasons: unknown };
  return {
    outcome: 'PASS',
    exitCode: ExitCode.OK,
    reasons: [`the service's verdict is PASS, ${plural(check.pages!.length, 'page')} checked, and no finding breaks the threshold ${failOn}`],
  };
}
