// The pull request comment (the GitHub Action's) and the merge request note (GitLab's, `gate/gitlab-note.ts`): the
// verdict, the new findings by impact with links, and a link to the run, built from the prepared report (already made
// safe: secrets, URL credentials, controls) and escaped for Markdown once more. A hidden marker on its first line is
// how the next run finds it again to edit it in place.
import { checkedOnRecheck, pageStatusText, checkpointText } from '../verdict/attempts.js';
import type { Page } from '../../index.js';
import { parseUrl } from '../io/parse-url.js';
import {
  countText,
  IMPACTS,
  normalizeImpact,
  pageLabel,
  pageThresholdsText,
  ruleIdOf,
  targetOf,
  totalOf,
  plural,
} from '../verdict/fields.js';
import type { Finding, PreparedReport } from '../verdict/prepare.js';
import { mdCell } from './markdown.js';

/**
 * The hidden marker of the action's comment on a pull request (one per `key`: jobs of a matrix may keep one each).
 * @default key ''
 * @example commentMarker() // '<!-- svc-a11y-action -->'
 */
export function commentMarker(key = ''): string {
  return `<!-- svc-a11y-action${key ? `:${key}` : ''} -->`;
}

/** What the comment shows besides the report. */
export interface CommentContext {
  /** {@link commentMarker}. */
  marker: string;
  /** The workflow run's (or pipeline job's) page, for the link at the bottom. */
  runUrl: string | undefined;
  /**
   * What the link at the bottom is called.
   * @default 'workflow run'
   */
  runLabel?: string | undefined;
  /**
   * What the text is, in the footer's "this … is updated on every run".
   * @default 'comment'
   */
  noun?: string | undefined;
  /** The pull request's head commit, shown short. */
  headSha?: string | undefined;
  /** Why no report exists (the check did not run), already redacted: the CLI's error lines. */
  errors?: readonly string[] | undefined;
  /**
   * How many new findings are listed; the rest are counted, with a pointer to the run's summary.
   * @default 50
   */
  maxFindings?: number;
}

const ICONS = { PASS: '✅', FAIL: '❌', UNKNOWN: '⚠️' } as const;
const WHY = { PASS: 'Passed', FAIL: 'Failed', UNKNOWN: 'Not judged' } as const;
// GitHub refuses a comment body over 65 536 characters; the findings list is cut well before.
const MAX_BODY_CHARS = 60_000;

