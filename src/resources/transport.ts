// The one path every call takes, top to bottom: validate the input, build the URL and body, send each
// attempt under its own timeout (which covers reading the body), refuse redirects, read the body under a byte
// cap, let decideRetry() say whether to re-send, map a failure to its error class, parse, optionally validate.
// Operations and `Location` polls both come through send().
import {
  A11yError,
  ApiConnectionError,
  ApiTimeoutError,
  ConfigurationError,
  HookError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
} from '../core/errors.js';
import { RateLimitError } from '../core/errors.js';
import { errorFromResponse } from '../core/error-response.js';
import { readBody } from '../internal/read-body.js';
import { redact, scrubError, scrubHeaders } from '../internal/redact.js';
import { abortReason, sleep } from '../internal/sleep.js';
import { timeLeft } from '../internal/wait-deadline.js';
import type { Inputs, Operation, OperationId, SuccessBody } from '../core/operations.js';
import {
  HEADER_NAME,
  isHeaderValue,
  LOG_LEVELS,
  type RequestOptions,
  type ResolvedOptions,
  requestOverrides,
} from '../core/options.js';
import type { RateBudget } from '../rate-limit/budget.js';
import { decideRetry, MAX_TIMER_MS, type Outcome, type RetryPolicy } from '../core/retry.js';
import { parseRetryAfter } from '../core/retry-after.js';
import { validateRequest, validateResponse } from '../validation/validation.js';
import { APIPromise } from '../core/api-promise.js';
import type { Observe } from '../core/events.js';
import { parseUrl } from '../internal/parse-url.js';

/** A 2xx answer: the parsed body and where it came from. */
export interface Sent<O extends OperationId> {
  data: SuccessBody<O>;
  response: Response;
  /** The URL the request was sent to (what a relative `Location` resolves against). */
  requestUrl: string;
}

/** Per-call options of send(): the caller's, plus the URL of a `Location` to GET instead of the route. */
export interface SendOptions extends RequestOptions {
  /** An absolute URL on the service to GET (a 202's `Location`, checked by `resolveLocation`). */
  url?: string | undefined;
}

/** How one call is sent: the client's settings with the call's overrides. */
interface Policy extends RetryPolicy {
  readonly fetch: typeof globalThis.fetch;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly signal?: AbortSignal | undefined;
  readonly budget?: Pick<RateBudget, 'take' | 'pause'> | undefined;
}

/** What an attempt that got no usable 2xx body leaves: why, and how to end it either way. */
interface Failed {
  readonly outcome: Outcome;
  /** The error to throw when no re-send follows (reads a problem body under the attempt's timer). */
  readonly fail: () => Promise<unknown>;
  /** Frees the attempt before a re-send. */
  readonly discard: () => void;
}

type Request = {
  readonly op: string;
  readonly method: string;
  readonly url: string;
  readonly body: string | undefined;
  readonly headers: Record<string, string>;
  /** Method and URL as errors show them (no userinfo): built once per call, not per attempt. */
  readonly info: { readonly method: string; readonly url: string };
};

/** Sends operations for one client. Holds the API key in private fields only: never enumerable or inspectable. */
export class Transport {
  // Plain objects with lowercase names, built once: copied per attempt, so a fetch wrapper editing them
  // cannot change later requests.
  readonly #getHeaders: Record<string, string>;
  readonly #jsonHeaders: Record<string, string>;
  readonly #secret: string;
  readonly #policy: Policy;
  /** Where events go when the client logs or has hooks (see `observe/instrument.ts`), else undefined. @internal */
  readonly observe: Observe | undefined;

  constructor(
    readonly options: ResolvedOptions,
    apiKey: string,
  ) {
    // resolveOptions() has checked the base URL and that the key and headers are valid HTTP header values.
    // Lowercase names, so a caller's `accept` replaces the default instead of being sent alongside it.
    const custom = Object.fromEntries(
      Object.entries(options.headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    this.#getHeaders = {
      accept: 'application/json, application/problem+json',
      ...custom,
      authorization: `Bearer ${apiKey}`,
    };
    this.#jsonHeaders = { 'content-type': 'application/json', ...this.#getHeaders };
    this.#secret = apiKey;
    const observe = options.logLevel !== 'off' || options.hooks ? observer(options, apiKey) : undefined;
    this.observe = observe;
    const limit = options.rateLimit;
    this.#policy = {
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
      maxRetryDelayMs: options.maxRetryDelayMs,
      maxResponseBytes: options.maxResponseBytes,
      budget: limit ? lazyBudget(limit, apiKey, options.onWarning, observe) : undefined,
    };
  }

