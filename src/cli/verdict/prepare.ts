// The one pass between the API's records and every reporter: copy the check and its findings with every string
// made safe (secrets in every spelling, URL credentials, token parameters, controls and invisible characters),
// then sort and classify the findings (threshold per page, reviewed suppressions) and decide the verdict, once.
// Reporters only format, clip and escape what this gives them, so no format can leak a secret through its own
// escaping or clipping, and none can judge the check differently from the exit code.
import type { CiCheck, CiViolation, FailOn, Page } from '../../index.js';
import { safeCopy, safeText } from '../io/safe-text.js';
import { findSuppression, type Suppression } from './suppressions.js';
import { DEFAULT_FAIL_ON } from '../../vocabulary/index.js';
import { comparePages, type PageMismatch } from './page-match.js';
import { distinctPages } from '../pages/page-urls.js';
import { breaksThreshold, isPageFailure, sortFindings } from './threshold.js';
import { pageFailOn, type UrlFailOn } from './url-fail-on.js';
import { decideVerdict, type GateVerdict } from './verdict.js';
import type { CiReport } from './fields.js';

/** The suppression that matched a finding, as the reports show it. */
export interface SuppressionNote {
  /** The entry's position in the suppressions file (0-based). */
  index: number;
  /** Why the finding is accepted (made safe to print). */
  reason: string;
  /** Last day the entry is in force (`YYYY-MM-DD`). */
  expires: string;
}

/** A finding with its verdict under the threshold. */
export interface Finding {
  /** The API's record, made safe to print. */
  violation: CiViolation;
  /** True when the finding counts toward the threshold: it breaks its page's threshold and is not suppressed. */
  breaking: boolean;
  /** Whether it breaks its page's threshold, suppressed or not (a suppressed one is still an alert, marked so). */
  wouldBreak: boolean;
  /** The threshold it was judged under: its page's per-URL `failOn`, else the run's. */
  failOn: FailOn;
  /** Set when a reviewed suppression matched it: it does not count toward the threshold. */
  suppression?: SuppressionNote | undefined;
  /** Key of the batch (CI check) it came from, when the run had several. */
  batch?: string | undefined;
}

/** A page judged by another threshold than the run's, and the threshold applied to it. */
interface PageThreshold {
  /** The page (made safe to print). */
  url: string;
  failOn: FailOn;
}

/** One CI check of a run, as the reports list it. */
export interface BatchSummary {
  /** The batch key sent in the check's context, e.g. `https://shop.example.com 2/3`; undefined for a run of one check. */
  key?: string | undefined;
  /** Short name for reports, e.g. `shop.example.com 2/3`. */
  label: string;
  /** The pages the batch asked for. */
  urls: string[];
  /** The check's id, status, service verdict and link (made safe). */
  checkId?: string | undefined;
  status?: string | undefined;
  serviceVerdict?: string | undefined;
  appUrl?: string | undefined;
  /** The gate's decision on this check alone. */
  verdict: GateVerdict;
  /** Findings that count toward the threshold, and findings a suppression matched. */
  failures: number;
  suppressed: number;
}

/** A saved journey of the run (`ci --journey`), as the reports list it (its strings made safe). */
interface JourneySummary {
  journeyId: string;
  /** Its name, else its id. */
  name: string;
  /** Its last run's id and status, and how many runs were made (2 when a failed first run was run again). */
  runId?: string | undefined;
  status?: string | undefined;
  runs: number;
  /** The threshold its findings were judged under: `ANY_CRITICAL` for `NEW_CRITICAL` without a journey baseline. */
  failOn: FailOn;
  /** Whether its findings were compared with a journey baseline (`--journey-baseline`). */
  baseline: boolean;
  /** Its checkpoints: label, URL, scan and the scan's status. */
  checkpoints: Array<{
    label?: string | undefined;
    url?: string | undefined;
    scanId?: string | undefined;
    status?: string | undefined;
  }>;
  /** The gate's decision on it. */
  verdict: GateVerdict;
}

