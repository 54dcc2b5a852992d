// The transport every resource method goes through: validate input, build the request with openapi-fetch,
// send it through the retrying fetch, optionally validate the answer.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../generated/schema.js';
import { A11yError, APIConnectionError, RequestValidationError, ResponseValidationError } from './errors.js';
import type { Operation, OperationId, OperationInput, SuccessBody } from './operations.js';
import type { RequestOptions, ResolvedOptions } from './options.js';
import { TokenBucket } from './rate-limiter.js';
import { Call, safeUrl } from './retry.js';
import { validateRequest, validateResponse } from './validation.js';

/** A 2xx answer: the parsed body and where it came from. */
export interface Sent<O extends OperationId> {
  data: SuccessBody<O>;
  response: Response;
  /** The URL the request was sent to (what a relative `Location` resolves against). */
  requestUrl: string;
}

/** Sends operations for one client. Holds the API key privately: it is never enumerable or inspectable. */
export class Transport {
  readonly #api: Client<paths>;
  readonly #key: string;
  readonly #headers: Record<string, string>;
  readonly #limiter: TokenBucket | undefined;

  constructor(
    readonly options: ResolvedOptions,
    apiKey: string,
  ) {
    // resolveOptions() has checked the base URL and that the key and headers are valid HTTP header values.
    this.#key = apiKey;
    this.#headers = { Accept: 'application/json, application/problem+json', ...options.headers, Authorization: `Bearer ${apiKey}` };
    this.#api = createClient<paths>({ baseUrl: options.baseUrl, headers: this.#headers, bodySerializer: serializeBody });
    const limit = options.rateLimit;
    this.#limiter = limit ? new TokenBucket(limit.requestsPerMinute, limit.burst) : undefined;
  }

  /** Validates, sends and returns the 2xx body. */
  async request<O extends OperationId>(op: Operation<O>, input: OperationInput, options?: RequestOptions): Promise<SuccessBody<O>> {
    return (await this.send(op, input, options)).data;
  }

  /** Validates, sends and returns the 2xx body with its response (for `Location`). */
  async send<O extends OperationId>(op: Operation<O>, input: OperationInput, options?: RequestOptions): Promise<Sent<O>> {
    const { schemas } = op;
    validateRequest(schemas.path, input.path);
    validateRequest(schemas.query, input.query);
    validateRequest(schemas.body, input.body);
    const call = this.#call(options);
    try {
      // openapi-fetch's request() is typed per literal path; the operation table guarantees the pairing.
      const init = { params: { path: input.path, query: input.query }, body: input.body, fetch: call.send } as never;
      const requestUrl = () => call.lastUrl ?? this.options.baseUrl + op.route;
      const { data, response } = await this.#api.request(op.method as never, op.route as never, init).catch((error: unknown): never => {
        // openapi-fetch parses a 2xx body with JSON.parse: a truncated or non-JSON body surfaces as a
        // SyntaxError, and a connection lost while the body streams in as undici's TypeError("terminated").
        if (error instanceof SyntaxError) throw new ResponseValidationError(op.id, 'body', 'must be valid JSON');
        throw call.answered ? bodyReadError(error, { method: op.method, url: requestUrl() }, options?.signal) : error;
      });
      if (this.options.validateResponses) await validateResponse(op.id, data);
      return { data: data as SuccessBody<O>, response, requestUrl: requestUrl() };
    } finally {
      call.release();
    }
  }

  /** GETs an absolute URL on the service (a `Location` to poll) and returns the body as operation `op`'s. */
  async getUrl<O extends OperationId>(op: Operation<O>, url: string, options?: RequestOptions): Promise<Sent<O>> {
    const call = this.#call(options);
    try {
      const response = await call.send(new Request(url, { headers: this.#headers }));
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
    const o = this.options;
    return new Call({
      fetch: o.fetch,
      timeoutMs: options?.timeoutMs ?? o.timeoutMs,
      maxRetries: options?.maxRetries ?? o.maxRetries,
      maxRetryDelayMs: o.maxRetryDelayMs,
      signal: options?.signal,
      limiter: this.#limiter,
      secret: this.#key,
    });
  }
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
    throw new ResponseValidationError(operationId, 'body', 'must be valid JSON');
  }
}
