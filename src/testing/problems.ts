// RFC 7807 problem bodies. Handlers throw SimProblem; the server renders it with the request path,
// a fresh trace id and the clock's time.
import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/schema.js';

/** An RFC 7807 problem body as openapi.yaml describes it. */
export type ProblemBody = components['schemas']['ProblemDetail'];

// Titles of the documented codes (and of the code-less statuses the simulator also answers).
const TITLES: Record<string, string> = {
  API_KEY_INVALID: 'Invalid API key',
  API_KEY_SCOPE_MISSING: 'Scope missing',
  FEATURE_NOT_IN_PLAN: 'Feature not in plan',
  SITE_NOT_FOUND: 'Site not found',
  SCAN_NOT_FOUND: 'Scan not found',
  JOURNEY_NOT_FOUND: 'Journey not found',
  CI_CHECK_NOT_FOUND: 'CI check not found',
  SCAN_ALREADY_RUNNING: 'Scan already running',
  JOURNEY_ALREADY_RUNNING: 'Journey already running',
  DOMAIN_NOT_VERIFIED: 'Domain not verified',
  VALIDATION_FAILED: 'Validation failed',
  INVALID_URL: 'Invalid URL',
  SITE_AUTH_NOT_CONFIGURED: 'Site auth not configured',
  RATE_LIMITED: 'Too many requests',
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  422: 'Unprocessable Entity',
  500: 'Internal Server Error',
};

/**
 * A problem answer. `code` is omitted where the document shows none (tracked fixes and fix verifications,
 * and routes outside the API); such problems get `type: about:blank`, as openapi.yaml's examples do.
 */
export class SimProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${status} ${code ?? ''} ${detail}`);
  }
}

/**
 * Shorthand: throws a problem.
 * @example fail(404, 'SCAN_NOT_FOUND', `No scan with id ${id}.`)
 */
export function fail(
  status: number,
  code: string | undefined,
  detail: string,
  headers?: Record<string, string>,
): never {
  throw new SimProblem(status, code, detail, headers);
}

/** The JSON body of a problem answer. */
export function problemBody(problem: SimProblem, instance: string, now: number): ProblemBody {
  const { status, code, detail } = problem;
  return {
    type: code ? `https://docs.example.com/problems/${code.toLowerCase().replace(/_/g, '-')}` : 'about:blank',
    title: (code && TITLES[code]) || TITLES[status] || 'Error',
    status,
    detail,
    instance,
    ...(code ? { code } : {}),
    traceId: randomUUID(),
    timestamp: new Date(now).toISOString(),
  };
}
