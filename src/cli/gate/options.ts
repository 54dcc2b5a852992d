// The options of a `ci` run (and of `demo`), read and checked before anything is sent: every setting through the
// one merge of settings/settings.ts (flags, environment, the config file, defaults), the page sources, the suppressions file,
// and last the report paths (whose missing folders are created, and removed again if the run ends without reports).
import { dirname, resolve } from 'node:path';
import type { FailOn } from '../../index.js';
import type { OptionValues } from '../args.js';
import { decideBaseline } from './baseline.js';
import { pullRequestRun } from '../settings/ci-env.js';
import { routeTableOf } from './route-table.js';
import { tooManyUrls } from './collect-urls.js';
import { loadConfig } from '../settings/config.js';
import { UsageError } from '../exit-codes.js';
import type { Output } from '../io/output.js';
import { uniquePageUrls, urlPattern } from '../pages/page-urls.js';
import { checkReportPath, removeEmptyFolders } from '../report/files.js';
import type { ReportFormat } from '../report/formats.js';
import { checkSourceMap, type SourceMapEntry } from '../report/index.js';
import {
  describeSource,
  type Env,
  readSetting,
  type SourceMapItem,
  SETTINGS,
  type Setting,
  type SettingInputs,
  type SettingSource,
  type SettingSpec,
} from '../settings/settings.js';
import { loadSuppressions, type Suppressions, suppressionsPath } from '../verdict/suppressions.js';
import type { UrlFailOn } from '../verdict/url-fail-on.js';
import type { Shard } from '../settings/ci-settings.js';
import type { EmbeddedOptions } from '../context.js';

/** The parsed options of a CI run (those a program running it in process reads: `EmbeddedOptions`, and the rest). */
export interface CiOptions extends EmbeddedOptions {
  /** URLs from the arguments and --urls-file (or the config file), normalised, each once. */
  urls: string[];
  /** Sitemaps to read (URLs or files). */
  sitemaps: string[];
  /** How sitemap pages are filtered and rewritten. */
  sitemapRules: { exclude: RegExp[]; find?: RegExp | undefined; replace?: string | undefined };
  /** Most URLs a run checks (a shard's share, with `shard`). */
  maxUrls: number;
  /** The share of the pages this job checks (`--shard I/N`), or undefined for all of them. */
  shard: Shard | undefined;
  /** Write the merge request note of a GitLab pipeline (`--no-comment`: no). */
  comment: boolean;
  /** URLs per CI check (`--urls-per-check`, 1–20): the run's batches hold at most this many. */
  urlsPerCheck: number;
  /** The key's rate the schedule keeps under (`--rate-limit`, `SVC_RATE_LIMIT`); undefined: the service's default. */
  requestsPerMinute: number | undefined;
  /** Most CI checks in flight at once (`--max-checks`); undefined: as many as the rate allows. */
  maxChecks: number | undefined;
  /** How many times pages that could not be checked are checked again (`--recheck`, 0–5; 0: never). */
  recheck: number;
  /** Saved journeys run and judged with the pages (`--journey`, `journeys`). */
  journeys: string[];
  /** The journeys' baseline file (`--journey-baseline`), if given. */
  journeyBaseline: string | undefined;
  /** `--changed-since`: the git ref, if given. */
  changedSince: string | undefined;
  /** The stdout report's format. */
  format: ReportFormat;
  /** Report files to write, by format (one format may be written twice). */
  reports: Array<readonly [ReportFormat, string]>;
  failOn: FailOn | undefined;
  /**
   * True when `failOn` came from the command line (or the Action's input), not a file: a file's per-URL thresholds
   * may then make a page stricter than it, never more lenient.
   */
  failOnIsFloor: boolean;
  /** Per-URL thresholds (config file `failOnByUrl`). */
  failOnByUrl: UrlFailOn[];
  /** Reviewed suppressions, if a file was given or found. */
  suppressions: Suppressions | undefined;
  setBaseline: boolean;
  /** The wait limit in milliseconds, and where it came from (for messages). */
  timeout: Setting<number>;
  context: Record<string, string>;
  /** The SARIF run's category (`automationDetails.id`), when given. */
  sarifCategory: string | undefined;
  /** The config file read, if any. */
  configFile: string | undefined;
  /** Folders the report-path check created, removed again if the run ends without writing its reports. */
  createdFolders: string[];
}

