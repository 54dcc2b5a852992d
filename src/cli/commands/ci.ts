// `svc-a11y ci <url…>`: check a site's pages as one gate. URLs come from arguments, --urls-file, the config file
// and sitemaps; they are normalised and de-duplicated, optionally narrowed to the pages a change touched
// (--changed-since), split into CI checks of at most 20 pages of one site, run concurrently under one deadline
// and rate budget, each prepared once (made safe, suppressions applied, judged), then aggregated into one
// report of each kind and one exit code.
import { dirname, resolve } from 'node:path';
import { type A11yClient, DEFAULT_WAIT_TIMEOUT_MS, type FailOn } from '../../index.js';
import { oneOf, parsePair, parsePairs } from '../args.js';
import { batchLabel, MAX_URLS_PER_CHECK, planBatches } from '../batches.js';
import { ciContext } from '../ci-env.js';
import { DEFAULT_CONFIG_FILE, FAIL_ON, loadConfig, REPORT_FORMATS } from '../config.js';
import { type Command, type CommandContext, version } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { parseDuration } from '../args.js';
import { readTextFile } from '../read-file.js';
import { jsonText } from '../safe-text.js';
import { appendStepSummary, checkReportPath, removeEmptyFolders, writeReport } from '../report-files.js';
import {
  aggregateReports,
  checkSarifMap,
  prepareReport,
  toGitHubAnnotations,
  toHtml,
  toJUnit,
  toMarkdown,
  toSarif,
  toText,
  type HtmlRunInfo,
  type PreparedReport,
  type SarifMapEntry,
} from '../reporters/index.js';
import { runBatches } from '../run-batches.js';
import { describeSuppression, loadSuppressions, suppressionsPath, type Suppressions } from '../suppressions.js';
import { uniquePageUrls, urlPattern } from '../page-urls.js';
import { collectUrls, tooManyUrls } from '../collect-urls.js';
import type { UrlFailOn } from '../url-fail-on.js';

export { pagesDetail } from '../run-batches.js';
export { collectUrls } from '../collect-urls.js';

const FORMATS = REPORT_FORMATS;
type Format = (typeof FORMATS)[number];

/** Renders a prepared report in one format (JSON: the safe copies of the check and its findings, and the verdict). */
export function render(
  report: PreparedReport,
  format: Format,
  color = false,
  options?: Partial<Pick<CiOptions, 'sarifMap'>> & { run?: HtmlRunInfo },
): string {
  switch (format) {
    case 'json':
      return `${jsonText(jsonOf(report))}\n`;
    case 'junit':
      return toJUnit(report);
    case 'sarif':
      return `${JSON.stringify(toSarif(report, { toolVersion: version, sourceMap: options?.sarifMap }), null, 2)}\n`;
    case 'markdown':
      return toMarkdown(report);
    case 'html':
      return toHtml(report, { toolVersion: version, run: options?.run });
    default:
      return toText(report, { color });
  }
}

// A run of one check keeps the shape it always had; several add the batches and what was suppressed.
function jsonOf(report: PreparedReport): unknown {
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
    ...(report.batches.length > 1 ? { batches: report.batches } : {}),
    ...(suppressed.length ? { suppressed } : {}),
  };
}

/** The parsed options of a CI run. */
export interface CiOptions {
  /** URLs from the arguments and --urls-file (or the config file), normalised, each once. */
  urls: string[];
  /** Sitemaps to read (URLs or files). */
  sitemaps: string[];
  /** How sitemap pages are filtered and rewritten. */
  sitemapRules: { exclude: RegExp[]; find?: RegExp | undefined; replace?: string | undefined };
  /** Most URLs a run checks. */
  maxUrls: number;
  /** `--changed-since`: the git ref, if given. */
  changedSince: string | undefined;
  format: Format;
  reports: Array<readonly [Format, string]>;
  failOn: FailOn | undefined;
  /** Per-URL thresholds (config file `failOnByUrl`). */
  failOnByUrl: UrlFailOn[];
  /** Reviewed suppressions, if a file was given or found. */
  suppressions: Suppressions | undefined;
  setBaseline: boolean;
  timeoutMs: number | undefined;
  /** Where `timeoutMs` came from, for messages: `--timeout` or the config file's `timeout`. */
  timeoutFrom: string | undefined;
  context: Record<string, string>;
  /** URL path prefix → repository-relative source file, for SARIF locations and --changed-since. */
  sarifMap: SarifMapEntry[];
  /** The config file read, if any. */
  configFile: string | undefined;
  /** Folders the report-path check created, removed again if the run ends without writing its reports. */
  createdFolders: string[];
}

