// The job commands: start a scan, a site run, a journey run or a fix verification, show progress, print the
// result, and exit 4 when the job ended FAILED (or a page could not be checked). One shared mechanism,
// four small specs.
import { safeLine } from '../io/safe-text.js';
import {
  type A11yClient,
  failureOf,
  type FixVerification,
  type JourneyRun,
  type Scan,
  type ScanRun,
  type Violation,
  type WaitOptions,
} from '../../index.js';
import { type Command, printJson } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { countsText, table } from '../io/tables.js';
import { SETTINGS, settingOf } from '../settings/settings.js';
import { optionsHelp, optionsOf } from '../settings/flags.js';
import { isPageFailure } from '../verdict/threshold.js';

// The document lists no terminal statuses for these jobs; COMPLETED is the one success it shows (CI checks).
// Like `ci`, anything else — FAILED, or a status the CLI does not know — fails closed: a job that may not
// have run fully never exits 0.
const failed = (job: { status?: string; failureReason?: unknown; failureReasonCode?: unknown }) =>
  job.status !== 'COMPLETED' || job.failureReason !== undefined || job.failureReasonCode !== undefined;

function findingsText(violations: Violation[]): string {
  return violations.length
    ? table(
        ['IMPACT', 'RULE', 'WCAG', 'URL', 'SELECTOR'],
        violations.map((v) => [v.impact, v.ruleId, v.wcagSc?.join(' '), v.url, v.target]),
      )
    : 'No findings.\n';
}

/** What differs between the job commands. */
interface JobSpec<J extends { status: string }, R> {
  name: string;
  summary: string;
  argName: string;
  /** Starts the job and waits for its terminal state. */
  start(client: A11yClient, arg: string, wait: WaitOptions<J>): Promise<J>;
  /** Progress detail, e.g. `pages 3/5`. */
  detail?(job: J): string | undefined;
  /** What is printed: `--json` prints it as is, text through `text`. */
  result(client: A11yClient, job: J): Promise<R>;
  text(result: R): string;
  /** True when the job could not run fully (exit 4). */
  incomplete(job: J): boolean;
}

function jobCommand<J extends { status: string }, R>(spec: JobSpec<J, R>): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    args: { min: 1, max: 1, names: spec.argName },
    options: optionsOf('jobs'),
    usage: `svc-a11y ${spec.name} ${spec.argName} [--timeout 10m]\n\n${optionsHelp('jobs', 23)}`,
    async run(ctx) {
      const client = ctx.client();
      const timeoutMs = settingOf(ctx, SETTINGS.timeout).value;
      const job = await spec.start(client, ctx.args[0]!, {
        timeoutMs,
        onProgress: (j) => ctx.progress.update({ status: j.status, detail: spec.detail?.(j) }),
      });
      ctx.progress.done();
      const result = await spec.result(client, job);
      if (ctx.json) printJson(ctx, result);
      else ctx.out.out(spec.text(result));
      return spec.incomplete(job) ? ExitCode.INCOMPLETE : ExitCode.OK;
    },
  };
}

/** ` (CODE: words)`, ` (step 2: CODE: words)` for a journey, or '' when the job gives no failure. */
function because(job: unknown): string {
  const failure = failureOf(job);
  // The service's words: one line, controls and invisible characters made visible (the key is redacted on output).
  return failure
    ? ` (${failure.stepIndex === undefined ? '' : `step ${failure.stepIndex}: `}${safeLine(failure.message, [])})`
    : '';
}

/** `svc-a11y scan <url>`. */
export const scanCommand = jobCommand<Scan, { scan: Scan; violations: Violation[] }>({
  name: 'scan',
  summary: 'Scan one page and print its findings',
  argName: '<url>',
  start: (client, url, wait) => client.scans.createAndWait({ url }, wait),
  result: async (client, scan) => ({
    scan,
    violations: failed(scan) ? [] : await client.scans.listViolations(scan.id),
  }),
  text: ({ scan, violations }) =>
    `Scan ${scan.id}: ${scan.status}${because(scan)}\n${countsText(scan.counts)}\n${findingsText(violations)}`,
  incomplete: failed,
});

/** `svc-a11y site-run <siteId>`. */
export const siteRunCommand = jobCommand<ScanRun, { scanRun: ScanRun; violations: Violation[] }>({
  name: 'site-run',
  summary: 'Run a full-site scan and print its run-level findings',
  argName: '<siteId>',
  start: (client, siteId, wait) => client.scanRuns.createAndWait({ siteId }, wait),
  detail: (run) => (run.pagesTotal ? `pages ${run.pagesDone ?? 0}/${run.pagesTotal}` : undefined),
  result: async (client, scanRun) => ({
    scanRun,
    violations: failed(scanRun) ? [] : await client.scanRuns.listViolations(scanRun.id),
  }),
  text: ({ scanRun: r, violations }) =>
    `Scan run ${r.id}: ${r.status}, pages ${r.pagesDone ?? 0}/${r.pagesTotal ?? 0}${because(r)}\n${countsText(r.counts)}\n${findingsText(violations)}`,
  incomplete: failed,
});

/** `svc-a11y journey-run <journeyId>`. */
export const journeyRunCommand = jobCommand<JourneyRun, JourneyRun>({
  name: 'journey-run',
  summary: 'Run a saved journey and print its checkpoints',
  argName: '<journeyId>',
  start: (client, journeyId, wait) => client.journeys.runAndWait(journeyId, wait),
  detail: (run) => (run.checkpoints?.length ? `checkpoints ${run.checkpoints.length}` : undefined),
  result: async (_client, run) => run,
  text: (run) =>
    `Journey run ${run.id}: ${run.status}${because(run)}\n${table(
      ['CHECKPOINT', 'STATUS', 'URL', 'SCAN'],
      (run.checkpoints ?? []).map((c) => [c.label, c.status, c.url, c.scanId]),
    )}`,
  incomplete: failed,
});

/** `svc-a11y verify-fix <remediationItemId>`. */
export const verifyFixCommand = jobCommand<FixVerification, FixVerification>({
  name: 'verify-fix',
  summary: 'Re-check a tracked fix and print the outcome',
  argName: '<remediationItemId>',
  start: (client, id, wait) => client.fixes.verifyAndWait(id, wait),
  detail: (f) => (f.pagesRequested ? `pages ${f.pagesScanned ?? 0}/${f.pagesRequested}` : undefined),
  result: async (_client, check) => check,
  text: (c) =>
    `Fix verification ${c.id}: ${c.status}, outcome ${c.outcome ?? '-'}${because(c)}\n` +
    `nodes found ${c.nodesFound ?? '-'}, pages scanned ${c.pagesScanned ?? 0}/${c.pagesRequested ?? 0}, failed ${c.pagesFailed ?? 0}\n` +
    table(
      ['PAGE', 'STATUS'],
      (c.pages ?? []).map((p) => [p.url, p.status]),
    ),
  incomplete: (c) => failed(c) || Boolean(c.pages?.some(isPageFailure)),
});
