// Every setting of every command, declared once (its flag, environment variable, config file key, how its text is
// read and checked, its default), and the one rule that merges them, as Lighthouse CI merges its flags, environment
// and rc file: a flag wins over the environment, which wins over the config file, which wins over the default.
// A resolved value keeps its source, so a message can say where it came from ("(timeout in ./svc-a11y.config.json)").
import { DEFAULT_WAIT_TIMEOUT_MS, LOG_LEVELS, type LogLevel } from '../../index.js';
import { type OptionValues, oneOf, parseDuration, parsePair } from '../args.js';
import { type CiConfig, sarifCategory } from './config.js';
import { ciContext } from './ci-env.js';
import { UsageError } from '../exit-codes.js';
import { FAIL_ON } from '../report/fail-on.js';
import { REPORT_FORMATS, type ReportFormat } from '../report/formats.js';

/** The process environment, as the CLI reads it. */
export type Env = Record<string, string | undefined>;

/** Where a setting's value came from. */
export type SettingSource =
  | { kind: 'flag'; flag: string }
  | { kind: 'env'; variable: string }
  | { kind: 'config'; key: string; file: string }
  | { kind: 'default' };

/** A resolved setting: its value and where the value came from. */
export interface Setting<T> {
  value: T;
  source: SettingSource;
}

/** What settings are read from: the parsed flags, the environment and the config file (`ci` only). */
export interface SettingInputs {
  values: OptionValues;
  env: Env;
  config?: CiConfig | undefined;
}

type ConfigKey = Exclude<keyof CiConfig, 'file'>;

/** A config file key and how its (already checked) value becomes the setting's. */
interface ConfigSource<T> {
  key: ConfigKey;
  read(config: CiConfig): T | undefined;
}

/**
 * One setting's declaration. `read` takes a flag's value (text, `true` for a switch, a list for a repeatable flag)
 * or a variable's text, and `where` names that source for its messages (`--timeout`, `SVC_RATE_LIMIT`). Config file
 * values are checked by `config.ts` (its messages name the file and the key).
 */
export interface SettingSpec<T> {
  /** The flag without its dashes (the key of the parsed values), if it has one. */
  flag?: string;
  /** The environment variable, if it has one. A variable set to blanks counts as unset. */
  env?: string;
  /** The config file key, if it has one. */
  config?: ConfigSource<T>;
  read(raw: string | boolean | string[], where: string): T;
  /** The value when no source gives one; a function of the environment when it is read from it (`context`). */
  default: T | ((env: Env) => T);
  /**
   * For a setting every source adds to (`context`, `sarifMap`): how a higher source's value joins a lower one's.
   * Without it, the first source that gives a value is the setting's.
   */
  merge?(lower: T, higher: T): T;
}

// A config key whose value is the setting's as it is.
const key = <K extends ConfigKey>(name: K): ConfigSource<NonNullable<CiConfig[K]>> => ({
  key: name,
  read: (config) => config[name] ?? undefined,
});

const text = (raw: string | boolean | string[]): string => (typeof raw === 'string' ? raw : String(raw));
// A value read from the flag or the environment, trimmed; blank counts as not given.
const trimmed = (raw: string | boolean | string[]): string | undefined => text(raw).trim() || undefined;
const list = (raw: string | boolean | string[]): string[] => (Array.isArray(raw) ? raw : [text(raw)]);
// A count of `ci` (URLs, checks): a whole number of at least 1, blanks around it allowed.
const countOf = (raw: string | boolean | string[], where: string): number => {
  const value = text(raw);
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
    throw new UsageError(`${where} must be a whole number of at least 1, got "${value}"`, 'ci');
  return Number(value);
};

/**
 * Most URLs one run checks unless `--max-urls` or `maxUrls` says otherwise.
 * @default 500
 */
export const DEFAULT_MAX_URLS = 500;