/** The service's limit on URLs per CI check (document §4: one to twenty). */
export const MAX_URLS = MAX_URLS_PER_CHECK;

/** Most URLs taken as arguments (more go in `--urls-file` or a sitemap). */
export const MAX_ARGUMENT_URLS = 5_000;

/**
 * Most URLs one run checks unless `--max-urls` says otherwise.
 * @default 500
 */
export const DEFAULT_MAX_URLS = 500;

/**
 * Parses and checks every option of `ci` (and `demo`) before anything is sent: flags win over the config file
 * (`--config`, else `svc-a11y.config.json` in the working directory; `demo` reads none); the suppressions file
 * is read and checked; report paths must be writable.
 */
export function ciOptions(ctx: CommandContext, { readConfig = true } = {}): CiOptions {
  const v = ctx.values;
  const config = readConfig ? loadConfig(v.config as string | undefined, process.cwd()) : undefined;
  const fromConfig = config ? ` (from ${config.file})` : '';
  // URLs from the command line (arguments, --urls-file, --sitemap) replace the config file's, as every other
  // flag does.
  const fromFile = readUrlsFile(v['urls-file'] as string | undefined);
  if (v['urls-file'] !== undefined && fromFile.length === 0)
    throw new UsageError(
      `--urls-file: ${v['urls-file'] as string} has no URLs (one a line; blank lines and # comments are skipped)`,
      'ci',
    );
  const flagSitemaps = (v.sitemap as string[] | undefined) ?? [];
  const flagUrls = [...ctx.args, ...fromFile];
  const fromCommandLine = flagUrls.length > 0 || flagSitemaps.length > 0;
  const urls = uniquePageUrls(fromCommandLine ? flagUrls : (config?.urls ?? []), (i) => `urls[${i}]`);
  const sitemaps = fromCommandLine ? flagSitemaps : (config?.sitemap ?? []);
  const maxUrls =
    v['max-urls'] !== undefined
      ? positiveInt(v['max-urls'] as string, '--max-urls')
      : (config?.maxUrls ?? DEFAULT_MAX_URLS);
  if (urls.length > maxUrls)
    throw tooManyUrls(
      urls.length,
      maxUrls,
      v['max-urls'] !== undefined ? '' : config?.maxUrls !== undefined ? fromConfig : ' (the default)',
    );
  const find = (v['sitemap-find'] as string | undefined) ?? config?.sitemapFind;
  const replace = (v['sitemap-replace'] as string | undefined) ?? config?.sitemapReplace;
  if (replace !== undefined && find === undefined)
    throw new UsageError('--sitemap-replace needs --sitemap-find (the pattern it replaces)', 'ci');
  const exclude = (v['sitemap-exclude'] as string | undefined) ?? config?.sitemapExclude;
  const changedSince = v['changed-since'] as string | undefined;

  const flagReports = ((v.report as string[] | undefined) ?? []).map((pair) => {
    const [kind, file] = parsePair(pair, '--report');
    return [oneOf(kind, FORMATS, '--report FORMAT'), file] as const;
  });
  // One pair at a time: two reports of one format (junit=a.xml, junit=b.xml) are both written.
  const reports = flagReports.length
    ? flagReports
    : Object.entries(config?.reports ?? {}).map(([kind, file]) => [kind as Format, file] as const);
  const flagTimeout = v.timeout as string | undefined;
  const sarifMap = sarifMapOf(config?.sarifMap, v['sarif-map'] as string[] | undefined);
  if (changedSince !== undefined && sarifMap.length === 0) {
    throw new UsageError(
      '--changed-since needs --sarif-map entries (or sarifMap in the config file) saying which source files render which pages',
      'ci',
    );
  }
  const where = suppressionsPath(
    (v.suppressions as string | undefined) ?? config?.suppressions,
    config ? dirname(resolve(config.file)) : process.cwd(),
  );
  const options: Omit<CiOptions, 'createdFolders'> = {
    urls,
    sitemaps,
    sitemapRules: {
      exclude: exclude === undefined ? [] : [urlPattern(exclude, '--sitemap-exclude')],
      find: find === undefined ? undefined : urlPattern(find, '--sitemap-find'),
      replace,
    },
    maxUrls,
    changedSince,
    format: ctx.json
      ? 'json'
      : oneOf((v.format as string | undefined) ?? config?.format ?? 'text', FORMATS, '--format'),
    reports,
    failOn: v['fail-on'] !== undefined ? oneOf(v['fail-on'] as string, FAIL_ON, '--fail-on') : config?.failOn,
    failOnByUrl: config?.failOnByUrl ?? [],
    suppressions:
      readConfig || v.suppressions !== undefined
        ? loadSuppressions(where.file, { required: where.required || config?.suppressions !== undefined })
        : undefined,
    setBaseline: v['set-baseline'] === true || config?.setBaseline === true,
    timeoutMs: flagTimeout === undefined ? config?.timeout : parseDuration(flagTimeout, '--timeout'),
    timeoutFrom:
      flagTimeout !== undefined ? '--timeout' : config?.timeout !== undefined ? `timeout in ${config.file}` : undefined,
    context: {
      ...ciContext(ctx.out.io.env),
      ...config?.context,
      ...parsePairs((v.context as string[] | undefined) ?? [], '--context'),
    },
    sarifMap,
    configFile: config?.file,
  };
  // Last, once every other option is known good: the check creates the reports' missing folders.
  const createdFolders: string[] = [];
  try {
    for (const [kind, file] of reports)
      createdFolders.push(...checkReportPath(file, `--report ${kind}${flagReports.length ? '' : fromConfig}`));
  } catch (error) {
    removeEmptyFolders(createdFolders);
    throw error;
  }
  return { ...options, createdFolders };
}

