// The one pass between the API's records and every reporter: copy the check and its findings with every string
// made safe (secrets in every spelling, URL credentials, token parameters, controls and invisible characters),
// then sort and classify the findings and decide the verdict, once. Reporters only format, clip and escape what
// this gives them, so no format can leak a secret through its own escaping or clipping, and none can judge the
// check differently from the exit code.
import type { CiCheck, CiViolation, FailOn, Page } from '../../index.js';
import { safeCopy } from '../safe-text.js';
import { breaksThreshold, DEFAULT_FAIL_ON, isPageFailure, sortFindings } from '../threshold.js';
import { decideVerdict, type GateVerdict } from '../verdict.js';
import type { CiReport } from './report.js';

/** A finding with its verdict under the threshold. */
export interface Finding {
  /** The API's record, made safe to print. */
  violation: CiViolation;
  /** True when the finding breaks the threshold (a failure, not a passing test). */
  breaking: boolean;
}

/** A report made safe and judged once, for every reporter. */
export interface PreparedReport extends CiReport {
  /** The threshold applied: `--fail-on`, else the check's, else the default. */
  failOn: FailOn;
  /** Whether `failOn` is the default (neither the caller nor the check named one). */
  failOnDefaulted: boolean;
  /** Every finding, new first (see `sortFindings`). */
  findings: Finding[];
  /** The findings that break the threshold, in the same order. */
  failures: CiViolation[];
  /** Pages that could not be checked (UNREACHABLE, ERROR, TIMEOUT). */
  failedPages: Page[];
  /** The gate's decision, which the exit code and every reporter show. */
  verdict: GateVerdict;
}

/** Options of {@link prepareReport}. */
export interface PrepareOptions {
  /** Values never to print (the API key, a Redis password), in any spelling. */
  secrets?: readonly string[] | undefined;
  /**
   * The threshold to apply; the CLI's `--fail-on` wins over the check's own `failOn`.
   * @default the check's failOn, else 'NEW_CRITICAL'
   */
  failOn?: FailOn | undefined;
  /** Set when the wait ended before the check did: the reason in words (the check is then never judged). */
  waitEnded?: string | undefined;
}

/**
 * Makes a report safe and judges it: every string copied through `safeText`, findings sorted and classified
 * under the threshold, the verdict decided.
 * @example const prepared = prepareReport({ check, violations }, { secrets: [apiKey], failOn: 'ANY_CRITICAL' });
 */
export function prepareReport(raw: CiReport, options: PrepareOptions = {}): PreparedReport {
  const secrets = options.secrets ?? [];
  const check = safeCopy(raw.check ?? ({} as CiCheck), secrets);
  const violations = safeCopy(Array.isArray(raw.violations) ? raw.violations : [], secrets);
  const failOn = options.failOn ?? check.failOn ?? DEFAULT_FAIL_ON;
  const findings = sortFindings(violations).map((violation) => ({ violation, breaking: breaksThreshold(violation, failOn) }));
  const failures = findings.filter((f) => f.breaking).map((f) => f.violation);
  return {
    check,
    violations,
    failOn,
    failOnDefaulted: options.failOn === undefined && check.failOn === undefined,
    findings,
    failures,
    failedPages: (check.pages ?? []).filter(isPageFailure),
    verdict: decideVerdict({ check, failures: failures.length, failOn, waitEnded: options.waitEnded }),
  };
}