/** What {@link ciOptions} reads of a command's context (`CommandContext` has it). */
export interface OptionsContext {
  args: string[];
  values: OptionValues;
  json: boolean;
  out: Output;
  /** A program's additions: report files and context (see `Embedding` in context.ts). */
  embed?:
    | {
        reports?: ReadonlyArray<readonly [ReportFormat, string]> | undefined;
        context?: Readonly<Record<string, string>> | undefined;
      }
    | undefined;
}

/** Most URLs taken as arguments (more go in `--urls-file` or a sitemap). */
export const MAX_ARGUMENT_URLS = 5_000;

/**
 * Parses and checks every option of `ci` (and `demo`) before anything is sent: flags win over the config file
 * (`--config`, else `svc-a11y.config.json` in the working directory; `demo` reads none); the suppressions file
 * is read and checked; report paths must be writable.
 * @throws UsageError naming the flag, the variable or the config file key at fault
 * @example const options = ciOptions(ctx); // options.timeout.source says where the wait limit came from
 */
export function ciOptions(ctx: OptionsContext, { readConfig = true } = {}): CiOptions {
  const v = ctx.values;
  const env = ctx.out.io.env;
  const config = readConfig
    ? loadConfig(readSetting(SETTINGS.configFile, { values: v, env }).value, process.cwd())
    : undefined;
  const inputs: SettingInputs = { values: v, env, config, args: ctx.args };
  const setting = <T>(spec: SettingSpec<T>) => readSetting(spec, inputs);
  // The pages: the arguments and --urls-file's, else the config file's urls (see `together` in their declarations).
  const fromFile = setting(SETTINGS.urlsFile).value;
  const urls = uniquePageUrls([...setting(SETTINGS.urls).value, ...fromFile], (i) => `urls[${i}]`);
  const maxUrls = setting(SETTINGS.maxUrls);
  const shard = shardOf(setting(SETTINGS.shard), env, (line) => ctx.out.err(line));
  // A shard's share is bounded once the list is whole (sitemaps read) and shared out: see runCheck.
  if (shard === undefined && urls.length > maxUrls.value)
    throw tooManyUrls(urls.length, maxUrls.value, fromNote(maxUrls.source));
  const find = setting(SETTINGS.sitemapFind).value;
  const replace = setting(SETTINGS.sitemapReplace).value;
  if (replace !== undefined && find === undefined)
    throw new UsageError('--sitemap-replace needs --sitemap-find (the pattern it replaces)', 'ci');
  const exclude = setting(SETTINGS.sitemapExclude).value;
  const changedSince = setting(SETTINGS.changedSince).value;
  const given = setting(SETTINGS.reports);
  const reports = { ...given, value: [...given.value, ...(ctx.embed?.reports ?? [])] };
  const sourceMapItems = setting(SETTINGS.sourceMap).value;
  const sourceMap = sourceMapOf(sourceMapItems);
  const routes = routeTableOf({
    items: sourceMapItems,
    sourceRoot: setting(SETTINGS.sourceRoot),
    basePath: setting(SETTINGS.basePath),
    cwd: process.cwd(),
    note: setting(SETTINGS.quiet).value ? undefined : (line) => ctx.out.err(line),
    warn: (line) => ctx.out.err(line),
  });
  if (changedSince !== undefined && sourceMap.length === 0) {
    throw new UsageError(
      '--changed-since needs --source-map entries (PREFIX=FILE, or sourceMap in the config file) saying which source files render which pages (the route files of --source-map auto do not count: layouts and components render pages too)',
      'ci',
    );
  }
  const suppressionsFile = setting(SETTINGS.suppressions).value;
  const failOn = setting(SETTINGS.failOn);
  const baseline = decideBaseline(setting(SETTINGS.setBaseline), env, setting(SETTINGS.defaultBranch).value);
  const where = suppressionsPath(suppressionsFile, config ? dirname(resolve(config.file)) : process.cwd());
  const options: Omit<CiOptions, 'createdFolders'> = {
    urls,
    sitemaps: setting(SETTINGS.sitemap).value,
    sitemapRules: {
      exclude: exclude === undefined ? [] : [urlPattern(exclude, '--sitemap-exclude')],
      find: find === undefined ? undefined : urlPattern(find, '--sitemap-find'),
      replace,
    },
    maxUrls: maxUrls.value,
    shard,
    urlsPerCheck: setting(SETTINGS.urlsPerCheck).value,
    comment: setting(SETTINGS.comment).value,
    requestsPerMinute: setting(SETTINGS.rateLimit).value,
    maxChecks: setting(SETTINGS.maxChecks).value,
    recheck: setting(SETTINGS.recheck).value,
    journeys: setting(SETTINGS.journeys).value,
    journeyBaseline: setting(SETTINGS.journeyBaseline).value,
    changedSince,
    // `--json` is `--format json` (and any --format is then not read).
    format: ctx.json ? 'json' : setting(SETTINGS.format).value,
    reports: reports.value,
    failOn: failOn.value,
    failOnIsFloor: failOn.source.kind === 'flag' || failOn.source.kind === 'env',
    failOnByUrl: setting(SETTINGS.failOnByUrl).value,
    suppressions:
      readConfig || v.suppressions !== undefined
        ? loadSuppressions(where.file, { required: where.required })
        : undefined,
    setBaseline: baseline.setBaseline,
    timeout: setting(SETTINGS.timeout),
    context: { ...ctx.embed?.context, ...setting(SETTINGS.context).value },
    sourceMap,
    routes,
    sarifCategory: setting(SETTINGS.sarifCategory).value,
    configFile: config?.file,
    baselineWarning: baseline.warning,
  };
  if (baseline.warning) ctx.out.err(baseline.warning);
  // Said when the run moves the baseline (a consequence for every later check), whatever --quiet says.
  if (baseline.setBaseline && baseline.note) ctx.out.err(`note: ${baseline.note}`);
  // Last, once every other option is known good: the check creates the reports' missing folders.
  return { ...options, createdFolders: checkReportPaths(reports) };
}

