// GitHub Actions workflow commands that annotate the run: one `::error` per finding that breaks the threshold and
// one `::warning` per page that could not be checked. GitHub shows at most 10 annotations of each type per step.
import type { CiViolation } from '../../index.js';
import type { PreparedReport } from './prepare.js';
import { visibleText } from '../safe-text.js';
import { impactLabel, pageLabel, ruleIdOf, targetOf } from './report.js';

/** Options of {@link toGitHubAnnotations}. */
export interface AnnotationOptions {
  /**
   * Maximum number of `::error` and `::warning` lines together; the rest is summed up in one `::notice`.
   * @default 10
   */
  max?: number;
}

/**
 * Escapes the message of a workflow command, as the Actions runner unescapes it (`%`, CR, LF); without this a
 * newline in API data could start a command of its own.
 * @example escapeData('50%\nok') // '50%25%0Aok'
 */
export function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * Escapes a property (`title=…`) of a workflow command: like {@link escapeData}, plus `:` and `,`, which end a
 * property.
 * @example escapeProperty('a:b,c') // 'a%3Ab%2Cc'
 */
export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

// Control characters other than line breaks (which the escaping covers) would reach the log viewer raw, where an
// ESC could restyle the log, and invisible ones could hide a command from a reader; they become U+FFFD before
// escaping (the report was made safe already: this is the second line).
function clean(value: string): string {
  return visibleText(value);
}

function command(kind: 'error' | 'warning', title: string, message: string): string {
  return `::${kind} title=${escapeProperty(clean(title))}::${escapeData(clean(message))}`;
}

function findingLine(v: CiViolation): string {
  const impact = impactLabel(v.impact);
  const title = `${v.isNew === true ? 'New ' : ''}${impact} accessibility finding: ${ruleIdOf(v)}`;
  const parts = [
    `${ruleIdOf(v)} at ${targetOf(v)} on ${pageLabel(v.url)}`,
    ...(v.wcagSc?.length ? [`WCAG ${v.wcagSc.join(', ')}`] : []),
    ...(v.failureSummary ? [v.failureSummary] : []),
    ...(v.helpUrl ? [`Help: ${v.helpUrl}`] : []),
  ];
  return command('error', title, parts.join('\n'));
}

/**
 * Workflow command lines for GitHub Actions (each printed as one line of output): an `::error` with the reasons when
 * the check cannot be judged, a `::warning` per page that
 * could not be checked (first, as they are few and mean the check is incomplete), then an `::error` per finding
 * that breaks the threshold (new first), at most `max` lines in all, then `::notice::N more …` when some were left
 * out.
 * @default options.max 10
 * @example for (const line of toGitHubAnnotations(prepareReport({ check, violations }))) console.log(line);
 */
export function toGitHubAnnotations(report: PreparedReport, options: AnnotationOptions = {}): string[] {
  const max = Math.max(0, Math.floor(options.max ?? 10));
  const { failures, failedPages, verdict } = report;
  // A check that cannot be judged says why first: it is the one line that explains the failed step.
  const unjudged = verdict.outcome === 'UNKNOWN' ? [command('error', 'Accessibility check could not be judged', verdict.reasons.join('\n'))] : [];
  const lines = [
    ...unjudged,
    ...failedPages.map((p) => command('warning', 'Page could not be checked', `${pageLabel(p.url)} (status ${p.status})`)),
    ...failures.map(findingLine),
  ];
  if (lines.length <= max) return lines;
  const hidden = lines.length - max;
  const hiddenPages = Math.max(0, unjudged.length + failedPages.length - max);
  const hiddenFindings = hidden - hiddenPages;
  const detail = [
    ...(hiddenFindings ? [`${hiddenFindings} failing finding${hiddenFindings === 1 ? '' : 's'}`] : []),
    ...(hiddenPages ? [`${hiddenPages} unchecked page${hiddenPages === 1 ? '' : 's'}`] : []),
  ].join(' and ');
  return [...lines.slice(0, max), `::notice::${escapeData(`${hidden} more annotations not shown (${detail}); see the job summary or the reports.`)}`];
}
