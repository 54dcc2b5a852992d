// `svc-a11y ci <url…>`: start a CI check, show progress, print findings, write reports, exit with the verdict.
import { type A11yClient, type CiCheck, type FailOn, PollTimeoutError, RateLimitError } from '../../index.js';
import { DEFAULT_WAIT_TIMEOUT_MS } from '../../polling.js';
import { oneOf, parseDuration, parsePair, parsePairs } from '../args.js';
import { ciContext } from '../ci-env.js';
import { DEFAULT_CONFIG_FILE, FAIL_ON, loadConfig, REPORT_FORMATS } from '../config.js';
import { type Command, type CommandContext, version } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { readTextFile } from '../read-file.js';
import { jsonText } from '../safe-text.js';
import { appendStepSummary, checkReportPath, removeEmptyFolders, writeReport } from '../report-files.js';
import { checkSarifMap, prepareReport, toGitHubAnnotations, toJUnit, toMarkdown, toSarif, toText, type CiReport, type PreparedReport, type SarifMapEntry } from '../reporters/index.js';

const FORMATS = REPORT_FORMATS;
type Format = (typeof FORMATS)[number];

/** Renders a prepared report in one format (JSON: the safe copies of the check and its findings, and the verdict). */
export function render(report: PreparedReport, format: Format, color = false, options?: Pick<CiOptions, 'sarifMap'>): string {
  switch (format) {
    case 'json':
      return `${jsonText({ check: report.check, violations: report.violations, verdict: report.verdict })}\n`;
    case 'junit':
      return toJUnit(report);
    case 'sarif':
      return `${JSON.stringify(toSarif(report, { toolVersion: version, sourceMap: options?.sarifMap }), null, 2)}\n`;
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

/** The parsed options of a CI check run. */
export interface CiOptions {
  urls: string[];
  format: Format;
  reports: Array<readonly [Format, string]>;
  failOn: FailOn | undefined;
  setBaseline: boolean;
  timeoutMs: number | undefined;
  /** Where `timeoutMs` came from, for messages: `--timeout` or the config file's `timeout`. */
  timeoutFrom: string | undefined;
  context: Record<string, string>;
  /** URL path prefix → repository-relative source file, for SARIF locations. */
  sarifMap: SarifMapEntry[];
  /** Folders the report-path check created, removed again if the run ends without writing its reports. */
  createdFolders: string[];
}

/** The service's limit on URLs per CI check (document §4: one to twenty). */
export const MAX_URLS = 20;
const TOO_MANY_URLS = `a CI check takes at most ${MAX_URLS} URLs (the service's limit per check). Split them into several checks, e.g. one job of a CI matrix per group of pages`;

/**
 * Parses and checks every option of `ci` (and `demo`) before anything is sent: flags win over the config file
 * (`--config`, else `svc-a11y.config.json` in the working directory; `demo` reads none); report paths must be
 * writable.
 */
export function ciOptions(ctx: CommandContext, { readConfig = true } = {}): CiOptions {
  const v = ctx.values;
  const config = readConfig ? loadConfig(v.config as string | undefined, process.cwd()) : undefined;
  const fromConfig = config ? ` (from ${config.file})` : '';
  // URLs from the command line (arguments and --urls-file) replace the config file's, as every other flag does.
  const fromFile = readUrlsFile(v['urls-file'] as string | undefined);
  if (v['urls-file'] !== undefined && fromFile.length === 0) throw new UsageError(`--urls-file: ${v['urls-file'] as string} has no URLs (one a line; blank lines and # comments are skipped)`, 'ci');
  const flagUrls = [...ctx.args, ...fromFile];
  const urls = flagUrls.length ? flagUrls : (config?.urls ?? []);
  if (urls.length > MAX_URLS) {
    throw new UsageError(`${urls.length} URLs given, but ${TOO_MANY_URLS}`, 'ci');
  }
  const flagReports = ((v.report as string[] | undefined) ?? []).map((pair) => {
    const [kind, file] = parsePair(pair, '--report');
    return [oneOf(kind, FORMATS, '--report FORMAT'), file] as const;
  });
  // One pair at a time: two reports of one format (junit=a.xml, junit=b.xml) are both written.
  const reports = flagReports.length ? flagReports : Object.entries(config?.reports ?? {}).map(([kind, file]) => [kind as Format, file] as const);
  const flagTimeout = v.timeout as string | undefined;
  const options: Omit<CiOptions, 'createdFolders'> = {
    urls,
    format: ctx.json ? 'json' : oneOf((v.format as string | undefined) ?? config?.format ?? 'text', FORMATS, '--format'),
    reports,
    failOn: v['fail-on'] !== undefined ? oneOf(v['fail-on'] as string, FAIL_ON, '--fail-on') : config?.failOn,
    setBaseline: v['set-baseline'] === true || config?.setBaseline === true,
    timeoutMs: flagTimeout === undefined ? config?.timeout : parseDuration(flagTimeout, '--timeout'),
    timeoutFrom: flagTimeout !== undefined ? '--timeout' : config?.timeout !== undefined ? `timeout in ${config.file}` : undefined,
    context: { ...ciContext(ctx.out.io.env), ...config?.context, ...parsePairs((v.context as string[] | undefined) ?? [], '--context') },
    sarifMap: sarifMapOf(config?.sarifMap, v['sarif-map'] as string[] | undefined),
  };
  // Last, once every other option is known good: the check creates the reports' missing folders.
  const createdFolders: string[] = [];
  try {
    for (const [kind, file] of reports) createdFolders.push(...checkReportPath(file, `--report ${kind}${flagReports.length ? '' : fromConfig}`));
  } catch (error) {
    removeEmptyFolders(createdFolders);
    throw error;
  }
  return { ...options, createdFolders };
}

/**
 * Runs `run`; if it throws (a refused key, no URLs, an API error), first removes the report folders the path
 * check created and no report went into.
 */
export async function removingUnusedFolders(options: CiOptions, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    removeEmptyFolders(options.createdFolders);
    throw error;
  }
}

/** The SARIF source map: the config file's, then `--sarif-map`'s (a later equal prefix wins), each entry checked. */
function sarifMapOf(fromConfig: Record<string, string> | undefined, fromFlags: string[] | undefined): SarifMapEntry[] {
  const entries = [...Object.entries(fromConfig ?? {}), ...(fromFlags ?? []).map((pair) => parsePair(pair, '--sarif-map'))];
  try {
    return checkSarifMap(entries.map(([prefix, file]) => ({ prefix, file })));
  } catch (error) {
    throw new UsageError(`--sarif-map / sarifMap: ${(error as Error).message}`);
  }
}

/** URLs of `--urls-file`: one a line; blank lines and `#` comments are skipped. Read under a size cap, never hanging. */
function readUrlsFile(file: string | undefined): string[] {
  if (file === undefined) return [];
  return readTextFile(file, { what: '--urls-file' })
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** Runs a CI check end to end with an already-built client (shared with `demo`). */
export async function runCiCheck(ctx: CommandContext, client: A11yClient, options: CiOptions = ciOptions(ctx)): Promise<number> {
  const { urls, failOn, setBaseline, timeoutMs, timeoutFrom, context } = options;
  let check: CiCheck;
  let seen: CiCheck | undefined;
  try {
    check = await client.ciChecks.createAndWait(
      { urls, failOn, setBaseline, context },
      {
        timeoutMs,
        onProgress: (c) => {
          seen = c;
          ctx.progress.update({ status: c.status, detail: pagesDetail(c.pages) });
        },
      },
    );
  } catch (error) {
    const ended = waitEnded(error, seen, timeoutMs === undefined ? `${DEFAULT_WAIT_TIMEOUT_MS} ms (the default --timeout)` : `${timeoutMs} ms (${timeoutFrom})`);
    if (!ended) throw error;
    // The check exists but its wait ended first: its reports still carry what is known, so an `if: always()`
    // upload step finds them, and they say it was not judged.
    ctx.progress.done();
    // One quick look for its latest state (bounded: the service may be what made the wait end), else the last
    // one seen.
    const last = await client.ciChecks
      .get(ended.jobId, { timeoutMs: 5_000, maxRetries: 0 })
      .catch((): CiCheck => seen ?? { id: ended.jobId, status: (ended.lastStatus ?? 'RUNNING') as CiCheck['status'] });
    const reason = `${ended.reason}; it was ${last.status ?? 'in an unknown state'} when last seen`;
    const code = await writeReports(ctx, { check: last, violations: [] }, options, `the wait ${reason}`);
    ctx.out.err(`error: CI check ${ended.jobId} ${reason}. Its reports were written with what is known.`);
    return code;
  }
  ctx.progress.done();
  // Findings are read only after a terminal state, and a check that failed has none to read.
  const violations = check.status === 'COMPLETED' ? await client.ciChecks.listViolations(check.id) : [];
  return writeReports(ctx, { check, violations }, options);
}

/**
 * Whether `error` ended the wait of a check that exists: the wait's deadline passed, or the service asked for
 * a pause that ends after it. Anything else (the check was never created, an API error) is not.
 */
function waitEnded(error: unknown, seen: CiCheck | undefined, limit: string): { jobId: string; lastStatus?: string | undefined; reason: string } | undefined {
  if (error instanceof PollTimeoutError && error.jobId !== undefined) {
    return { jobId: error.jobId, lastStatus: error.lastStatus, reason: `did not finish within ${limit}` };
  }
  if (error instanceof RateLimitError && seen?.id !== undefined) {
    const until = error.retryAfterMs === undefined ? '' : ` for ${Math.ceil(error.retryAfterMs / 1000)} s`;
    return { jobId: seen.id, lastStatus: seen.status, reason: `was paused by the service${until}, past the wait's limit of ${limit}` };
  }
  return undefined;
}

/**
 * Prepares the report once (made safe, judged), prints it, writes the report files, the job summary and the
 * annotations; returns the verdict's exit code.
 */
async function writeReports(ctx: CommandContext, raw: { check: CiCheck; violations: CiReport['violations'] }, options: CiOptions, ended?: string): Promise<number> {
  const v = ctx.values;
  const report = prepareReport(raw, { secrets: ctx.out.secrets, failOn: options.failOn, waitEnded: ended });
  let code: number = report.verdict.exitCode;
  if (!v.quiet || v.format !== undefined || ctx.json) ctx.out.out(render(report, options.format, ctx.out.color, options));
  for (const [kind, file] of options.reports) {
    try {
      await writeReport(ctx.out, file, render(report, kind, false, options));
    } catch (error) {
      // Checked before sending; failing now (disk full, a race) must still not pass for success.
      ctx.out.err(`error: could not write the ${kind} report ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      if (code === ExitCode.OK) code = ExitCode.USAGE;
    }
  }
  const env = ctx.out.io.env;
  if (env.GITHUB_STEP_SUMMARY) await appendStepSummary(ctx.out, env.GITHUB_STEP_SUMMARY, toMarkdown(report));
  // Workflow commands go to stderr: the runner reads both streams, and stdout stays the report's.
  if (env.GITHUB_ACTIONS === 'true') for (const line of toGitHubAnnotations(report)) ctx.out.annotation(line);
  if (report.verdict.outcome === 'UNKNOWN' && ended === undefined) ctx.out.err(`error: the check could not be judged: ${report.verdict.reasons.join('; ')}`);
  return code;
}

/** `svc-a11y ci`. */
export const ciCommand: Command = {
  name: 'ci',
  summary: 'Run a CI check of 1–20 URLs and exit with its verdict',
  // Zero when the config file or --urls-file names them; more than 20 in all is refused with the reason.
  args: { min: 0, max: MAX_URLS, names: '[url…]', note: TOO_MANY_URLS },
  options: {
    'fail-on': { type: 'string' },
    'set-baseline': { type: 'boolean' },
    context: { type: 'string', multiple: true },
    timeout: { type: 'string' },
    format: { type: 'string' },
    report: { type: 'string', multiple: true },
    'sarif-map': { type: 'string', multiple: true },
    'urls-file': { type: 'string' },
    config: { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
  },
  usage: `svc-a11y ci [url…] [options]

  --fail-on <rule>       NEW_CRITICAL | ANY_CRITICAL | SERIOUS_OR_WORSE | NONE (service default when omitted)
  --set-baseline         save the completed check as the baseline of future checks
  --context key=value    caller metadata (repeatable); repository, branch, commit and pull request are
                         filled from the CI environment when its usual variables exist
  --timeout <duration>   overall wait, e.g. 10m (default 10m)
  --format <format>      stdout format: text | json | junit | sarif | markdown (default text)
  --report FORMAT=FILE   also write a report file (repeatable), e.g. --report junit=a11y.xml --report sarif=a11y.sarif;
                         every path is checked before the check starts (exit 2 naming it), and the files are
                         written on every outcome that has a check (PASS, FAIL, a failed job, a wait that timed out)
  --sarif-map PREFIX=FILE  SARIF: findings on pages under a URL path prefix point at a source file (repeatable),
                         e.g. --sarif-map /checkout=src/pages/checkout.tsx (longest prefix wins). SARIF holds
                         the findings that break the threshold only: each result is an alert
  --urls-file <file>     URLs to check, one a line (# comments and blank lines skipped); at most 20 in all
  --config <file>        a JSON config file (default: ${DEFAULT_CONFIG_FILE} in the working directory, if present)
                         with urls, failOn, setBaseline, timeout, format, reports {format: file}, context and
                         sarifMap {prefix: file}; flags win over it
  -q, --quiet            no progress and no stdout report (reports and the exit code remain)

  With $GITHUB_STEP_SUMMARY set, a markdown summary is appended to it (a summary that cannot be written is a
  warning, not a failure); with GITHUB_ACTIONS=true, up to 10 error annotations are printed for findings that
  break the threshold.`,
  run: (ctx) => {
    const options = ciOptions(ctx); // every flag, the config file and the report paths, before anything is sent
    return removingUnusedFolders(options, async () => {
      if (options.urls.length === 0) throw new UsageError(`no URLs to check: pass them as arguments, with --urls-file, or as "urls" in ${DEFAULT_CONFIG_FILE}`, 'ci');
      return runCiCheck(ctx, ctx.client(), options);
    });
  },
};
