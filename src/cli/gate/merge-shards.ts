// One verdict from a matrix's shards (`svc-a11y merge FILE…`): the shards' reports must be of one matrix (the same
// number of shards, the same list, the same judging settings: else exit 2, a mixed set), each shard once; together
// they must hold every page of the list once. A shard whose report is missing is a part of the list not judged, as a
// check that could not be judged is in one run: exit 4 naming it, unless a FAIL elsewhere decides (exit 1).
import { ExitCode, UsageError } from '../exit-codes.js';
import { aggregateReports, type BatchSummary, type PreparedReport } from '../report/index.js';
import { aggregateVerdicts, type BatchVerdict, type GateVerdict } from '../verdict/verdict.js';
import type { ShardReport } from './shard-report.js';
import { pagesDigest } from './shards.js';

/** The merged report, and what the set held. */
export interface MergedShards {
  report: PreparedReport;
  /** How many shards the matrix has. */
  total: number;
  /** The shards given, and those missing (1-based, ascending). */
  given: number[];
  missing: number[];
}

const name = (s: ShardReport) => `${s.file} (shard ${s.shard.index}/${s.shard.total})`;

/**
 * Checks that `shards` are of one matrix and merges them into one report judged as one run of the whole list would
 * be: any check FAIL → FAIL; otherwise any check, or shard, not judged → UNKNOWN; else PASS.
 * @throws UsageError (exit 2) for a mixed set (another matrix, list or settings; a shard given twice; shards whose
 *   pages are not the list they were cut from)
 * @example mergeShards([one, two, four]).missing // [3]
 */
export function mergeShards(shards: readonly ShardReport[]): MergedShards {
  if (shards.length === 0) throw new UsageError('no shard reports to merge', 'merge');
  const first = shards[0]!;
  const mixed = (what: string, other: ShardReport) =>
    new UsageError(
      `${name(other)} and ${name(first)} are not shards of one run: ${what}. Merge the reports of one matrix only.`,
      'merge',
    );
  const byIndex = new Map<number, ShardReport>();
  for (const s of shards) {
    if (s.shard.total !== first.shard.total) throw mixed('their numbers of shards differ', s);
    if (s.shard.index > s.shard.total) throw new UsageError(`${name(s)}: its index is past its total`, 'merge');
    if (s.shard.pages !== first.shard.pages) throw mixed('they were cut from different page lists', s);
    if (s.shard.settings !== first.shard.settings)
      throw mixed('they were judged with different settings (fail-on, per-URL thresholds or suppressions)', s);
    const twice = byIndex.get(s.shard.index);
    if (twice)
      throw new UsageError(
        `shard ${s.shard.index}/${s.shard.total} is given twice: ${twice.file} and ${s.file}`,
        'merge',
      );
    byIndex.set(s.shard.index, s);
  }
  const total = first.shard.total;
  const given = [...byIndex.keys()].sort((a, b) => a - b);
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  const ordered = given.map((i) => byIndex.get(i)!);
  const pages = ordered.flatMap((s) => s.report.batches.flatMap((b) => b.urls));
  const seen = new Set<string>();
  for (const page of pages) {
    if (seen.has(page))
      throw new UsageError(`the page ${page} is in more than one shard: these reports are not one partition`, 'merge');
    seen.add(page);
  }
  // A whole set holds exactly the list it was cut from (a report edited, or cut by another version, does not).
  if (missing.length === 0 && pagesDigest(pages) !== first.shard.pages)
    throw new UsageError(
      `the ${total} shards' pages are not the list they were cut from (its digest ${first.shard.pages}): were they written by different versions of svc-a11y?`,
      'merge',
    );
  const withChecks = ordered.filter((s) => s.report.batches.length > 0);
  const merged = withChecks.length > 0 ? aggregateReports(withChecks.map((s) => s.report)) : ordered[0]!.report;
  // The checks in the whole plan's order (dealt round-robin, each shard's are every N-th), as one run lists them.
  const batches = [...merged.batches].sort(byPlan);
  const place = new Map(batches.flatMap((b) => b.urls).map((url, i) => [url, i] as const));
  const at = (url: string | undefined) => (url === undefined ? place.size : (place.get(url) ?? place.size));
  const checkPages = merged.check.pages && [...merged.check.pages].sort((a, b) => at(a?.url) - at(b?.url));
  const report = { ...merged, batches, check: { ...merged.check, ...(checkPages ? { pages: checkPages } : {}) } };
  const checks = report.batches.map((b) => ({ label: b.label, verdict: b.verdict, pages: b.urls.length }));
  const notGiven = missing.map((i) => ({
    label: `shard ${i}/${total}`,
    pages: 0,
    verdict: {
      outcome: 'UNKNOWN' as const,
      exitCode: ExitCode.INCOMPLETE,
      reasons: ['its report was not given, so its pages were not judged'],
    },
  }));
  return { report: { ...report, verdict: verdictOf([...checks, ...notGiven]) }, total, given, missing };
}

// A check's place in the whole list's plan, from its key (`<origin> <n>/<of>`, a recheck's `… recheck <k>`): by
// site, then by position, each check before its rechecks.
function byPlan(a: BatchSummary, b: BatchSummary): number {
  const [sa, na, ra] = planPlace(a.key);
  const [sb, nb, rb] = planPlace(b.key);
  return sa < sb ? -1 : sa > sb ? 1 : na - nb || ra - rb;
}

function planPlace(key: string | undefined): [string, number, number] {
  const m = key === undefined ? null : /^(.*) (\d+)\/\d+(?: recheck (\d+))?$/.exec(key);
  return m ? [m[1]!, Number(m[2]), Number(m[3] ?? 0)] : [key ?? '', 0, 0];
}

// The gate's rules over the checks and the missing shards. aggregateVerdicts keeps a lone entry's verdict as it is
// (one run of one check); a lone entry that is a missing shard is named here.
function verdictOf(judged: ReadonlyArray<BatchVerdict>): GateVerdict {
  if (judged.length === 0)
    return {
      outcome: 'PASS',
      exitCode: ExitCode.OK,
      reasons: ['no shard holds a check: the list has no page to check'],
    };
  const [only] = judged;
  if (judged.length === 1 && only!.pages === 0 && only!.verdict.outcome === 'UNKNOWN')
    return { ...only!.verdict, reasons: only!.verdict.reasons.map((r) => `${only!.label}: ${r}`) };
  return aggregateVerdicts(judged);
}