/**
 * The most URLs a CI check takes (document §8), and `--urls-per-check`'s default and upper bound.
 * @default 20
 */
export const MAX_URLS_PER_CHECK_SETTING = 20;

/**
 * Default cap on a webhook delivery's body read from stdin: 25 MiB.
 * Deliveries are small JSON events (spec §6: terminal scan outcomes, regressions, remediation status changes;
 * findings are read from the API, not pushed), a few kB in practice. The spec states no body limit (§8), so the
 * cap is set far above any genuine event, at the ceiling webhook senders commonly use (GitHub caps its payloads at
 * 25 MB), while a runaway pipe (a 600 MB file, `cat /dev/urandom`) fails fast in bounded memory instead of
 * aborting Node.
 */
export const DEFAULT_MAX_BODY_BYTES = 25 * 1024 * 1024;

/**
 * The accepted age of a webhook's `X-Svc-Timestamp`, in seconds, either way.
 * @default 300
 */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * The words `--sarif-map` takes besides `PREFIX=FILE`: infer the routes (`auto`) or do not (`none`).
 * @example SARIF_MAP_MODES.includes('auto') // true
 */
export const SARIF_MAP_MODES = ['auto', 'none'] as const;

/** A `--sarif-map` word: `auto` or `none`. */
export type SarifMapMode = (typeof SARIF_MAP_MODES)[number];

/** One `--sarif-map` item: a `[prefix, file]` entry, or a mode word. */
export type SarifMapItem = [string, string] | SarifMapMode;

const isSarifMapMode = (text: string): text is SarifMapMode => (SARIF_MAP_MODES as readonly string[]).includes(text);

