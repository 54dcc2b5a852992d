// One report over the CI checks of a run split into batches: each batch was prepared (made safe, judged) on its
// own; this merges them for the reporters, which then write one report of each kind (one SARIF run, one JUnit
// document, one summary) with the batch of every page and finding kept. The verdict is aggregated by the gate's
// rules (any FAIL → 1, else any not judged → 4). A run of one check is its report, unchanged.
import type { CiCheck, SeverityCounts } from '../../index.js';
import { DEFAULT_FAIL_ON } from '../../vocabulary/index.js';
import { aggregateVerdicts } from './verdict.js';
import { classifyFindings, type Finding, inReportOrder, type PreparedReport } from './prepare.js';
import { IMPACTS } from './fields.js';

// A count summed over the checks; undefined when no check sent it (a missing count is not zero).
function sum(values: Array<number | undefined>): number | undefined {
  const known = values.filter((n): n is number => typeof n === 'number' && Number.isFinite(n));
  return known.length === 0 ? undefined : known.reduce((a, b) => a + b, 0);
}

function sumCounts(all: Array<SeverityCounts | undefined>): SeverityCounts | undefined {
  if (all.every((c) => c === undefined)) return undefined;
  return Object.fromEntries(IMPACTS.map((i) => [i, sum(all.map((c) => c?.[i])) ?? 0])) as SeverityCounts;
}

// The run as one check record: COMPLETED only when every check is; the service's verdicts merged (FAIL if any,
// PASS only if all); counts summed; pages in batch order; the ids listed. It has no link of its own (the batches do).
function mergedCheck(checks: CiCheck[], judgedByService: CiCheck[] = checks): CiCheck {
  const status = checks.every((c) => c.status === 'COMPLETED')
    ? 'COMPLETED'
    : checks.some((c) => c.status === 'FAILED')
      ? 'FAILED'
      : (checks.find((c) => c.status !== 'COMPLETED')?.status ?? 'RUNNING');
  // A journey's scans have no service verdict: the service's is its CI checks' (none when the run had none).
  const verdict = judgedByService.some((c) => c.verdict === 'FAIL')
    ? 'FAIL'
    : judgedByService.length > 0 && judgedByService.every((c) => c.verdict === 'PASS')
      ? 'PASS'
      : undefined;
  const failOn = checks[0]?.failOn;
  const fixed = checks.every((c) => c.fixedCount !== undefined) ? sum(checks.map((c) => c.fixedCount)) : undefined;
  const unchanged = checks.every((c) => c.unchangedCount !== undefined)
    ? sum(checks.map((c) => c.unchangedCount))
    : undefined;
  const counts = sumCounts(checks.map((c) => c.counts));
  const newCounts = sumCounts(checks.map((c) => c.newCounts));
  return {
    // The checks' ids, for the places that name "the check" (each batch is listed with its own id and link too).
    id: checks.map((c) => c.id).join(', '),
    status,
    ...(verdict ? { verdict } : {}),
    ...(failOn ? { failOn } : {}),
    ...(checks.some((c) => c.baselineMissing === true)
      ? { baselineMissing: true }
      : checks.every((c) => c.baselineMissing === false)
        ? { baselineMissing: false }
        : {}),
    ...(counts ? { counts } : {}),
    ...(newCounts ? { newCounts } : {}),
    ...(fixed !== undefined ? { fixedCount: fixed } : {}),
    ...(unchanged !== undefined ? { unchangedCount: unchanged } : {}),
    pages: checks.flatMap((c) => c.pages ?? []),
  };
}

/**
 * Merges the prepared reports of a run's batches into one report for the reporters: the checks as one record
 * (see above), every finding in report order with its batch, every batch listed in `batches`, and the verdict
 * aggregated with `aggregateVerdicts`. One report is returned as it is.
 * @example const report = aggregateReports(batches.map((b) => prepareReport(b.raw, { batch: b.batch, secrets })));
 */
export function aggregateReports(reports: readonly PreparedReport[]): PreparedReport {
  if (reports.length === 1) return reports[0]!;
  const findings = inReportOrder(reports.flatMap((r) => r.findings));
  const batches = reports.flatMap((r) => r.batches);
  return {
    check: mergedCheck(
      reports.map((r) => r.check),
      reports.filter((r) => !r.journeys?.length).map((r) => r.check),
    ),
    violations: reports.flatMap((r) => r.violations),
    failOn: reports[0]?.failOn ?? DEFAULT_FAIL_ON,
    failOnDefaulted: reports[0]?.failOnDefaulted ?? true,
    findings,
    ...classifyFindings(findings),
    failedPages: reports.flatMap((r) => r.failedPages),
    pageThresholds: reports.flatMap((r) => r.pageThresholds),
    verdict: aggregateVerdicts(
      batches.map((b, i) => ({ label: b.label, verdict: b.verdict, pages: reports[i]?.check.pages?.length ?? 0 })),
    ),
    batches,
    suppressionsUsed: [...new Set(reports.flatMap((r) => r.suppressionsUsed))].sort((a, b) => a - b),
    ...(reports.some((r) => r.journeys) ? { journeys: reports.flatMap((r) => r.journeys ?? []) } : {}),
  };
}

/**
 * The batch label of a page URL in a run of several checks, or undefined (a run of one check).
 * @example batchOfPage(report, 'https://shop.example.com/cart') // 'shop.example.com 1/3'
 */
export function batchOfPage(report: Pick<PreparedReport, 'batches'>, url: string | undefined): string | undefined {
  if (report.batches.length < 2 || url === undefined) return undefined;
  return report.batches.find((b) => b.urls.includes(url))?.label;
}

/**
 * The batch label of a finding in a run of several checks, or undefined.
 * @example batchOfFinding(report, finding) // 'shop.example.com 2/3'
 */
export function batchOfFinding(
  report: Pick<PreparedReport, 'batches'>,
  finding: Pick<Finding, 'batch' | 'violation'>,
): string | undefined {
  if (report.batches.length < 2) return undefined;
  return (
    report.batches.find((b) => b.key !== undefined && b.key === finding.batch)?.label ??
    batchOfPage(report, finding.violation.url)
  );
}
