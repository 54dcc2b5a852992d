// Client options: defaults, environment fallbacks, and the frozen resolved form the transport reads.
import { ConfigurationError } from './errors.js';
import { MemoryRateLimitStore, type RateLimitStore } from './rate-limit-store.js';
import type { Hooks, Logger, LogLevel, Warning } from './callbacks.js';
import { parseUrl } from '../internal/parse-url.js';

/** Options of {@link A11yClient}. */
export interface ClientOptions {
  /**
   * API key (begins with `svc_`), sent as `Authorization: Bearer <key>`.
   * @default process.env.SVC_API_KEY
   */
  apiKey?: string | undefined;
  /**
   * The service's base address (`{base_url}` in the document); paths add `/api/v1`.
   * @default process.env.SVC_BASE_URL
   * @example 'https://a11y.example.com'
   */
  baseUrl?: string | undefined;
  /**
   * The `fetch` to send requests with (a proxy agent, a test double, an instrumented fetch). It is called
   * as `fetch(url, init)`: `url` a string, `init` with `method`, `headers`, `body` and a `signal`.
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Time allowed for one attempt, in milliseconds: from sending the request until its whole body has been
   * read (a finite number ≥ 1). A GET that runs out of time (headers or body) is re-sent like any other timeout.
   * @default 30000
   */
  timeoutMs?: number | undefined;
  /**
   * Re-sends after the first attempt: on 429 (any method), and on 5xx, 408, timeouts and connection
   * errors (GET only; a POST that may have been processed is never re-sent). A whole number ≥ 0.
   * @default 2
   */
  maxRetries?: number | undefined;
  /**
   * The longest wait the client accepts before a re-send; a longer `Retry-After` throws
   * `RateLimitError` at once, carrying the wait.
   * @default 60000
   */
  maxRetryDelayMs?: number | undefined;
  /**
   * Longest response body read, in bytes, counted while it streams in (memory stays bounded whatever the
   * server sends); a longer one fails with `ResponseTooLargeError`. The document bounds no result count;
   * 32 MiB holds tens of thousands of findings (~1 KiB each), far beyond a 20-URL CI check. Problem
   * (error) bodies are read up to 64 KiB only.
   * @default 33554432 (32 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * Extra headers on every request (e.g. a `User-Agent` suffix). `Authorization` is always the API key.
   * @default {}
   */
  headers?: Record<string, string> | undefined;
  /**
   * Validate every 2xx body against the API description (throws `ResponseValidationError`). The
   * schemas are loaded only when this is on.
   * @default false
   */
  validateResponses?: boolean | undefined;
  /**
   * A client-side rate budget that spaces requests so the key stays under its rate (the service allows 120
   * requests per minute per key by default). With a shared `store` (such as `RedisRateLimitStore` from
   * `@svc/a11y-sdk/redis`), every process using the same key and store shares one budget, and a 429's
   * `Retry-After` pauses them all. A store that fails or is slower than `storeTimeoutMs` never fails a call:
   * the client spaces its own requests (its share of the budget) and tries the store again after
   * `storeRetryMs`, and `onWarning` hears of it once.
   * @default undefined (off)
   * @example { requestsPerMinute: 120 }
   * @example { requestsPerMinute: 120, store: new RedisRateLimitStore({ url: process.env.SVC_REDIS_URL! }) }
   */
  rateLimit?: RateLimitOptions | undefined;
  /**
   * Called with what the SDK would otherwise log (it writes no logs), such as a shared rate-limit store
   * becoming unavailable and recovering. Called once per change, never with the API key.
   * @default undefined
   * @example { onWarning: (w) => console.warn(`[a11y] ${w.code}: ${w.message}`) }
   */
  onWarning?: ((warning: Warning) => void) | undefined;
  /**
   * Where log lines go (console-compatible: `debug`, `info`, `warn`, `error`). Nothing is written unless
   * `logLevel` (or `SVC_LOG`) says so. Lines are redacted: the API key in any spelling, URL credentials, token
   * parameters, and the value of every header whose name suggests a credential (`authorization`, `cookie`, any
   * name containing `token`, `key`, `secret`, `auth`, `session`, `signature`, `password`, `credential`).
   * @default globalThis.console
   * @example { logger: pino(), logLevel: 'debug' }
   */
  logger?: Logger | undefined;
  /**
   * How much to log: `off`, `error`, `warn`, `info` or `debug` (every attempt with its method, path, status
   * and timing; every wait with its reason and duration; every poll decision; the rate-limit store's state).
   * @default process.env.SVC_LOG, else 'off'
   * @example { logLevel: 'debug' }
   */
  logLevel?: LogLevel | undefined;
  /**
   * Functions called around every attempt (tracing, metrics): `onRequest` before it is sent, `onResponse` when
   * its answer comes in. They see credential headers (as in the log) and the API key redacted unless `unredacted: true`. A hook that throws ends the
   * call with `HookError`.
   * @default undefined
   * @example { hooks: { onResponse: ({ request, status, durationMs }) => metrics.record(request.operationId, status, durationMs) } }
   */
  hooks?: Hooks | undefined;
}

