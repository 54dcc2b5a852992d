// The job commands: start a scan, a site run, a journey run or a fix verification, show progress, print the
// result, and exit 4 when the job ended FAILED (or a page could not be checked).
import type { FixVerification, JourneyRun, Scan, ScanRun, Violation } from '../../index.js';
import { parseDuration } from '../args.js';
import { type Command, type CommandContext, printJson } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { countsText, table } from '../render.js';
import { isPageFailure } from '../threshold.js';

const waitOptions = { timeout: { type: 'string' } } as const;
const timeoutOf = (ctx: CommandContext) => (ctx.values.timeout === undefined ? undefined : parseDuration(ctx.values.timeout as string, '--timeout'));
const waitUsage = '  --timeout <duration>   overall wait, e.g. 10m (default 10m)';

// The document shows FAILED (with a failure reason) as the failed terminal state; other statuses are not listed.
const failed = (job: { status?: string; failureReason?: unknown; failureReasonCode?: unknown }) =>
  job.status === 'FAILED' || job.failureReason !== undefined || job.failureReasonCode !== undefined;

function findingsText(violations: Violation[]): string {
  return violations.length
    ? table(['IMPACT', 'RULE', 'WCAG', 'URL', 'SELECTOR'], violations.map((v) => [v.impact, v.ruleId, v.wcagSc?.join(' '), v.url, v.target]))
    : 'No findings.\n';
}

/** `svc-a11y scan <url>`. */
export const scanCommand: Command = {
  name: 'scan',
  summary: 'Scan one page and print its findings',
  args: { min: 1, max: 1, names: '<url>' },
  options: waitOptions,
  usage: `svc-a11y scan <url> [--timeout 10m]\n\n${waitUsage}`,
  async run(ctx) {
    const client = ctx.client();
    const scan: Scan = await client.scans.createAndWait({ url: ctx.args[0]! }, { timeoutMs: timeoutOf(ctx), onProgress: (s) => ctx.progress.update({ status: s.status }) });
    ctx.progress.done();
    const violations = failed(scan) ? [] : await client.scans.listViolations(scan.id);
    if (ctx.json) printJson(ctx, { scan, violations });
    else ctx.out.out(`Scan ${scan.id}: ${scan.status}${scan.failureReason ? ` (${scan.failureReason.code}: ${scan.failureReason.reason})` : ''}\n${countsText(scan.counts)}\n${findingsText(violations)}`);
    return failed(scan) ? ExitCode.INCOMPLETE : ExitCode.OK;
  },
};

/** `svc-a11y site-run <siteId>`. */
export const siteRunCommand: Command = {
  name: 'site-run',
  summary: 'Run a full-site scan and print its run-level findings',
  args: { min: 1, max: 1, names: '<siteId>' },
  options: waitOptions,
  usage: `svc-a11y site-run <siteId> [--timeout 10m]\n\n${waitUsage}`,
  async run(ctx) {
    const client = ctx.client();
    const run: ScanRun = await client.scanRuns.createAndWait(
      { siteId: ctx.args[0]! },
      { timeoutMs: timeoutOf(ctx), onProgress: (r) => ctx.progress.update({ status: r.status, detail: r.pagesTotal ? `pages ${r.pagesDone ?? 0}/${r.pagesTotal}` : undefined }) },
    );
    ctx.progress.done();
    const violations = failed(run) ? [] : await client.scanRuns.listViolations(run.id);
    if (ctx.json) printJson(ctx, { scanRun: run, violations });
    else ctx.out.out(`Scan run ${run.id}: ${run.status}, pages ${run.pagesDone ?? 0}/${run.pagesTotal ?? 0}${run.failureReason ? ` (${run.failureReason.code}: ${run.failureReason.reason})` : ''}\n${countsText(run.counts)}\n${findingsText(violations)}`);
    return failed(run) ? ExitCode.INCOMPLETE : ExitCode.OK;
  },
};

/** `svc-a11y journey-run <journeyId>`. */
export const journeyRunCommand: Command = {
  name: 'journey-run',
  summary: 'Run a saved journey and print its checkpoints',
  args: { min: 1, max: 1, names: '<journeyId>' },
  options: waitOptions,
  usage: `svc-a11y journey-run <journeyId> [--timeout 10m]\n\n${waitUsage}`,
  async run(ctx) {
    const run: JourneyRun = await ctx.client().journeys.runAndWait(ctx.args[0]!, { timeoutMs: timeoutOf(ctx), onProgress: (r) => ctx.progress.update({ status: r.status, detail: r.checkpoints?.length ? `checkpoints ${r.checkpoints.length}` : undefined }) });
    ctx.progress.done();
    if (ctx.json) printJson(ctx, run);
    else {
      const failure = run.failureReasonCode ? ` (step ${run.failedStepIndex ?? '?'}: ${run.failureReasonCode}${run.failureReasonText ? ` — ${run.failureReasonText}` : ''})` : '';
      ctx.out.out(`Journey run ${run.id}: ${run.status}${failure}\n${table(['CHECKPOINT', 'STATUS', 'URL', 'SCAN'], (run.checkpoints ?? []).map((c) => [c.label, c.status, c.url, c.scanId]))}`);
    }
    return failed(run) ? ExitCode.INCOMPLETE : ExitCode.OK;
  },
};

/** `svc-a11y verify-fix <remediationItemId>`. */
export const verifyFixCommand: Command = {
  name: 'verify-fix',
  summary: 'Re-check a tracked fix and print the outcome',
  args: { min: 1, max: 1, names: '<remediationItemId>' },
  options: waitOptions,
  usage: `svc-a11y verify-fix <remediationItemId> [--timeout 10m]\n\n${waitUsage}`,
  async run(ctx) {
    const check: FixVerification = await ctx.client().fixes.verifyAndWait(ctx.args[0]!, { timeoutMs: timeoutOf(ctx), onProgress: (f) => ctx.progress.update({ status: f.status, detail: f.pagesRequested ? `pages ${f.pagesScanned ?? 0}/${f.pagesRequested}` : undefined }) });
    ctx.progress.done();
    if (ctx.json) printJson(ctx, check);
    else ctx.out.out(`Fix verification ${check.id}: ${check.status}, outcome ${check.outcome ?? '-'}${check.failureReasonCode ? ` (${check.failureReasonCode})` : ''}\nnodes found ${check.nodesFound ?? '-'}, pages scanned ${check.pagesScanned ?? 0}/${check.pagesRequested ?? 0}, failed ${check.pagesFailed ?? 0}\n${table(['PAGE', 'STATUS'], (check.pages ?? []).map((p) => [p.url, p.status]))}`);
    return failed(check) || check.pages?.some(isPageFailure) ? ExitCode.INCOMPLETE : ExitCode.OK;
  },
};
