// The lines `svc-a11y doctor` prints: one per check, each with its status and what to fix, and the exit code they
// add up to. Checks build lines; only doctor.ts prints them.
import { ExitCode, type ExitCodeValue } from '../../exit-codes.js';

/** How a check came out: well, a problem to fix, or a fact that needs nothing (not set, not shown, not needed). */
type CheckStatus = 'ok' | 'fail' | 'info';

/**
 * What a failed check calls for: a `setting` missing or malformed (nothing could be asked), or an answer from the
 * service, Redis or a proxy (`service`) that is not what the commands need.
 */
export type FailureKind = 'setting' | 'service';

/** One line of the report. */
export interface CheckLine {
  /** Stable name of the check, for `--json` readers: `api-key`, `base-url`, `scope:ci:check`, `site`, … */
  id: string;
  /** What the line is about, as printed: `API key`, `scope ci:check`, `site Example shop`, … */
  label: string;
  status: CheckStatus;
  /** What was found and, for a problem, what to fix. One line. */
  text: string;
  /** For a failed check: what kind of failure it is (it decides the exit code). */
  kind?: FailureKind | undefined;
}

/**
 * A line that says all is well.
 * @example ok('api-key', 'API key', 'accepted (SVC_API_KEY)')
 */
export const ok = (id: string, label: string, text: string): CheckLine => ({ id, label, status: 'ok', text });

/**
 * A line that needs nothing done.
 * @example info('proxy', 'proxy', 'none set')
 */
export const info = (id: string, label: string, text: string): CheckLine => ({ id, label, status: 'info', text });

/**
 * A problem line, with what to fix in its text.
 * @example fail('api-key', 'API key', 'missing: set SVC_API_KEY or pass --api-key', 'setting')
 */
export const fail = (id: string, label: string, text: string, kind: FailureKind): CheckLine => ({
  id,
  label,
  status: 'fail',
  text,
  kind,
});

const TAGS: Record<CheckStatus, string> = { ok: 'ok  ', fail: 'FAIL', info: 'info' };

/**
 * One line of the text report: its tag, its label and its text.
 * @example lineText(ok('api-key', 'API key', 'accepted')) // 'ok   API key: accepted'
 */
export function lineText(line: CheckLine): string {
  return `${TAGS[line.status]} ${line.label}: ${line.text}`;
}

/**
 * The exit code of a report: 0 when no line failed, 2 when a setting is missing or malformed (fixed before anything
 * else can be checked), else 3.
 * @example exitCodeOf([fail('redis', 'Redis', 'unreachable', 'service')]) // 3
 */
export function exitCodeOf(lines: readonly CheckLine[]): ExitCodeValue {
  const failed = lines.filter((line) => line.status === 'fail');
  if (failed.length === 0) return ExitCode.OK;
  return failed.some((line) => line.kind === 'setting') ? ExitCode.USAGE : ExitCode.API_ERROR;
}
