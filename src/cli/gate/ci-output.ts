// Where a `ci` run's report goes once it is prepared: formatted once per format (the reporters do the formatting),
// printed on stdout, written to each report file, appended to the GitHub job summary and printed as annotations;
// plus what the run says about its suppressions. The exit code is the verdict's, unless a report file was lost.
import { DEFAULT_WAIT_TIMEOUT_MS } from '../../index.js';
import type { CiOptions } from './options.js';
import { judgingOf } from './shard-report.js';
import type { ShardRecord } from './shards.js';
import { type CommandContext, version } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { appendStepSummary, writeReport } from '../report/files.js';
import { REPORT_LABELS, REPORT_SYNTAX, type ReportFormat } from '../report/formats.js';
import {
  type HtmlRunInfo,
  type PreparedReport,
  type SourceMapEntry,
  toGitHubAnnotations,
  toHtml,
  toJUnit,
  toCodeQuality,
  toMarkdown,
  toSarif,
  toText,
} from '../report/index.js';
import { jsonText } from '../io/safe-text.js';
import type { RouteTable } from '../routes/index.js';
import { describeSuppression, type Suppressions } from '../verdict/suppressions.js';

/** What formatting needs beyond the report: the SARIF source map, and the run's settings for the HTML report. */
export interface FormatOptions {
  /** Whether the text format may use colour (stdout on a terminal only). */
  color?: boolean;
  sourceMap?: SourceMapEntry[] | undefined;
  /** The routes `--source-map auto` inferred: SARIF, Code Quality, HTML and annotations locate pages by them too. */
  routes?: RouteTable | undefined;
  /** The SARIF run's category (`automationDetails.id`). */
  sarifCategory?: string | undefined;
  run?: HtmlRunInfo;
  /** The shard this run is of a matrix (`--shard`), recorded in the JSON report with what `merge` reads back. */
  shard?: ShardRecord | undefined;
  /** The shards a `merge` report was made of, recorded in its JSON report. */
  merged?: { total: number; given: number[]; missing: number[] } | undefined;
}

/**
 * A prepared report in one format, as text (JSON: the safe copies of the check and its findings, and the verdict).
 * @default options.color false
 * @example formatReport(report, 'junit') // '<?xml version="1.0" encoding="UTF-8"?>…'
 */
export function formatReport(report: PreparedReport, format: ReportFormat, options: FormatOptions = {}): string {
  switch (format) {
    case 'json':
      return `${jsonText(jsonReportOf(report, options))}\n`;
    case 'junit':
      return toJUnit(report);
    case 'sarif':
      return `${jsonText(toSarif(report, { toolVersion: version, sourceMap: options.sourceMap, routes: options.routes, category: options.sarifCategory }))}\n`;
    case 'codequality':
      return `${jsonText(toCodeQuality(report, { sourceMap: options.sourceMap, routes: options.routes }))}\n`;
    case 'markdown':
      return toMarkdown(report);
    case 'html':
      return toHtml(report, {
        toolVersion: version,
        run: options.run,
        sourceMap: options.sourceMap,
        routes: options.routes,
      });
    default:
      return toText(report, { color: options.color ?? false });
  }
}

// A run of one check keeps the shape it always had; several add the batches and what was suppressed; a shard adds
// its record, every check and each finding's judgement (what `merge` reads back); a merge, the shards it had.
function jsonReportOf(report: PreparedReport, { shard, merged }: FormatOptions): unknown {
  const base = { check: report.check, violations: report.violations, verdict: report.verdict };
  const suppressed = report.suppressed.map((f) => ({
    fingerprint: f.violation.fingerprint,
    ruleId: f.violation.ruleId,
    url: f.violation.url,
    target: f.violation.target,
    ...f.suppression,
  }));
  return {
    ...base,
    ...(report.batches.length > 1 || shard ? { batches: report.batches } : {}),
    ...(suppressed.length ? { suppressed } : {}),
    ...(report.pageThresholds.length ? { pageThresholds: report.pageThresholds } : {}),
    ...(report.journeys?.length ? { journeys: report.journeys } : {}),
    ...(shard ? { shard, judging: judgingOf(report) } : {}),
    ...(merged ? { merged } : {}),
  };
}

/** What {@link outputReport} reads of a run's options (`ci`'s, `merge`'s). */
export type ReportOptions = Pick<CiOptions, 'format' | 'reports' | 'sourceMap' | 'routes' | 'sarifCategory'>;

/**
 * Prints the report on stdout (unless `--quiet` without `--format`), writes the report files, the job summary and
 * the annotations; returns the verdict's exit code, or 2 when a report file could not be written after a PASS.
 */