/** Every setting the commands read. Flags every command accepts are in `args.ts`' `globalOptions`. */
export const SETTINGS = {
  /** The API key: `--api-key`, `SVC_API_KEY`. */
  apiKey: { flag: 'api-key', env: 'SVC_API_KEY', read: trimmed, default: undefined } as SettingSpec<string | undefined>,
  /** The service's address: `--base-url`, `SVC_BASE_URL`. */
  baseUrl: { flag: 'base-url', env: 'SVC_BASE_URL', read: trimmed, default: undefined } as SettingSpec<
    string | undefined
  >,
  /** Requests per minute of the client's rate budget: `--rate-limit`, `SVC_RATE_LIMIT` (off by default). */
  rateLimit: {
    flag: 'rate-limit',
    env: 'SVC_RATE_LIMIT',
    read: (raw, where) => {
      const value = trimmed(raw);
      if (value === undefined) return undefined;
      const perMinute = Number(value);
      if (!Number.isFinite(perMinute) || perMinute <= 0)
        throw new UsageError(`${where} must be a positive number of requests per minute, such as 120`);
      return perMinute;
    },
    default: undefined,
  } as SettingSpec<number | undefined>,
  /** The Redis that shares the rate budget: `--redis-url`, `SVC_REDIS_URL`. */
  redisUrl: {
    flag: 'redis-url',
    env: 'SVC_REDIS_URL',
    read: (raw, where) => {
      const value = trimmed(raw);
      if (value !== undefined && !/^rediss?:\/\//i.test(value))
        throw new UsageError(`${where} must be a redis:// or rediss:// URL`);
      return value;
    },
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** The wait limit in milliseconds: `--timeout`, `timeout` in the config file. */
  timeout: {
    flag: 'timeout',
    config: key('timeout'),
    read: (raw, where) => parseDuration(text(raw), where),
    default: DEFAULT_WAIT_TIMEOUT_MS,
  } as SettingSpec<number>,
  /** The `ci` config file named on the command line (else the default file, if present: see `config.ts`). */
  configFile: { flag: 'config', read: text, default: undefined } as SettingSpec<string | undefined>,
  /** The threshold sent with each check: `--fail-on`, `failOn`; the service's default when not given. */
  failOn: {
    flag: 'fail-on',
    config: key('failOn'),
    read: (raw, where) => oneOf(text(raw), FAIL_ON, where),
    default: undefined,
  } as SettingSpec<(typeof FAIL_ON)[number] | undefined>,
  /** Save each completed check as the baseline: `--set-baseline`, `setBaseline`. */
  setBaseline: {
    flag: 'set-baseline',
    config: key('setBaseline'),
    read: (raw) => raw === true,
    default: false,
  } as SettingSpec<boolean>,
  /** The stdout report's format: `--format`, `format`. */
  format: {
    flag: 'format',
    config: key('format'),
    read: (raw, where) => oneOf(text(raw), REPORT_FORMATS, where),
    default: 'text',
  } as SettingSpec<ReportFormat>,
  /** Report files, format and path: `--report FORMAT=FILE` (repeatable), `reports`; the flags replace the file's. */
  reports: {
    flag: 'report',
    config: {
      key: 'reports',
      read: (config) =>
        config.reports && Object.entries(config.reports).map(([kind, file]) => [kind as ReportFormat, file] as const),
    },
    read: (raw, where) =>
      list(raw).map((pair) => {
        const [kind, file] = parsePair(pair, where);
        return [oneOf(kind, REPORT_FORMATS, `${where} FORMAT`), file] as const;
      }),
    default: [],
  } as SettingSpec<Array<readonly [ReportFormat, string]>>,
  /** Most URLs a run checks: `--max-urls`, `maxUrls`. */
  maxUrls: {
    flag: 'max-urls',
    config: key('maxUrls'),
    read: countOf,
    default: DEFAULT_MAX_URLS,
  } as SettingSpec<number>,
  /** URLs per CI check: `--urls-per-check`, `SVC_URLS_PER_CHECK`, `urlsPerCheck` (1–20; default 20). */
  urlsPerCheck: {
    flag: 'urls-per-check',
    env: 'SVC_URLS_PER_CHECK',
    config: key('urlsPerCheck'),
    read: (raw, where) => {
      const value = text(raw).trim();
      if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_URLS_PER_CHECK_SETTING)
        throw new UsageError(
          `${where} must be a whole number from 1 to ${MAX_URLS_PER_CHECK_SETTING} (the service takes 1 to 20 URLs per CI check, the Free plan up to 5), got "${text(raw)}"`,
          'ci',
        );
      return Number(value);
    },
    default: MAX_URLS_PER_CHECK_SETTING,
  } as SettingSpec<number>,
  /** Most CI checks in flight at once: `--max-checks`, `SVC_MAX_CHECKS`, `maxChecks` (default: no cap). */
  maxChecks: {
    flag: 'max-checks',
    env: 'SVC_MAX_CHECKS',
    config: key('maxChecks'),
    read: countOf,
    default: undefined,
  } as SettingSpec<number | undefined>,
  /** Sitemap pages left out: `--sitemap-exclude`, `sitemapExclude`. */
  sitemapExclude: {
    flag: 'sitemap-exclude',
    config: key('sitemapExclude'),
    read: text,
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** What `sitemapReplace` replaces in sitemap URLs: `--sitemap-find`, `sitemapFind`. */
  sitemapFind: { flag: 'sitemap-find', config: key('sitemapFind'), read: text, default: undefined } as SettingSpec<
    string | undefined
  >,
  /** The replacement of `sitemapFind`: `--sitemap-replace`, `sitemapReplace`. */
  sitemapReplace: {
    flag: 'sitemap-replace',
    config: key('sitemapReplace'),
    read: text,
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** The reviewed suppressions file: `--suppressions` (from the working directory), `suppressions`. */
  suppressions: { flag: 'suppressions', config: key('suppressions'), read: text, default: undefined } as SettingSpec<
    string | undefined
  >,
  /**
   * Each check's context: the CI environment's repository, branch, commit and pull request, then the config
   * file's `context`, then `--context key=value` (repeatable); a later source's key wins.
   */
  context: {
    flag: 'context',
    config: key('context'),
    read: (raw, where) => Object.fromEntries(list(raw).map((pair) => parsePair(pair, where))),
    default: (env) => ciContext(env),
    merge: (lower, higher) => ({ ...lower, ...higher }),
  } as SettingSpec<Record<string, string>>,
  /** The SARIF run's category: `--sarif-category`, `sarifCategory`. */
  sarifCategory: {
    flag: 'sarif-category',
    config: key('sarifCategory'),
    read: (raw, where) =>
      sarifCategory(text(raw), where, (k, rule) => {
        throw new UsageError(`${k} ${rule}`, 'ci');
      }),
    default: undefined,
  } as SettingSpec<string | undefined>,
  /**
   * URL path prefix → source file, and `auto` / `none` (route inference on or off): the config file's `sarifMap`,
   * then `--sarif-map` (a later equal prefix wins; of `auto` and `none`, the last given).
   */
  sarifMap: {
    flag: 'sarif-map',
    config: {
      key: 'sarifMap',
      read: (config) =>
        config.sarifMap === undefined
          ? undefined
          : typeof config.sarifMap === 'string'
            ? [config.sarifMap]
            : Object.entries(config.sarifMap),
    },
    read: (raw, where) =>
      list(raw).map((item) => {
        const word = item.trim();
        return isSarifMapMode(word) ? word : parsePair(item, where);
      }),
    default: [],
    merge: (lower, higher) => [...lower, ...higher],
  } as SettingSpec<SarifMapItem[]>,
  /** The project `--sarif-map auto` reads: `--source-root`, `sourceRoot` (default: the working directory). */
  sourceRoot: {
    flag: 'source-root',
    config: key('sourceRoot'),
    read: (raw) => text(raw),
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** The URL path the site is served under, removed before matching routes: `--base-path`, `basePath`. */
  basePath: {
    flag: 'base-path',
    config: key('basePath'),
    read: (raw, where) => {
      const value = text(raw).trim();
      if (!value.startsWith('/'))
        throw new UsageError(`${where} must be a URL path starting with '/', such as /docs`, 'ci');
      return value;
    },
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** Webhook signing secrets: `--secret` (repeatable), `SVC_WEBHOOK_SECRET`. */
  webhookSecrets: { flag: 'secret', env: 'SVC_WEBHOOK_SECRET', read: list, default: [] } as SettingSpec<string[]>,
  /** Accepted age of a delivery's timestamp: `--tolerance`. */
  toleranceSeconds: {
    flag: 'tolerance',
    read: (raw, where) => {
      const seconds = Number(text(raw));
      if (!Number.isInteger(seconds) || seconds < 0)
        throw new UsageError(`${where} must be a whole number of seconds`, 'webhook');
      return seconds;
    },
    default: DEFAULT_TOLERANCE_SECONDS,
  } as SettingSpec<number>,
  /** Largest delivery body read from stdin: `--max-body-bytes`. */
  maxBodyBytes: {
    flag: 'max-body-bytes',
    read: (raw, where) => {
      const value = text(raw);
      const bytes = Number(value);
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(bytes) || bytes < 1)
        throw new UsageError(`${where} must be a positive whole number of bytes`, 'webhook');
      return bytes;
    },
    default: DEFAULT_MAX_BODY_BYTES,
  } as SettingSpec<number>,
  /** The simulator's port: `--port` (0: a free one). */
  port: {
    flag: 'port',
    read: (raw, where) => {
      const port = Number(text(raw));
      if (!Number.isInteger(port) || port < 0 || port > 65_535)
        throw new UsageError(`${where} must be a whole number from 0 to 65535`, 'simulator');
      return port;
    },
    default: 0,
  } as SettingSpec<number>,
  /** How many trend points: `--limit` (the service's default when not given). */
  /**
   * How much the client logs on stderr: `--verbose` is `debug`; `SVC_LOG` names a level.
   * @default 'off'
   */
  logLevel: {
    flag: 'verbose',
    env: 'SVC_LOG',
    read: (raw, where) => {
      if (raw === true) return 'debug';
      const level = text(raw).trim().toLowerCase();
      if (!(LOG_LEVELS as readonly string[]).includes(level))
        throw new UsageError(`${where} must be one of ${LOG_LEVELS.join(', ')}`);
      return level as LogLevel;
    },
    default: 'off',
  } as SettingSpec<LogLevel>,
  trendLimit: {
    flag: 'limit',
    read: (raw, where) => {
      const value = text(raw);
      if (!/^\d+$/.test(value)) throw new UsageError(`${where} must be a non-negative whole number`, 'trend');
      return Number(value);
    },
    default: undefined,
  } as SettingSpec<number | undefined>,
} as const;

/**
 * Resolves one setting: the flag, else the environment variable, else the config file key, else the default (a
 * setting with `merge` joins every source that gives a value instead, the higher one last).
 * @throws UsageError from the setting's `read`, naming the flag or the variable
 * @example readSetting(SETTINGS.timeout, { values: { timeout: '90s' }, env: {} }) // { value: 90000, source: { kind: 'flag', flag: '--timeout' } }
 */
export function readSetting<T>(spec: SettingSpec<T>, inputs: SettingInputs): Setting<T> {
  const given: Array<() => Setting<T>> = [];
  const raw = spec.flag === undefined ? undefined : inputs.values[spec.flag];
  if (raw !== undefined) {
    const flag = `--${spec.flag}`;
    given.push(() => ({ value: spec.read(raw, flag), source: { kind: 'flag', flag } }));
  }
  const variable = spec.env === undefined ? undefined : inputs.env[spec.env];
  if (spec.env !== undefined && variable !== undefined && variable.trim() !== '') {
    const name = spec.env;
    given.push(() => ({ value: spec.read(variable, name), source: { kind: 'env', variable: name } }));
  }
  const config = inputs.config;
  const fromConfig = spec.config && config ? spec.config.read(config) : undefined;
  if (spec.config && config && fromConfig !== undefined) {
    const source: SettingSource = { kind: 'config', key: spec.config.key, file: config.file };
    given.push(() => ({ value: fromConfig, source }));
  }
  const byDefault = (): Setting<T> => ({
    value: typeof spec.default === 'function' ? (spec.default as (env: Env) => T)(inputs.env) : spec.default,
    source: { kind: 'default' },
  });
  if (spec.merge === undefined) return (given[0] ?? byDefault)();
  // Lowest first, so each higher source's value is joined over the ones below it; the source is the highest's.
  return [...given].reverse().reduce((lower, next) => {
    const higher = next();
    return { value: spec.merge!(lower.value, higher.value), source: higher.source };
  }, byDefault());
}

/**
 * Where a setting came from, in words for a message: `--timeout`, `SVC_RATE_LIMIT`,
 * `timeout in ./svc-a11y.config.json` or `the default`.
 * @example describeSource({ kind: 'config', key: 'timeout', file: 'a11y.json' }) // 'timeout in a11y.json'
 */
export function describeSource(source: SettingSource): string {
  switch (source.kind) {
    case 'flag':
      return source.flag;
    case 'env':
      return source.variable;
    case 'config':
      return `${source.key} in ${source.file}`;
    default:
      return 'the default';
  }
}

/**
 * A setting of a command that reads no config file: its flag, else its variable, else its default.
 * @example settingOf(ctx, SETTINGS.port).value // 0 when --port is not given
 */
export function settingOf<T>(
  ctx: { values: OptionValues; out: { io: { env: Env } } },
  spec: SettingSpec<T>,
): Setting<T> {
  return readSetting(spec, { values: ctx.values, env: ctx.out.io.env });
}
