// The settings of `ci` (and the few `demo` and the job commands share), in the order of `ci --help`: each one's
// flag, variable, config file key and its check, help lines, how its text is read, and its default.
import { resolve } from 'node:path';
import { DEFAULT_WAIT_TIMEOUT_MS } from '../../index.js';
import { FAIL_ON, FREE_PLAN_URLS_PER_CHECK, MAX_URLS_PER_CHECK } from '../../vocabulary/index.js';
import { oneOf, parseDuration, parsePair } from '../args.js';
import { UsageError } from '../exit-codes.js';
import { REPORT_FORMATS, type ReportFormat } from '../report/formats.js';
import { readTextFile } from '../io/read-file.js';
import { DEFAULT_SUPPRESSIONS_FILE } from '../verdict/suppressions.js';
import type { UrlFailOn } from '../verdict/url-fail-on.js';
import { ciContext, ciName } from './ci-env.js';
import type { SettingSpec } from './spec.js';
import {
  choice,
  count,
  isObject,
  isOn,
  key,
  list,
  pathIn,
  pattern,
  sarifCategory,
  stringMap,
  text,
  wholeNumber,
} from './values.js';
import { parseUrl } from '../io/parse-url.js';

/** The file looked up in the working directory when `--config` is not given. */
export const DEFAULT_CONFIG_FILE = 'svc-a11y.config.json';

/**
 * Most URLs one run checks unless `--max-urls` or `maxUrls` says otherwise.
 * @default 500
 */
export const DEFAULT_MAX_URLS = 500;

/**
 * The words `--source-map` takes besides `PREFIX=FILE`: infer the routes (`auto`) or do not (`none`).
 * @example SOURCE_MAP_MODES.includes('auto') // true
 */
const SOURCE_MAP_MODES = ['auto', 'none'] as const;

/** A `--source-map` word: `auto` or `none`. */
export type SourceMapMode = (typeof SOURCE_MAP_MODES)[number];

/** One `--source-map` item: a `[prefix, file]` entry, or a mode word. */
export type SourceMapItem = [string, string] | SourceMapMode;

const isSourceMapMode = (word: string): word is SourceMapMode => (SOURCE_MAP_MODES as readonly string[]).includes(word);

// The pages: the command line's (arguments, --urls-file, --sitemap) replace the config file's urls and sitemap as
// one list, as a flag replaces its config key.
const PAGES = { flags: ['urls-file', 'sitemap'], arguments: true } as const;

/** One shard of a run: the `index`-th (1-based) of `total`. */
export interface Shard {
  index: number;
  total: number;
}

/**
 * The most rechecks of a flaky page (`--recheck`): each is a whole check's wait, so more than a few only stretches a
 * run towards its deadline.
 */
const MAX_RECHECKS = 5;

// A journey id as the document gives it: a UUID (path id of POST /journeys/{id}/runs).
const JOURNEY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const JOURNEY_ID_RULE = 'a UUID, as svc-a11y journeys <siteId> lists them';

/** The most shards a run is split into: a matrix of more jobs than this is a mistake, not a plan. */
export const MAX_SHARDS = 1000;

const SHARD_RULE = `must be I/N: whole numbers with 1 ≤ I ≤ N ≤ ${MAX_SHARDS}, such as 2/4`;

/**
 * `I/N` as a shard.
 * @throws UsageError naming `where` and the rule
 * @example parseShard('2/4', '--shard') // { index: 2, total: 4 }
 */
export function parseShard(value: string, where: string): Shard {
  const shard = shardOf(value);
  if (!shard) throw new UsageError(`${where} ${SHARD_RULE}, got ${JSON.stringify(value.slice(0, 40))}`, 'ci');
  return shard;
}

// `I/N` as a shard, or undefined when it breaks the rule.
function shardOf(value: unknown): Shard | undefined {
  const match = typeof value === 'string' ? /^\s*(\d{1,4})\s*\/\s*(\d{1,4})\s*$/.exec(value) : null;
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  return match && index >= 1 && index <= total && total <= MAX_SHARDS ? { index, total } : undefined;
}

