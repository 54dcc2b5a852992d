// Reviewed suppressions: a JSON file of findings a team has decided to accept for a while, each with a reason
// and an end date (`--suppressions FILE`, default `.a11y-suppressions.json` beside the config file). Checked
// against a schema, entry by entry, with errors naming the file, the entry and the rule; never silently ignored.
// An entry matches by rule id and, when given, a URL pattern, a selector and a fingerprint (all must match).
// An entry past its date no longer suppresses anything (a warning says so); one that matched nothing is stale.
import { join } from 'node:path';
import * as z from 'zod/mini';
import type { CiViolation } from '../../index.js';
import { UsageError } from '../exit-codes.js';
import { describeJsonError } from '../io/json-error.js';
import { urlPattern } from '../pages/page-urls.js';
import { readTextFile } from '../io/read-file.js';

/** The file looked up beside the config file (or in the working directory) when `--suppressions` is not given. */
export const DEFAULT_SUPPRESSIONS_FILE = '.a11y-suppressions.json';

/** One entry of the file, checked. */
export interface Suppression {
  /** Position in the file's `suppressions` array (0-based), for messages and stale reports. */
  index: number;
  /** The rule id it suppresses (exact). */
  ruleId: string;
  /** A regular expression tested against the finding's page URL, as written in the file. */
  url?: string | undefined;
  /** The element selector it suppresses (exact). */
  target?: string | undefined;
  /** The finding's fingerprint (exact). */
  fingerprint?: string | undefined;
  /** Why the finding is accepted: shown in every report, and as the SARIF suppression's justification. */
  reason: string;
  /** Last day (`YYYY-MM-DD`, UTC) the entry suppresses anything. */
  expires: string;
}

/** A suppressions file, read and split by date. */
export interface Suppressions {
  /** Where it was read from. */
  file: string;
  /** Entries still in force. */
  active: Suppression[];
  /** Entries past their `expires` date: they suppress nothing. */
  expired: Suppression[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isCalendarDate = (s: string) => DATE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;
const text = (rule: string) => z.string({ error: rule }).check(z.refine((s) => s.trim() !== '', { error: rule }));

/** The file's schema (zod). Unknown keys are errors: a typo (`expiry`) must not pass for a valid entry. */
const suppressionsSchema = z.strictObject({
  $schema: z.optional(z.string()),
  suppressions: z.array(
    z.strictObject({
      ruleId: text('must be a non-empty string (the rule id, e.g. "color-contrast")'),
      url: z.optional(text('must be a non-empty string (a regular expression tested against the page URL)')),
      target: z.optional(text('must be a non-empty string (the element selector, exactly as reported)')),
      fingerprint: z.optional(text('must be a non-empty string (the finding fingerprint, exactly as reported)')),
      reason: text('is required: every suppression needs a non-empty reason (who accepted it and why)'),
      expires: z
        .string({ error: 'is required: every suppression needs an end date "YYYY-MM-DD"' })
        .check(z.refine(isCalendarDate, { error: 'must be a date "YYYY-MM-DD" (e.g. "2026-12-31")' })),
    }),
    { error: 'must be an array of suppression entries' },
  ),
});

/**
 * Where the suppressions are read from: `--suppressions`, else {@link DEFAULT_SUPPRESSIONS_FILE} in the config
 * file's folder (or the working directory); `required` is false for the default, which may be absent.
 */
export function suppressionsPath(flag: string | undefined, configDir: string): { file: string; required: boolean } {
  return flag !== undefined
    ? { file: flag, required: true }
    : { file: join(configDir, DEFAULT_SUPPRESSIONS_FILE), required: false };
}

/**
 * Reads and checks a suppressions file, and splits its entries into those in force on `today` and those
 * expired. A default file that does not exist gives undefined.
 * @param today - the date the entries are judged on (`YYYY-MM-DD`, UTC)
 * @default today the current UTC date
 * @throws UsageError (exit 2) naming the file, the entry and the rule
 * @example loadSuppressions('.a11y-suppressions.json', { required: false })?.active.length
 */
export function loadSuppressions(
  file: string,
  { required, today = new Date().toISOString().slice(0, 10) }: { required: boolean; today?: string },
): Suppressions | undefined {
  let raw: string;
  try {
    raw = readTextFile(file, { what: 'suppressions file' });
  } catch (error) {
    if (!required && /\(ENOENT\)/.test((error as Error).message)) return undefined;
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    throw new UsageError(`suppressions file ${file} is not valid JSON (${describeJsonError(raw)})`);
  }
  return checkSuppressions(data, file, today);
}

/**
 * Checks parsed suppressions data against {@link suppressionsSchema} and compiles the URL patterns.
 * @throws UsageError naming the file, the entry and the rule of the first problem (and how many more there are)
 */
export function checkSuppressions(data: unknown, file: string, today: string): Suppressions {
  const result = z.safeParse(suppressionsSchema, data);
  if (!result.success) {
    // A typo in a key explains the missing value that follows from it: it is named first.
    const issues = [...result.error.issues].sort(
      (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
    );
    const first = issues[0]!;
    const where = first.path.length
      ? first.path
          .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
          .join('')
          .replace(/^\./, '')
      : '(top level)';
    const known = first.path.length ? 'ruleId, url, target, fingerprint, reason, expires' : '$schema, suppressions';
    const rule =
      first.code === 'unrecognized_keys'
        ? `has an unknown key ${first.keys.map((k) => JSON.stringify(k)).join(', ')} (known: ${known})`
        : first.message;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length === 2 ? '' : 's'})` : '';
    throw new UsageError(`suppressions file ${file}: ${where} ${isMissing(first) ? missingRule(first) : rule}${more}`);
  }
  const entries: Suppression[] = result.data.suppressions.map((e, index) => {
    if (e.url !== undefined) urlPattern(e.url, `suppressions file ${file}: suppressions[${index}].url`);
    return { index, ...e };
  });
  return { file, active: entries.filter((e) => e.expires >= today), expired: entries.filter((e) => e.expires < today) };
}

type Issue = z.core.$ZodIssue;
const isMissing = (issue: Issue) => issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined;
const missingRule = (issue: Issue) =>
  /^is required/.test(issue.message) ? issue.message : `is required (${issue.message})`;

/**
 * The first entry in force that matches a finding: its rule id, and each of URL pattern, selector and
 * fingerprint that the entry gives.
 * @example findSuppression(suppressions.active, { ruleId: 'color-contrast', url: 'https://a.example/blog/x' })
 */
export function findSuppression(entries: readonly Suppression[], v: CiViolation): Suppression | undefined {
  return entries.find(
    (e) =>
      e.ruleId === v.ruleId &&
      (e.url === undefined || (v.url !== undefined && new RegExp(e.url).test(v.url))) &&
      (e.target === undefined || e.target === v.target) &&
      (e.fingerprint === undefined || e.fingerprint === v.fingerprint),
  );
}

/**
 * A short description of an entry for warnings: `#3 color-contrast on /blog/ (expires 2026-12-31)`.
 * @example describeSuppression(entry) // '#1 color-contrast (expires 2026-12-31)'
 */
export function describeSuppression(e: Suppression): string {
  const scope = [
    e.url !== undefined ? `url /${e.url}/` : '',
    e.target !== undefined ? `target ${e.target}` : '',
    e.fingerprint !== undefined ? `fingerprint ${e.fingerprint}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `#${e.index + 1} ${e.ruleId}${scope ? ` (${scope})` : ''}, expires ${e.expires}`;
}
