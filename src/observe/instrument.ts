// The observer of a client that logs or has hooks, loaded in a chunk of its own when such a client is made:
// writes each event as one redacted line at its level, and runs the hooks around each attempt.
// Type imports only from the root bundle's modules: what this chunk needs of them at run time comes in `tools`
// (a static import would split them out of the root bundle into a shared chunk, gzipped apart: ~1.5 kB more).
import type { ConfigurationError, HookError } from '../core/errors.js';
import type { redact, scrubHeaders } from '../internal/redact.js';
import type { HEADER_NAME, isHeaderValue, LOG_LEVELS, ResolvedOptions } from '../core/options.js';
// Not in the root bundle (the CLI reaches url-secrets through @svc/a11y-sdk/redact, and the list of credential
// headers through these debug lines): imported, they stay in this chunk.
import { isCredentialHeader } from '../internal/credential-headers.js';
import { redactTokenParameters, redactUrlCredentials } from '../internal/url-secrets.js';
import type { Observed, RequestInfo } from '../core/events.js';
import {
  describeError,
  doneLine,
  headerList,
  type Line,
  lineOf,
  REDACTED,
  requestLine,
  responseLine,
} from './lines.js';
import type { HookRequest } from '../core/callbacks.js';

/** What this chunk uses of the root bundle's modules, passed in by the transport (see the imports above), by name. */
export interface Tools {
  HookError: typeof HookError;
  ConfigurationError: typeof ConfigurationError;
  redact: typeof redact;
  scrubHeaders: typeof scrubHeaders;
  HEADER_NAME: typeof HEADER_NAME;
  isHeaderValue: typeof isHeaderValue;
  LOG_LEVELS: typeof LOG_LEVELS;
}

/** What a `request` event resolves with, handed back with its `response` event. */
interface Attempt {
  readonly info: RequestInfo;
  readonly attempt: number;
  /** What the hooks see of the attempt (none without hooks). */
  readonly request: HookRequest | undefined;
}

/**
 * The handler of one client's events: `options` says the level, the logger and the hooks; `secret` is the API key
 * (redacted from everything written or shown to a hook).
 */