  /**
   * Validates, sends and returns the 2xx body. `input` is typed by the generated `operations` (path parameter
   * names included), so a resource call that does not match openapi.yaml fails `tsc`.
   */
  request<O extends OperationId>(
    op: Operation<O>,
    input: NoInfer<Inputs[O]>,
    options?: RequestOptions,
  ): APIPromise<SuccessBody<O>> {
    return new APIPromise(this.send(op, input, options));
  }

  /** Validates, sends and returns the 2xx body with its response (for `Location` and `Retry-After`). */
  send<O extends OperationId>(op: Operation<O>, input: NoInfer<Inputs[O]>, options?: SendOptions): Promise<Sent<O>> {
    const sent = this.#send(op, input, options);
    // The log says how the call ended and how long it took (the observer waits for `sent` itself).
    void this.observe?.({ e: 'done', op: op.id, sent, at: Date.now() });
    return sent;
  }

  async #send<O extends OperationId>(
    op: Operation<O>,
    input: NoInfer<Inputs[O]>,
    options?: SendOptions,
  ): Promise<Sent<O>> {
    // 1. Input that breaks the description is refused before anything is sent.
    const invalid =
      validateRequest(op.schemas.path, input.path) ??
      validateRequest(op.schemas.query, input.query) ??
      validateRequest(op.schemas.body, input.body);
    if (invalid) await invalid;
    const body = input.body === undefined ? undefined : serializeBody(input.body);
    const url = options?.url ?? this.options.baseUrl + expandRoute(op.route, input.path) + serializeQuery(input.query);
    const request = {
      op: op.id,
      method: op.method,
      url,
      body,
      headers: body === undefined ? this.#getHeaders : this.#jsonHeaders,
      info: errorInfo(op.method, url, this.#secret),
    };
    const policy = options ? { ...this.#policy, ...requestOverrides(options) } : this.#policy;

    // 2. Attempts, re-sent as decideRetry() allows, each waiting its turn in the rate budget.
    let text: string;
    let response: Response;
    for (let attempt = 0; ; attempt++) {
      // The longest wait this call accepts: maxRetryDelayMs, or less when the wait it belongs to ends sooner.
      const maxWaitMs = Math.min(policy.maxRetryDelayMs, timeLeft(policy.signal));
      if (policy.budget) {
        // A pause (a 429's Retry-After, this call's or a sharer's) beyond that fails now instead of sleeping.
        const pausedUntil = await policy.budget.take(policy.signal, maxWaitMs);
        // Its error is built by the budget's module (already loaded), out of the root bundle.
        if (pausedUntil !== undefined)
          throw (await import('../rate-limit/budget.js')).pausedError(
            RateLimitError,
            pausedUntil,
            request.info,
            policy.maxRetryDelayMs,
            maxWaitMs,
          );
      }
      const answer = await this.#attempt(request, policy, attempt);
      if (!('outcome' in answer)) {
        ({ response, text } = answer);
        break;
      }
      const { outcome } = answer;
      // A 429's wait holds for everyone sharing the budget, not only for this call.
      if (policy.budget && outcome.kind === 'status' && outcome.status === 429 && outcome.retryAfterMs)
        await policy.budget.pause(outcome.retryAfterMs);
      const decision = decideRetry(
        outcome,
        attempt,
        request.method,
        maxWaitMs < policy.maxRetryDelayMs ? { maxRetries: policy.maxRetries, maxRetryDelayMs: maxWaitMs } : policy,
      );
      if (!decision.retry) throw await answer.fail();
      answer.discard();
      void this.observe?.({ e: 'retry', info: request.info, attempt, outcome, ms: decision.delayMs });
      await sleep(decision.delayMs, policy.signal);
    }

    // 3. The 2xx body: JSON, and (opt-in) what the description says it is.
    const data = parseJson(op.id, text);
    if (this.options.validateResponses) await validateResponse(op.id, data);
    return { data: data as SuccessBody<O>, response, requestUrl: url };
  }

  /**
   * One attempt: send, then read the whole 2xx body under the same timer. Returns the body, or what went
   * wrong as an {@link Outcome} for decideRetry(). Throws what no re-send can change: the caller's abort, a
   * redirect, a body over `maxResponseBytes`.
   */
  async #attempt(
    request: Request,
    policy: Policy,
    attempt: number,
  ): Promise<{ response: Response; text: string } | Failed> {
    const { info } = request;
    const observe = this.observe;
    const headers = { ...request.headers };
    // Hooks run before the attempt's timer starts: a slow hook is not the service's time.
    const hook =
      observe &&
      (await observe({ e: 'request', op: request.op, info, url: request.url, headers, attempt: attempt + 1 }));
    const sentAt = Date.now();
    const { signal, disarm } = arm(policy, info);
    let response: Response;
    try {
      // Called unbound: browsers throw "Illegal invocation" when fetch runs as a method of another object.
      const fetchOnce = policy.fetch;
      // `manual`: a redirect comes back as an answer (an opaque one in browsers) instead of being followed.
      response = await fetchOnce(request.url, {
        method: request.method,
        headers,
        body: request.body,
        signal,
        redirect: 'manual',
      });
    } catch (error) {
      disarm();
      return this.#connectionFailure(error, signal, policy, info, 'Connection error');
    }
    await observe?.({ e: 'response', hook, response, ms: Date.now() - sentAt, end: disarm });

    if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
      disarm();
      await response.body?.cancel().catch(() => undefined);
      throw new RedirectError(
        response.status || undefined,
        redactOptional(targetOrigin(response.headers.get('location'), request.url), this.#secret),
        info.method,
        info.url,
      );
    }

    if (!response.ok) {
      const outcome: Outcome = {
        kind: 'status',
        status: response.status,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
      };
      return {
        outcome,
        fail: () => errorFromResponse(response, info, this.#secret, signal).finally(disarm),
        discard: () => {
          disarm();
          void response.body?.cancel().catch(() => undefined);
        },
      };
    }

    try {
      const text = await readBody(response, policy.maxResponseBytes, signal);
      if (text === undefined) throw new ResponseTooLargeError(policy.maxResponseBytes, info.method, info.url);
      return { response, text };
    } catch (error) {
      if (error instanceof ResponseTooLargeError) throw error;
      // A timeout or a connection lost mid-body: a GET is re-sent like any other; a POST is not.
      return this.#connectionFailure(error, signal, policy, info, 'Connection error while reading the response body');
    } finally {
      disarm();
    }
  }

  // The caller's abort ends the call; this attempt's timeout and a failed connection are outcomes to decide on.
  #connectionFailure(
    error: unknown,
    signal: AbortSignal,
    policy: Policy,
    info: { method: string; url: string },
    what: string,
  ): Failed {
    if (policy.signal?.aborted) throw abortReason(policy.signal);
    if (error instanceof A11yError && !(error instanceof ApiConnectionError)) throw error;
    const failure = signal.aborted
      ? signal.reason
      : // A custom fetch's error may echo the init it was given (headers, so the key) in its text or properties.
        new ApiConnectionError(`${what}: ${redact(describe(error), this.#secret)}`, info.method, info.url, {
          cause: scrubError(error, this.#secret),
        });
    const outcome: Outcome = signal.aborted ? { kind: 'timeout' } : { kind: 'connection', notSent: isNotSent(error) };
    return { outcome, fail: () => Promise.resolve(failure), discard: () => undefined };
  }
}

/**
 * Arms one attempt's timeout and links the caller's signal. Synchronous, and the timeout error is built only
 * when the timer fires: both cost microseconds on every call.
 */
function arm(policy: Policy, info: { method: string; url: string }): { signal: AbortSignal; disarm: () => void } {
  const user = policy.signal;
  if (user?.aborted) throw abortReason(user);
  const controller = new AbortController();
  const onAbort = () => controller.abort(abortReason(user!));
  user?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(
    () => controller.abort(new ApiTimeoutError(`No answer within ${policy.timeoutMs} ms`, info.method, info.url)),
    Math.min(policy.timeoutMs, MAX_TIMER_MS),
  );
  return {
    signal: controller.signal,
    disarm: () => {
      clearTimeout(timer);
      user?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * The client's rate budget, its module loaded on first use: a client without `rateLimit` (most of them) never
 * loads it, and the root bundle stays small.
 */
function lazyBudget(
  limit: NonNullable<ResolvedOptions['rateLimit']>,
  apiKey: string,
  onWarning: ResolvedOptions['onWarning'],
  observe: Observe | undefined,
): Pick<RateBudget, 'take' | 'pause'> {
  let budget: Promise<RateBudget> | undefined;
  const load = () =>
    // ConfigurationError is passed in (see paused-error.ts): it refuses a shared store where no SHA-256 exists.
    (budget ??= import('../rate-limit/budget.js').then(
      ({ RateBudget, budgetKey }) =>
        new RateBudget(limit, budgetKey(apiKey, limit.store, ConfigurationError), { ...limit, onWarning, observe }),
    ));
  return {
    take: (signal, maxPauseMs) => load().then((b) => b.take(signal, maxPauseMs)),
    pause: (delayMs) => load().then((b) => b.pause(delayMs)),
  };
}

/**
 * The observer of a client that logs or has hooks: its module (formatting, redaction, hooks) is loaded now, in
 * a chunk of its own, so a client that does neither never loads it and the root bundle stays small.
 */
function observer(options: ResolvedOptions, secret: string): Observe {
  const loading = import('../observe/instrument.js').then(({ instrument }) =>
    instrument(options, secret, {
      HookError,
      ConfigurationError,
      redact,
      scrubHeaders,
      HEADER_NAME,
      isHeaderValue,
      LOG_LEVELS,
    }),
  );
  return (event) => loading.then((handle) => handle(event));
}

/** `/api/v1/scans/{id}` with `{ id }` → `/api/v1/scans/<id, percent-encoded>`. */
function expandRoute(route: string, path: Record<string, unknown> | undefined): string {
  return path ? route.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(path[name]))) : route;
}

/**
 * `?a=1&b=x&b=y` (form style, arrays exploded: the OpenAPI default), or '' when nothing is set. Absent
 * (`undefined`/`null`) values are left out.
 */
function serializeQuery(query: Record<string, unknown> | undefined): string {
  let out = '';
  for (const key in query) {
    for (const value of ([] as unknown[]).concat(query[key])) {
      if (value !== undefined && value !== null)
        out += `${out ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;
    }
  }
  return out;
}

// A body that passed its schema can still hold what JSON cannot carry in keys the schema ignores (a BigInt,
// a cycle): that is invalid input, refused before anything is sent, not a raw TypeError from JSON.stringify.
function serializeBody(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new RequestValidationError(
      'body',
      `must be serialisable as JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

function parseJson(operationId: string, text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    throw new ResponseValidationError(operationId, 'body', 'must be valid JSON');
  }
}

/** The origin a redirect points to, or undefined when it names none (hidden, absent, not a URL). */
function targetOrigin(location: string | null, requestUrl: string): string | undefined {
  const origin = location ? parseUrl(location, requestUrl)?.origin : undefined;
  return origin === 'null' ? undefined : origin;
}

// Failures that happen before the request reaches the service: a re-send cannot duplicate work, so
// even a POST may be re-sent after them.
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

// Node (undici): cause.code or cause.cause.code; Bun: on the TypeError itself; Deno 2: only the cause's message
// "client error (Connect)" (TCP, DNS or TLS, all before the request is written). workerd says "Network connection
// lost." whether or not the request left, so it is never re-sent there.
function isNotSent(error: unknown): boolean {
  const e = error as
    | { code?: unknown; cause?: { cause?: { code?: unknown }; code?: unknown; message?: unknown } }
    | undefined;
  const code = e?.cause?.cause?.code ?? e?.cause?.code ?? e?.code;
  if (typeof code === 'string') return NOT_SENT.has(code);
  return typeof e?.cause?.message === 'string' && e.cause.message.includes('client error (Connect)');
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { message?: string; code?: string } })?.cause;
  const base = error instanceof Error ? error.message : String(error);
  return cause?.code ? `${base} (${cause.code})` : cause?.message ? `${base} (${cause.message})` : base;
}

// What errors show of a request, its URL read only when an error is made (redacting on every call would cost
// more than the rest of the call's bookkeeping): no userinfo, and no key in any spelling — a `Location` or a
// redirect may carry it percent-encoded or lowercased in a query or a host name.
function errorInfo(method: string, url: string, secret: string): { readonly method: string; readonly url: string } {
  return {
    method,
    get url() {
      return redact(safeUrl(url), secret);
    },
  };
}

function redactOptional(text: string | undefined, secret: string): string | undefined {
  return text === undefined ? undefined : redact(text, secret);
}

/** The URL without userinfo, so credentials in a base URL never reach an error. */
function safeUrl(url: string): string {
  return url.includes('@') ? url.replace(/^(\w+:\/\/)[^/@]*@/, '$1') : url;
}
