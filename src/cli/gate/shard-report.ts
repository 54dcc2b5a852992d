// What a shard's JSON report holds beyond one run's (`--shard I/N --report json=FILE`), and how `merge` reads it back:
// the shard record (which shard, digests of the whole list and of the judging settings), every check of the shard
// (`batches`, even when there is one) and each finding's judgement as the shard made it (`judging`). A report read
// back is a prepared report again, its strings made safe once more (a file is an input like any other), so the
// merged reports are written by the same writers as one run's and judged by the same rules.
import { z } from 'zod';
import type { CiCheck, CiViolation, FailOn } from '../../index.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { safeCopy } from '../io/safe-text.js';
import {
  type BatchSummary,
  classifyFindings,
  type Finding,
  inReportOrder,
  type PreparedReport,
  type SuppressionNote,
} from '../report/index.js';
import { isPageFailure } from '../verdict/threshold.js';
import { FAIL_ON } from '../../vocabulary/index.js';
import { MAX_SHARDS } from '../settings/ci-settings.js';
import type { ShardRecord } from './shards.js';

/** How the shard judged each finding, in the order of the report's `violations`. */
export interface ShardJudging {
  /** The run's threshold, and whether it was the default. */
  failOn: FailOn;
  failOnDefaulted: boolean;
  /** Indexes of the suppression entries that matched a finding. */
  suppressionsUsed: number[];
  /** One entry per finding, in the order of `violations`. */
  findings: Array<{
    breaking: boolean;
    wouldBreak: boolean;
    failOn: FailOn;
    batch?: string | undefined;
    suppression?: SuppressionNote | undefined;
  }>;
}

/**
 * The part of a shard's JSON report that lets `merge` rebuild its prepared report.
 * @example { ...jsonReport, batches: report.batches, judging: judgingOf(report) }
 */
export function judgingOf(report: PreparedReport): ShardJudging {
  const of = new Map<CiViolation, Finding>(report.findings.map((f) => [f.violation, f]));
  return {
    failOn: report.failOn,
    failOnDefaulted: report.failOnDefaulted,
    suppressionsUsed: report.suppressionsUsed,
    findings: report.violations.map((v) => {
      const f = of.get(v);
      return {
        breaking: f?.breaking ?? false,
        wouldBreak: f?.wouldBreak ?? false,
        failOn: f?.failOn ?? report.failOn,
        ...(f?.batch !== undefined ? { batch: f.batch } : {}),
        ...(f?.suppression ? { suppression: f.suppression } : {}),
      };
    }),
  };
}

/**
 * The report of a shard that holds no check (a list of fewer checks than shards): nothing to judge, so a pass with
 * that reason; `merge` counts the shard as given.
 * @example emptyShardReport({ index: 4, total: 4, pages: 'sha256:…', settings: 'sha256:…' }).verdict.exitCode // 0
 */
export function emptyShardReport(shard: ShardRecord, failOn: FailOn): PreparedReport {
  return {
    check: { id: `shard ${shard.index}/${shard.total}`, status: 'COMPLETED', pages: [] } as CiCheck,
    violations: [],
    failOn,
    failOnDefaulted: false,
    findings: [],
    failures: [],
    suppressed: [],
    failedPages: [],
    pageThresholds: [],
    verdict: {
      outcome: 'PASS',
      exitCode: ExitCode.OK,
      reasons: [`shard ${shard.index}/${shard.total} holds no check: the list has fewer checks than shards`],
    },
    batches: [],
    suppressionsUsed: [],
  };
}

const failOn = z.enum(FAIL_ON);
const verdict = z.object({
  outcome: z.enum(['PASS', 'FAIL', 'UNKNOWN']),
  exitCode: z.union([z.literal(0), z.literal(1), z.literal(4)]),
  reasons: z.array(z.string()),
});
const suppression = z.object({ index: z.number().int().nonnegative(), reason: z.string(), expires: z.string() });
// The service's records are kept open (fields "not shown" in the document may come); only what the merge reads is checked.
const SHARD_REPORT = z.object({
  check: z.looseObject({ pages: z.array(z.looseObject({ url: z.string().optional() })).optional() }),
  violations: z.array(z.looseObject({})),
  verdict,
  batches: z.array(
    z.looseObject({
      key: z.string().optional(),
      label: z.string(),
      urls: z.array(z.string()),
      verdict,
      failures: z.number().int().nonnegative(),
      suppressed: z.number().int().nonnegative(),
    }),
  ),
  pageThresholds: z.array(z.object({ url: z.string(), failOn })).optional(),
  // Bounded as --shard is: a report claiming a billion shards must not make the merge list a billion missing ones.
  shard: z.object({
    index: z.number().int().positive().max(MAX_SHARDS),
    total: z.number().int().positive().max(MAX_SHARDS),
    pages: z.string(),
    settings: z.string(),
  }),
  judging: z.object({
    failOn,
    failOnDefaulted: z.boolean(),
    suppressionsUsed: z.array(z.number().int().nonnegative()),
    findings: z.array(
      z.object({
        breaking: z.boolean(),
        wouldBreak: z.boolean(),
        failOn,
        batch: z.string().optional(),
        suppression: suppression.optional(),
      }),
    ),
  }),
});

/** A shard's report read back: its record, and its prepared report. */
export interface ShardReport {
  /** The file it was read from (for messages). */
  file: string;
  shard: ShardRecord;
  report: PreparedReport;
}

/**
 * Reads back a shard's JSON report (the text of `file`): checked against the shape `ci --shard` writes, its strings
 * made safe again with `secrets`, its findings' judgements restored.
 * @throws UsageError (exit 2) naming the file and the field at fault, or saying it is not a shard's report
 * @example readShardReport('shard-1.json', text, [apiKey]).shard.index // 1
 */
export function readShardReport(file: string, text: string, secrets: readonly string[]): ShardReport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON (${(error as Error).message})`, 'merge');
  }
  if (json === null || typeof json !== 'object' || !('shard' in json))
    throw new UsageError(
      `${file} is not a shard's JSON report (it has no "shard"): write each with ci --shard I/N --report json=FILE`,
      'merge',
    );
  const parsed = SHARD_REPORT.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(
      `${file}: ${issue.path.join('.') || 'the report'} ${issue.message.toLowerCase()} (not a report ci --shard wrote, or of another version)`,
      'merge',
    );
  }
  const data = safeCopy(parsed.data, secrets);
  const { judging } = data;
  if (judging.findings.length !== data.violations.length)
    throw new UsageError(
      `${file}: judging.findings has ${judging.findings.length} entries for ${data.violations.length} violations`,
      'merge',
    );
  const check = data.check as CiCheck;
  const violations = data.violations as CiViolation[];
  const findings = inReportOrder(violations.map((violation, i) => ({ violation, ...judging.findings[i]! })));
  return {
    file,
    shard: data.shard,
    report: {
      check,
      violations,
      failOn: judging.failOn,
      failOnDefaulted: judging.failOnDefaulted,
      findings,
      ...classifyFindings(findings),
      failedPages: (check.pages ?? []).filter(isPageFailure),
      pageThresholds: data.pageThresholds ?? [],
      verdict: data.verdict,
      batches: data.batches as BatchSummary[],
      suppressionsUsed: judging.suppressionsUsed,
    },
  };
}