function positiveInt(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1)
    throw new UsageError(`${flag} must be a whole number of at least 1, got "${text}"`, 'ci');
  return Number(text);
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
  const entries = [
    ...Object.entries(fromConfig ?? {}),
    ...(fromFlags ?? []).map((pair) => parsePair(pair, '--sarif-map')),
  ];
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

/** Runs a CI check end to end with an already-built client (shared with `demo`): every batch, one verdict. */
export async function runCiCheck(
  ctx: CommandContext,
  client: A11yClient,
  options: CiOptions = ciOptions(ctx),
): Promise<number> {
  const urls = await collectUrls(options, {
    err: (line) => ctx.out.err(line),
    quiet: ctx.values.quiet === true,
    userAgent: `svc-a11y/${version}`,
  });
  if (urls.length === 0) {
    // --changed-since found nothing to check: a pass with nothing written.
    removeEmptyFolders(options.createdFolders);
    return ExitCode.OK;
  }
  const batches = planBatches(urls);
  if (batches.length > 1) {
    const sites = new Set(batches.map((b) => b.origin)).size;
    if (!ctx.values.quiet)
      ctx.out.err(
        `${urls.length} pages on ${sites} site${sites === 1 ? '' : 's'}: ${batches.length} CI checks of at most ${MAX_URLS_PER_CHECK} pages each.`,
      );
  }
  const { timeoutMs, timeoutFrom } = options;
  const results = await runBatches(client, batches, {
    failOn: options.failOn,
    setBaseline: options.setBaseline,
    context: options.context,
    timeoutMs: timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS,
    limitText:
      timeoutMs === undefined
        ? `${DEFAULT_WAIT_TIMEOUT_MS} ms (the default --timeout)`
        : `${timeoutMs} ms (${timeoutFrom})`,
    onProgress: (state) => ctx.progress.update(state),
  });
  ctx.progress.done();
  const prepared = results.map((r) =>
    prepareReport(
      { check: r.check, violations: r.violations },
      {
        secrets: ctx.out.secrets,
        failOn: options.failOn,
        waitEnded: r.waitEnded,
        suppressions: options.suppressions?.active,
        failOnByUrl: options.failOnByUrl,
        batch: { key: r.batch.key, label: batchLabel(r.batch), urls: r.batch.urls },
      },
    ),
  );
  const report = aggregateReports(prepared);
  warnAboutSuppressions(ctx, options.suppressions, report);
  const code = await writeReports(ctx, report, options, runInfo(options, urls.length, batches.length, report));
  for (const r of results)
    if (r.endedMessage) ctx.out.err(`error: ${r.endedMessage} Its reports were written with what is known.`);
  const unjudged = prepared.filter((p, i) => p.verdict.outcome === 'UNKNOWN' && results[i]!.waitEnded === undefined);
  if (unjudged.length)
    ctx.out.err(`error: the check could not be judged: ${unjudged.flatMap((p) => p.verdict.reasons).join('; ')}`);
  return code;
}

