// The `ci` config file: what a pipeline would otherwise repeat as flags (URLs, sitemaps, threshold and per-URL
// thresholds, reports, context, SARIF source map, suppressions file), read from `--config FILE` or, as Lighthouse CI
// and pa11y-ci do, from a default file in the working directory. JSON, checked key by key: a typo is an error naming
// the file, the key and the rule, never a silently ignored setting. The file may be a secrets file: no message ever
// quotes its contents. Its values are merged with the flags and the environment in one place: settings.ts.
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../exit-codes.js';
import { closest } from '../suggest.js';
import { parseDuration } from '../args.js';
import { FAIL_ON } from '../report/fail-on.js';
import { describeJsonError } from '../io/json-error.js';
import { urlPattern } from '../report/page-urls.js';
import { readTextFile } from '../io/read-file.js';
import { REPORT_FORMATS, type ReportFormat } from '../report/formats.js';
import type { UrlFailOn } from '../report/url-fail-on.js';

/** The file looked up in the working directory when `--config` is not given. */
export const DEFAULT_CONFIG_FILE = 'svc-a11y.config.json';

/** A parsed config file; every key optional (flags win over it). */
export interface CiConfig {
  /** Where it was read from (for messages). */
  file: string;
  urls?: string[];
  failOn?: (typeof FAIL_ON)[number];
  setBaseline?: boolean;
  /** The wait limit in milliseconds (the file may say `"10m"`, `"90s"` or a number of milliseconds). */
  timeout?: number;
  format?: ReportFormat;
  /** Report files by format. */
  reports?: Partial<Record<ReportFormat, string>>;
  context?: Record<string, string>;
  /**
   * URL path prefix → repository-relative source file (or glob), for SARIF locations and `--changed-since`; or
   * `"auto"` (infer the routes of the project's framework) or `"none"` (infer nothing).
   */
  sarifMap?: Record<string, string> | 'auto' | 'none';
  /** The project folder `--sarif-map auto` reads, relative to the config file's folder. */
  sourceRoot?: string;
  /** The URL path the site is served under (`/docs`), removed before pages are matched to routes. */
  basePath?: string;
  /** Sitemaps (URLs, or files relative to the config file's folder) whose pages are checked. */
  sitemap?: string[];
  /** Sitemap pages whose URL matches this regular expression are left out. */
  sitemapExclude?: string;
  /** The SARIF run's category (`automationDetails.id`), for uploads of several runs at once. */
  sarifCategory?: string;
  /** A regular expression replaced by `sitemapReplace` in every sitemap URL. */
  sitemapFind?: string;
  /** The replacement of `sitemapFind`. */
  sitemapReplace?: string;
  /** The most URLs a run checks (default 500). */
  maxUrls?: number;
  /** URLs per CI check, 1–20 (default 20; the Free plan takes up to 5). */
  urlsPerCheck?: number;
  /** The most CI checks in flight at once (default: no cap). */
  maxChecks?: number;
  /** The suppressions file, relative to the config file's folder. */
  suppressions?: string;
  /** Per-URL thresholds: the first entry whose `url` pattern matches a page decides its threshold. */
  failOnByUrl?: UrlFailOn[];
}

const KEYS = [
  '$schema',
  'urls',
  'failOn',
  'setBaseline',
  'timeout',
  'format',
  'reports',
  'context',
  'sarifMap',
  'sourceRoot',
  'basePath',
  'sitemap',
  'sitemapExclude',
  'sarifCategory',
  'sitemapFind',
  'sitemapReplace',
  'maxUrls',
  'urlsPerCheck',
  'maxChecks',
  'suppressions',
  'failOnByUrl',
];

/**
 * Reads the config: `explicit` (from `--config`) must exist; otherwise {@link DEFAULT_CONFIG_FILE} in `cwd`
 * is used when present. The file is read under a 1 MiB cap, without blocking (see `readTextFile`), a leading
 * byte order mark dropped; a JSON error names the line and column, never the text there.
 * @throws UsageError naming the file and what is wrong with it
 */
export function loadConfig(explicit: string | undefined, cwd: string): CiConfig | undefined {
  const file = explicit ?? join(cwd, DEFAULT_CONFIG_FILE);
  if (explicit === undefined && !isFile(file)) return undefined;
  if (explicit !== undefined && explicit.trim() === '') throw new UsageError('--config needs a file name');
  // Capped (1 MiB) and never blocking: `--config /dev/zero` or a FIFO is refused with exit 2, not read forever.
  // A leading byte order mark (editors on Windows write one) is dropped.
  const text = readTextFile(file, { what: 'config file' });
  if (text.trim() === '') throw new UsageError(`config file ${file} is empty; it must hold a JSON object`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // V8's message quotes the text around the error: only where it is, never what it says.
    throw new UsageError(`config file ${file} is not valid JSON (${describeJsonError(text)})`);
  }
  return checkConfig(data, file);
}

