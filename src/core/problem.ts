// The service's problem documents (RFC 7807) as types: what an error answer's body holds, and the codes it documents.
import type { components } from '../../generated/schema.js';

/** An RFC 7807 problem body as the service documents it (`application/problem+json`). */
export type ProblemDetail = components['schemas']['ProblemDetail'];

/**
 * The problem codes the service documents. The union stays open (`string & {}`) so a code added later
 * still type-checks, while editors complete the known ones.
 */
export type ProblemCode =
  | 'API_KEY_INVALID'
  | 'API_KEY_SCOPE_MISSING'
  | 'FEATURE_NOT_IN_PLAN'
  | 'SITE_NOT_FOUND'
  | 'SCAN_NOT_FOUND'
  | 'JOURNEY_NOT_FOUND'
  | 'CI_CHECK_NOT_FOUND'
  | 'SCAN_ALREADY_RUNNING'
  | 'JOURNEY_ALREADY_RUNNING'
  | 'DOMAIN_NOT_VERIFIED'
  | 'VALIDATION_FAILED'
  | 'INVALID_URL'
  | 'SITE_AUTH_NOT_CONFIGURED'
  | 'RATE_LIMITED'
  | (string & {});
