// What a command receives, and the shape every command has.
import { createRequire } from 'node:module';
import { A11yClient, type ClientOptions, ConfigurationError } from '../index.js';
import { SERVICE_REQUESTS_PER_MINUTE } from '../vocabulary/index.js';
import { RedisRateLimitStore } from '../redis/index.js';
import type { OptionSpec, OptionValues } from './args.js';
import { UsageError } from './exit-codes.js';
import type { Output } from './io/output.js';
import type { SourceMapEntry } from './pages/source-location.js';
import type { RouteTable } from './routes/index.js';
import type { Progress } from './progress-line.js';
import type { ReportFormat } from './report/formats.js';
import type { PreparedReport } from './report/index.js';
import { proxySecrets, proxySettings, requestFetch } from './io/proxy.js';
import { jsonText } from './io/safe-text.js';
import { describeSource, readSetting, SETTINGS } from './settings/settings.js';

/** The package version (read from package.json next to dist/). */
export const version: string = (() => {
  try {
    return (createRequire(import.meta.url)('../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();

/** What a command runs with. */
export interface CommandContext {
  /** Positional arguments after the command name. */
  args: string[];
  values: OptionValues;
  out: Output;
  progress: Progress;
  /** `--json`: print the API's own records. */
  json: boolean;
  /** The client, built on first use from `--api-key`/`SVC_API_KEY` and `--base-url`/`SVC_BASE_URL`. */
  client(): A11yClient;
  /**
   * Waits until what the client's requests rely on is there: the shared rate-limit store of `--redis-url` connected
   * (within 5 s), so that no request of a run leaves before the store counts it. A store that
   * cannot be reached is not an error here: the client's budget then warns and spaces requests on its own share.
   */
  ready(): Promise<void>;
  /** Set when a program runs the CLI in its own process (the GitHub Action, through `src/cli/index.ts`). */
  embed?: Embedding | undefined;
}

/**
 * What a program running `svc-a11y ci` in its own process adds to the command line's settings, and how it receives
 * the judged report in memory.
 */
export interface Embedding {
  /** Report files written besides the ones the flags or the config file name. */
  reports?: ReadonlyArray<readonly [format: ReportFormat, file: string]> | undefined;
  /** Context under every other source: the CI environment's, the config file's and `--context` win over it. */
  context?: Readonly<Record<string, string>> | undefined;
  /**
   * Whether the CLI writes the GitHub annotations (with `GITHUB_ACTIONS=true`) and the job summary (to
   * `$GITHUB_STEP_SUMMARY`) itself: a program that writes its own (the Action) says false.
   * @default { annotations: true, summary: true } (as the environment allows)
   */
  writes?: { annotations?: boolean | undefined; summary?: boolean | undefined } | undefined;
  /**
   * Called once a `ci` run or a `merge` is judged (`report` undefined: nothing was checked), before the command
   * returns.
   */
  onResult?: ((result: { report: PreparedReport | undefined; options: EmbeddedOptions }) => void) | undefined;
}

/** What an embedding program reads of the options a `ci` run or a `merge` ran with. */
export interface EmbeddedOptions {
  /** URL path prefix → repository-relative source file (`--source-map PREFIX=FILE`), for every writer and --changed-since. */
  sourceMap: SourceMapEntry[];
  /**
   * The routes `--source-map auto` inferred (the default in a recognised project), for the pages no `sourceMap`
   * entry covers; undefined when inference is off or found nothing. Never used by `--changed-since`: a page's
   * route file is not all that renders it.
   */
  routes: RouteTable | undefined;
  /** Why a `setBaseline` asked for was ignored or kept on a pull request (already printed on stderr). */
  baselineWarning?: string | undefined;
  /** Whether the run saved its checks (and the journeys' baseline file) as the baseline. */
  setBaseline?: boolean | undefined;
}

/** A `svc-a11y` command. */
export interface Command {
  name: string;
  summary: string;
  /** Usage line and option descriptions shown by `--help`. */
  usage: string;
  options: Record<string, OptionSpec>;
  /** How many positional arguments it takes, and why (`note`) when the count is out of range. */
  args: { min: number; max: number; names: string; note?: string };
  run(ctx: CommandContext): Promise<number>;
}

/**
 * Builds the client from flags and environment (the API key is registered for redaction first). Messages name
 * the CLI's own ways out (the variable or the flag); likely mistakes get a warning on stderr. Responses are
 * validated against the description, so a 2xx of the wrong shape is an API error in words (exit 3), not a crash.
 */
export function clientFrom(
  values: OptionValues,
  env: Record<string, string | undefined>,
  out: Output,
  cleanups: Array<() => Promise<void>> = [],
  startups: Array<() => Promise<void>> = [],
): A11yClient {
  const key = readSetting(SETTINGS.apiKey, { values, env });
  const apiKey = key.value;
  let baseUrl = readSetting(SETTINGS.baseUrl, { values, env }).value;
  out.protect(apiKey);
  const missing = [
    !apiKey && 'an API key: set SVC_API_KEY or pass --api-key',
    !baseUrl && "the service's address: set SVC_BASE_URL or pass --base-url",
  ].filter(Boolean);
  if (missing.length) throw new UsageError(`missing ${missing.join('; and ')}`);
  // Copied from the API's URLs, the address often ends in /api/v1: every call would then 404 at /api/v1/api/v1/…
  if (/\/api\/v1\/?$/i.test(baseUrl!)) {
    baseUrl = baseUrl!.replace(/\/api\/v1\/?$/i, '');
    out.err(
      `warning: the base URL ends in /api/v1, which the CLI adds itself; using ${baseUrl} (set SVC_BASE_URL or --base-url without it)`,
    );
  }
  if (!apiKey!.startsWith('svc_'))
    out.err(
      `warning: the API key does not start with svc_, as the service's keys do; check ${describeSource(key.source)}`,
    );
  try {
    return build(apiKey!, baseUrl!, values, env, out, cleanups, startups);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    // The SDK names its options; a CLI user set a variable or a flag.
    throw new UsageError(
      error.message
        .replace(/^apiKey\b/, 'the API key (SVC_API_KEY or --api-key)')
        .replace(/^baseUrl( \(or SVC_BASE_URL\))?/, 'the base URL (SVC_BASE_URL or --base-url)')
        .replace(/\.$/, ''),
    );
  }
}

function build(
  apiKey: string,
  baseUrl: string,
  values: OptionValues,
  env: Record<string, string | undefined>,
  out: Output,
  cleanups: Array<() => Promise<void>>,
  startups: Array<() => Promise<void>>,
): A11yClient {
  // HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as curl and npm read them (see proxy.ts). The proxy's connections, a
  // CONNECT still waiting for its answer included, end with the command: none keeps the process alive.
  const proxy = proxySettings(env);
  if (proxy) for (const secret of proxySecrets(proxy)) out.protect(secret);
  const requests = requestFetch(env);
  if (requests.proxied) cleanups.push(() => requests.close());
  return new A11yClient({
    apiKey,
    baseUrl,
    ...(requests.proxied ? { fetch: requests.fetch } : {}),
    headers: { 'User-Agent': `svc-a11y/${version}` },
    validateResponses: true,
    rateLimit: rateLimitFrom(values, env, out, cleanups, startups),
    // --verbose / SVC_LOG: the SDK's own lines (already redacted), through the output guard like every other line.
    logLevel: readSetting(SETTINGS.logLevel, { values, env }).value,
    logger: {
      debug: (line) => out.err(`debug: ${line}`),
      info: (line) => out.err(`info: ${line}`),
      warn: (line) => out.err(`warning: ${line}`),
      error: (line) => out.error(line),
    },
    onWarning: (w) => out.err(`warning: ${w.message}${w.cause instanceof Error ? ` (${w.cause.message})` : ''}`),
  });
}

/**
 * How long a run waits for the shared rate-limit store's connection before its first request (`ready`): CI machines
 * reach Redis over a network, and a service container may still be starting.
 * @default 5000
 */
const STORE_CONNECT_MS = 5_000;

/**
 * The rate budget of `--rate-limit` / `SVC_RATE_LIMIT` (requests per minute), shared through Redis with
 * `--redis-url` / `SVC_REDIS_URL`, so the jobs of a CI matrix using one key share one budget. A Redis URL alone
 * means the service's default rate (120 per minute). The Redis connection is closed when the command ends.
 */
function rateLimitFrom(
  values: OptionValues,
  env: Record<string, string | undefined>,
  out: Output,
  cleanups: Array<() => Promise<void>>,
  startups: Array<() => Promise<void>>,
): ClientOptions['rateLimit'] {
  const rate = readSetting(SETTINGS.rateLimit, { values, env }).value;
  const redisUrl = readSetting(SETTINGS.redisUrl, { values, env }).value;
  if (rate === undefined && redisUrl === undefined) return undefined;
  const requestsPerMinute = rate ?? SERVICE_REQUESTS_PER_MINUTE;
  if (redisUrl === undefined) return { requestsPerMinute };
  out.protect(redisUrlPassword(redisUrl));
  const store = new RedisRateLimitStore({ url: redisUrl, connectTimeoutMs: STORE_CONNECT_MS });
  cleanups.push(() => store.close());
  // A run connects first (`ready`): its first request is counted by the store, not sent on a stand-in share while a
  // slow connection opens. A failure is left to the budget, which warns once and spaces requests itself.
  startups.push(() => store.connect().catch(() => undefined));
  // CI machines reach Redis over a network: a wider bound than the SDK's default for one store operation.
  return { requestsPerMinute, store, storeTimeoutMs: 1000 };
}

// A password in the Redis URL is a secret like the key: never printed.
function redisUrlPassword(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}

/** Prints a value as JSON on stdout. */
export function printJson(ctx: CommandContext, value: unknown): void {
  ctx.out.out(`${jsonText(value)}\n`, 'json');
}
