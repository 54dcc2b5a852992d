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
  ApiConnectionError,
  ApiTimeoutError,
  APIConnectionError,
  APITimeoutError,
  ConfigurationError,
  HookError,
  PollTimeoutError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
} from './core/errors.js';
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from './core/errors.js';
export { errorFromResponse, isApiError } from './core/error-response.js';
export type { ProblemCode, ProblemDetail } from './core/problem.js';
export type { RequestInfo } from './core/errors.js';
export { failureOf } from './wait/failure.js';
export type { JobFailure } from './wait/failure.js';
export { DEFAULT_WAIT_TIMEOUT_MS, isTerminalStatus } from './wait/polling.js';
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