// A link only for an absolute http(s) URL, with the characters that would end the destination percent-encoded;
// anything else is text.
function link(text: string, url: string | undefined): string {
  const parsed = url ? parseUrl(url) : undefined;
  if (!parsed) return mdCell(text);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return mdCell(text);
  // Whatever is left of credentials (`[redacted]@`) has no place in a destination.
  parsed.username = '';
  parsed.password = '';
  const href = parsed.href.replace(/[()|<> ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `[${mdCell(text)}](${href})`;
}

const row = (cells: string[]): string => `| ${cells.join(' | ')} |`;

function findingRow({ violation: v, breaking, suppression }: Finding): string {
  return row([
    v.helpUrl ? link(ruleIdOf(v), v.helpUrl) : mdCell(ruleIdOf(v)),
    `${link(pageLabel(v.url), v.url)}${mdCell(checkpointText(v))}`,
    mdCell(targetOf(v)),
    mdCell(v.wcagSc?.join(', ') || '–'),
    breaking
      ? '**yes**'
      : suppression
        ? `no: suppressed until ${mdCell(suppression.expires)} (${mdCell(suppression.reason)})`
        : 'no',
  ]);
}

function footer(ctx: CommentContext): string {
  const parts = [
    ...(ctx.runUrl ? [link(ctx.runLabel ?? 'workflow run', ctx.runUrl)] : []),
    ...(ctx.headSha && /^[0-9a-f]{7,64}$/i.test(ctx.headSha) ? [`commit ${ctx.headSha.slice(0, 7)}`] : []),
  ];
  return `<sub>svc-a11y accessibility check${parts.length ? ` · ${parts.join(' · ')}` : ''} · this ${ctx.noun ?? 'comment'} is updated on every run</sub>`;
}

/**
 * The comment's Markdown: marker, verdict and its reasons, the new findings grouped by impact (rule with its help
 * link, page link, selector, WCAG criteria, whether it fails the gate), counts, and a link to the run. Without a
 * report (the check did not run), the verdict UNKNOWN and the CLI's error lines.
 * @example commentBody(prepared, { marker: commentMarker(), runUrl })
 */
export function commentBody(report: PreparedReport | undefined, ctx: CommentContext): string {
  const max = ctx.maxFindings ?? 50;
  const outcome = report?.verdict.outcome ?? 'UNKNOWN';
  const lines = [ctx.marker, `## ${ICONS[outcome]} Accessibility check: ${outcome}`, ''];
  if (!report) {
    lines.push('The check did not run, so nothing was judged.', '');
    for (const error of ctx.errors ?? []) lines.push(`- ${mdCell(error)}`);
    if (ctx.errors?.length) lines.push('');
    lines.push(footer(ctx), '');
    return lines.join('\n');
  }
  const { check, verdict, findings, failOn, failOnDefaulted, failedPages } = report;
  const others = pageThresholdsText(report.pageThresholds);
  lines.push(...verdict.reasons.map((r) => `- ${WHY[outcome]}: ${mdCell(r)}`), '');
  const fresh = findings.filter((f) => f.violation.isNew === true);
  const newTotal = totalOf(check.newCounts) ?? fresh.length;
  const summary = [
    `**${plural(newTotal, 'new finding')}** relative to the baseline`,
    `${countText(totalOf(check.counts))} in all`,
    `fixed ${countText(check.fixedCount)}`,
    `threshold ${mdCell(failOn)}${failOnDefaulted ? ' (default)' : ''}`,
    ...(others ? [mdCell(others)] : []),
    ...(check.appUrl ? [link('open in the app', check.appUrl)] : []),
  ];
  lines.push(summary.join(' · '), '');
  if (check.baselineMissing) lines.push('> No baseline check was found, so every finding counts as new.', '');
  for (const [pages, what] of [
    [failedPages, 'could not be checked'],
    [checkedOnRecheck(check.pages), 'checked on a recheck'],
  ] as const)
    if (pages.length) lines.push(pagesLine(pages, what), '');
  for (const j of report.journeys ?? []) {
    const checkpoints = j.checkpoints.map((c) => c.label || '(no label)');
    const judged = j.baseline
      ? `judged ${j.failOn} against the journey baseline`
      : `judged as ${j.failOn} (no journey baseline)`;
    lines.push(
      `> Journey ${mdCell(j.name)}: ${j.verdict.outcome}; ${plural(checkpoints.length, 'checkpoint')}${checkpoints.length ? ` (${mdCell(checkpoints.join(', '))})` : ''}; ${judged}`,
      '',
    );
  }

  if (fresh.length === 0)
    lines.push(
      check.status === 'COMPLETED' ? 'No new findings.' : 'No findings were read: the check did not complete.',
      '',
    );
  let listed = 0;
  let size = lines.join('\n').length;
  for (const impact of [...IMPACTS, undefined]) {
    const group = fresh.filter((f) => normalizeImpact(f.violation.impact) === impact);
    if (group.length === 0 || listed >= max) continue;
    const heading = `### ${impact ?? 'other impact'} (${group.length})`;
    const table = [
      heading,
      '',
      row(['Rule', 'Page', 'Element', 'WCAG', 'Fails the gate']),
      row(['---', '---', '---', '---', '---']),
    ];
    let rows = 0;
    for (const f of group) {
      const line = findingRow(f);
      if (listed >= max || size + line.length + table.join('\n').length > MAX_BODY_CHARS) break;
      table.push(line);
      rows++;
      listed++;
    }
    if (rows === 0) break;
    lines.push(...table, '');
    size += table.join('\n').length + 1;
  }
  if (listed < fresh.length)
    lines.push(
      `_… ${plural(fresh.length - listed, 'more new finding')} not listed: see the run's summary and reports._`,
      '',
    );
  lines.push(footer(ctx), '');
  return lines.join('\n');
}

// `> 2 pages could not be checked: https://…/a (TIMEOUT), …`: the first five, each with its status or attempts.
function pagesLine(pages: readonly Page[], what: string): string {
  const named = pages.slice(0, 5).map((p) => mdCell(`${pageLabel(p.url)} (${pageStatusText(p)})`));
  return `> ${plural(pages.length, 'page')} ${what}: ${named.join(', ')}${pages.length > 5 ? ', …' : ''}`;
}
