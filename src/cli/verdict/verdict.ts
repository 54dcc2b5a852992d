// The one decision of whether a CI check lets a change through. It fails closed: PASS needs positive evidence
// for every part of it, a finding our threshold counts fails the gate even when the service says PASS, and
// anything that cannot be judged is UNKNOWN (exit 4) with the reasons in words. Every reporter shows this
// result; none decides on its own.
import type { CiCheck, FailOn } from '../../index.js';
import { ExitCode } from '../exit-codes.js';
import type { PageMismatch } from './page-match.js';
import { plural } from './fields.js';

/** What the gate says: PASS (exit 0), FAIL (exit 1) or UNKNOWN (exit 4: the check cannot be judged). */
type GateOutcome = 'PASS' | 'FAIL' | 'UNKNOWN';

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
  /**
   * True when suppressions or per-URL thresholds were applied and findings account for the service's FAIL (one
   * breaks the service's own threshold): the gate then judges from `failures` alone. A FAIL nothing accounts for
   * still fails the gate.
   * @default false
   */
  serviceFailExplained?: boolean | undefined;
  /**
   * How the pages the check reported differ from the URLs it was created with (`comparePages`, its URLs made safe
   * to print). When any list is non-empty the check cannot be judged: a service that drops, repeats or adds a page
   * cannot pass. Undefined when the URLs asked for are not known (then only the pages reported are judged).
   */
  mismatch?: PageMismatch | undefined;
}

// The page list in a reason stays short: the reports list every page.
const LISTED_PAGES = 3;
// Pages missing, repeated or not asked for are listed nowhere else, so their reasons name them all, up to a
// check's size (a hostile answer may add thousands).
const LISTED_MISMATCHES = 20;

const listed = (urls: readonly string[], max: number): string =>
  urls.slice(0, max).join(', ') + (urls.length > max ? ` and ${urls.length - max} more` : '');

/**
 * Decides the gate: PASS only when the check is COMPLETED, the service's verdict is PASS, at least one page was
 * reported and every page is DONE, the pages reported are the pages asked for (when known: each once, no
 * other, see `mismatch`), and no finding breaks `failOn`; FAIL when the check completed and a finding
 * breaks `failOn` or the service's verdict is FAIL (a known failure outranks what could not be judged); otherwise
 * UNKNOWN, with every reason.
 * @example decideVerdict({ check: { status: 'COMPLETED', verdict: 'PASS', pages: [] }, failures: 0, failOn: 'NEW_CRITICAL' }).outcome // 'UNKNOWN'
 */
