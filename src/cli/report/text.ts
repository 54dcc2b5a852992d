// Human-readable report of a CI check for the terminal and plain CI logs.
import { pageStatusText, checkpointText } from '../verdict/attempts.js';
import type { SeverityCounts } from '../../index.js';
import { visibleText } from '../io/safe-text.js';
import type { PreparedReport } from '../verdict/prepare.js';
import {
  countOf,
  countText,
  IMPACTS,
  impactLabel,
  normalizeImpact,
  pageLabel,
  ruleIdOf,
  targetOf,
  totalOf,
  pageThresholdsText,
} from '../verdict/fields.js';
import { isPageFailure } from '../verdict/threshold.js';
import { batchOfFinding, batchOfPage } from '../verdict/aggregate.js';

/** Options of {@link toText}. */
export interface TextOptions {
  /** Use ANSI colours (the caller decides from the terminal and NO_COLOR); false means no escape code at all. */
  color: boolean;
}

// Four SGR colours are all this needs, so no colour library.
const SGR = { red: 31, green: 32, yellow: 33, bold: 1, dim: 2 } as const;

/**
 * Makes API text safe to print on one terminal line: line breaks and tabs become spaces, every other control
 * character (ESC included, so API data can never inject escape sequences) and invisible format character becomes
 * U+FFFD.
 * @example cleanText('a\nb\u001b[2J') // 'a b\uFFFD[2J'
 */
export function cleanText(value: string): string {
  return visibleText(value).replace(/[\n\t]/g, ' ');
}

function countsLine(counts: SeverityCounts | undefined): string {
  return `${countText(totalOf(counts))} (${IMPACTS.map((i) => `${i} ${countText(countOf(counts, i))}`).join(', ')})`;
}

/**
 * Plain-text report: verdict, threshold, counts (total and new), fixed and unchanged counts, page statuses, the
 * findings new first (rule, impact, WCAG criteria, page, selector, help link), and the check's link in the app.
 * With `color: false` the output holds no ANSI escape code.
 * @example process.stdout.write(toText({ check, violations }, { color: process.stdout.isTTY }));
 */
export function toText(report: PreparedReport, options: TextOptions): string {
  const paint = (code: number, s: string): string => (options.color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const { check, failOn, failOnDefaulted, findings, failures, failedPages, verdict, suppressed, batches } = report;
  const others = pageThresholdsText(report.pageThresholds);
  const out: string[] = [
    `Accessibility check: ${paint(verdict.outcome === 'PASS' ? SGR.green : SGR.red, paint(SGR.bold, verdict.outcome))}`,
    ...verdict.reasons.map((r) => `  ${verdict.outcome === 'UNKNOWN' ? 'not judged: ' : ''}${cleanText(r)}`),
  ];
  // Findings are read only once a check completes: for one that did not, "0 findings break it" would read as a pass.
  const judged =
    check.status === 'COMPLETED' && verdict.outcome !== 'UNKNOWN'
      ? `${failures.length} finding${failures.length === 1 ? '' : 's'} break${failures.length === 1 ? 's' : ''} it`
      : 'not judged';
  out.push(
    `Threshold ${failOn}${failOnDefaulted ? ' (default)' : ''}: ${judged}` +
      (failedPages.length
        ? `; ${failedPages.length} page${failedPages.length === 1 ? '' : 's'} could not be checked`
        : ''),
    ...(others ? [`  ${cleanText(others)}`] : []),
    `Service verdict: ${cleanText(check.verdict ?? 'none')} (status ${cleanText(check.status ?? 'missing')})`,
    `Findings: ${countsLine(check.counts)}`,
    `New:      ${countsLine(check.newCounts)}`,
    `Fixed: ${countText(check.fixedCount)}, unchanged: ${countText(check.unchangedCount)}`,
  );
  if (suppressed.length)
    out.push(
      `Suppressed: ${suppressed.length} finding${suppressed.length === 1 ? '' : 's'} (reviewed suppressions; they do not count toward the threshold)`,
    );
  if (check.baselineMissing)
    out.push('No baseline check was found, so findings were not compared with an earlier check.');
  if (batches.length > 1) {
    out.push('', `Checks (${batches.length}):`);
    for (const b of batches) {
      const outcome = paint(b.verdict.outcome === 'PASS' ? SGR.green : SGR.red, b.verdict.outcome.padEnd(7));
      out.push(
        `  ${outcome}  ${cleanText(b.label)}  ${cleanText(b.status ?? 'n/a')}  ${b.urls.length} pages${b.appUrl ? `  ${cleanText(b.appUrl)}` : ''}`,
      );
    }
  }

  if (report.journeys?.length) {
    out.push('', `Journeys (${report.journeys.length}):`);
    for (const j of report.journeys) {
      const outcome = paint(j.verdict.outcome === 'PASS' ? SGR.green : SGR.red, j.verdict.outcome.padEnd(7));
      const judged = j.baseline
        ? `judged ${j.failOn} against the journey baseline`
        : `judged ${j.failOn} (no journey baseline)`;
      out.push(
        `  ${outcome}  ${cleanText(j.name)}  ${cleanText(j.status ?? 'not run')}  ${j.checkpoints.length} checkpoint${j.checkpoints.length === 1 ? '' : 's'}  ${judged}${j.runs > 1 ? `  (${j.runs} runs)` : ''}`,
      );
    }
  }

  const pages = check.pages ?? [];
  if (pages.length) {
    out.push('', 'Pages:');
    const width = Math.max(...pages.map((p) => pageStatusText(p).length));
    for (const p of pages) {
      const status = pageStatusText(p).padEnd(width);
      const batch = batchOfPage(report, p.url);
      out.push(
        `  ${isPageFailure(p) ? paint(SGR.red, status) : status}  ${cleanText(pageLabel(p.url))}${batch ? `  (${cleanText(batch)})` : ''}`,
      );
    }
  }

  out.push('', findings.length ? `Findings (${findings.length}, new first):` : 'No findings.');
  for (const finding of findings) {
    const { violation: v, breaking, suppression } = finding;
    const impact = normalizeImpact(v.impact);
    const impactText = cleanText(impactLabel(v.impact));
    const tags = [
      breaking ? paint(SGR.red, 'FAIL') : suppression ? paint(SGR.dim, 'suppressed') : paint(SGR.dim, 'info'),
      v.isNew === true ? paint(SGR.bold, 'new') : v.isNew === false ? 'existing' : undefined,
      impact === 'critical'
        ? paint(SGR.red, impactText)
        : impact === 'serious'
          ? paint(SGR.yellow, impactText)
          : impactText,
      cleanText(ruleIdOf(v)),
      v.wcagSc?.length ? `WCAG ${cleanText(v.wcagSc.join(', '))}` : undefined,
    ];
    out.push(`  ${tags.filter((t) => t !== undefined).join('  ')}`);
    out.push(`      page:     ${cleanText(`${pageLabel(v.url)}${checkpointText(v)}`)}`);
    out.push(`      selector: ${cleanText(targetOf(v))}`);
    if (v.helpUrl) out.push(`      help:     ${cleanText(v.helpUrl)}`);
    if (suppression) out.push(`      suppressed until ${suppression.expires}: ${cleanText(suppression.reason)}`);
    const batch = batchOfFinding(report, finding);
    if (batch) out.push(`      batch:    ${cleanText(batch)}`);
  }

  if (check.appUrl) out.push('', `Details: ${cleanText(check.appUrl)}`);
  return `${out.join('\n')}\n`;
}
