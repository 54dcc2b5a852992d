// The one factory from an HTTP answer to its error class (the classes are errors.ts), and the guard that narrows an
// error to an API answer with a given problem code.
import { readBody } from '../internal/read-body.js';
import { redact, scrub, scrubHeaders } from '../internal/redact.js';
import { ApiError, byStatus, InternalServerError, RateLimitError, type RequestInfo } from './errors.js';
import type { ProblemCode, ProblemDetail } from './problem.js';

/**
 * Longest problem body read, in bytes: only a few short fields of it are used, so a larger one (a proxy's
 * error page, a hostile answer) is not read past this; the status still gives the class.
 */
const MAX_PROBLEM_BYTES = 64 * 1024;

/**
 * The one factory from an HTTP answer to its error class. Reads at most 64 KiB of the body; a body that
 * is not a JSON problem (an HTML 502 from a proxy, an empty, truncated or oversized body) still gives the
 * class of its status, with `code` undefined. `secret` is scrubbed from every text taken
 * from the body.
 * @param signal - aborts the read (the transport passes its attempt's timeout)
 */
export async function errorFromResponse(
  response: Response,
  request: RequestInfo,
  secret?: string,
  signal?: AbortSignal,
): Promise<ApiError> {
  let text = '';
  try {
    text = (await readBody(response, MAX_PROBLEM_BYTES, signal)) ?? '';
  } catch {
    // A body cut mid-stream, over the cap, or slower than the attempt still leaves the status to classify by.
  }
  // Scrubbed after parsing: a JSON encoder may echo the key with escapes (`\u0073vc_…`, `\/`) that a
  // search of the raw text would miss. Headers and the status text can echo it too.
  const problem = scrub(parseProblem(text), secret) as ProblemDetail | undefined;
  const Class = byStatus.get(response.status) ?? (response.status >= 500 ? InternalServerError : ApiError);
  const statusText = response.statusText ? redact(response.statusText, secret) : undefined;
  return new Class(response.status, problem, scrubHeaders(response.headers, secret), request, statusText);
}

/** A JSON object body, or undefined (non-JSON, arrays and scalars are not problems). */
function parseProblem(text: string): ProblemDetail | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as ProblemDetail) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Narrows `err` to an {@link ApiError}, optionally with a given problem code; `RATE_LIMITED` narrows to a
 * {@link RateLimitError} (with `retryAfterMs`).
 * @example
 * ```ts
 * try { await client.scans.create({ url }) }
 * catch (e) { if (isApiError(e, 'SCAN_ALREADY_RUNNING')) { ... } else throw e }
 * ```
 * @example if (isApiError(e, 'RATE_LIMITED')) await sleep(e.retryAfterMs ?? 1000)
 */
export function isApiError(err: unknown, code: 'RATE_LIMITED'): err is RateLimitError & { code: 'RATE_LIMITED' };
export function isApiError<C extends ProblemCode>(err: unknown, code?: C): err is ApiError & { code: C };
export function isApiError(err: unknown, code?: ProblemCode): boolean {
  // A RATE_LIMITED problem on another status is no RateLimitError: the narrowing above must hold.
  if (code === 'RATE_LIMITED') return err instanceof RateLimitError && err.code === code;
  return err instanceof ApiError && (code === undefined || err.code === code);
}