export async function outputReport(
  ctx: CommandContext,
  report: PreparedReport,
  options: ReportOptions,
  run: HtmlRunInfo,
  record: Pick<FormatOptions, 'shard' | 'merged'> = {},
): Promise<number> {
  const v = ctx.values;
  let code: number = report.verdict.exitCode;
  const formatting = {
    sourceMap: options.sourceMap,
    routes: options.routes,
    sarifCategory: options.sarifCategory,
    run,
    ...record,
  };
  if (!v.quiet || v.format !== undefined || ctx.json)
    ctx.out.out(
      formatReport(report, options.format, { ...formatting, color: ctx.out.color }),
      REPORT_SYNTAX[options.format],
    );
  for (const [kind, file] of options.reports) {
    try {
      await writeReport(ctx.out, file, formatReport(report, kind, formatting), REPORT_SYNTAX[kind]);
      // Where each report went, on stderr: stdout stays the report itself.
      if (!v.quiet) ctx.out.err(`wrote ${REPORT_LABELS[kind] ?? kind} to ${file}`);
    } catch (error) {
      // Checked before sending; failing now (disk full, a race) must still not pass for success.
      ctx.out.error(
        `could not write the ${kind} report ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
      if (code === ExitCode.OK) code = ExitCode.USAGE;
    }
  }
  const env = ctx.out.io.env;
  const writes = ctx.embed?.writes;
  if (env.GITHUB_STEP_SUMMARY && writes?.summary !== false)
    await appendStepSummary(ctx.out, env.GITHUB_STEP_SUMMARY, toMarkdown(report));
  // Workflow commands go to stderr: the runner reads both streams, and stdout stays the report's.
  if (env.GITHUB_ACTIONS === 'true' && writes?.annotations !== false)
    for (const line of toGitHubAnnotations(report, { sourceMap: options.sourceMap, routes: options.routes }))
      ctx.out.annotation(line);
  return code;
}

/**
 * How the run was configured, for the HTML report (file names and settings only: never a key or a context value).
 * `perCheck` is the most pages a check of the run took (less than `--urls-per-check` after a Free-plan re-split).
 * @default perCheck options.urlsPerCheck
 * @example runInfo(options, 3, 1, report).settings[0] // ['Pages checked', '3']
 */
export function runInfo(
  options: CiOptions,
  pages: number,
  checks: number,
  report: PreparedReport,
  perCheck: number = options.urlsPerCheck,
): HtmlRunInfo {
  const s = options.suppressions;
  return {
    settings: [
      ['Pages checked', String(pages)],
      ['CI checks', `${checks} (at most ${perCheck} pages of one site each)`],
      ['Threshold (--fail-on)', options.failOn ?? 'the service default'],
      ...options.failOnByUrl.map((r, i): [string, string] => [
        `Per-URL threshold ${i + 1}`,
        `/${r.url}/ → ${r.failOn}`,
      ]),
      ['Set baseline', options.setBaseline ? 'yes' : 'no'],
      ...(options.sitemaps.length ? options.sitemaps.map((m, i): [string, string] => [`Sitemap ${i + 1}`, m]) : []),
      ...(options.changedSince !== undefined ? [['Changed since', options.changedSince] as [string, string]] : []),
      ['Config file', options.configFile ?? 'none'],
      ['Suppressions file', s ? `${s.file} (${s.active.length} in force, ${s.expired.length} expired)` : 'none'],
      [
        'Timeout',
        options.timeout.source.kind !== 'default'
          ? `${options.timeout.value} ms`
          : `${DEFAULT_WAIT_TIMEOUT_MS} ms (default)`,
      ],
    ],
    expired: s?.expired.map(describeSuppression) ?? [],
    stale:
      s && report.check.status === 'COMPLETED'
        ? s.active.filter((e) => !report.suppressionsUsed.includes(e.index)).map(describeSuppression)
        : [],
  };
}

/**
 * Warns on stderr about suppressions: expired entries suppress nothing (said once); an entry in force that matched
 * no finding of a run whose checks all completed is stale (a run that could not read every finding cannot say so).
 */
export function warnAboutSuppressions(
  ctx: CommandContext,
  suppressions: Suppressions | undefined,
  report: PreparedReport,
): void {
  if (!suppressions) return;
  for (const e of suppressions.expired)
    ctx.out.err(
      `warning: suppression ${describeSuppression(e)} in ${suppressions.file} has expired: it no longer suppresses anything; renew it with a new reason or remove it`,
    );
  if (report.check.status !== 'COMPLETED') return;
  const used = new Set(report.suppressionsUsed);
  for (const e of suppressions.active)
    if (!used.has(e.index))
      ctx.out.err(
        `warning: suppression ${describeSuppression(e)} in ${suppressions.file} is stale: it matched no finding; remove it or fix it`,
      );
}
