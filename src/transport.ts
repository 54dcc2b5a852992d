// The transport every resource method goes through: validate input, build the request with openapi-fetch,
// send it through the retrying fetch, optionally validate the answer.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../generated/schema.js';
import { A11yError, APIConnectionError, RequestValidationError, ResponseValidationError } from './errors.js';
import type { Operation, OperationId, OperationInput, SuccessBody } from './operations.js';
import { type RequestOptions, type ResolvedOptions, requestOverrides } from './options.js';
import { TokenBucket } from './rate-limiter.js';
import { Call, type OutgoingRequest, type SendPolicy, safeUrl } from './retry.js';
import { validateRequest, validateResponse } from './validation.js';

/** A 2xx answer: the parsed body and where it came from. */
export interface Sent<O extends OperationId> {
  data: SuccessBody<O>;
  response: Response;
  /** The URL the request was sent to (what a relative `Location` resolves against). */
  requestUrl: string;
}

/** Sends operations for one client. Holds the API key in private fields only: never enumerable or inspectable. */
export class Transport {
  readonly #api: Client<paths>;
  readonly #headers: Record<string, string>;
  // The send policy of a call without per-request options, built once (most calls have none).
  readonly #policy: SendPolicy;

  constructor(
    readonly options: ResolvedOptions,
    apiKey: string,
  ) {
    // resolveOptions() has checked the base URL and that the key and headers are valid HTTP header values.
    // Lowercase names, so a caller's `accept` replaces the default instead of being sent alongside it.
    const custom = Object.fromEntries(Object.entries(options.headers).map(([name, value]) => [name.toLowerCase(), value]));
    this.#headers = { accept: 'application/json, application/problem+json', ...custom, authorization: `Bearer ${apiKey}` };
    // Headers are added here rather than by openapi-fetch, which would copy them into a new Headers object
    // on every call: plain objects, built once, go straight to fetch.
    const plain = this.#headers;
    const json = { 'content-type': 'application/json', ...plain };
    this.#api = createClient<paths>({
      baseUrl: options.baseUrl,
      bodySerializer: serializeBody,
      querySerializer: serializeQuery,
      Request: class extends Outgoing {
        constructor(url: string, init: { method?: string; body?: string }) {
          super(url, init, init.body === undefined ? plain : json);
        }
      } as unknown as typeof Request,
    });
    const limit = options.rateLimit;
    this.#policy = {
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
      maxRetryDelayMs: options.maxRetryDelayMs,
      limiter: limit ? new TokenBucket(limit.requestsPerMinute, limit.burst) : undefined,
      secret: apiKey,
    };
  }

  /** Validates, sends and returns the 2xx body. */
  request<O extends OperationId>(op: Operation<O>, input: OperationInput, options?: RequestOptions): Promise<SuccessBody<O>> {
    return this.send(op, input, options).then(dataOf);
  }

  /** Validates, sends and returns the 2xx body with its response (for `Location`). */
  async send<O extends OperationId>(op: Operation<O>, input: OperationInput, options?: RequestOptions): Promise<Sent<O>> {
    const { schemas } = op;
    validateRequest(schemas.path, input.path);
    validateRequest(schemas.query, input.query);
    validateRequest(schemas.body, input.body);
    const call = this.#call(options);
    // openapi-fetch's request() is typed per literal path; the operation table guarantees the pairing.
    const init = { params: { path: input.path, query: input.query }, body: input.body, fetch: call.send } as never;
    let sent: { data?: unknown; response: Response };
    try {
      sent = await this.#api.request(op.method as never, op.route as never, init);
    } catch (error) {
      // openapi-fetch parses a 2xx body with JSON.parse: a truncated or non-JSON body surfaces as a
      // SyntaxError, and a connection lost while the body streams in as undici's TypeError("terminated").
      if (error instanceof SyntaxError) throw notJson(op.id);
      throw call.answered ? bodyReadError(error, { method: op.method, url: call.lastUrl ?? this.options.baseUrl + op.route }, options?.signal) : error;
    } finally {
      call.release();
    }
    if (this.options.validateResponses) await validateResponse(op.id, sent.data);
    return { data: sent.data as SuccessBody<O>, response: sent.response, requestUrl: call.lastUrl ?? this.options.baseUrl + op.route };
  }

  /** GETs an absolute URL on the service (a `Location` to poll) and returns the body as operation `op`'s. */
  async getUrl<O extends OperationId>(op: Operation<O>, url: string, options?: RequestOptions): Promise<Sent<O>> {
    const call = this.#call(options);
    try {
      const response = await call.send({ url, method: 'GET', headers: this.#headers });
      const text = await response.text().catch((error: unknown) => {
        throw bodyReadError(error, { method: 'GET', url }, options?.signal);
      });
      const data = parseJson(op.id, text);
      if (this.options.validateResponses) await validateResponse(op.id, data);
      return { data: data as SuccessBody<O>, response, requestUrl: url };
    } finally {
      call.release();
    }
  }

  #call(options: RequestOptions | undefined): Call {
    return new Call(options ? { ...this.#policy, ...requestOverrides(options) } : this.#policy);
  }

}

/**
 * What openapi-fetch builds in place of a `Request` (its `Request` option): the URL, method, body and the
 * client's headers as they are. A real Request here costs ~25 µs of CPU per call, because fetch then copies
 * it into a second one; the retrying fetch calls `fetch(url, init)` with these instead. openapi-fetch reads
 * only `method` from it.
 */
class Outgoing implements OutgoingRequest {
  readonly url: string;
  readonly method: string;
  readonly body: string | undefined;
  constructor(
    url: string,
    init: { method?: string; body?: string },
    readonly headers: Record<string, string>,
  ) {
    this.url = url;
    this.method = init.method ?? 'GET';
    this.body = init.body;
  }
}

const dataOf = <O extends OperationId>(sent: Sent<O>): SuccessBody<O> => sent.data;

/**
 * `?a=1&b=x&b=y` (form style, arrays exploded: the OpenAPI default). A plain function, because openapi-fetch
 * builds a serializer from an options object on every call. Absent (`undefined`/`null`) values are left out.
 */
function serializeQuery(query: Record<string, unknown> | undefined): string {
  let out = '';
  for (const key in query) {
    for (const value of ([] as unknown[]).concat(query[key])) {
      if (value !== undefined && value !== null) out += `${out ? '&' : ''}${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;
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
    throw new RequestValidationError('body', `must be serialisable as JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/**
 * A failure while reading a 2xx body. The per-attempt timeout (`APITimeoutError`) and the caller's abort
 * reason pass through unchanged; anything else is the connection failing mid-body: `APIConnectionError`.
 */
function bodyReadError(error: unknown, request: { method: string; url: string }, signal: AbortSignal | undefined): unknown {
  if (error instanceof A11yError || signal?.aborted) return error;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const why = typeof cause?.code === 'string' ? cause.code : error instanceof Error ? error.message : String(error);
  return new APIConnectionError(`Connection error while reading the response body: ${why}`, request.method, safeUrl(request.url), { cause: error });
}

function parseJson(operationId: string, text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    throw notJson(operationId);
  }
}

// One error for a 2xx body that is not JSON, whether openapi-fetch or getUrl parsed it.
function notJson(operationId: string): ResponseValidationError {
  return new ResponseValidationError(operationId, 'body', 'must be valid JSON');
}