/**
 * The client's rate budget (`ClientOptions.rateLimit`).
 * @example const rateLimit: RateLimitOptions = { requestsPerMinute: 120, burst: 5 };
 */
export interface RateLimitOptions {
  /** Sustained rate, in requests per minute: no sliding 60 s window holds more requests than this (as the service counts). */
  requestsPerMinute: number;
  /**
   * Requests that may go at once after a quiet spell; the rest are spaced at the rate, and no 60 s window holds
   * more than `requestsPerMinute` whatever the burst (up to `requestsPerMinute`: the whole minute at once).
   * Requests a window apart are kept a second further apart, for requests that reach the service out of the order
   * they left or a little after their slot (processes sharing a store); a request more than half a second late for
   * its slot takes a new one.
   * @default 1 (strict spacing at the rate)
   */
  burst?: number | undefined;
  /**
   * Where the budget lives.
   * @default a new MemoryRateLimitStore (this client only)
   */
  store?: RateLimitStore | undefined;
  /**
   * Longest wait for one store operation before the client spaces its own requests instead.
   * @default 250
   */
  storeTimeoutMs?: number | undefined;
  /**
   * How long the client spaces its own requests after a store failure before it tries the store again.
   * @default 5000
   */
  storeRetryMs?: number | undefined;
}

/** Per-call options, the trailing argument of every method. */
export interface RequestOptions {
  /** Aborts the call, including any wait between attempts. */
  signal?: AbortSignal | undefined;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number | undefined;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number | undefined;
}

/** Options after defaults and environment fallbacks; frozen. */
export interface ResolvedOptions {
  readonly baseUrl: string;
  readonly fetch: typeof globalThis.fetch;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryDelayMs: number;
  readonly maxResponseBytes: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly validateResponses: boolean;
  readonly rateLimit:
    | {
        readonly requestsPerMinute: number;
        readonly burst: number;
        readonly store: RateLimitStore;
        readonly storeTimeoutMs: number;
        readonly storeRetryMs: number;
      }
    | undefined;
  readonly onWarning: ((warning: Warning) => void) | undefined;
  readonly logger: Logger;
  readonly logLevel: LogLevel;
  readonly hooks: Hooks | undefined;
}

/**
 * The log levels, least to most verbose: a line is written when its level comes no later than the client's
 * `logLevel`. The one list the client, its observer and the CLI (`--verbose`, `SVC_LOG`) read.
 * @example LOG_LEVELS.join(', ') // 'off, error, warn, info, debug'
 */
export const LOG_LEVELS = ['off', 'error', 'warn', 'info', 'debug'] as const satisfies readonly LogLevel[];
// A level added to LogLevel and missing here fails the build.
type MustBeNever<T extends never> = T;
// biome-ignore lint/correctness/noUnusedVariables: a compile-time check; declaring it is the check.
type EveryLogLevelListed = MustBeNever<Exclude<LogLevel, (typeof LOG_LEVELS)[number]>>;

