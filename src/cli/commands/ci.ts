// `svc-a11y ci <url…>`: start a CI check, show progress, print findings, write reports, exit with the verdict.
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { A11yClient, CiCheck, FailOn } from '../../index.js';
import { oneOf, parseDuration, parsePairs } from '../args.js';
import { ciContext } from '../ci-env.js';
import { type Command, type CommandContext, version } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { toGitHubAnnotations, toJUnit, toMarkdown, toSarif, toText, type CiReport } from '../reporters/index.js';
import { isPageFailure } from '../threshold.js';

const FORMATS = ['text', 'json', 'junit', 'sarif', 'markdown'] as const;
const FAIL_ON = ['NEW_CRITICAL', 'ANY_CRITICAL', 'SERIOUS_OR_WORSE', 'NONE'] as const;
type Format = (typeof FORMATS)[number];

/** Renders a report in one format. */
export function render(report: CiReport, format: Format, color = false): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'junit':
      return toJUnit(report);
    case 'sarif':
      return `${JSON.stringify(toSarif(report, { toolVersion: version }), null, 2)}\n`;
    case 'markdown':
      return toMarkdown(report);
    default:
      return toText(report, { color });
  }
}

/** `pages 3/5` from a check's page entries. */
export function pagesDetail(pages: CiCheck['pages']): string | undefined {
  if (!pages?.length) return undefined;
  const done = pages.filter((p) => p.status !== 'QUEUED' && p.status !== 'RUNNING').length;
  return `pages ${done}/${pages.length}`;
}

/** Exit code of a terminal check: 4 when it could not run fully, 1 on FAIL, else 0. */
export function exitCodeOf(check: CiCheck): number {
  if (check.status !== 'COMPLETED' || check.pages?.some(isPageFailure)) return ExitCode.INCOMPLETE;
  return check.verdict === 'FAIL' ? ExitCode.VERDICT_FAIL : ExitCode.OK;
}

/** The parsed options of a CI check run. */
export interface CiOptions {
  format: Format;
  reports: Array<readonly [Format, string]>;
  failOn: FailOn | undefined;
  timeoutMs: number | undefined;
  context: Record<string, string>;
}

/** Parses and checks every option of `ci` (and `demo`) before anything is sent. */
export function ciOptions(ctx: CommandContext): CiOptions {
  const v = ctx.values;
  return {
    format: ctx.json ? 'json' : oneOf((v.format as string | undefined) ?? 'text', FORMATS, '--format'),
    // One pair at a time: two reports of one format (junit=a.xml, junit=b.xml) are both written.
    reports: ((v.report as string[] | undefined) ?? []).map((pair) => {
      const [kind, file] = Object.entries(parsePairs([pair], '--report'))[0]!;
      return [oneOf(kind, FORMATS, '--report FORMAT'), file] as const;
    }),
    failOn: v['fail-on'] === undefined ? undefined : oneOf(v['fail-on'] as string, FAIL_ON, '--fail-on'),
    timeoutMs: v.timeout === undefined ? undefined : parseDuration(v.timeout as string, '--timeout'),
    context: { ...ciContext(ctx.out.io.env), ...parsePairs((v.context as string[] | undefined) ?? [], '--context') },
  };
}

/** Runs a CI check end to end with an already-built client (shared with `demo`). */
export async function runCiCheck(ctx: CommandContext, client: A11yClient, urls: string[], options: CiOptions = ciOptions(ctx)): Promise<number> {
  const v = ctx.values;
  const { format, reports, failOn, timeoutMs, context } = options;
  const check = await client.ciChecks.createAndWait(
    { urls, failOn, setBaseline: v['set-baseline'] === true, context },
    { timeoutMs, onProgress: (c) => ctx.progress.update({ status: c.status, detail: pagesDetail(c.pages) }) },
  );
  ctx.progress.done();
  // Findings are read only after a terminal state, and a check that failed has none to read.
  const violations = check.status === 'COMPLETED' ? await client.ciChecks.listViolations(check.id) : [];
  const report: CiReport = { check, violations };

  if (!v.quiet || v.format !== undefined || ctx.json) ctx.out.out(render(report, format, ctx.out.color));
  for (const [kind, file] of reports) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, render(report, kind));
  }
  const env = ctx.out.io.env;
  if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, toMarkdown(report));
  // Workflow commands go to stderr: the runner reads both streams, and stdout stays the report's.
  if (env.GITHUB_ACTIONS === 'true') for (const line of toGitHubAnnotations(report)) ctx.out.err(line);
  return exitCodeOf(check);
}

/** `svc-a11y ci`. */
export const ciCommand: Command = {
  name: 'ci',
  summary: 'Run a CI check of 1–20 URLs and exit with its verdict',
  args: { min: 1, max: 20, names: '<url…>' },
  options: {
    'fail-on': { type: 'string' },
    'set-baseline': { type: 'boolean' },
    context: { type: 'string', multiple: true },
    timeout: { type: 'string' },
    format: { type: 'string' },
    report: { type: 'string', multiple: true },
    quiet: { type: 'boolean', short: 'q' },
  },
  usage: `svc-a11y ci <url…> [options]

  --fail-on <rule>       NEW_CRITICAL | ANY_CRITICAL | SERIOUS_OR_WORSE | NONE (service default when omitted)
  --set-baseline         save the completed check as the baseline of future checks
  --context key=value    caller metadata (repeatable); repository, branch, commit and pull request are
                         filled from the CI environment when its usual variables exist
  --timeout <duration>   overall wait, e.g. 10m (default 10m)
  --format <format>      stdout format: text | json | junit | sarif | markdown (default text)
  --report FORMAT=FILE   also write a report file (repeatable), e.g. --report junit=a11y.xml --report sarif=a11y.sarif
  -q, --quiet            no progress and no stdout report (reports and the exit code remain)

  With $GITHUB_STEP_SUMMARY set, a markdown summary is appended to it; with GITHUB_ACTIONS=true, up to 10
  ::error annotations are printed for findings that break the threshold.`,
  run: (ctx) => runCiCheck(ctx, ctx.client(), ctx.args),
};
