// Every error the SDK throws. A status class is one line; every class's name, cross-copy kind and status come from
// one table (`classes`, after the classes). The factory from an HTTP answer to its class is error-response.ts, the
// problem documents' types problem.ts.
import type { ProblemCode, ProblemDetail } from './problem.js';
import { parseRetryAfter } from './retry-after.js';

// Each class carries its kind (its name, from the table below) under a registry symbol, shared by every copy
// of the package in a process (the ESM and the CommonJS build, or two installed versions): `instanceof` and
// `isApiError` then recognise an error thrown by another copy, as ky's guards do by name. The symbol and the
// kinds are what copies agree on: changing either breaks recognition with copies already published.
const KIND = Symbol.for('@svc/a11y-sdk/error-kind');
type Kinded = { [KIND]?: string };

/** Base class of every error this SDK throws. */
export class A11yError extends Error {
  /**
   * The class's name, e.g. `'NotFoundError'` (a subclass of yours keeps the name of the class it extends). An
   * own property, so it shows in `JSON.stringify(error)` and structured logs.
   * @example if (error instanceof A11yError) log.warn({ error: error.name, message: error.message })
   */
  // From the table, not `constructor.name`, which a minifier renames.
  override name: string = (this.constructor as Kinded)[KIND] ?? 'A11yError';

  /**
   * `instanceof` that also recognises the same class from another copy of the package (ESM and CommonJS
   * builds loaded side by side), by the kind each class carries under a `Symbol.for` key.
   */
  declare static [Symbol.hasInstance]: (value: unknown) => boolean;
}

// Installed by hand rather than as a static method: it reads the class it is called on (`this`), which
// subclasses inherit.
Object.defineProperty(A11yError, Symbol.hasInstance, {
  value: function hasInstance(this: Kinded & (new () => object), value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    // A user's subclass has no kind of its own: plain prototype-chain semantics only.
    if (!Object.hasOwn(this, KIND) || typeof value !== 'object' || value === null) return false;
    for (let proto = Object.getPrototypeOf(value); proto; proto = Object.getPrototypeOf(proto)) {
      const ctor = (proto as { constructor?: Kinded }).constructor;
      if (ctor && Object.hasOwn(ctor, KIND) && ctor[KIND] === this[KIND]) return true;
    }
    return false;
  },
});

/** The client was configured without something it needs (API key, base URL) or with an invalid value. */
export class ConfigurationError extends A11yError {
  /**
   * Creates the error of one missing or invalid setting.
   * @param message - what is wrong; anything shaped like an API key (`svc_…`) is redacted from it, since a
   *   message may quote a value, and swapped SVC_API_KEY / SVC_BASE_URL variables would quote the key
   * @param options - standard `ErrorOptions` (`cause`)
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message.replace(/svc_[\w-]{6,}/g, '[redacted]'), options);
  }
}

/** Input broke a rule of the API description; nothing was sent. `field` names the field, `rule` the rule. */
export class RequestValidationError extends A11yError {
  /**
   * Creates the error of one rule broken by the input.
   * @param field - the offending field, e.g. `urls[3]`, `id`, `limit`
   * @param rule - the rule it broke, e.g. `must be at most 2048 characters`
   */
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`Invalid request: ${field} ${rule}. Nothing was sent.`);
  }
}

/** A 2xx body did not match the API description (only with `validateResponses: true`). */
export class ResponseValidationError extends A11yError {
  /**
   * Creates the error of one rule broken by an answer.
   * @param operationId - the operation whose answer broke the description
   * @param field - the offending field, e.g. `body.status`
   * @param rule - the rule it broke
   */
  constructor(
    readonly operationId: string,
    readonly field: string,
    readonly rule: string,
  ) {
    super(`Response of ${operationId} does not match the API description: ${field} ${rule}.`);
  }
}

