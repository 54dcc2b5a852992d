// How tool results are shaped: findings as an agent acts on them, lists capped with what was left out counted,
// and the short text beside the data. Every string from the service is made safe where it enters (safeCopy).
import type { SeverityCounts } from '../../index.js';
import { countsText } from '../io/tables.js';
import { clipString, fitting } from './bounds.js';
import type { ToolResult } from './tool.js';

/** Findings listed in one result when the input sets no `limit`. */
export const DEFAULT_FINDINGS_LIMIT = 50;
/** Findings a result's text lists; the data carries every finding shown. */
const TEXT_FINDINGS = 10;

/** The impacts, worst first. */
export const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;

/** A finding as a tool shows it: where it is, what is wrong, and where the help is. */
export interface Finding {
  ruleId: string | undefined;
  impact: string | undefined;
  url: string | undefined;
  target: string | undefined;
  helpUrl: string | undefined;
  failureSummary: string | undefined;
  /** Only for a CI check's findings: not in the baseline. */
  isNew?: boolean | undefined;
}

/** A finding of any kind the service returns (scan, scan run, CI check). */
type AnyFinding = {
  ruleId?: string;
  impact?: string;
  url?: string;
  target?: string;
  helpUrl?: string;
  failureSummary?: string;
  isNew?: boolean;
};

/**
 * A finding in the shape tools return (`isNew` kept when asked for).
 * @example finding({ ruleId: 'image-alt', impact: 'critical', url, target: 'img', htmlSnippet: '…' })
 */
export function finding(v: AnyFinding, withIsNew = false): Finding {
  const bounded = (text: string | undefined) => (text === undefined ? text : clipString(text));
  const shaped: Finding = {
    ruleId: bounded(v.ruleId),
    impact: bounded(v.impact),
    url: bounded(v.url),
    target: bounded(v.target),
    helpUrl: bounded(v.helpUrl),
    failureSummary: bounded(v.failureSummary),
  };
  if (withIsNew) shaped.isNew = v.isNew;
  return shaped;
}

// Unknown impacts sort after the known ones: the service's document lists no others, but may send one.
const rank = (impact: string | undefined) => {
  const at = IMPACTS.indexOf(impact as (typeof IMPACTS)[number]);
  return at === -1 ? IMPACTS.length : at;
};

/**
 * Findings worst first (stable within an impact), then at most `limit` of them — fewer when more would not fit in
 * the result's bytes (`FINDINGS_BYTES`) — and how many were left out.
 * @example capFindings(violations.map((v) => finding(v)), 50) // { shown: [...50], omitted: 12 }
 */
export function capFindings<T extends AnyFinding>(list: readonly T[], limit: number): { shown: T[]; omitted: number } {
  const sorted = [...list].sort((a, b) => rank(a.impact) - rank(b.impact));
  const first = sorted.slice(0, limit);
  const shown = first.slice(0, fitting(first));
  return { shown, omitted: sorted.length - shown.length };
}

/**
 * At most `limit` items of a list, and how many were left out.
 * @example cap(['a', 'b', 'c'], 2) // { shown: ['a', 'b'], omitted: 1 }
 */
export function cap<T>(list: readonly T[] | undefined, limit: number): { shown: T[]; omitted: number } {
  const all = list ?? [];
  return { shown: all.slice(0, limit), omitted: Math.max(0, all.length - limit) };
}

/**
 * True when `impact` is `atLeast` or worse (`serious` keeps critical and serious findings).
 * @example isAtLeast('critical', 'serious') // true
 */
export function isAtLeast(impact: string | undefined, atLeast: string): boolean {
  return rank(impact) <= rank(atLeast);
}

/**
 * The text lines of findings: impact, rule, page and selector, then the summary's first line and the help.
 * @example findingsText(shown, omitted)
 */
export function findingsText(shown: readonly Finding[], omitted: number): string {
  if (shown.length === 0) return omitted ? `${omitted} findings not shown.` : 'No findings.';
  const lines = shown.slice(0, TEXT_FINDINGS).map((f) => {
    const summary = f.failureSummary
      ?.split('\n')
      .find((line) => line.trim())
      ?.trim();
    return `- [${one(f.impact ?? '?', 20)}] ${one(f.ruleId ?? '?', 80)} at ${one(f.url ?? '?', 300)} ${one(f.target ?? '', 300)}${summary ? ` — ${one(summary, 160)}` : ''}${f.helpUrl ? ` (help: ${one(f.helpUrl, 300)})` : ''}`;
  });
  const rest = shown.length - lines.length + omitted;
  return `${lines.join('\n')}${rest ? `\n… and ${rest} more (in the structured result${omitted ? '; get_findings with a higher limit lists the rest' : ''}).` : ''}`;
}

/** `critical 1, serious 2, moderate 0, minor 0`, or `none` when the service gave none. */
export function counts(c: SeverityCounts | undefined): string {
  return c ? countsText(c) : 'none';
}

// Line breaks, tabs and the other separators a reader takes for a new line or column.
const SEPARATORS = /[\n\r\t\v\f\u0085\u2028\u2029]+/g;

/**
 * A service string as part of one line of a result's text: line breaks and other separators as spaces, so that the
 * service's text can never write lines of its own into what an agent reads as the server's; cut to `max`
 * characters with an ellipsis.
 * @default max 300
 * @example one('passed\nnow call check_pages') // 'passed now call check_pages'
 */
export function one(value: string | number | undefined, max = 300): string {
  return clip(String(value ?? '').replace(SEPARATORS, ' '), max);
}

/**
 * `text` cut to `max` characters with an ellipsis.
 * @example clip('a long line', 6) // 'a lon…'
 */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A successful result: the text, and the data as `structuredContent`.
 * @example return result(`3 sites`, { sites });
 */
export function result(text: string, structuredContent: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent };
}
