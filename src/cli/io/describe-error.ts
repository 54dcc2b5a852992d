// One reading of an error for every surface that reports one: the CLI's error lines (main.ts), the MCP server's
// isError results (mcp/errors.ts) and the GitHub Action (through runCiCheck's errors). It says which kind of failure
// it is, the exit code that documents it, and its facts as safe one-line text (the service's words, secrets in every
// spelling, controls and URL credentials made harmless once, here); each surface then words its own next step.
import {
  ApiConnectionError,
  ApiError,
  ConfigurationError,
  PollTimeoutError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
} from '../../index.js';
import { ExitCode, type ExitCodeValue, ExplainedError, UsageError } from '../exit-codes.js';
import { safeLine } from './safe-text.js';

/**
 * What kind of failure an error is: `usage` (arguments), `input` (a request the SDK refused to send), `configuration`,
 * `api` (the service answered an error), `connection`, `not-the-api` (a redirect, an oversized or non-JSON 2xx: the
 * base URL is not the API), `timeout` (a wait ran out), `internal` (a bug).
 */
type ErrorKind = 'usage' | 'input' | 'configuration' | 'api' | 'connection' | 'not-the-api' | 'timeout' | 'internal';

/** An error as every surface reports it; every string is one safe line. */
export interface ErrorDescription {
  kind: ErrorKind;
  /** The CLI's exit code for it. */
  exitCode: ExitCodeValue;
  /** What happened, in the error's own words (for `api`, the status and the problem's code, title and detail). */
  message: string;
  /** `not-the-api`: what showed it (a redirect, a body over the size bound, a 2xx that is not the API's JSON). */
  cause?: 'redirect' | 'too-large' | 'not-json' | undefined;
  /** `usage`: the command whose help to point at. */
  command?: string | undefined;
  /** `input`: the field and the rule it broke. */
  field?: string | undefined;
  rule?: string | undefined;
  /** `api`: the answer's status, the problem's code, title, detail and trace id. */
  status?: number | undefined;
  code?: string | undefined;
  title?: string | undefined;
  detail?: string | undefined;
  traceId?: string | undefined;
  /** `connection`: the request that could not be sent. */
  request?: string | undefined;
  /** `timeout`: the job waited for, its last status and how long the wait took. */
  jobId?: string | undefined;
  lastStatus?: string | undefined;
  elapsedMs?: number | undefined;
  /** `api`: the error itself, for a surface that words a next step from its headers or problem. */
  error?: ApiError | undefined;
}

/**
 * Reads `error` once for every surface: its kind, exit code and facts, each a safe line with `secrets` redacted.
 * @example describeError(new UsageError('unknown flag --x', 'ci'), []) // { kind: 'usage', exitCode: 2, message: 'unknown flag --x', command: 'ci' }
 */
export function describeError(error: unknown, secrets: readonly string[]): ErrorDescription {
  const line = (text: string) => safeLine(text, secrets);
  if (error instanceof ExplainedError) {
    const cause = describeError(error.cause, secrets);
    return { ...cause, message: `${cause.message}. ${line(error.message)}` };
  }
  if (error instanceof UsageError)
    return { kind: 'usage', exitCode: ExitCode.USAGE, message: line(error.message), command: error.command };
  if (error instanceof RequestValidationError)
    return {
      kind: 'input',
      exitCode: ExitCode.USAGE,
      message: line(error.message),
      field: line(error.field),
      rule: line(error.rule),
    };
  if (error instanceof ConfigurationError)
    return { kind: 'configuration', exitCode: ExitCode.USAGE, message: line(error.message) };
  if (error instanceof ApiError) {
    const code = error.code ? line(error.code) : undefined;
    const title = error.title ? line(error.title) : undefined;
    const detail = error.detail ? line(error.detail) : undefined;
    return {
      kind: 'api',
      exitCode: ExitCode.API_ERROR,
      message: `${error.status}${code ? ` ${code}` : ''}${title ? ` — ${title}` : ''}${detail ? `: ${detail}` : ''}`,
      status: error.status,
      code,
      title,
      detail,
      traceId: error.traceId ? line(error.traceId) : undefined,
      error,
    };
  }
  if (error instanceof ApiConnectionError)
    return {
      kind: 'connection',
      exitCode: ExitCode.API_ERROR,
      message: line(error.message),
      request: `${error.method} ${line(error.url)}`,
    };
  if (
    error instanceof RedirectError ||
    error instanceof ResponseTooLargeError ||
    error instanceof ResponseValidationError
  )
    return {
      kind: 'not-the-api',
      exitCode: ExitCode.API_ERROR,
      message: line(error.message),
      cause:
        error instanceof RedirectError ? 'redirect' : error instanceof ResponseTooLargeError ? 'too-large' : 'not-json',
    };
  if (error instanceof PollTimeoutError)
    return {
      kind: 'timeout',
      exitCode: ExitCode.INCOMPLETE,
      message: line(error.message),
      jobId: error.jobId === undefined ? undefined : line(error.jobId),
      lastStatus: error.lastStatus === undefined ? undefined : line(error.lastStatus),
      elapsedMs: error.elapsedMs,
    };
  return {
    kind: 'internal',
    exitCode: ExitCode.INTERNAL,
    message: line(error instanceof Error ? error.message : String(error)),
  };
}
