// The text of each log line, from the records the client's modules emit (see events.ts). Pure: redaction and
// writing are instrument.ts's.
import { isCredentialHeader } from '../internal/credential-headers.js';
import { readProgress } from '../wait/progress.js';
import type { Outcome } from '../core/retry.js';
import type { Observed, RequestInfo } from '../core/events.js';
import type { LogLevel } from '../core/callbacks.js';
import { parseUrl } from '../internal/parse-url.js';

/** A line to write: its level and its text (not yet redacted). */
export type Line = [level: Exclude<LogLevel, 'off'>, text: string];

/** What a credential header's value reads in a log line or a hook's view. */
export const REDACTED = '[redacted]';

/**
 * The headers as JSON on one line, the values of credential headers (by their name: {@link isCredentialHeader})
 * replaced by `[redacted]`. JSON, so that a redaction of a value (up to a `"`) never reaches into the next header.
 * @example headerList({ accept: 'application/json', authorization: 'Bearer svc_x' }) // '{"accept":"application/json","authorization":"[redacted]"}'
 */
export function headerList(headers: Iterable<[string, string]>): string {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) out[name] = isCredentialHeader(name) ? REDACTED : value;
  return JSON.stringify(out);
}

/** `GET /api/v1/sites?x=1` of a request: method and path with query (the base URL is the client's). */
function target(info: RequestInfo): string {
  const parsed = parseUrl(info.url);
  return `${info.method} ${parsed ? parsed.pathname + parsed.search : info.url}`;
}

/** What an attempt that is re-sent ended with, in words. */
function ended(outcome: Outcome): string {
  if (outcome.kind === 'status') return `answered ${outcome.status}`;
  if (outcome.kind === 'timeout') return 'timed out';
  return outcome.notSent ? 'could not connect (nothing was sent)' : 'lost its connection';
}

const ms = (value: number) => `${Math.round(value)} ms`;

/** The error as `Name: message` (status and code when it has them). */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { status, code } = error as { status?: unknown; code?: unknown };
  const detail = [status, code].filter((part) => typeof part === 'number' || typeof part === 'string').join(' ');
  return `${error.name}${detail ? ` (${detail})` : ''}: ${error.message}`;
}

/**
 * The line an event writes, or undefined for the events instrument.ts handles itself (`request`, `response`,
 * `done`: see {@link requestLine}, {@link responseLine}, {@link doneLine}).
 */
export function lineOf(event: Observed): Line | undefined {
  switch (event.e) {
    case 'retry': {
      const { info, attempt, outcome } = event;
      const why =
        outcome.kind === 'status' && outcome.retryAfterMs !== undefined
          ? `Retry-After ${ms(outcome.retryAfterMs)}`
          : 'backoff';
      return [
        'info',
        `${target(info)}: attempt ${attempt + 1} ${ended(outcome)}; waiting ${ms(event.ms)} (${why}) before attempt ${attempt + 2}`,
      ];
    }
    case 'poll':
      return ['debug', pollLine(event)];
    case 'log':
      return [event.level, event.text];
    default:
      return undefined;
  }
}

/** The line of a call that ended (see the `done` event): its status, or its error, and how long it took. */
export function doneLine(op: string, at: number, status: number | undefined, error?: unknown): Line {
  const took = ms(Date.now() - at);
  return status === undefined
    ? ['warn', `${op} failed after ${took}: ${describeError(error)}`]
    : ['debug', `${op}: ${status} after ${took}`];
}

/** `→ GET https://…/api/v1/sites (listSites), attempt 1; headers: …` */
export function requestLine(op: string, method: string, url: string, attempt: number, headers: string): string {
  return `→ ${method} ${url} (${op}), attempt ${attempt}; headers: ${headers}`;
}

/** `← GET /api/v1/sites: 503 in 12 ms (attempt 1); headers: …` */
export function responseLine(info: RequestInfo, attempt: number, response: Response, durationMs: number): string {
  return `← ${target(info)}: ${response.status} in ${ms(durationMs)} (attempt ${attempt}); headers: ${headerList(response.headers)}`;
}

// A poll's decision: what it saw, and when and why the next poll comes.
function pollLine(event: Extract<Observed, { e: 'poll' }>): string {
  const job = `${event.op} ${event.job ?? '(no id yet)'}`;
  if (event.n === 0)
    return `${job}: created; first poll in ${ms(event.ms ?? 0)} (${event.hint === undefined ? 'intervalMs' : "the 202's Retry-After"})`;
  const status = (event.resource as { status?: unknown } | undefined)?.status;
  if (event.terminal) return `${job}: ${String(status)} (terminal) at poll ${event.n}`;
  const next = `next poll in ${ms(event.ms ?? 0)}`;
  if (event.error !== undefined) return `${job}: poll ${event.n} failed (${describeError(event.error)}); ${next}`;
  const progress = readProgress(event.resource);
  const pages = progress ? `, ${progress.done} of ${progress.total} pages` : '';
  const why =
    event.hint !== undefined
      ? "the server's Retry-After"
      : event.planned !== undefined
        ? 'planned from progress'
        : 'backoff';
  return `${job}: ${String(status)}${pages} at poll ${event.n}; ${next} (${why})`;
}