export function instrument(
  options: ResolvedOptions,
  secret: string,
  tools: Tools,
): (event: Observed) => Promise<unknown> {
  const { HookError, ConfigurationError, redact, scrubHeaders, HEADER_NAME, isHeaderValue, LOG_LEVELS } = tools;
  const { logger, hooks } = options;
  // The logger and the hooks are checked here rather than in resolveOptions (out of the root bundle): a client
  // given a bad one fails its first call with a ConfigurationError naming the member, and writes nothing.
  const wrong =
    missing('logger', logger, ['debug', 'info', 'warn', 'error'], true) ??
    missing('hooks', hooks, ['onRequest', 'onResponse'], false);
  if (wrong) {
    const error = new ConfigurationError(`${wrong} must be a function.`);
    return async (event) => {
      if (event.e === 'request') throw error;
    };
  }
  // Text as logs show it: the API key in any spelling, URL credentials and credential-like query parameters
  // redacted, by the functions the CLI's reports use (`redactUrlCredentials`, `redactTokenParameters`).
  const scrubText = (text: string) => redactTokenParameters(redactUrlCredentials(redact(text, secret)));
  const rank = LOG_LEVELS.indexOf(options.logLevel);
  // Per attempt, the request and response lines (headers as JSON) are only built when they would be written.
  const debug = rank >= LOG_LEVELS.indexOf('debug');
  const write = ([level, text]: Line) => {
    if (LOG_LEVELS.indexOf(level) > rank) return;
    try {
      logger[level](`[a11y] ${scrubText(text)}`);
    } catch {
      // A logger that throws must not fail the call it reports on.
    }
  };
  // What hooks see of the headers, unless they opted into `unredacted`: the values of credential headers (by their
  // name, as in the log lines) redacted, `authorization` as `Bearer [redacted]`, and the key in any other value.
  const requestView = (headers: Record<string, string>): Record<string, string> =>
    Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [
        name,
        name === 'authorization' ? `Bearer ${REDACTED}` : isCredentialHeader(name) ? REDACTED : redact(value, secret),
      ]),
    );
  const responseView = (headers: Headers): Headers => {
    let named = false;
    for (const name of headers.keys()) named ||= isCredentialHeader(name);
    if (!named) return scrubHeaders(headers, secret);
    const view = new Headers();
    for (const [name, value] of headers) view.append(name, isCredentialHeader(name) ? REDACTED : value);
    return scrubHeaders(view, secret);
  };
  // A hook's failure ends the call: its error is the cause (scrubbed when the hook saw the key).
  const failed = (hook: 'onRequest' | 'onResponse', error: unknown) => {
    const wrapped = new HookError(hook, redact(describeError(error), secret), { cause: error });
    write(['error', wrapped.message]);
    return wrapped;
  };

  return async (event) => {
    if (event.e === 'request') {
      const { headers, info } = event;
      const request: HookRequest | undefined = hooks && {
        operationId: event.op,
        method: info.method,
        url: hooks.unredacted ? event.url : scrubText(event.url),
        headers: hooks.unredacted ? { ...headers } : requestView(headers),
        attempt: event.attempt,
      };
      if (request && hooks?.onRequest) {
        const shown = { ...request.headers };
        try {
          await hooks.onRequest(request);
        } catch (error) {
          throw failed('onRequest', error);
        }
        applyHeaders(request.headers, shown, headers, (name, value) => {
          if (!HEADER_NAME.test(name) || typeof value !== 'string' || !isHeaderValue(value))
            throw failed(
              'onRequest',
              new TypeError(`headers[${JSON.stringify(name)}] is not a valid HTTP header name and value`),
            );
        });
      }
      if (debug)
        write([
          'debug',
          requestLine(event.op, info.method, info.url, event.attempt, headerList(Object.entries(headers))),
        ]);
      return { info, attempt: event.attempt, request } satisfies Attempt;
    }
    if (event.e === 'response') {
      const { info, attempt, request } = event.hook as Attempt;
      const { response } = event;
      if (debug) write(['debug', responseLine(info, attempt, response, event.ms)]);
      if (request && hooks?.onResponse) {
        try {
          await hooks.onResponse({
            request,
            status: response.status,
            headers: hooks.unredacted ? response.headers : responseView(response.headers),
            durationMs: event.ms,
          });
        } catch (error) {
          // The attempt ends here: its timer and its body are freed before the call fails.
          event.end();
          void response.body?.cancel().catch(() => undefined);
          throw failed('onResponse', error);
        }
      }
      return undefined;
    }
    if (event.e === 'done') {
      const { op, at } = event;
      // Not awaited: the call's own caller waits for it; its rejection is the caller's to handle too.
      event.sent.then(
        (sent) => write(doneLine(op, at, sent.response.status)),
        (error) => write(doneLine(op, at, undefined, error)),
      );
      return undefined;
    }
    const line = lineOf(event);
    if (line) write(line);
    return undefined;
  };
}

// The first member of `value` named in `names` that is not a function (`option.name`), when `value` is an object
// (and the member is present, unless `required`).
function missing(option: string, value: unknown, names: string[], required: boolean): string | undefined {
  if (value == null) return undefined;
  const name = names.find((n) => {
    const member = (value as Record<string, unknown>)[n];
    return typeof member !== 'function' && (required || member !== undefined);
  });
  return name && `${option}.${name}`;
}

// The headers an onRequest hook left, sent on this attempt: added and changed ones (names and values checked as
// the client's own `headers` option is), removed ones left out, and the ones it left as it was `shown` them (a
// redacted value among them) sent as they were; `authorization` stays the API key whatever the hook did to it.
function applyHeaders(
  edited: Record<string, string>,
  shown: Record<string, string>,
  sent: Record<string, string>,
  check: (name: string, value: unknown) => void,
): void {
  const next: Record<string, string> = {};
  for (const [name, value] of Object.entries(edited)) {
    check(name, value);
    const key = name.toLowerCase();
    next[key] = Object.hasOwn(sent, key) && Object.hasOwn(shown, key) && shown[key] === value ? sent[key]! : value;
  }
  next.authorization = sent.authorization!;
  for (const name of Object.keys(sent)) delete sent[name];
  Object.assign(sent, next);
}