/**
 * Checks parsed config data key by key.
 * @throws UsageError naming the file, the key and the rule
 */
export function checkConfig(data: unknown, file: string): CiConfig {
  const fail = (key: string, rule: string): never => {
    throw new UsageError(`config file ${file}: ${key} ${rule}`);
  };
  if (!isObject(data)) return fail('(top level)', 'must be a JSON object');
  for (const key of Object.keys(data)) {
    if (KEYS.includes(key)) continue;
    // A typo gets the closest key, as a mistyped flag does (case differences count as typos: `failon`).
    const near = closest(key, KEYS.slice(1)) ?? KEYS.find((k) => k.toLowerCase() === key.toLowerCase());
    fail(key, `is not a known key${near ? `; did you mean ${near}?` : ''} (known: ${KEYS.slice(1).join(', ')})`);
  }
  const config: CiConfig = { file };
  if (data.urls !== undefined) {
    if (!Array.isArray(data.urls) || !data.urls.every((u) => typeof u === 'string' && u.trim() !== ''))
      fail('urls', 'must be an array of URL strings');
    config.urls = (data.urls as string[]).map((u) => u.trim());
    // Checked here too (the SDK checks them again), so the message names this file rather than the request.
    config.urls.forEach((u, i) => {
      if (!URL.canParse(u) || !['http:', 'https:'].includes(new URL(u).protocol))
        fail(`urls[${i}]`, `must be an absolute http(s) URL, got ${JSON.stringify(u)}`);
    });
  }
  if (data.failOn !== undefined) config.failOn = choice(data.failOn, FAIL_ON, 'failOn', fail);
  if (data.setBaseline !== undefined) {
    if (typeof data.setBaseline !== 'boolean') fail('setBaseline', 'must be true or false');
    config.setBaseline = data.setBaseline as boolean;
  }
  if (data.timeout !== undefined) {
    const rule = 'must be a duration like "10m", "90s" or "1500ms", or a positive number of milliseconds';
    if (typeof data.timeout === 'string') {
      try {
        config.timeout = parseDuration(data.timeout, 'timeout');
      } catch {
        fail('timeout', `${rule}, got ${JSON.stringify(data.timeout)}`);
      }
    } else if (typeof data.timeout === 'number' && Number.isFinite(data.timeout) && data.timeout >= 1) {
      config.timeout = data.timeout;
    } else fail('timeout', rule);
  }
  if (data.format !== undefined) config.format = choice(data.format, REPORT_FORMATS, 'format', fail);
  if (data.reports !== undefined) {
    const reports = stringMap(data.reports, 'reports', fail);
    for (const key of Object.keys(reports))
      choice(key, REPORT_FORMATS, `reports.${key}`, () =>
        fail(`reports.${key}`, `is not a report format (one of ${REPORT_FORMATS.join(', ')})`),
      );
    config.reports = reports;
  }
  if (data.context !== undefined) config.context = stringMap(data.context, 'context', fail);
  if (data.sarifMap === 'auto' || data.sarifMap === 'none') config.sarifMap = data.sarifMap;
  else if (typeof data.sarifMap === 'string')
    fail(
      'sarifMap',
      `must be "auto", "none" or an object of URL path prefix → file, got ${JSON.stringify(data.sarifMap)}`,
    );
  else if (data.sarifMap !== undefined) config.sarifMap = stringMap(data.sarifMap, 'sarifMap', fail);
  if (data.basePath !== undefined) {
    if (typeof data.basePath !== 'string' || !data.basePath.startsWith('/'))
      fail('basePath', 'must be a URL path starting with \'/\', such as "/docs"');
    config.basePath = data.basePath as string;
  }
  // Files named in the config file are relative to its folder, wherever the CLI runs.
  const here = dirname(resolve(file));
  if (data.sitemap !== undefined) {
    const list = typeof data.sitemap === 'string' ? [data.sitemap] : data.sitemap;
    if (!Array.isArray(list) || list.length === 0 || !list.every((u) => typeof u === 'string' && u.trim() !== ''))
      fail('sitemap', 'must be a sitemap URL or file, or an array of them');
    config.sitemap = (list as string[]).map((u) =>
      /^https?:\/\//i.test(u.trim()) ? u.trim() : resolve(here, u.trim()),
    );
  }
  if (data.sourceRoot !== undefined) {
    if (typeof data.sourceRoot !== 'string' || data.sourceRoot.trim() === '')
      fail('sourceRoot', 'must be a folder, relative to the config file');
    config.sourceRoot = resolve(here, (data.sourceRoot as string).trim());
  }
  if (data.sarifCategory !== undefined) config.sarifCategory = sarifCategory(data.sarifCategory, 'sarifCategory', fail);
  for (const key of ['sitemapExclude', 'sitemapFind'] as const) {
    if (data[key] === undefined) continue;
    if (typeof data[key] !== 'string' || data[key] === '') fail(key, 'must be a non-empty regular expression string');
    urlPattern(data[key] as string, `config file ${file}: ${key}`);
    config[key] = data[key] as string;
  }
  if (data.sitemapReplace !== undefined) {
    if (typeof data.sitemapReplace !== 'string') fail('sitemapReplace', 'must be a string');
    config.sitemapReplace = data.sitemapReplace as string;
  }
  if (data.maxUrls !== undefined) {
    if (!Number.isInteger(data.maxUrls) || (data.maxUrls as number) < 1)
      fail('maxUrls', 'must be a whole number of at least 1');
    config.maxUrls = data.maxUrls as number;
  }
  if (data.urlsPerCheck !== undefined) {
    if (!Number.isInteger(data.urlsPerCheck) || (data.urlsPerCheck as number) < 1 || (data.urlsPerCheck as number) > 20)
      fail(
        'urlsPerCheck',
        'must be a whole number from 1 to 20 (the service takes 1 to 20 URLs per CI check, the Free plan up to 5)',
      );
    config.urlsPerCheck = data.urlsPerCheck as number;
  }
  if (data.maxChecks !== undefined) {
    if (!Number.isInteger(data.maxChecks) || (data.maxChecks as number) < 1)
      fail('maxChecks', 'must be a whole number of at least 1');
    config.maxChecks = data.maxChecks as number;
  }
  if (data.suppressions !== undefined) {
    if (typeof data.suppressions !== 'string' || data.suppressions.trim() === '')
      fail('suppressions', 'must be a file name');
    config.suppressions = resolve(here, data.suppressions as string);
  }
  if (data.failOnByUrl !== undefined) {
    if (!Array.isArray(data.failOnByUrl))
      fail('failOnByUrl', 'must be an array of { "url": "<regular expression>", "failOn": "<threshold>" }');
    config.failOnByUrl = (data.failOnByUrl as unknown[]).map((entry, i) => {
      const key = `failOnByUrl[${i}]`;
      if (!isObject(entry))
        return fail(key, 'must be an object { "url": "<regular expression>", "failOn": "<threshold>" }');
      for (const k of Object.keys(entry))
        if (k !== 'url' && k !== 'failOn') fail(`${key}.${k}`, 'is not a known key (known: url, failOn)');
      if (typeof entry.url !== 'string' || entry.url === '')
        fail(`${key}.url`, 'must be a non-empty regular expression string, e.g. "/checkout"');
      urlPattern(entry.url as string, `config file ${file}: ${key}.url`);
      return { url: entry.url as string, failOn: choice(entry.failOn, FAIL_ON, `${key}.failOn`, fail) };
    });
  }
  return config;
}

function choice<T extends string>(
  value: unknown,
  choices: readonly T[],
  key: string,
  fail: (key: string, rule: string) => never,
): T {
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value))
    fail(key, `must be one of ${choices.join(', ')}`);
  return value as T;
}

function stringMap(value: unknown, key: string, fail: (key: string, rule: string) => never): Record<string, string> {
  if (!isObject(value)) return fail(key, 'must be an object of strings');
  for (const [k, v] of Object.entries(value))
    if (typeof v !== 'string' || v === '') fail(`${key}.${k}`, 'must be a non-empty string');
  return { ...(value as Record<string, string>) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * A SARIF category as a flag or the config file gives it: non-empty, printable, at most 200 characters (a path-like
 * name such as `a11y/shop/checkout`).
 * @throws through `fail`, naming the key (or flag) and the rule
 * @example sarifCategory('a11y/shop', '--sarif-category', fail) // 'a11y/shop'
 */
export function sarifCategory(value: unknown, key: string, fail: (key: string, rule: string) => never): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '' || text.length > 200 || /[\u0000-\u001F\u007F]/.test(text))
    return fail(key, 'must be a non-empty category of at most 200 printable characters, such as a11y/shop/checkout');
  return text;
}
