// The public shapes of what a client calls back: its logger and log level, the request/response hooks, and the
// warnings it gives instead of logging. Here, at the bottom, so the options and every floor above can name them.

/**
 * How much the client logs: `off` (nothing), `error`, `warn`, `info` or `debug` (every attempt, wait, poll and
 * store change). Each level includes the ones before it.
 * @example const level: LogLevel = 'debug';
 */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * Where log lines go: `console`, or any object with the same four methods (pino, winston and bunyan loggers
 * fit). Each line is one string, already redacted.
 * @example const logger: Logger = { debug: () => {}, info: console.info, warn: console.warn, error: console.error };
 */
export interface Logger {
  /** Every attempt, wait (with its reason and duration), poll decision and store change. */
  debug(message: string): void;
  /** Re-sends (why, and the wait before them), and a shared rate-limit store recovering. */
  info(message: string): void;
  /** A call that failed (the error it throws says the same), a shared rate-limit store failing or corrupt. */
  warn(message: string): void;
  /** A hook that threw (the call fails with `HookError`). */
  error(message: string): void;
}

/**
 * One attempt as a hook sees it. The same object reaches `onRequest` and then `onResponse`, so a hook can key a
 * span or a timer on it.
 * @example const started = new WeakMap<HookRequest, number>();
 */
export interface HookRequest {
  /** The operation (`listSites`, `getCiCheck`, …), as openapi.yaml names it. */
  readonly operationId: string;
  /** `GET` or `POST`. */
  readonly method: string;
  /** The URL requested (a `Location` when polling one). */
  readonly url: string;
  /**
   * The headers sent, lowercase names. Unless the hooks opted in with `unredacted: true`, `authorization` reads
   * `Bearer [redacted]`, every other header whose name says it holds a credential (`cookie`, `proxy-authorization`,
   * any name holding `token`, `key`, `secret`, `auth`, `session`, `signature`, `password` or `credential`, such as
   * `x-api-key` or `x-amz-security-token`) reads `[redacted]`, and the API key is redacted from the rest, as in the
   * debug log. `onRequest` may add or change headers (such as `traceparent`): they are sent on this attempt; a header
   * it leaves as it was shown (a redacted one included) is sent as it was; `authorization` is always the API key.
   */
  readonly headers: Record<string, string>;
  /** 1 for the first attempt, 2 for the first re-send, … */
  readonly attempt: number;
}

/** An answer as a hook sees it: status and headers (the body is the SDK's to read). */
export interface HookResponse {
  /** The attempt this answers (the object `onRequest` was given). */
  readonly request: HookRequest;
  /** The HTTP status. */
  readonly status: number;
  /**
   * The answer's headers (`retry-after`, `location`, rate-limit headers…). Unless the hooks opted in with
   * `unredacted: true`, the values of headers whose name says they hold a credential (`set-cookie`, `x-auth-token`…,
   * as for `HookRequest.headers`) read `[redacted]`, and the API key is redacted from the rest.
   */
  readonly headers: Headers;
  /** Milliseconds from sending the request to its answer's headers. */
  readonly durationMs: number;
}

/**
 * Hooks called around every attempt (first sends and re-sends, polls included), awaited in order: `onRequest`
 * before the request goes out, `onResponse` once its answer's headers came in (whatever the status). A hook that
 * throws ends the call with `HookError` (the hook's error as its `cause`); nothing is re-sent.
 * @example
 * ```ts
 * const hooks: Hooks = {
 *   onRequest: (request) => console.log(request.method, request.url),
 *   onResponse: ({ request, status, durationMs }) => console.log(request.method, status, durationMs),
 * };
 * ```
 */
export interface Hooks {
  /** Called before each attempt is sent; may add headers to it. */
  onRequest?: ((request: HookRequest) => void | Promise<void>) | undefined;
  /** Called when each attempt's answer has come in (its status and headers). */
  onResponse?: ((response: HookResponse) => void | Promise<void>) | undefined;
  /**
   * Show hooks every header as sent and received, credentials included (the API key in `authorization`, cookies,
   * tokens), instead of `[redacted]`; and the URL as requested.
   * @default false
   */
  unredacted?: boolean | undefined;
}

/** A warning the SDK gives the caller instead of writing a log. */
export interface Warning {
  /**
   * Stable code: `RATE_LIMIT_STORE_UNAVAILABLE` while the shared store fails, `RATE_LIMIT_STORE_RECOVERED`
   * after; `RATE_LIMIT_STORE_CORRUPT` when the store held a value it could not read (it was replaced with a
   * conservative one: the budget still limits).
   */
  code: 'RATE_LIMIT_STORE_UNAVAILABLE' | 'RATE_LIMIT_STORE_RECOVERED' | 'RATE_LIMIT_STORE_CORRUPT';
  message: string;
  /** The store's error, when there was one (never carries the API key: the store sees only a hash). */
  cause?: unknown;
}