// Expired entries suppress nothing (said once); an entry in force that matched no finding of a run whose checks
// all completed is stale (a run that could not read every finding cannot say so).
function warnAboutSuppressions(
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

// How the run was configured, for the HTML report (file names and settings only: never a key or a context value).
function runInfo(options: CiOptions, pages: number, checks: number, report: PreparedReport): HtmlRunInfo {
  const s = options.suppressions;
  return {
    settings: [
      ['Pages checked', String(pages)],
      ['CI checks', `${checks} (at most ${MAX_URLS_PER_CHECK} pages of one site each)`],
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
        options.timeoutMs !== undefined ? `${options.timeoutMs} ms` : `${DEFAULT_WAIT_TIMEOUT_MS} ms (default)`,
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
 * Prints the report, writes the report files, the job summary and the annotations; returns the verdict's exit code.
 */
// How `wrote … to FILE` names each report format.
const REPORT_LABELS: Partial<Record<string, string>> = {
  junit: 'JUnit',
  sarif: 'SARIF',
  markdown: 'Markdown',
  json: 'JSON',
  text: 'the text report',
  html: 'the HTML report',
};

async function writeReports(
  ctx: CommandContext,
  report: PreparedReport,
  options: CiOptions,
  run: HtmlRunInfo,
): Promise<number> {
  const v = ctx.values;
  let code: number = report.verdict.exitCode;
  const renderOptions = { sarifMap: options.sarifMap, run };
  if (!v.quiet || v.format !== undefined || ctx.json)
    ctx.out.out(render(report, options.format, ctx.out.color, renderOptions));
  for (const [kind, file] of options.reports) {
    try {
      await writeReport(ctx.out, file, render(report, kind, false, renderOptions));
      // Where each report went, on stderr: stdout stays the report itself.
      if (!v.quiet) ctx.out.err(`wrote ${REPORT_LABELS[kind] ?? kind} to ${file}`);
    } catch (error) {
      // Checked before sending; failing now (disk full, a race) must still not pass for success.
      ctx.out.err(
        `error: could not write the ${kind} report ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
      if (code === ExitCode.OK) code = ExitCode.USAGE;
    }
  }
  const env = ctx.out.io.env;
  if (env.GITHUB_STEP_SUMMARY) await appendStepSummary(ctx.out, env.GITHUB_STEP_SUMMARY, toMarkdown(report));
  // Workflow commands go to stderr: the runner reads both streams, and stdout stays the report's.
  if (env.GITHUB_ACTIONS === 'true') for (const line of toGitHubAnnotations(report)) ctx.out.annotation(line);
  return code;
}

/** `svc-a11y ci`. */
export const ciCommand: Command = {
  name: 'ci',
  summary: 'Check pages (URLs, a URL file, sitemaps) as one gate and exit with its verdict',
  // Zero when the config file, --urls-file or --sitemap names them; --max-urls bounds the total. A command line
  // holds a few thousand URLs at most anyway (the OS limits its length): more go in a file.
  args: { min: 0, max: MAX_ARGUMENT_URLS, names: '[url…]', note: `more URLs go in --urls-file or a sitemap` },
  options: {
    'fail-on': { type: 'string' },
    'set-baseline': { type: 'boolean' },
    context: { type: 'string', multiple: true },
    timeout: { type: 'string' },
    format: { type: 'string' },
    report: { type: 'string', multiple: true },
    'sarif-map': { type: 'string', multiple: true },
    'urls-file': { type: 'string' },
    sitemap: { type: 'string', multiple: true },
    'sitemap-exclude': { type: 'string' },
    'sitemap-find': { type: 'string' },
    'sitemap-replace': { type: 'string' },
    'max-urls': { type: 'string' },
    'changed-since': { type: 'string' },
    suppressions: { type: 'string' },
    config: { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
  },
  usage: `svc-a11y ci [url…] [options]

  Pages come from the arguments, --urls-file and --sitemap (or "urls" and "sitemap" in the config file); each
  is checked once (URLs are normalised: lower-case host, no default port, no #fragment). They are grouped by
  site (origin) and split into as few CI checks as the service's limit of ${MAX_URLS_PER_CHECK} pages allows, run
  concurrently under one --timeout and one rate budget, and judged as one gate: any check FAIL → exit 1,
  otherwise any check not judged → exit 4. Each check's context carries its batch key (svcA11yBatch).

  --fail-on <rule>       NEW_CRITICAL | ANY_CRITICAL | SERIOUS_OR_WORSE | NONE (service default when omitted);
                         per-URL thresholds go in the config file (failOnByUrl)
  --set-baseline         save every completed check as the baseline of future checks
  --context key=value    caller metadata (repeatable); repository, branch, commit and pull request are
                         filled from the CI environment when its usual variables exist
  --timeout <duration>   overall wait of the whole run, e.g. 10m (default 10m)
  --format <format>      stdout format: text | json | junit | sarif | markdown | html (default text)
  --report FORMAT=FILE   also write a report file (repeatable), e.g. --report junit=a11y.xml --report html=a11y.html;
                         every path is checked before the check starts (exit 2 naming it), and the files are
                         written on every outcome that has a check (PASS, FAIL, a failed job, a wait that timed out)
  --sarif-map PREFIX=FILE  findings on pages under a URL path prefix point at a source file (repeatable), e.g.
                         --sarif-map /checkout=src/pages/checkout.tsx (longest prefix wins in SARIF; FILE may be a
                         glob such as src/checkout/** for --changed-since). SARIF holds the findings that break
                         the threshold, suppressed ones marked as such
  --urls-file <file>     URLs to check, one a line (# comments and blank lines skipped)
  --sitemap <url|file>   check the pages of a sitemap or sitemap index (repeatable; nested and .gz too). Bounded:
                         10 MiB per document, 32 MiB and 100 documents in all, indexes 3 deep, 60 s; a redirect to another
                         origin, a DOCTYPE/entity declaration or anything past a bound is refused (exit 2)
  --sitemap-exclude <regex>  leave out sitemap pages whose URL matches
  --sitemap-find <regex>     with --sitemap-replace <text>: rewrite sitemap URLs, e.g. point production
  --sitemap-replace <text>   URLs at a preview host (--sitemap-find ^https://www.example.com --sitemap-replace
                             http://localhost:3000)
  --max-urls <n>         refuse a run of more than n URLs in all (default ${DEFAULT_MAX_URLS})
  --changed-since <ref>  check only pages whose --sarif-map files changed since the git ref (git diff --name-only),
                         plus every page no entry maps; no change → exit 0 saying no page was affected
  --suppressions <file>  reviewed suppressions (default: ${'.a11y-suppressions.json'} beside the config file, if
                         present): { "suppressions": [ { "ruleId", "url"?, "target"?, "fingerprint"?, "reason",
                         "expires": "YYYY-MM-DD" } ] }. A suppressed finding does not count toward --fail-on and
                         is shown as suppressed (SARIF suppressions, JUnit skipped); expired entries warn and
                         suppress nothing; entries that matched nothing are reported as stale
  --config <file>        a JSON config file (default: ${DEFAULT_CONFIG_FILE} in the working directory, if present)
                         with urls, sitemap, sitemapExclude, sitemapFind, sitemapReplace, maxUrls, failOn,
                         failOnByUrl [{url, failOn}], setBaseline, timeout, format, reports {format: file},
                         context, sarifMap {prefix: file} and suppressions; flags win over it
  -q, --quiet            no progress and no stdout report (reports and the exit code remain)

  With $GITHUB_STEP_SUMMARY set, a markdown summary is appended to it (a summary that cannot be written is a
  warning, not a failure); with GITHUB_ACTIONS=true, up to 10 error annotations are printed for findings that
  break the threshold.`,
  run: (ctx) => {
    const options = ciOptions(ctx); // every flag, the config file, suppressions and report paths, before anything is sent
    return removingUnusedFolders(options, async () => {
      if (options.urls.length === 0 && options.sitemaps.length === 0) {
        throw new UsageError(
          `no URLs to check: pass them as arguments, with --urls-file or --sitemap, or as "urls" or "sitemap" in ${DEFAULT_CONFIG_FILE}`,
          'ci',
        );
      }
      return runCiCheck(ctx, ctx.client(), options);
    });
  },
};