const URLS_PER_CHECK_RULE = `a whole number from 1 to ${MAX_URLS_PER_CHECK} (the service takes 1 to ${MAX_URLS_PER_CHECK} URLs per CI check, the Free plan up to ${FREE_PLAN_URLS_PER_CHECK})`;
// A git branch name as a CI prints it: no spaces or controls (git refuses them too).
const BRANCH_NAME = /^[^\s\p{Cc}~^:?*[\\]{1,255}$/u;
const BRANCH_NAME_RULE = 'a branch name (no spaces, controls or ~^:?*[\\)';
const FAIL_ON_BY_URL_ENTRY = '{ "url": "<regular expression>", "failOn": "<threshold>" }';

/** Every setting `ci` reads, in the order of its help. */
export const CI_SETTINGS = {
  /** The pages given as arguments, or `urls` in the config file. */
  urls: {
    action: 'urls',
    arguments: true,
    together: PAGES,
    commands: ['ci'],
    config: key('urls', (value, at) => {
      if (!Array.isArray(value) || !value.every((u) => typeof u === 'string' && u.trim() !== ''))
        at.fail('urls', 'must be an array of URL strings');
      const urls = (value as string[]).map((u) => u.trim());
      // Checked here too (the SDK checks them again), so the message names this file rather than the request.
      urls.forEach((u, i) => {
        if (!['http:', 'https:'].includes(parseUrl(u)?.protocol ?? ''))
          at.fail(`urls[${i}]`, `must be an absolute http(s) URL, got ${JSON.stringify(u)}`);
      });
      return urls;
    }),
    read: list,
    default: [],
  } as SettingSpec<string[]>,
  /** The threshold sent with each check: `--fail-on`, `failOn`; the service's default when not given. */
  failOn: {
    action: 'fail-on',
    flag: 'fail-on',
    commands: ['ci', 'demo'],
    help: {
      value: '<rule>',
      text: `${FAIL_ON.join(' | ')} (service default when omitted);\nper-URL thresholds go in the config file (failOnByUrl): under --fail-on they may make\na page stricter, never more lenient`,
    },
    config: key('failOn', (value, at) => choice(value, FAIL_ON, 'failOn', at)),
    read: (raw, where) => oneOf(text(raw), FAIL_ON, where),
    default: undefined,
  } as SettingSpec<(typeof FAIL_ON)[number] | undefined>,
  /** Save each completed check as the baseline: `--set-baseline` (`--no-set-baseline`), `setBaseline`. */
  setBaseline: {
    flag: 'set-baseline',
    kind: 'switch',
    words: ['auto'],
    negatable: true,
    commands: ['ci'],
    help: [
      {
        text: 'save every completed check as the baseline of future checks; on a pull or merge\nrequest (as the CI says) only this flag sets it, never the config file, with a warning',
      },
      {
        value: 'auto',
        text: "the default in a recognised CI: save it on the default branch only (GitHub: a push,\nschedule or dispatch on the event's repository.default_branch; GitLab: CI_COMMIT_BRANCH =\nCI_DEFAULT_BRANCH; Buildkite: its pipeline's default branch; CircleCI, Azure Pipelines,\nJenkins: --default-branch), never on a pull or merge request; outside CI: off",
      },
      { negated: true, text: 'do not, whatever the config file says' },
    ],
    config: key('setBaseline', (value, at): boolean | 'auto' => {
      if (typeof value !== 'boolean' && value !== 'auto') at.fail('setBaseline', 'must be true, false or "auto"');
      return value as boolean | 'auto';
    }),
    read: (raw) => (raw === 'auto' ? 'auto' : isOn(raw)),
    default: (env) => (ciName(env) === undefined ? false : 'auto'),
  } as SettingSpec<boolean | 'auto'>,
  /** The merge request note of a GitLab pipeline (with SVC_GITLAB_TOKEN): on by default, `--no-comment` turns it off. */
  comment: {
    flag: 'comment',
    kind: 'switch',
    negatable: true,
    commands: ['ci', 'merge'],
    help: [
      {
        text: 'in a GitLab merge request pipeline with $SVC_GITLAB_TOKEN (or $GITLAB_TOKEN), write one\nnote with the verdict and the new findings, edited on later runs (the default)',
      },
      { negated: true, text: 'write no merge request note' },
    ],
    read: isOn,
    default: true,
  } as SettingSpec<boolean>,
  /** The default branch, for `--set-baseline auto` in a CI that does not name it: `--default-branch`, `defaultBranch`. */
  defaultBranch: {
    flag: 'default-branch',
    commands: ['ci'],
    help: {
      value: '<name>',
      text: "the repository's default branch, for --set-baseline auto where the CI does not say it\n(compared with CIRCLE_BRANCH, BUILD_SOURCEBRANCH, BRANCH_NAME or GIT_BRANCH; $SVC_DEFAULT_BRANCH)",
    },
    env: 'SVC_DEFAULT_BRANCH',
    config: key('defaultBranch', (value, at) => {
      if (typeof value !== 'string' || !BRANCH_NAME.test(value.trim()))
        at.fail('defaultBranch', `must be ${BRANCH_NAME_RULE}`);
      return (value as string).trim();
    }),
    read: (raw, where) => {
      const name = text(raw).trim();
      if (!BRANCH_NAME.test(name)) throw new UsageError(`${where} must be ${BRANCH_NAME_RULE}`);
      return name;
    },
    default: undefined,
  } as SettingSpec<string | undefined>,
  /**
   * Each check's context: the CI environment's repository, branch, commit and pull request, then the config
   * file's `context`, then `--context key=value` (repeatable); a later source's key wins.
   */
  context: {
    flag: 'context',
    kind: 'list',
    commands: ['ci'],
    help: {
      value: 'key=value',
      text: 'caller metadata (repeatable); repository, branch, commit and pull request are\nfilled from the CI environment when its usual variables exist',
    },
    config: key('context', (value, at) => stringMap(value, 'context', at)),
    read: (raw, where) => Object.fromEntries(list(raw).map((pair) => parsePair(pair, where))),
    default: (env) => ciContext(env),
    merge: (lower, higher) => ({ ...lower, ...higher }),
  } as SettingSpec<Record<string, string>>,
  /** The wait limit in milliseconds: `--timeout`, `timeout` in the config file. */
  timeout: {
    action: 'timeout',
    flag: 'timeout',
    commands: ['ci', 'jobs'],
    help: [
      { value: '<duration>', for: 'ci', text: 'overall wait of the whole run, e.g. 10m (default 10m)' },
      { value: '<duration>', for: 'jobs', text: 'overall wait, e.g. 10m (default 10m)' },
    ],
    config: key('timeout', (value, at) => {
      const rule = 'must be a duration like "10m", "90s" or "1500ms", or a positive number of milliseconds';
      if (typeof value === 'string') {
        try {
          return parseDuration(value, 'timeout');
        } catch {
          return at.fail('timeout', `${rule}, got ${JSON.stringify(value)}`);
        }
      }
      if (typeof value === 'number' && Number.isFinite(value) && value >= 1) return value;
      return at.fail('timeout', rule);
    }),
    read: (raw, where) => parseDuration(text(raw), where),
    default: DEFAULT_WAIT_TIMEOUT_MS,
  } as SettingSpec<number>,
  /** The stdout report's format: `--format`, `format`. */
  format: {
    flag: 'format',
    commands: ['ci', 'demo', 'merge'],
    help: { value: '<format>', text: `stdout format: ${REPORT_FORMATS.join(' | ')} (default text)` },
    config: key('format', (value, at) => choice(value, REPORT_FORMATS, 'format', at)),
    read: (raw, where) => oneOf(text(raw), REPORT_FORMATS, where),
    default: 'text',
  } as SettingSpec<ReportFormat>,
  /** Report files, format and path: `--report FORMAT=FILE` (repeatable), `reports`; the flags replace the file's. */
  reports: {
    flag: 'report',
    kind: 'list',
    commands: ['ci', 'demo', 'merge'],
    help: {
      value: 'FORMAT=FILE',
      text: 'also write a report file (repeatable), e.g. --report junit=a11y.xml --report html=a11y.html;\nevery path is checked before the check starts (exit 2 naming it), and the files are\nwritten on every outcome that has a check (PASS, FAIL, a failed job, a wait that timed out)',
    },
    config: key(
      'reports',
      (value, at) => {
        const reports = stringMap(value, 'reports', at);
        for (const name of Object.keys(reports))
          if (!(REPORT_FORMATS as readonly string[]).includes(name))
            at.fail(`reports.${name}`, `is not a report format (one of ${REPORT_FORMATS.join(', ')})`);
        return reports;
      },
      {
        shape: '{format: file}',
        as: (reports) => Object.entries(reports).map(([kind, file]) => [kind as ReportFormat, file] as const),
      },
    ),
    read: (raw, where) =>
      list(raw).map((pair) => {
        const [kind, file] = parsePair(pair, where);
        return [oneOf(kind, REPORT_FORMATS, `${where} FORMAT`), file] as const;
      }),
    default: [],
  } as SettingSpec<Array<readonly [ReportFormat, string]>>,
  /**
   * URL path prefix → source file, and `auto` / `none` (route inference on or off): the config file's `sourceMap`,
   * then `--source-map` (a later equal prefix wins; of `auto` and `none`, the last given). Every writer that points
   * at a file (SARIF, Code Quality, annotations, HTML) and `--changed-since` use it: its older names, `--sarif-map`
   * and `sarifMap`, said less than that, and are still read.
   */
  sourceMap: {
    action: 'sarif-map',
    flag: 'source-map',
    alias: 'sarif-map',
    kind: 'list',
    commands: ['ci', 'merge'],
    help: [
      {
        value: 'PREFIX=FILE',
        text: 'findings on pages under a URL path prefix point at a source file (repeatable), e.g.\n--source-map /checkout=src/pages/checkout.tsx (longest prefix wins in SARIF; FILE may be a\nglob such as src/checkout/** for --changed-since). SARIF holds the findings that break\nthe threshold, suppressed ones marked as such',
      },
      {
        value: 'auto|none',
        text: 'auto (the default where a project is recognised): SARIF, Code Quality, HTML and\nannotations point each page at the route file that renders it, read from a Next.js\n(app/, pages/), Astro, SvelteKit, Nuxt, Remix / React Router flat routes or static site\n(HTML files, no package.json); PREFIX=FILE entries win for their pages; none turns it\noff. An explicit auto with no recognised project is an error (exit 2). --sarif-map, its\nolder name, is still read',
      },
    ],
    config: key(
      'sourceMap',
      (value, at): Record<string, string> | SourceMapMode => {
        if (value === 'auto' || value === 'none') return value;
        if (typeof value === 'string')
          at.fail(
            'sourceMap',
            `must be "auto", "none" or an object of URL path prefix → file, got ${JSON.stringify(value)}`,
          );
        return stringMap(value, 'sourceMap', at);
      },
      {
        shape: '{prefix: file} | "auto" | "none"',
        alias: 'sarifMap',
        as: (map): SourceMapItem[] => (typeof map === 'string' ? [map] : Object.entries(map)),
      },
    ),
    read: (raw, where) =>
      list(raw).map((item) => {
        const word = item.trim();
        return isSourceMapMode(word) ? word : parsePair(item, where);
      }),
    default: [],
    merge: (lower, higher) => [...lower, ...higher],
  } as SettingSpec<SourceMapItem[]>,
  /** The project `--source-map auto` reads: `--source-root`, `sourceRoot` (default: the working directory). */
  sourceRoot: {
    action: 'source-root',
    flag: 'source-root',
    env: 'SVC_SOURCE_ROOT',
    commands: ['ci', 'mcp', 'merge'],
    help: {
      value: '<dir>',
      text: 'the project whose routes locate findings (--source-map auto; the MCP server), default the working directory',
    },
    config: key('sourceRoot', (value, at) =>
      pathIn(value, 'sourceRoot', at, 'must be a folder, relative to the config file'),
    ),
    read: text,
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** The URL path the site is served under, removed before matching routes: `--base-path`, `basePath`. */
  basePath: {
    action: 'base-path',
    flag: 'base-path',
    commands: ['ci', 'mcp', 'merge'],
    help: {
      value: '<path>',
      text: "the URL path the site is served under, e.g. /docs, removed before matching routes\n(default Next.js' basePath where next.config.* gives it as a string literal)",
    },
    config: key('basePath', (value, at) => {
      if (typeof value !== 'string' || !value.startsWith('/'))
        at.fail('basePath', 'must be a URL path starting with \'/\', such as "/docs"');
      return value as string;
    }),
    read: (raw, where) => {
      const value = text(raw).trim();
      if (!value.startsWith('/'))
        throw new UsageError(`${where} must be a URL path starting with '/', such as /docs`, 'ci');
      return value;
    },
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** The SARIF run's category: `--sarif-category`, `sarifCategory`. */
  sarifCategory: {
    flag: 'sarif-category',
    commands: ['ci', 'merge'],
    help: {
      value: '<id>',
      text: "the SARIF run's category (automationDetails.id), e.g. a11y/shop/checkout: runs uploaded\ntogether to GitHub code scanning (a matrix job's checks) each need their own",
    },
    config: key('sarifCategory', (value, at) => sarifCategory(value, 'sarifCategory', at.fail)),
    read: (raw, where) =>
      sarifCategory(text(raw), where, (k, rule) => {
        throw new UsageError(`${k} ${rule}`, 'ci');
      }),
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** URLs from a file, one a line: `--urls-file`. */
  urlsFile: {
    flag: 'urls-file',
    together: PAGES,
    commands: ['ci'],
    help: { value: '<file>', text: 'URLs to check, one a line (# comments and blank lines skipped)' },
    read: (raw, where) => {
      // Read under a size cap, never hanging on a FIFO or a device.
      const urls = readTextFile(text(raw), { what: where })
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#'));
      if (urls.length === 0)
        throw new UsageError(
          `${where}: ${text(raw)} has no URLs (one a line; blank lines and # comments are skipped)`,
          'ci',
        );
      return urls;
    },
    default: [],
  } as SettingSpec<string[]>,
  /** Sitemaps (URLs or files) whose pages are checked: `--sitemap` (repeatable), `sitemap`. */
  sitemap: {
    flag: 'sitemap',
    kind: 'list',
    together: PAGES,
    commands: ['ci'],
    help: {
      value: '<url|file>',
      text: 'check the pages of a sitemap or sitemap index (repeatable; nested and .gz too). Bounded:\n10 MiB per document, 32 MiB and 100 documents in all, indexes 3 deep, 60 s; a redirect to another\norigin, a DOCTYPE/entity declaration or anything past a bound is refused (exit 2)',
    },
    config: key('sitemap', (value, at) => {
      const given = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(given) || given.length === 0 || !given.every((u) => typeof u === 'string' && u.trim() !== ''))
        at.fail('sitemap', 'must be a sitemap URL or file, or an array of them');
      // Files named in the config file are relative to its folder, wherever the CLI runs.
      return (given as string[]).map((u) => (/^https?:\/\//i.test(u.trim()) ? u.trim() : pathIn(u, 'sitemap', at, '')));
    }),
    read: list,
    default: [],
  } as SettingSpec<string[]>,
  /** Saved journeys to run and judge with the pages: `--journey ID` (repeatable), `journeys` in the config file. */
  journeys: {
    action: 'journeys',
    flag: 'journey',
    kind: 'list',
    commands: ['ci'],
    help: {
      value: '<journeyId>',
      text: "run a saved journey and judge its checkpoints' scans with the pages (repeatable; its\nlogin comes from the site's saved auth profile; 'svc-a11y journeys <siteId>' lists the ids)",
    },
    config: key('journeys', (value, at) => {
      if (!Array.isArray(value) || !value.every((id) => typeof id === 'string' && JOURNEY_ID.test(id.trim())))
        at.fail('journeys', `must be an array of journey ids (${JOURNEY_ID_RULE})`);
      return (value as string[]).map((id) => id.trim());
    }),
    read: (raw, where) =>
      list(raw).map((id, i, all) => {
        if (!JOURNEY_ID.test(id.trim()))
          throw new UsageError(
            `${where}${all.length > 1 ? `[${i}]` : ''} must be a journey id (${JOURNEY_ID_RULE}), got "${id}"`,
            'ci',
          );
        return id.trim();
      }),
    default: [],
  } as SettingSpec<string[]>,
  /** Where the journeys' baseline is kept: `--journey-baseline FILE`, `journeyBaseline`. */
  journeyBaseline: {
    action: 'journey-baseline',
    flag: 'journey-baseline',
    commands: ['ci'],
    help: {
      value: '<file>',
      text: "the journeys' baseline: a run that sets the baseline writes its journey findings'\nfingerprints there; other runs fail NEW_CRITICAL only on journey findings not in it (without\none, journey findings are judged as ANY_CRITICAL)",
    },
    config: key('journeyBaseline', (value, at) => pathIn(value, 'journeyBaseline', at, 'must be a file name')),
    read: text,
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** Sitemap pages left out: `--sitemap-exclude`, `sitemapExclude`. */
  sitemapExclude: {
    flag: 'sitemap-exclude',
    commands: ['ci'],
    help: { value: '<regex>', text: 'leave out sitemap pages whose URL matches' },
    config: key('sitemapExclude', (value, at) => pattern(value, 'sitemapExclude', at)),
    read: text,
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** What `sitemapReplace` replaces in sitemap URLs: `--sitemap-find`, `sitemapFind`. */
  sitemapFind: {
    flag: 'sitemap-find',
    commands: ['ci'],
    help: {
      value: '<regex>',
      text: 'with --sitemap-replace <text>: rewrite sitemap URLs, e.g. point production\nURLs at a preview host (--sitemap-find ^https://www.example.com --sitemap-replace\nhttps://preview-42.example.com); the service must reach it and it must be a\nregistered, verified site of your organisation: never localhost',
    },
    config: key('sitemapFind', (value, at) => pattern(value, 'sitemapFind', at)),
    read: text,
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** The replacement of `sitemapFind`: `--sitemap-replace`, `sitemapReplace`. */
  sitemapReplace: {
    flag: 'sitemap-replace',
    commands: ['ci'],
    help: { value: '<text>', text: 'the replacement of --sitemap-find' },
    config: key('sitemapReplace', (value, at) => {
      if (typeof value !== 'string') at.fail('sitemapReplace', 'must be a string');
      return value as string;
    }),
    read: text,
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** Most URLs a run checks: `--max-urls`, `maxUrls`. */
  maxUrls: {
    flag: 'max-urls',
    commands: ['ci'],
    help: { value: '<n>', text: `refuse a run of more than n URLs in all (default ${DEFAULT_MAX_URLS})` },
    config: key('maxUrls', (value, at) => count(value, 'maxUrls', at)),
    read: (raw, where) => wholeNumber(raw, where, { min: 1 }),
    default: DEFAULT_MAX_URLS,
  } as SettingSpec<number>,
  /** URLs per CI check: `--urls-per-check`, `SVC_URLS_PER_CHECK`, `urlsPerCheck` (1–20; default 20). */
  urlsPerCheck: {
    action: 'urls-per-check',
    flag: 'urls-per-check',
    commands: ['ci'],
    help: {
      value: '<n>',
      text: `at most n URLs per CI check, 1 to ${MAX_URLS_PER_CHECK} (default ${MAX_URLS_PER_CHECK}; $SVC_URLS_PER_CHECK); ${FREE_PLAN_URLS_PER_CHECK} on the\nFree plan saves the one refused create that finds it out`,
    },
    env: 'SVC_URLS_PER_CHECK',
    config: key('urlsPerCheck', (value, at) =>
      count(value, 'urlsPerCheck', at, { max: MAX_URLS_PER_CHECK, rule: `must be ${URLS_PER_CHECK_RULE}` }),
    ),
    read: (raw, where) => wholeNumber(raw, where, { min: 1, max: MAX_URLS_PER_CHECK, rule: URLS_PER_CHECK_RULE }),
    default: MAX_URLS_PER_CHECK,
  } as SettingSpec<number>,
  /**
   * How many times the pages of a check that could not be checked (TIMEOUT, UNREACHABLE, ERROR; all of a FAILED
   * check's) are checked again in a check of their own: `--recheck N`, `SVC_RECHECK`, `recheck` (0 turns it off).
   */
  recheck: {
    action: 'recheck',
    flag: 'recheck',
    commands: ['ci'],
    help: {
      value: '<n>',
      text: `check pages that ended TIMEOUT, UNREACHABLE or ERROR (all of a FAILED check's) again, in a\nnew check, up to n times (0 to ${MAX_RECHECKS}; default 1, 0 turns it off; $SVC_RECHECK); never sets the baseline`,
    },
    env: 'SVC_RECHECK',
    config: key('recheck', (value, at) =>
      count(value, 'recheck', at, {
        min: 0,
        max: MAX_RECHECKS,
        rule: `must be a whole number from 0 to ${MAX_RECHECKS}`,
      }),
    ),
    read: (raw, where) => wholeNumber(raw, where, { min: 0, max: MAX_RECHECKS }),
    default: 1,
  } as SettingSpec<number>,
  /** Most CI checks in flight at once: `--max-checks`, `SVC_MAX_CHECKS`, `maxChecks` (default: no cap). */
  maxChecks: {
    flag: 'max-checks',
    commands: ['ci'],
    help: {
      value: '<n>',
      text: 'at most n CI checks in flight at once (default: no cap, as many as the rate allows;\n$SVC_MAX_CHECKS)',
    },
    env: 'SVC_MAX_CHECKS',
    config: key('maxChecks', (value, at) => count(value, 'maxChecks', at)),
    read: (raw, where) => wholeNumber(raw, where, { min: 1 }),
    default: undefined,
  } as SettingSpec<number | undefined>,
  /** One share of the run's pages for one job of a CI matrix: `--shard I/N`, `SVC_SHARD`, `shard` (e.g. `2/4`). */
  shard: {
    action: 'shard',
    flag: 'shard',
    commands: ['ci'],
    help: {
      value: '<i/n>',
      text: 'check the i-th of n shares of the pages (a CI matrix job; every page in one share once;\n$SVC_SHARD); --max-urls then bounds the share',
    },
    env: 'SVC_SHARD',
    config: key<string, Shard>(
      'shard',
      (value, at) => (shardOf(value) ? (value as string) : at.fail('shard', SHARD_RULE)),
      { as: (stored) => shardOf(stored)! },
    ),
    read: (raw, where) => parseShard(text(raw), where),
    default: undefined,
  } as SettingSpec<Shard | undefined>,
  /** Check only the pages whose mapped source files changed since a git ref: `--changed-since`. */
  changedSince: {
    flag: 'changed-since',
    commands: ['ci'],
    help: {
      value: '<ref>',
      text: 'check only pages whose --source-map files changed since the git ref (git diff --name-only),\nplus every page no entry maps; no change → exit 0 saying no page was affected',
    },
    read: text,
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** The reviewed suppressions file: `--suppressions` (from the working directory), `suppressions`. */
  suppressions: {
    flag: 'suppressions',
    commands: ['ci'],
    help: {
      value: '<file>',
      text: `reviewed suppressions (default: ${DEFAULT_SUPPRESSIONS_FILE} beside the config file, if\npresent): { "suppressions": [ { "ruleId", "url"?, "target"?, "fingerprint"?, "reason",\n"expires": "YYYY-MM-DD" } ] }. A suppressed finding does not count toward --fail-on and\nis shown as suppressed (SARIF suppressions, JUnit skipped); expired entries warn and\nsuppress nothing; entries that matched nothing are reported as stale`,
    },
    config: key('suppressions', (value, at) => {
      if (typeof value !== 'string' || value.trim() === '') at.fail('suppressions', 'must be a file name');
      return resolve(at.folder, value as string);
    }),
    read: text,
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** Per-URL thresholds (config file only): the first entry whose `url` pattern matches a page decides. */
  failOnByUrl: {
    commands: ['ci'],
    config: key(
      'failOnByUrl',
      (value, at) => {
        if (!Array.isArray(value)) at.fail('failOnByUrl', `must be an array of ${FAIL_ON_BY_URL_ENTRY}`);
        return (value as unknown[]).map((entry, i): UrlFailOn => {
          const name = `failOnByUrl[${i}]`;
          if (!isObject(entry)) return at.fail(name, `must be an object ${FAIL_ON_BY_URL_ENTRY}`);
          for (const k of Object.keys(entry))
            if (k !== 'url' && k !== 'failOn') at.fail(`${name}.${k}`, 'is not a known key (known: url, failOn)');
          if (typeof entry.url !== 'string' || entry.url === '')
            at.fail(`${name}.url`, 'must be a non-empty regular expression string, e.g. "/checkout"');
          pattern(entry.url, `${name}.url`, at);
          return { url: entry.url as string, failOn: choice(entry.failOn, FAIL_ON, `${name}.failOn`, at) };
        });
      },
      { shape: '[{url, failOn}]' },
    ),
    // No flag and no variable: only the config file gives it, so no text is ever read.
    read: () => [],
    default: [],
  } as SettingSpec<UrlFailOn[]>,
  /** The `ci` config file named on the command line (else the default file, if present: see `config.ts`). */
  configFile: {
    action: 'config',
    flag: 'config',
    commands: ['ci'],
    help: {
      value: '<file>',
      text: (settings) => {
        const keys = settings.flatMap((s) =>
          s.config ? [`${s.config.key}${s.config.shape ? ` ${s.config.shape}` : ''}`] : [],
        );
        return `a JSON config file (default: ${DEFAULT_CONFIG_FILE} in the working directory, if present)\n${wrapped(`with ${keys.slice(0, -1).join(', ')} and ${keys.at(-1)};`, 93)}\nflags win over it`;
      },
    },
    read: text,
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** No progress and no stdout report: `-q`, `--quiet`. */
  quiet: {
    flag: 'quiet',
    kind: 'switch',
    short: 'q',
    commands: ['ci', 'merge'],
    help: { text: 'no progress and no stdout report (reports and the exit code remain)' },
    read: isOn,
    default: false,
  } as SettingSpec<boolean>,
} as const;

// A list of `, `-joined items in lines of at most `width` characters, broken only after a comma.
function wrapped(line: string, width: number): string {
  const lines: string[] = [];
  let current = '';
  for (const part of line.split(/(?<=, )/)) {
    if (current !== '' && (current + part).trimEnd().length > width) {
      lines.push(current.trimEnd());
      current = '';
    }
    current += part;
  }
  return [...lines, current].join('\n');
}
