// The service's vocabulary and limits that code beyond the API's types needs as values: the judging thresholds, the
// statuses that end a job or a page, the pages a CI check takes, the default rate. One definition each, here, for
// the SDK, the CLI and the MCP server; test/contract/vocabulary.test.ts holds every one against openapi.yaml and the
// service's document, and the type checks below fail the build when the description adds a value.
import type { FailOn, PageStatus } from './types.js';

/**
 * Every `failOn` value the API accepts (document §4), in the order help texts list them.
 * @example FAIL_ON.join(' | ') // 'NEW_CRITICAL | ANY_CRITICAL | SERIOUS_OR_WORSE | NONE'
 */
export const FAIL_ON = [
  'NEW_CRITICAL',
  'ANY_CRITICAL',
  'SERIOUS_OR_WORSE',
  'NONE',
] as const satisfies readonly FailOn[];

/**
 * The threshold a check is judged by when `failOn` is not sent (the service's default).
 * @default 'NEW_CRITICAL'
 * @example const failOn = check.failOn ?? DEFAULT_FAIL_ON;
 */
// Typed by FAIL_ON, not the generated FailOn: the vocabulary entry's declarations stay free of the description's types.
export const DEFAULT_FAIL_ON: (typeof FAIL_ON)[number] = 'NEW_CRITICAL';

/**
 * The page statuses that end a page of a CI check or a fix verification: checked (`DONE`) or given up on.
 * @example FINISHED_PAGE_STATUSES.includes('TIMEOUT') // true
 */
export const FINISHED_PAGE_STATUSES = [
  'DONE',
  'TIMEOUT',
  'UNREACHABLE',
  'ERROR',
] as const satisfies readonly PageStatus[];

// A value added to the API's FailOn or page statuses and missing here fails the build, not a user's run.
const everyFailOn: [Exclude<FailOn, (typeof FAIL_ON)[number]>] extends [never] ? true : false = true;
const everyPageStatus: [Exclude<PageStatus, (typeof FINISHED_PAGE_STATUSES)[number] | 'QUEUED' | 'RUNNING'>] extends [
  never,
]
  ? true
  : false = true;
void everyFailOn;
void everyPageStatus;

/**
 * How many of `pages` have finished (a status of {@link FINISHED_PAGE_STATUSES}; an unknown status has not).
 * @example pagesDone([{ status: 'DONE' }, { status: 'RUNNING' }]) // 1
 */
export function pagesDone(pages: ReadonlyArray<{ status?: unknown } | null | undefined> | undefined): number {
  let done = 0;
  for (const page of pages ?? []) {
    if ((FINISHED_PAGE_STATUSES as readonly unknown[]).includes(page?.status)) done++;
  }
  return done;
}

/**
 * The most URLs one CI check takes (`V1CreateCiCheckRequest.urls`, `maxItems`).
 * @default 20
 */
export const MAX_URLS_PER_CHECK = 20;

/**
 * The most URLs one CI check takes on the Free plan (the same field's description).
 * @default 5
 */
export const FREE_PLAN_URLS_PER_CHECK = 5;

/**
 * The requests per minute the service allows one key by default (the document's Limits, §8).
 * @default 120
 */
export const SERVICE_REQUESTS_PER_MINUTE = 120;
