// One pass over a report that every reporter needs: findings in report order, which of them fail, which pages
// could not be checked. Kept apart from report.ts because it needs threshold.ts, which itself needs report.ts.
import type { CiViolation, FailOn, Page } from '../../index.js';
import { breaksThreshold, DEFAULT_FAIL_ON, isPageFailure, sortFindings } from '../threshold.js';
import type { CiReport } from './report.js';

/** A finding with its verdict under the check's threshold. */
export interface Finding {
  /** The API's record. */
  violation: CiViolation;
  /** True when the finding breaks the threshold (a failure, not a passing test). */
  breaking: boolean;
}

/** A report sorted and classified once for a reporter. */
export interface ClassifiedReport {
  /** The threshold the check used, or the default when it did not say. */
  failOn: FailOn;
  /** Whether `failOn` came from the default rather than the check. */
  failOnDefaulted: boolean;
  /** Every finding, new first (see `sortFindings`). */
  findings: Finding[];
  /** The findings that break the threshold, in the same order. */
  failures: CiViolation[];
  /** Pages that could not be checked (UNREACHABLE, ERROR, TIMEOUT). */
  failedPages: Page[];
}

/**
 * Sorts and classifies a report's findings and pages.
 * @example classify(report).failures.length // number of findings that fail the check
 */
export function classify(report: CiReport): ClassifiedReport {
  const failOn = report.check.failOn ?? DEFAULT_FAIL_ON;
  const findings = sortFindings(report.violations ?? []).map((violation) => ({
    violation,
    breaking: breaksThreshold(violation, failOn),
  }));
  return {
    failOn,
    failOnDefaulted: report.check.failOn === undefined,
    findings,
    failures: findings.filter((f) => f.breaking).map((f) => f.violation),
    failedPages: (report.check.pages ?? []).filter(isPageFailure),
  };
}