/** A report made safe and judged once, for every reporter. */
export interface PreparedReport extends CiReport {
  /** The threshold applied: `--fail-on`, else the check's, else the default. */
  failOn: FailOn;
  /** Whether `failOn` is the default (neither the caller nor the check named one). */
  failOnDefaulted: boolean;
  /** Every finding, new first (see `sortFindings`). */
  findings: Finding[];
  /** The findings that break the threshold and are not suppressed, in the same order. */
  failures: CiViolation[];
  /** The findings a suppression matched, in the same order (they never count toward the threshold). */
  suppressed: Finding[];
  /** Pages that could not be checked (UNREACHABLE, ERROR, TIMEOUT). */
  failedPages: Page[];
  /** The pages judged by another threshold than `failOn` (per-URL thresholds), with the one applied (made safe). */
  pageThresholds: PageThreshold[];
  /** The gate's decision, which the exit code and every reporter show. */
  verdict: GateVerdict;
  /** The run's CI checks: one entry for a run of one check. */
  batches: BatchSummary[];
  /** Indexes of the suppression entries that matched at least one finding. */
  suppressionsUsed: number[];
  /** The run's journeys (`ci --journey`), when it had any. */
  journeys?: JourneySummary[] | undefined;
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
  /** Reviewed suppressions in force: a finding one matches does not count toward the threshold. */
  suppressions?: readonly Suppression[] | undefined;
  /** Per-URL thresholds: the first entry matching a finding's page decides its threshold. */
  failOnByUrl?: readonly UrlFailOn[] | undefined;
  /**
   * True when `failOn` was given explicitly (a flag, the Action's input): per-URL thresholds may then make a page
   * stricter than it, never more lenient (a config file may be the pull request's own).
   * @default false
   */
  failOnIsFloor?: boolean | undefined;
  /**
   * The batch this check is (its key and label, and the pages it was created with: the check is judged only when
   * it reports each of them once and no other page).
   */
  batch?: { key: string; label: string; urls: string[] } | undefined;
}

/**
 * Makes a report safe and judges it: every string copied through `safeText`, findings sorted and classified
 * under their page's threshold and the suppressions, the verdict decided.
 * @example const prepared = prepareReport({ check, violations }, { secrets: [apiKey], failOn: 'ANY_CRITICAL' });
 */