/** The request could not reach the service, or no answer came (DNS, refused, reset). */
export class ApiConnectionError extends A11yError {
  /**
   * Creates the error of one failed attempt.
   * @param message - what failed
   * @param method - the request's method
   * @param url - the request's URL (never carries the API key)
   * @param options - `cause`: the underlying error
   */
  constructor(
    message: string,
    readonly method: string,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** No answer within `timeoutMs` for one attempt. */
export class ApiTimeoutError extends ApiConnectionError {}

/**
 * The former name of {@link ApiConnectionError}, kept while at 0.x: the error family has one casing (`ApiError`).
 * @deprecated Use `ApiConnectionError`; `instanceof APIConnectionError` still matches it.
 * @example if (err instanceof ApiConnectionError) retryLater();
 */
export const APIConnectionError = ApiConnectionError;
/** @deprecated Use `ApiConnectionError`. */
export type APIConnectionError = ApiConnectionError;

/**
 * The former name of {@link ApiTimeoutError}, kept while at 0.x: the error family has one casing (`ApiError`).
 * @deprecated Use `ApiTimeoutError`; `instanceof APITimeoutError` still matches it.
 * @example if (err instanceof ApiTimeoutError) raiseTimeout();
 */
export const APITimeoutError = ApiTimeoutError;
/** @deprecated Use `ApiTimeoutError`. */
export type APITimeoutError = ApiTimeoutError;

/**
 * The service answered with a redirect, which the client never follows: the API documents none, and
 * following one would hand the request (its body, custom headers and, on the same origin, the key) to
 * whoever the redirect names. `location` is the target's origin only (a query string could carry secrets).
 */
export class RedirectError extends A11yError {
  /**
   * Creates the error of one refused redirect.
   * @param status - the 3xx status; undefined in browsers, which hide it (`opaqueredirect`)
   * @param location - origin of the redirect's target; undefined when hidden, absent or not a URL
   * @param method - the request's method
   * @param url - the request's URL (never carries the API key)
   */
  constructor(
    readonly status: number | undefined,
    readonly location: string | undefined,
    readonly method: string,
    readonly url: string,
  ) {
    super(
      `The service answered ${status ? `${status} ` : ''}with a redirect${location ? ` to ${location}` : ' (target hidden by the browser or absent)'}, ` +
        `which the client does not follow: the API documents no redirects. Check baseUrl. [${method} ${url}]`,
    );
  }
}

/** An answer's body was longer than the client reads (`maxResponseBytes`, or the cap on problem bodies). */
export class ResponseTooLargeError extends A11yError {
  /**
   * Creates the error of one body over the cap.
   * @param limitBytes - the cap that was exceeded
   * @param method - the request's method
   * @param url - the request's URL (never carries the API key)
   */
  constructor(
    readonly limitBytes: number,
    readonly method: string,
    readonly url: string,
  ) {
    super(
      `The response body is larger than ${limitBytes} bytes (maxResponseBytes); reading stopped there. [${method} ${url}]`,
    );
  }
}

/** `waitForCompletion` reached its deadline before the job reached a terminal status. */
export class PollTimeoutError extends A11yError {
  /**
   * Creates the error of one wait that ran out of time.
   * @param jobId - the job waited for; undefined when the deadline passed before the service accepted it
   * @param lastStatus - its status at the last poll
   * @param elapsedMs - how long the wait lasted
   */
  constructor(
    readonly jobId: string | undefined,
    readonly lastStatus: string | undefined,
    readonly elapsedMs: number,
  ) {
    super(
      jobId === undefined
        ? `The request starting the job got no answer within the wait's deadline (${elapsedMs} ms).`
        : `Job ${jobId} did not reach a terminal status within ${elapsedMs} ms (last status: ${lastStatus ?? 'unknown'}).`,
    );
  }
}

/**
 * A hook of the client's `hooks` option threw (or rejected): the call ends, nothing is re-sent. `hook` names it,
 * `cause` is what it threw.
 */
export class HookError extends A11yError {
  /**
   * Creates the error of one hook that threw.
   * @param hook - `onRequest` or `onResponse`
   * @param message - what it threw, as text (the API key redacted)
   * @param options - `cause`: what it threw
   */
  constructor(
    /** The hook that threw. */
    readonly hook: 'onRequest' | 'onResponse',
    message: string,
    options?: ErrorOptions,
  ) {
    super(`The ${hook} hook threw: ${message}`, options);
  }
}

/** What the factory knows about the request that got an error answer. */
export interface RequestInfo {
  method: string;
  url: string;
}

/** A non-2xx answer of the service. Branch on `code` (the problem's stable code), never on `detail`. */
export class ApiError extends A11yError {
  /** HTTP status. */
  readonly status: number;
  /** The problem's stable machine-readable code; undefined when the body was not a problem. */
  readonly code: ProblemCode | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly type: string | undefined;
  readonly instance: string | undefined;
  /** Correlation id to quote to support. */
  readonly traceId: string | undefined;
  readonly timestamp: string | undefined;
  /** The parsed problem body, when the answer was JSON. */
  readonly problem: ProblemDetail | undefined;
  /** The answer's headers. */
  readonly headers: Headers;
  /** Method of the request that got this answer. */
  readonly method: string;
  /** URL of the request that got this answer (it never carries the API key). */
  readonly url: string;

  /**
   * Prefer {@link errorFromResponse}, which picks the class from the status.
   * @param status - HTTP status
   * @param problem - the parsed problem body, if any
   * @param headers - the answer's headers
   * @param request - method and URL of the request
   * @param fallbackTitle - title when the body has none (the status text)
   */
  constructor(
    status: number,
    problem: ProblemDetail | undefined,
    headers: Headers,
    request: RequestInfo,
    fallbackTitle?: string,
  ) {
    const title = str(problem?.title) ?? fallbackTitle;
    const code = str(problem?.code);
    const traceId = str(problem?.traceId);
    const detail = str(problem?.detail);
    super(
      [`${status}`, code, title && `${title}${detail ? `: ${detail}` : ''}`].filter(Boolean).join(' ') +
        (traceId ? ` (traceId ${traceId})` : '') +
        ` [${request.method} ${request.url}]`,
    );
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = detail;
    this.type = str(problem?.type);
    this.instance = str(problem?.instance);
    this.traceId = traceId;
    this.timestamp = str(problem?.timestamp);
    this.problem = problem;
    this.headers = headers;
    this.method = request.method;
    this.url = request.url;
  }
}

/** 400 Bad Request. */
export class BadRequestError extends ApiError {}
/** 401: missing or invalid API key (`API_KEY_INVALID`). */
export class AuthenticationError extends ApiError {}
/** 403: the key lacks a scope (`API_KEY_SCOPE_MISSING`) or the plan a feature (`FEATURE_NOT_IN_PLAN`). */
export class PermissionDeniedError extends ApiError {}
/** 404: `*_NOT_FOUND`. */
export class NotFoundError extends ApiError {}
/** 409: `*_ALREADY_RUNNING`, `DOMAIN_NOT_VERIFIED`. */
export class ConflictError extends ApiError {}
/** 422: `VALIDATION_FAILED`, `INVALID_URL`, `SITE_AUTH_NOT_CONFIGURED`. */
export class UnprocessableEntityError extends ApiError {}
/** 5xx: the service (or a proxy in front of it) failed. */
export class InternalServerError extends ApiError {}

/**
 * 429 `RATE_LIMITED`: `retryAfterMs` is how long the service asked to wait and `retryAt` until when (both
 * undefined when it did not say). Also thrown without sending anything when the key's rate budget is paused
 * (by a 429 this client or another sharer of its store received) until later than the call accepts: beyond
 * `maxRetryDelayMs`, or beyond the deadline of the wait it belongs to.
 */
export class RateLimitError extends ApiError {
  /** The wait the service asked for, in milliseconds. */
  retryAfterMs: number | undefined;
  /**
   * When the wait ends: the first moment a request of this key may be sent again (undefined when the service
   * gave no `Retry-After`). A wait beyond the range of a Date is given as the last date it can hold.
   * @example if (e instanceof RateLimitError && e.retryAt) console.error(`rate limited until ${e.retryAt.toISOString()}`)
   */
  retryAt: Date | undefined;
  /** Same parameters as {@link ApiError}'s; reads `Retry-After` from the headers. */
  constructor(
    status: number,
    problem: ProblemDetail | undefined,
    headers: Headers,
    request: RequestInfo,
    fallbackTitle?: string,
  ) {
    super(status, problem, headers, request, fallbackTitle);
    this.retryAfterMs = parseRetryAfter(headers.get('retry-after'));
    this.retryAt =
      this.retryAfterMs === undefined ? undefined : new Date(Math.min(Date.now() + this.retryAfterMs, MAX_DATE_MS));
  }
}

// The last moment a Date can hold (ECMA-262 §21.4.1.22: ±8.64·10¹⁵ ms around the epoch).
const MAX_DATE_MS = 8.64e15;

// The one table of error classes: each class's name (also its kind, see KIND) and, for the status classes, the
// status errorFromResponse maps to it. Any other 5xx gives InternalServerError, any other status ApiError. A new
// class is declared above and gets its row here; names are the exported names (test/unit/errors-table.test.ts).
const classes: readonly (readonly [Class: object, name: string, status?: number])[] = [
  [A11yError, 'A11yError'],
  [ConfigurationError, 'ConfigurationError'],
  [RequestValidationError, 'RequestValidationError'],
  [ResponseValidationError, 'ResponseValidationError'],
  [ApiConnectionError, 'ApiConnectionError'],
  [ApiTimeoutError, 'ApiTimeoutError'],
  [RedirectError, 'RedirectError'],
  [ResponseTooLargeError, 'ResponseTooLargeError'],
  [PollTimeoutError, 'PollTimeoutError'],
  [HookError, 'HookError'],
  [ApiError, 'ApiError'],
  [BadRequestError, 'BadRequestError', 400],
  [AuthenticationError, 'AuthenticationError', 401],
  [PermissionDeniedError, 'PermissionDeniedError', 403],
  [NotFoundError, 'NotFoundError', 404],
  [ConflictError, 'ConflictError', 409],
  [UnprocessableEntityError, 'UnprocessableEntityError', 422],
  [RateLimitError, 'RateLimitError', 429],
  [InternalServerError, 'InternalServerError'],
];
/**
 * The class of each status that has its own (400, 401, 403, 404, 409, 422, 429); errorFromResponse gives
 * `InternalServerError` for any other 5xx and `ApiError` for any other status.
 * @internal
 */
export const byStatus = new Map<number, typeof ApiError>();
for (const [Class, name, status] of classes) {
  Object.defineProperty(Class, KIND, { value: name });
  if (status) byStatus.set(status, Class as typeof ApiError);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
