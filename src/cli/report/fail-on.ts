// The thresholds a CI check can be judged by (`--fail-on`, `failOn` and `failOnByUrl` in the config file), and the
// one applied when none is known: defined here once, for the option checks, the help text and the verdict.
import type { FailOn } from '../../index.js';

/**
 * Every `failOn` value the API accepts (document §4), in the order the help lists them.
 * @example FAIL_ON.join(' | ') // 'NEW_CRITICAL | ANY_CRITICAL | SERIOUS_OR_WORSE | NONE'
 */
export const FAIL_ON = [
  'NEW_CRITICAL',
  'ANY_CRITICAL',
  'SERIOUS_OR_WORSE',
  'NONE',
] as const satisfies readonly FailOn[];

// A value added to the API's FailOn and missing here fails the build, not a user's run.
const everyValue: [Exclude<FailOn, (typeof FAIL_ON)[number]>] extends [never] ? true : false = true;
void everyValue;

/**
 * Threshold applied when the check does not say which one it used (the service's default when `failOn` is not
 * sent).
 * @default 'NEW_CRITICAL'
 */
export const DEFAULT_FAIL_ON: FailOn = 'NEW_CRITICAL';
