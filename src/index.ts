// Public entry of @svc/a11y-sdk: explicit named exports only.
export { A11yClient } from './client.js';
export type { ClientOptions, RateLimitOptions, RequestOptions } from './core/options.js';
export { LOG_LEVELS } from './core/options.js';
export type { APIPromise, WithResponse } from './core/api-promise.js';
export type { HookRequest, HookResponse, Hooks, Logger, LogLevel } from './core/callbacks.js';
export type { TrendOptions } from './resources/sites.js';
export type { CiChecks } from './resources/ci-checks.js';
export type { Fixes, FixVerifications } from './resources/fixes.js';
export type { JourneyRuns, Journeys } from './resources/journeys.js';
export type { ScanRuns } from './resources/scan-runs.js';
export type { Scans } from './resources/scans.js';
export type { Sites } from './resources/sites.js';
export {
  A11yError,
  ApiError,
  ApiConnectionError,
  ApiTimeoutError,
  APIConnectionError,
  APITimeoutError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  HookError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PollTimeoutError,
  RateLimitError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
  errorFromResponse,
  isApiError,
} from './core/errors.js';
export type { ProblemCode, ProblemDetail, RequestInfo } from './core/errors.js';
export { failureOf } from './wait/failure.js';
export type { JobFailure } from './wait/failure.js';
export { DEFAULT_WAIT_TIMEOUT_MS, isTerminalStatus } from './wait/polling.js';
export {
  DEFAULT_FAIL_ON,
  FAIL_ON,
  FINISHED_PAGE_STATUSES,
  FREE_PLAN_URLS_PER_CHECK,
  MAX_URLS_PER_CHECK,
  pagesDone,
  SERVICE_REQUESTS_PER_MINUTE,
} from './core/vocabulary.js';
export { redact as redactSecret } from './internal/redact.js';
export type { WaitOptions } from './wait/polling.js';
export { parseRetryAfter } from './core/retry-after.js';
export { MemoryRateLimitStore } from './core/rate-limit-store.js';
export type { RateLimit, RateLimitStore, Reservation } from './core/rate-limit-store.js';
export type { Warning } from './core/callbacks.js';
export type {
  Checkpoint,
  CiCheck,
  CiCheckAccepted,
  CiCheckStatus,
  CiViolation,
  CreateCiCheckRequest,
  CreateScanRequest,
  CreateScanRunRequest,
  FailOn,
  FailureReason,
  Fix,
  FixVerification,
  FixVerificationAccepted,
  Journey,
  JourneyRun,
  Page,
  PageStatus,
  RootCauseCluster,
  RootCauseComponent,
  RootCauses,
  RootCauseSummary,
  Scan,
  ScanAccepted,
  ScanRun,
  SeverityCounts,
  Site,
  SiteTrend,
  TrendPoint,
  Verdict,
  Violation,
} from './core/types.js';