/**
 * Checks that every report path can be written, creating missing folders; returns the folders created (all removed
 * again when a path is refused).
 * @throws UsageError naming `--report FORMAT` (and the config file that gave it) and the rule
 * @example checkReportPaths({ value: [['junit', 'out/a11y.xml']], source: { kind: 'flag', flag: '--report' } }) // ['out']
 */
export function checkReportPaths(reports: Setting<ReadonlyArray<readonly [ReportFormat, string]>>): string[] {
  const createdFolders: string[] = [];
  try {
    for (const [kind, file] of reports.value)
      createdFolders.push(...checkReportPath(file, `--report ${kind}${fromNote(reports.source, '')}`));
  } catch (error) {
    removeEmptyFolders(createdFolders);
    throw error;
  }
  return createdFolders;
}

// ` (from FILE)` after a value the config file gave; a flag's needs no note; the default's says so.
function fromNote(source: SettingSource, byDefault = ' (the default)'): string {
  return source.kind === 'config' ? ` (from ${source.file})` : source.kind === 'default' ? byDefault : '';
}

/**
 * Runs `run`; if it throws (a refused key, no URLs, an API error), first removes the report folders the path
 * check created and no report went into.
 */
export async function removingUnusedFolders(
  options: Pick<CiOptions, 'createdFolders'>,
  run: () => Promise<number>,
): Promise<number> {
  try {
    return await run();
  } catch (error) {
    removeEmptyFolders(options.createdFolders);
    throw error;
  }
}

/**
 * The SARIF source map entries (the config file's, then `--source-map`'s), each checked.
 * @throws UsageError naming --source-map / sourceMap and the entry at fault
 * @example sourceMapOf([['/checkout', 'src/checkout.tsx'], 'auto']) // [{ prefix: '/checkout', file: 'src/checkout.tsx' }]
 */
export function sourceMapOf(items: readonly SourceMapItem[]): SourceMapEntry[] {
  const entries = items.filter((item): item is [string, string] => typeof item !== 'string');
  try {
    return checkSourceMap(entries.map(([prefix, file]) => ({ prefix, file })));
  } catch (error) {
    throw new UsageError(`--source-map / sourceMap: ${(error as Error).message}`);
  }
}

// The share this job checks. A pull request controls the config file: a `shard` there could have its gate check a
// thousandth of the pages, so on a pull or merge request only the flag, the variable (the CI's matrix sets them)
// and the Action's input split the run; the config file's is ignored with a warning, and the job checks every page.
function shardOf(shard: Setting<Shard | undefined>, env: Env, warn: (line: string) => void): Shard | undefined {
  if (shard.value === undefined || shard.source.kind !== 'config') return shard.value;
  const pr = pullRequestRun(env);
  if (pr === undefined) return shard.value;
  warn(
    `warning: ${describeSource(shard.source)} is ignored on ${pr}: a pull request cannot narrow the pages its gate checks. Split a matrix with --shard or SVC_SHARD.`,
  );
  return undefined;
}