/** Applies defaults and environment fallbacks; throws `ConfigurationError` naming what to set. */
export function resolveOptions(options: ClientOptions): { apiKey: string; resolved: ResolvedOptions } {
  const apiKey = options.apiKey ?? readEnv('SVC_API_KEY');
  if (!apiKey) {
    throw new ConfigurationError(
      'No API key: pass `apiKey` to new A11yClient() or set the SVC_API_KEY environment variable.',
    );
  }
  if (/\s/.test(apiKey) || /^bearer\b/i.test(apiKey)) {
    throw new ConfigurationError('apiKey must be the bare key (no spaces, without the word "Bearer").');
  }
  const baseUrl = options.baseUrl ?? readEnv('SVC_BASE_URL');
  if (!baseUrl) {
    throw new ConfigurationError(
      'No base URL: pass `baseUrl` to new A11yClient() or set the SVC_BASE_URL environment variable.',
    );
  }
  const base = parseUrl(baseUrl);
  if (!/^https?:\/\/[^/\s]+/i.test(baseUrl) || !base) {
    // The value is not echoed: with SVC_API_KEY and SVC_BASE_URL swapped it would be the key.
    throw new ConfigurationError(
      'baseUrl (or SVC_BASE_URL) must be an absolute http(s) URL such as https://a11y.example.com.',
    );
  }
  // undici refuses to build a Request whose URL carries user:password@ (a raw TypeError on every call),
  // and such a URL would put a credential into every request URL: refuse it up front, without echoing it.
  if (base.username || base.password) {
    throw new ConfigurationError('baseUrl must not carry credentials (user:password@); pass the API key as `apiKey`.');
  }
  // Paths are appended to the base URL: after a query or fragment they would land inside it (`…#x/api/v1/…`
  // sends every call to `GET /`).
  if (base.search || base.hash || /[?#]/.test(baseUrl)) {
    throw new ConfigurationError(
      "baseUrl must not have a query (?…) or fragment (#…): give the service's address only, such as https://a11y.example.com.",
    );
  }
  // A key or header with a control or non-Latin-1 character would make every request throw a raw TypeError.
  // Checked by hand, not with `new Headers()`: on Node the first Headers loads undici (~14 ms per process).
  if (!isHeaderValue(`Bearer ${apiKey}`)) throw new ConfigurationError(`apiKey ${HEADER_VALUE_RULE}.`);
  const headers: Record<string, string> = {};
  for (const [name, given] of Object.entries(options.headers ?? {})) {
    // As fetch does for JavaScript callers: an absent value (`process.env.X` unset) sends no header, and a
    // number is sent as its text.
    if (given === undefined || given === null) continue;
    const value = String(given);
    // Names are echoed (they are not secret); values never are.
    if (!HEADER_NAME.test(name))
      throw new ConfigurationError(
        `headers: ${JSON.stringify(name)} is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_\`|~ only).`,
      );
    if (!isHeaderValue(value)) throw new ConfigurationError(`headers[${JSON.stringify(name)}] ${HEADER_VALUE_RULE}.`);
    headers[name] = value;
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function')
    throw new ConfigurationError('No fetch available: pass `fetch` to new A11yClient().');
  const rpm = options.rateLimit?.requestsPerMinute;
  const burst = options.rateLimit?.burst ?? 1;
  // A bucket that can never hold one whole token (or refills at an infinite/NaN rate) would stall every call.
  if (rpm !== undefined && !(Number.isFinite(rpm) && rpm > 0))
    throw new ConfigurationError('rateLimit.requestsPerMinute must be a finite positive number.');
  if (rpm !== undefined && !(Number.isFinite(burst) && burst >= 1))
    throw new ConfigurationError('rateLimit.burst must be a finite number of at least 1.');
  // An environment that refuses to be read (Deno without --allow-env) logs nothing rather than failing the client.
  const logLevel = options.logLevel ?? (readEnv('SVC_LOG', true)?.toLowerCase() as LogLevel | undefined) ?? 'off';
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigurationError(`logLevel (or SVC_LOG) must be one of ${LOG_LEVELS.join(', ')}.`);
  const resolved: ResolvedOptions = Object.freeze({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    fetch: fetchImpl,
    timeoutMs: atLeast('timeoutMs', options.timeoutMs, 30_000, 1),
    maxRetries: retries(options.maxRetries, 2),
    maxRetryDelayMs: nonNegative('maxRetryDelayMs', options.maxRetryDelayMs, 60_000),
    maxResponseBytes: atLeast('maxResponseBytes', options.maxResponseBytes, 32 * 1024 * 1024, 1),
    headers: Object.freeze(headers),
    validateResponses: options.validateResponses ?? false,
    rateLimit:
      rpm === undefined
        ? undefined
        : Object.freeze({
            requestsPerMinute: rpm,
            burst,
            store: rateLimitStore(options.rateLimit!.store),
            storeTimeoutMs: atLeast('rateLimit.storeTimeoutMs', options.rateLimit!.storeTimeoutMs, 250, 1),
            storeRetryMs: atLeast('rateLimit.storeRetryMs', options.rateLimit!.storeRetryMs, 5_000, 0),
          }),
    onWarning: typeof options.onWarning === 'function' ? options.onWarning : undefined,
    // Both are checked by the observer when it loads (see observe/instrument.ts): the first call fails with a
    // ConfigurationError naming the member, and the checks stay out of the root bundle.
    logger: options.logger ?? globalThis.console,
    logLevel,
    hooks: options.hooks ?? undefined,
  });
  return { apiKey, resolved };
}

/**
 * The per-call overrides that were given, checked like the client's own (`{ timeoutMs: undefined }` keeps
 * the client's value).
 * @throws ConfigurationError naming the option and the rule
 */
export function requestOverrides(options: RequestOptions): {
  signal?: AbortSignal | undefined;
  timeoutMs?: number;
  maxRetries?: number;
} {
  const out: { signal?: AbortSignal | undefined; timeoutMs?: number; maxRetries?: number } = { signal: options.signal };
  if (options.timeoutMs !== undefined) out.timeoutMs = atLeast('timeoutMs', options.timeoutMs, 0, 1);
  if (options.maxRetries !== undefined) out.maxRetries = retries(options.maxRetries, 0);
  return out;
}

// RFC 9110 token, and the Fetch standard's header value: after trimming spaces, tabs, CR and LF at the
// ends, no NUL, CR or LF inside, and every character a byte (Latin-1).
/** @internal */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE_RULE = 'must be a valid HTTP header value (Latin-1 text without NUL, CR or LF)';
/** Whether `fetch` accepts `value` as a header value (what `new Headers()` checks). @internal */
export function isHeaderValue(value: string): boolean {
  return !/[\0\r\n]|[^\0-\xff]/.test(value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, ''));
}

// A store is anything with reserve() and pause(); absent, this client's own in-process store.
function rateLimitStore(store: RateLimitStore | undefined): RateLimitStore {
  if (store === undefined) return new MemoryRateLimitStore();
  if (typeof store?.reserve !== 'function' || typeof store.pause !== 'function') {
    throw new ConfigurationError(
      'rateLimit.store must be a rate-limit store (with reserve() and pause()), such as new RedisRateLimitStore({ url }).',
    );
  }
  return store;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  return atLeast(name, value, fallback, 0);
}

// A count of re-sends: 1.5 or Infinity would silently mean something else.
function retries(value: number | undefined, fallback: number): number {
  const n = nonNegative('maxRetries', value, fallback);
  if (!Number.isInteger(n)) throw new ConfigurationError(`maxRetries must be a whole number (0, 1, 2…), got ${n}.`);
  return n;
}

/**
 * `value` (or `fallback` when undefined), checked to be a finite number ≥ `min`. The message says what was
 * given: a string such as "30000" is named as a string, not shown as if it were the number.
 * @throws ConfigurationError naming the option and the rule
 * @internal
 */
export function atLeast(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    const rule = min === 0 ? 'a finite number ≥ 0' : `a finite number ≥ ${min}`;
    const given =
      typeof value === 'number'
        ? String(value)
        : typeof value === 'string'
          ? `the string ${JSON.stringify(value)}`
          : value === null
            ? 'null'
            : `a value of type ${typeof value}`;
    throw new ConfigurationError(`${name} must be ${rule}, got ${given}.`);
  }
  return value;
}

// Reads an environment variable where one exists (Node, Deno, Bun); browsers and edge runtimes have none.
// Deno without --allow-env throws its own error (`NotCapable`) on the read, which would reach callers who only
// ever see the SDK's errors: it becomes a ConfigurationError, which keeps Deno's hint (`${error}`).
function readEnv(name: string, optional?: boolean): string | undefined {
  try {
    // Blank counts as unset.
    return (
      (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name]?.trim() ||
      undefined
    );
  } catch (error) {
    if (optional) return undefined;
    throw new ConfigurationError(`Cannot read ${name} (${error}): pass the option instead.`, { cause: error });
  }
}
