// The input shared by every reporter, and small helpers that turn the API's optional fields into display values.
// The API document marks no field required, so everything here tolerates undefined.
import type { CiCheck, CiViolation, SeverityCounts } from '../../index.js';

/**
 * What the reporters format: a CI check and its findings, exactly as the API returned them.
 * @example const report: CiReport = { check: await client.ciChecks.get(id), violations: await client.ciChecks.violations(id) };
 */
export interface CiReport {
  /** The CI check (`GET /ci/checks/{id}`). */
  check: CiCheck;
  /** Its findings (`GET /ci/checks/{id}/violations`). */
  violations: CiViolation[];
}

/**
 * `n` and the noun, in the singular for one: every message and report words counts the same way.
 * @default many `${one}s`
 * @example plural(2, 'page') // '2 pages'
 */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Impact values the reporters know, most severe first. */
export const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;

/** An impact value the reporters know. */
export type Impact = (typeof IMPACTS)[number];

/** Placeholder shown for a finding or page that carries no URL. */
const UNKNOWN_PAGE = '(unknown page)';

/** Placeholder shown for a finding that carries no rule id. */
const UNKNOWN_RULE = 'unknown-rule';

/** Placeholder shown for a finding that carries no element selector. */
const NO_TARGET = '(no selector)';

/**
 * The known impact of a finding, or undefined. The document does not list impact values, so comparison
 * ignores case and surrounding spaces rather than trusting one spelling.
 * @example normalizeImpact(' Critical ') // 'critical'
 */
export function normalizeImpact(impact: string | undefined): Impact | undefined {
  const value = impact?.trim().toLowerCase();
  return (IMPACTS as readonly string[]).includes(value ?? '') ? (value as Impact) : undefined;
}

/**
 * Sort rank of an impact: 0 for critical … 3 for minor, 4 for a missing or unknown impact.
 * @example impactRank('serious') // 1
 */
export function impactRank(impact: string | undefined): number {
  const known = normalizeImpact(impact);
  return known === undefined ? IMPACTS.length : IMPACTS.indexOf(known);
}

/**
 * Display text of an impact: the known value, else the raw value, else `unknown`.
 * @example impactLabel(undefined) // 'unknown'
 */
export function impactLabel(impact: string | undefined): string {
  return normalizeImpact(impact) ?? (impact?.trim() || 'unknown');
}

/** Rule id of a finding, or {@link UNKNOWN_RULE}. */
export function ruleIdOf(v: CiViolation): string {
  return v.ruleId || UNKNOWN_RULE;
}

/** Element selector of a finding, or {@link NO_TARGET}. */
export function targetOf(v: CiViolation): string {
  return v.target || NO_TARGET;
}

/** A page URL, or {@link UNKNOWN_PAGE}. */
export function pageLabel(url: string | undefined): string {
  return url || UNKNOWN_PAGE;
}

/**
 * One count of a counts record, or undefined when the service did not send it
 * (shown as "n/a": a missing count is not the same as zero).
 */
export function countOf(counts: SeverityCounts | undefined, impact: Impact): number | undefined {
  const n = counts?.[impact];
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** Sum of the four counts, or undefined when none was sent. */
export function totalOf(counts: SeverityCounts | undefined): number | undefined {
  const values = IMPACTS.map((i) => countOf(counts, i)).filter((n): n is number => n !== undefined);
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0);
}

/** A count as text: the number, or `n/a` when missing. */
export function countText(n: number | undefined): string {
  return n === undefined ? 'n/a' : String(n);
}

/**
 * Page URLs in report order: the check's pages in their order, then URLs seen only in findings (sorted, so the
 * order does not depend on the order of the findings), without duplicates. Missing URLs become {@link UNKNOWN_PAGE}.
 */
export function pageUrls(report: CiReport): string[] {
  const fromPages = new Set((report.check.pages ?? []).map((p) => pageLabel(p.url)));
  const extra = new Set((report.violations ?? []).map((v) => pageLabel(v.url)).filter((u) => !fromPages.has(u)));
  return [...fromPages, ...[...extra].sort(compareText)];
}

/**
 * Locale-independent string order (code units), so reports are byte-identical on every machine.
 * @example ['b', 'a'].sort(compareText) // ['a', 'b']
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// Pages named in a report's threshold line: a check has at most 20 pages, a merged run more.
const LISTED_THRESHOLDS = 20;

/**
 * The pages judged by another threshold than the run's, in words for a report's threshold line, or undefined when
 * every page is judged by the run's. Each URL is already made safe (`PreparedReport.pageThresholds`); a reporter
 * escapes the result for its format.
 * @example pageThresholdsText([{ url: 'https://a.example/checkout', failOn: 'SERIOUS_OR_WORSE' }]) // 'other thresholds: https://a.example/checkout SERIOUS_OR_WORSE'
 */
export function pageThresholdsText(list: readonly { url: string; failOn: string }[]): string | undefined {
  if (list.length === 0) return undefined;
  const named = list.slice(0, LISTED_THRESHOLDS).map((p) => `${p.url} ${p.failOn}`);
  const more = list.length > LISTED_THRESHOLDS ? ` and ${list.length - LISTED_THRESHOLDS} more` : '';
  return `other thresholds: ${named.join(', ')}${more}`;
}
