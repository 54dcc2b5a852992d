// Which findings break a CI check's threshold, which pages could not be checked, and the order findings are
// reported in. Pure functions shared by the CLI's exit code and every reporter.
import type { CiViolation, FailOn, Page, PageStatus } from '../../index.js';
import { DEFAULT_FAIL_ON } from '../../vocabulary/index.js';
import { compareText, impactRank, normalizeImpact } from './fields.js';

/**
 * Whether a finding makes the check fail under `failOn`.
 * - `NEW_CRITICAL` (and undefined): a new critical finding;
 * - `ANY_CRITICAL`: any critical finding;
 * - `SERIOUS_OR_WORSE`: any critical or serious finding;
 * - `NONE`: never.
 * A value this version does not know is treated as the default, like a missing one.
 * @param failOn - the check's threshold
 * @default failOn 'NEW_CRITICAL'
 * @example breaksThreshold({ impact: 'critical', isNew: true }, undefined) // true
 */
export function breaksThreshold(v: CiViolation, failOn: FailOn | undefined): boolean {
  const impact = normalizeImpact(v.impact);
  switch (failOn ?? DEFAULT_FAIL_ON) {
    case 'NONE':
      return false;
    case 'ANY_CRITICAL':
      return impact === 'critical';
    case 'SERIOUS_OR_WORSE':
      return impact === 'critical' || impact === 'serious';
    default:
      // NEW_CRITICAL. `isNew` must be true: a finding whose baseline marker is missing is not known to be new.
      return v.isNew === true && impact === 'critical';
  }
}

const FAILED_PAGE_STATUSES: ReadonlySet<PageStatus> = new Set<PageStatus>(['UNREACHABLE', 'ERROR', 'TIMEOUT']);

/**
 * Whether a page could not be checked (UNREACHABLE, ERROR or TIMEOUT): such a check must never look green.
 * @example isPageFailure({ url: 'https://a.example/', status: 'TIMEOUT' }) // true
 */
export function isPageFailure(page: Page | undefined): boolean {
  return page?.status !== undefined && FAILED_PAGE_STATUSES.has(page.status);
}

/**
 * Findings in report order, as a new array: new ones first, then by impact (critical, serious, moderate, minor,
 * unknown), then URL, rule id and selector. Ties keep their input order (`Array.prototype.sort` is stable).
 * @example sortFindings(violations)[0] // the first new critical finding
 */
export function sortFindings(violations: readonly CiViolation[]): CiViolation[] {
  return [...violations].sort(
    (a, b) =>
      Number(b.isNew === true) - Number(a.isNew === true) ||
      impactRank(a.impact) - impactRank(b.impact) ||
      compareText(a.url ?? '', b.url ?? '') ||
      compareText(a.ruleId ?? '', b.ruleId ?? '') ||
      compareText(a.target ?? '', b.target ?? ''),
  );
}
