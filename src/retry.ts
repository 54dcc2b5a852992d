// The retrying fetch: per-attempt timeouts, 429 handling with Retry-After, transient-failure re-sends for
// idempotent requests, abortable waits, and the mapping of every non-2xx answer to its error class.
import { APIConnectionError, APITimeoutError, errorFromResponse } from './errors.js';
import { redact } from './internal/redact.js';
import { abortReason, sleep } from './internal/sleep.js';
import type { TokenBucket } from './rate-limiter.js';
import { parseRetryAfter } from './retry-after.js';

/** How one call is sent. */
export interface SendPolicy {
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  maxRetries: number;
  maxRetryDelayMs: number;
  signal?: AbortSignal | undefined;
  limiter?: TokenBucket | undefined;
  /** Scrubbed from any text taken from an error body. */
  secret?: string | undefined;
}

/**
 * A request as the retrying fetch sends it: what `fetch(url, init)` takes, kept apart. Sending the URL and
 * init rather than a `Request` lets fetch build the only Request (undici copies a given Request into a
 * second one), and a string body can be re-sent without cloning.
 */
export interface OutgoingRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | null | undefined;
}

/**
 * Exponential backoff with jitter: 500 ms·2ⁿ capped at 8 s, then a random 50–100 % of it, so a fleet of
 * clients spreads out and a wait is never 0 ms.
 * @param attempt - 0 for the first re-send
 * @param random - source of randomness in [0, 1)
 * @default random Math.random
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(8_000, 500 * 2 ** attempt);
  return Math.max(1, Math.round(ceiling * (0.5 + random() * 0.5)));
}

// Failures that happen before the request reaches the service: a re-send cannot duplicate work, so
// even a POST may be re-sent after them.
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Longest delay a timer can hold (2³¹−1 ms, about 24.8 days). Node and browsers fire a longer
 * `setTimeout` after 1 ms, which would turn a huge `timeoutMs` into an instant timeout and a huge
 * `Retry-After` into an immediate re-send; longer delays are clamped to this instead.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One call: sends `request`, re-sending as the policy allows, and returns the first 2xx answer, or throws
 * the error class of the last answer. The per-attempt timer stays armed until `release()` is called, so
 * reading a slow body is bounded by `timeoutMs` too.
 */
export class Call {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #unlink: (() => void) | undefined;
  /** URL of the last request sent (what a relative `Location` resolves against). */
  lastUrl: string | undefined;
  /** True once a 2xx answer was handed back (a later failure happened while reading its body). */
  answered = false;

  constructor(readonly policy: SendPolicy) {}

  /** Sends the request (the `fetch` openapi-fetch calls with an {@link OutgoingRequest}). */
  send = async (request: OutgoingRequest): Promise<Response> => {
    const { policy } = this;
    const idempotent = request.method === 'GET' || request.method === 'HEAD';
    this.lastUrl = request.url;
    const info = { method: request.method, url: safeUrl(request.url) };
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < policy.maxRetries;
      if (policy.limiter) await policy.limiter.take(policy.signal);
      const signal = this.#arm(info);
      let response: Response;
      try {
        // Called unbound: browsers throw "Illegal invocation" when fetch runs as a method of another object.
        const fetchOnce = policy.fetch;
        // A copy per attempt: a fetch wrapper that edits `init.headers` must not change later requests.
        response = await fetchOnce(request.url, { method: request.method, headers: { ...request.headers }, body: request.body, signal });
      } catch (error) {
        this.release();
        // Aborted: the caller's reason, or this attempt's APITimeoutError (a connection error, re-sent like one).
        const failure: unknown = signal.aborted
          ? signal.reason
          : // A custom fetch's error text may echo the init it was given, headers (and so the key) included.
            new APIConnectionError(`Connection error: ${redact(describe(error), policy.secret)}`, info.method, info.url, { cause: error });
        if (!canRetry || !(failure instanceof APIConnectionError) || (!idempotent && !isNotSent(failure))) throw failure;
        await sleep(backoffDelay(attempt), policy.signal);
        continue;
      }
      if (response.ok) {
        this.answered = true;
        return response;
      }

      const status = response.status;
      const transient = status === 408 || status >= 500;
      if (status !== 429 && !(transient && idempotent)) throw await this.#fail(response, info);
      const wait = parseRetryAfter(response.headers.get('retry-after'));
      // A wait beyond the cap is not hammered early: the caller learns the wait at once.
      if (!canRetry || (wait !== undefined && wait > policy.maxRetryDelayMs)) throw await this.#fail(response, info, wait);
      this.release();
      await response.body?.cancel().catch(() => undefined);
      await sleep(Math.min(wait ?? backoffDelay(attempt), MAX_TIMER_MS), policy.signal);
    }
  };

  /** Clears the armed attempt timer; call once the body has been read. */
  release(): void {
    clearTimeout(this.#timer);
    this.#unlink?.();
    this.#timer = this.#unlink = undefined;
  }

  async #fail(response: Response, info: { method: string; url: string }, wait?: number) {
    try {
      const error = await errorFromResponse(response, info, this.policy.secret);
      if (wait !== undefined && 'retryAfterMs' in error) error.retryAfterMs = wait;
      return error;
    } finally {
      this.release();
    }
  }

  // Arms this attempt's timeout and links the caller's signal; returns the signal to send with. Synchronous,
  // and the timeout error is built only when the timer fires: both cost microseconds on every call.
  #arm(info: { method: string; url: string }): AbortSignal {
    const { policy } = this;
    this.release();
    const user = policy.signal;
    if (user?.aborted) throw abortReason(user);
    const controller = new AbortController();
    if (user) {
      const onAbort = () => controller.abort(abortReason(user));
      user.addEventListener('abort', onAbort, { once: true });
      this.#unlink = () => user.removeEventListener('abort', onAbort);
    }
    this.#timer = setTimeout(
      () => controller.abort(new APITimeoutError(`No answer within ${policy.timeoutMs} ms`, info.method, info.url)),
      Math.min(policy.timeoutMs, MAX_TIMER_MS),
    );
    return controller.signal;
  }
}

function isNotSent(error: unknown): boolean {
  const cause = (error as { cause?: { cause?: { code?: unknown }; code?: unknown } } | undefined)?.cause;
  const code = cause?.cause?.code ?? cause?.code;
  return typeof code === 'string' && NOT_SENT.has(code);
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { message?: string; code?: string } })?.cause;
  const base = error instanceof Error ? error.message : String(error);
  return cause?.code ? `${base} (${cause.code})` : cause?.message ? `${base} (${cause.message})` : base;
}

/** The URL without userinfo, so credentials in a base URL never reach an error. */
export function safeUrl(url: string): string {
  return url.includes('@') ? url.replace(/^(\w+:\/\/)[^/@]*@/, '$1') : url;
}