export function decideVerdict({
  check,
  failures,
  failOn,
  waitEnded,
  serviceFailExplained = false,
  mismatch,
}: GateInput): GateVerdict {
  const completed = check.status === 'COMPLETED' && waitEnded === undefined;
  const failed: string[] = [];
  if (completed && failures > 0)
    failed.push(`${plural(failures, 'finding')} ${failures === 1 ? 'breaks' : 'break'} the threshold ${failOn}`);
  if (completed && check.verdict === 'FAIL' && !serviceFailExplained) failed.push("the service's verdict is FAIL");
  if (failed.length) return { outcome: 'FAIL', exitCode: ExitCode.VERDICT_FAIL, reasons: failed };

  const unknown: string[] = [];
  if (waitEnded !== undefined) unknown.push(waitEnded);
  else if (check.status !== 'COMPLETED') {
    unknown.push(
      `the check did not complete (status ${check.status ?? 'missing'})${check.failureReason ? `: ${check.failureReason}` : ''}`,
    );
  } else {
    if (check.verdict === undefined) unknown.push('the service gave no verdict');
    else if (check.verdict !== 'PASS' && !(check.verdict === 'FAIL' && serviceFailExplained))
      unknown.push(`the service's verdict ${String(check.verdict)} is not one this version knows`);
    const pages = check.pages ?? [];
    const notDone = pages.filter((p) => p?.status !== 'DONE');
    if (pages.length === 0) unknown.push('the check lists no pages, so none is known to have been checked');
    else if (notDone.length) {
      const names = notDone.map((p) => `${p?.url ?? '(unknown page)'} (${p?.status ?? 'no status'})`);
      unknown.push(
        `${plural(notDone.length, 'page')} of ${pages.length} ${notDone.length === 1 ? 'was' : 'were'} not checked: ${listed(names, LISTED_PAGES)}`,
      );
    }
    if (mismatch !== undefined) {
      const { missing, repeated, unasked } = mismatch;
      if (missing.length)
        unknown.push(
          `${plural(missing.length, 'page')} asked for ${missing.length === 1 ? 'is' : 'are'} missing from the check's answer: ${listed(missing, LISTED_MISMATCHES)}`,
        );
      if (repeated.length)
        unknown.push(
          `${plural(repeated.length, 'page')} ${repeated.length === 1 ? 'is' : 'are'} reported more than once: ${listed(repeated, LISTED_MISMATCHES)}`,
        );
      if (unasked.length)
        unknown.push(
          `the check reports ${plural(unasked.length, 'page')} it was not asked for: ${listed(unasked, LISTED_MISMATCHES)}`,
        );
    }
  }
  if (unknown.length) return { outcome: 'UNKNOWN', exitCode: ExitCode.INCOMPLETE, reasons: unknown };
  const service =
    check.verdict === 'PASS'
      ? "the service's verdict is PASS"
      : "the service's FAIL comes from findings that are suppressed or under a per-URL threshold";
  return {
    outcome: 'PASS',
    exitCode: ExitCode.OK,
    reasons: [
      `${service}, ${plural(check.pages!.length, 'page')} checked, and no finding breaks the threshold ${failOn}`,
    ],
  };
}

/** One check's verdict in a run of several, with the name reports give it. */
export interface BatchVerdict {
  /** e.g. `shop.example.com 2/3` */
  label: string;
  verdict: GateVerdict;
  /** How many pages the check reported. */
  pages: number;
}

/**
 * The gate over several CI checks (a run split into batches), by the same rules: any batch FAIL → FAIL (exit 1);
 * otherwise any batch that cannot be judged → UNKNOWN (exit 4); PASS only when every batch passes. The reasons
 * are the deciding batches' own, each prefixed with its label. A run of one check keeps that check's verdict as is.
 * @example aggregateVerdicts([{ label: 'a 1/2', verdict: fail }, { label: 'a 2/2', verdict: unknown }]).exitCode // 1
 */
export function aggregateVerdicts(batches: readonly BatchVerdict[]): GateVerdict {
  if (batches.length === 1) return batches[0]!.verdict;
  if (batches.length === 0)
    return {
      outcome: 'UNKNOWN',
      exitCode: ExitCode.INCOMPLETE,
      reasons: ['no check was run, so no page is known to have been checked'],
    };
  const prefixed = (outcome: GateOutcome) =>
    batches
      .filter((b) => b.verdict.outcome === outcome)
      .flatMap((b) => b.verdict.reasons.map((r) => `${b.label}: ${r}`));
  const failed = prefixed('FAIL');
  if (failed.length) {
    const unknown = prefixed('UNKNOWN');
    return {
      outcome: 'FAIL',
      exitCode: ExitCode.VERDICT_FAIL,
      reasons: [...failed, ...unknown.map((r) => `also not judged: ${r}`)],
    };
  }
  const unknown = prefixed('UNKNOWN');
  if (unknown.length) return { outcome: 'UNKNOWN', exitCode: ExitCode.INCOMPLETE, reasons: unknown };
  const pages = batches.reduce((n, b) => n + b.pages, 0);
  return {
    outcome: 'PASS',
    exitCode: ExitCode.OK,
    reasons: [
      `every one of ${batches.length} checks passed (${plural(pages, 'page')} checked), and no finding breaks its threshold`,
    ],
  };
}
