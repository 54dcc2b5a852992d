// What doctor's checks of the service share: their inputs, how a read is made (once), and an error answer of the
// service in one line.
import { type ApiError, isApiError } from '../../../index.js';
import type { OptionValues } from '../../args.js';
import type { Output } from '../../io/output.js';
import type { Env } from '../../settings/settings.js';
import type { Runs } from './needs.js';

/** What the service checks read. */
export interface ServiceInputs {
  /** The parsed flags. */
  values: OptionValues;
  /** The environment the command runs in. */
  env: Env;
  /** The output guard: its secrets are what no line may show. */
  out: Output;
  /** The commands the user runs, and what they need. */
  runs: Runs;
}

/** The read of the sites, which tells the key, the base URL and the rate-limit headers. */
export const SITES = 'GET /api/v1/sites';

/** Request options of every read: doctor asks once and reports what came back (a retry would hide it). */
export const ONCE = { maxRetries: 0 };

// Text of the service's (a title, a detail, a site's name, a header) is cut to this many characters on a line.
const MAX_FIELD = 200;

/**
 * `text` cut to `max` characters (an ellipsis last).
 * @example clip('abcdef', 4) // 'abc…'
 */
export const clip = (text: string, max = MAX_FIELD): string =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

/**
 * ` (Retry-After: N s)` from an answer's headers, or '' when it has none.
 * @example retryAfter(new Headers({ 'retry-after': '17' })) // ' (Retry-After: 17 s)'
 */
export const retryAfter = (headers: Headers): string => {
  const value = headers.get('retry-after');
  return value ? ` (Retry-After: ${clip(value, 40)} s)` : '';
};

/**
 * An error answer in one line: status, code, title, detail and traceId (the service's text, clipped; the output
 * makes it safe and redacts every secret, the key echoed back included).
 * @example answerText(error) // '403 API_KEY_SCOPE_MISSING — Scope missing: … (traceId …)'
 */
export function answerText(error: ApiError): string {
  return [
    `${error.status}${error.code ? ` ${clip(error.code, 60)}` : ''}`,
    error.title ? ` — ${clip(error.title)}` : '',
    error.detail ? `: ${clip(error.detail)}` : '',
    error.traceId ? ` (traceId ${clip(error.traceId, 60)})` : '',
  ].join('');
}

/**
 * What a read met other than a 200, a 403 or a problem 404, in words.
 * @example failureText(error) // 'answered 500 — Internal error'
 */
export function failureText(error: unknown): string {
  if (isApiError(error)) return `answered ${answerText(error)}`;
  if (error instanceof Error) return `failed: ${clip(error.message)}`;
  throw error;
}