export function prepareReport(raw: CiReport, options: PrepareOptions = {}): PreparedReport {
  const secrets = options.secrets ?? [];
  const check = safeCopy(raw.check ?? ({} as CiCheck), secrets);
  const violations = safeCopy(Array.isArray(raw.violations) ? raw.violations : [], secrets);
  const failOn = options.failOn ?? check.failOn ?? DEFAULT_FAIL_ON;
  const suppressions = options.suppressions ?? [];
  const byUrl = options.failOnByUrl ?? [];
  const run = { failOn, floor: options.failOnIsFloor === true };
  const used = new Set<number>();
  // Matched on the API's own values (a selector or URL as reported), shown as made safe: each safe copy is
  // paired with its record before sorting.
  const rawOf = new Map<CiViolation, CiViolation>(
    violations.map((v, i) => [v, (raw.violations[i] ?? v) as CiViolation]),
  );
  const findings = sortFindings(violations).map((violation): Finding => {
    const original = rawOf.get(violation) ?? violation;
    const own = pageFailOn(byUrl, original.url, run);
    const wouldBreak = breaksThreshold(violation, own);
    const match = findSuppression(suppressions, original);
    if (match) used.add(match.index);
    const suppression = match && {
      index: match.index,
      reason: safeText(match.reason, secrets),
      expires: match.expires,
    };
    return {
      violation,
      breaking: wouldBreak && !suppression,
      wouldBreak,
      failOn: own,
      ...(suppression ? { suppression } : {}),
      ...(options.batch ? { batch: options.batch.key } : {}),
    };
  });
  const { failures, suppressed } = classifyFindings(findings);
  // The service judged the whole check under one threshold. When suppressions or per-URL thresholds are in play,
  // a FAIL of the service's that findings here account for (one breaks the service's threshold) is judged from
  // those findings instead; a FAIL nothing here accounts for still fails the gate (fail closed).
  const rulesApplied = suppressions.length > 0 || byUrl.length > 0;
  const serviceFailExplained =
    rulesApplied && check.verdict === 'FAIL' && violations.some((v) => breaksThreshold(v, check.failOn ?? failOn));
  // Compared on the API's own values (made-safe URLs may differ: a redacted token parameter), named as made safe.
  const asked = options.batch?.urls;
  const mismatch =
    asked && safeMismatch(comparePages(asked, Array.isArray(raw.check?.pages) ? raw.check.pages : []), secrets);
  const verdict = decideVerdict({
    check,
    failures: failures.length,
    failOn,
    waitEnded: options.waitEnded,
    serviceFailExplained,
    mismatch,
  });
  const batch = options.batch;
  return {
    check,
    violations,
    failOn,
    failOnDefaulted: options.failOn === undefined && check.failOn === undefined,
    findings,
    failures,
    suppressed,
    failedPages: (check.pages ?? []).filter(isPageFailure),
    pageThresholds: thresholdsOf(raw, asked, byUrl, run, secrets),
    verdict,
    batches: [
      {
        ...(batch ? { key: batch.key } : {}),
        label: batch?.label ?? 'check',
        urls: batch ? safeCopy(batch.urls, secrets) : (check.pages ?? []).map((p) => p.url ?? ''),
        checkId: check.id,
        status: check.status,
        serviceVerdict: check.verdict,
        appUrl: check.appUrl,
        verdict,
        failures: failures.length,
        suppressed: suppressed.length,
      },
    ],
    suppressionsUsed: [...used].sort((a, b) => a - b),
  };
}

/**
 * The findings that count toward the threshold (their records) and those a suppression matched, in the order of
 * `findings`: what every prepared report holds beside its findings.
 * @example classifyFindings(report.findings).failures.length // 2
 */
export function classifyFindings(findings: readonly Finding[]): Pick<PreparedReport, 'failures' | 'suppressed'> {
  return {
    failures: findings.filter((f) => f.breaking).map((f) => f.violation),
    suppressed: findings.filter((f) => f.suppression !== undefined),
  };
}

/**
 * Findings in report order (new first: see `sortFindings`), whatever order they were gathered in.
 * @example inReportOrder([...a.findings, ...b.findings])
 */
export function inReportOrder(findings: readonly Finding[]): Finding[] {
  const findingOf = new Map<CiViolation, Finding>(findings.map((f) => [f.violation, f] as const));
  return sortFindings([...findingOf.keys()]).map((v) => findingOf.get(v)!);
}

function safeMismatch(mismatch: PageMismatch, secrets: readonly string[]): PageMismatch {
  const safe = (urls: string[]) => urls.map((url) => safeText(url, secrets));
  return { missing: safe(mismatch.missing), repeated: safe(mismatch.repeated), unasked: safe(mismatch.unasked) };
}

// The pages (as reported, else as asked for) whose threshold is not the run's, matched on the API's own URLs.
function thresholdsOf(
  raw: CiReport,
  asked: readonly string[] | undefined,
  rules: readonly UrlFailOn[],
  run: { failOn: FailOn; floor: boolean },
  secrets: readonly string[],
): PageThreshold[] {
  if (rules.length === 0) return [];
  const reported = Array.isArray(raw.check?.pages) ? raw.check.pages.map((p) => p?.url) : [];
  const urls = distinctPages([...reported, ...(asked ?? [])].filter((u): u is string => typeof u === 'string'));
  return urls.flatMap((url) => {
    const failOn = pageFailOn(rules, url, run);
    return failOn === run.failOn ? [] : [{ url: safeText(url, secrets), failOn }];
  });
}
