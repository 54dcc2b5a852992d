// How tool results are shaped: findings as an agent acts on them, lists capped with what was left out counted,
// and the short text beside the data. Every string from the service is made safe where it enters (safeCopy).
import type { SeverityCounts } from '../../index.js';
import { countsText } from '../io/tables.js';
import { clipString, clipWith, fitting } from './bounds.js';
import type { SourceLocation, ToolResult } from './tool.js';

/** Findings listed in one result when the input sets no `limit`. */
export const DEFAULT_FINDINGS_LIMIT = 50;
/** Findings a result's text lists; the data carries every finding shown. */
const TEXT_FINDINGS = 10;

/** The impacts, worst first. */
export const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;

/** A finding as a tool shows it: where it is, what is wrong, where the help is, and where to act. */
export interface Finding {
  ruleId: string | undefined;
  impact: string | undefined;
  url: string | undefined;
  /** The element's CSS selector. */
  target: string | undefined;
  helpUrl: string | undefined;
  failureSummary: string | undefined;
  /** The WCAG success criteria the rule maps to (`1.4.3`). */
  wcagSc: string[];
  /** The element's HTML, where the service gives it. */
  htmlSnippet?: string | undefined;
  /** Only for a CI check's findings: the finding's identity across checks, and whether the baseline lacks it. */
  fingerprint?: string | undefined;
  isNew?: boolean | undefined;
  /** The route file that renders the page, where the server runs in a project whose routes it recognises. */
  source?: SourceLocation | undefined;
}

/** A finding of any kind the service returns (scan, scan run, CI check). */
type AnyFinding = {
  ruleId?: string;
  impact?: string;
  url?: string;
  target?: string;
  helpUrl?: string;
  failureSummary?: string;
  wcagSc?: string[];
  htmlSnippet?: string;
  fingerprint?: string;
  isNew?: boolean;
};

/** How {@link finding} shapes one: a CI check's (fingerprint and isNew kept), and the route files' locator. */
export interface FindingOptions {
  /** The finding is a CI check's: its `fingerprint` and `isNew` are kept. @default false */
  ci?: boolean;
  /** The route file of a page URL (the query string ignored), or undefined. @default none */
  locate?: ((url: string | undefined) => SourceLocation | undefined) | undefined;
}

/**
 * A finding in the shape tools return: every string clipped (`clipString`), a CI check's identity kept, and the
 * route file that renders its page where one matches.
 * @example finding({ ruleId: 'image-alt', impact: 'critical', url, target: 'img', htmlSnippet: '…' }, { ci: true })
 */
export function finding(v: AnyFinding, options: FindingOptions = {}): Finding {
  const bounded = (text: string | undefined) => (typeof text === 'string' ? clipString(text) : undefined);
  const shaped: Finding = {
    ruleId: bounded(v.ruleId),
    impact: bounded(v.impact),
    url: bounded(v.url),
    target: bounded(v.target),
    helpUrl: bounded(v.helpUrl),
    failureSummary: bounded(v.failureSummary),
    wcagSc: Array.isArray(v.wcagSc) ? v.wcagSc.filter((sc) => typeof sc === 'string').map((sc) => clipString(sc)) : [],
  };
  if (typeof v.htmlSnippet === 'string') shaped.htmlSnippet = clipString(v.htmlSnippet);
  if (options.ci) {
    shaped.fingerprint = bounded(v.fingerprint);
    shaped.isNew = v.isNew;
  }
  const source = options.locate?.(v.url);
  if (source) shaped.source = { file: source.file, line: source.line };
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
 * The text lines of findings: impact, rule, page and selector, the route file where one renders the page, then the
 * summary's first line and the help. What the text leaves out is counted truthfully: the findings the structured
 * result holds beyond the first ten, and those neither holds (`omitted`), with how to read them (`readRest`).
 * @example findingsText(shown, omitted, 'call get_findings with {"checkId": "…"} and a higher limit (at most 500)')
 */
export function findingsText(shown: readonly Finding[], omitted: number, readRest: string): string {
  const notShown = omitted ? `${omitted} more not in this result: ${readRest}.` : '';
  if (shown.length === 0) return notShown || 'No findings.';
  const lines = shown.slice(0, TEXT_FINDINGS).map((f) => {
    const summary = f.failureSummary
      ?.split('\n')
      .find((line) => line.trim())
      ?.trim();
    const source = f.source ? ` in ${one(f.source.file, 300)}:${f.source.line}` : '';
    return `- [${one(f.impact ?? '?', 20)}] ${one(f.ruleId ?? '?', 80)} at ${one(f.url ?? '?', 300)} ${one(f.target ?? '', 300)}${source}${summary ? ` — ${one(summary, 160)}` : ''}${f.helpUrl ? ` (help: ${one(f.helpUrl, 300)})` : ''}`;
  });
  const inData = shown.length - lines.length;
  return [
    ...lines,
    ...(inData ? [`${inData} more in the structured result (findings).`] : []),
    ...(notShown ? [notShown] : []),
  ].join('\n');
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
function clip(text: string, max: number): string {
  return text.length > max ? clipWith(text, '…', max) : text;
}

/**
 * A successful result: the text, and the data as `structuredContent`.
 * @example return result(`3 sites`, { sites });
 */
export function result(text: string, structuredContent: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent };
}
