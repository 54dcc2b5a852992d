// GitHub job summary ($GITHUB_STEP_SUMMARY) of a CI check: counts, pages, then findings as a table.
import { pageStatusText, checkpointText } from '../verdict/attempts.js';
import type { SeverityCounts } from '../../index.js';
import { visibleText, withoutUrlCredentials } from '../io/safe-text.js';
import type { PreparedReport } from '../verdict/prepare.js';
import {
  countOf,
  countText,
  IMPACTS,
  impactLabel,
  pageLabel,
  pageThresholdsText,
  ruleIdOf,
  targetOf,
  totalOf,
} from '../verdict/fields.js';
import { batchOfFinding, batchOfPage } from '../verdict/aggregate.js';
import { parseUrl } from '../io/parse-url.js';

/** Options of {@link toMarkdown}. */
export interface MarkdownOptions {
  /**
   * Maximum size of the summary in UTF-8 bytes; the findings table is cut to fit. GitHub rejects a step summary
   * over 1 MiB, so the default leaves room for other steps' output.
   * @default 1_000_000
   */
  maxBytes?: number;
}

// A cell longer than this is clipped, so one huge selector cannot push every other finding out of the summary.
const MAX_CELL_CHARS = 300;
const utf8 = new TextEncoder();
const bytesOf = (s: string): number => utf8.encode(s).length;

// A zero-width space, as a character reference (the text itself holds no invisible character): placed after `@`,
// after `#` and `GH` before a number, and every 6 characters of a word that could be a commit hash (no piece is
// long enough to be read as one), it stops GitHub from making a mention, an issue reference or a commit link of
// text the pull request controls, and reads the same to a human.
const ZWSP = '&#8203;';

/**
 * Markdown-escapes text for a table cell: backslash before the characters that start markup (GFM lets any ASCII
 * punctuation be escaped, and `\|` is how a table cell holds a pipe), line breaks as `<br>`, controls as U+FFFD.
 * Text never forms an `@` mention, a `#123` / `GH-123` reference or a commit link on GitHub, nor a `!123` or `$123`
 * reference on GitLab: a zero-width space breaks each (`@team` reads the same, and notifies nobody).
 * @example mdCell('a|b\nc') // 'a\\|b<br>c'
 * @example mdCell('@acme/team') // '@&#8203;acme/team'
 */
export function mdCell(text: string): string {
  // Before clipping: a clipped URL may lose the `@` that the output's redaction looks for.
  const value = withoutUrlCredentials(text);
  const chars = Array.from(value);
  const clipped = chars.length > MAX_CELL_CHARS ? `${chars.slice(0, MAX_CELL_CHARS).join('')}…` : value;
  return (
    visibleText(clipped)
      .replace(/[\\`*_[\]<>|~&]/g, '\\$&')
      .replace(/\r\n|\r|\n/g, '<br>')
      // `#` first: the references inserted after it hold a `#` followed by digits themselves.
      .replace(/#(?=\p{N})/gu, `#${ZWSP}`)
      .replace(/@(?=[\p{L}\p{N}_-])/gu, `@${ZWSP}`)
      // GitLab's merge request (`!123`) and snippet (`$123`) references.
      .replace(/([!$])(?=\p{N})/gu, `$1${ZWSP}`)
      .replace(/\b(GH)-(?=\p{N})/giu, `$1${ZWSP}-`)
      .replace(/\b[0-9a-f]{7,40}\b/gi, (hash) => hash.replace(/[0-9a-f]{6}(?=.)/gi, `$&${ZWSP}`))
  );
}

// A link only for an absolute http(s) URL, with the characters that would end the destination or split the table
// cell percent-encoded; anything else is shown as text, never as a link.
function mdLink(text: string, url: string | undefined): string {
  const parsed = url ? parseUrl(url) : undefined;
  if (!url || !parsed) return url ? mdCell(url) : '';
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return mdCell(url);
  // encodeURIComponent leaves parentheses alone, so the escapes are spelled out.
  const href = parsed.href.replace(/[()|<> ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `[${mdCell(text)}](${href})`;
}

const row = (cells: string[]): string => `| ${cells.join(' | ')} |`;

function countsTable(counts: SeverityCounts | undefined, newCounts: SeverityCounts | undefined): string[] {
  return [
    row(['Impact', 'Total', 'New']),
    row(['---', '---:', '---:']),
    ...IMPACTS.map((i) => row([i, countText(countOf(counts, i)), countText(countOf(newCounts, i))])),
    row(['**all**', countText(totalOf(counts)), countText(totalOf(newCounts))]),
  ];
}

// Cuts a string to at most `max` UTF-8 bytes without splitting a character (only hit when the part before the
// findings alone exceeds the limit).
function clipBytes(s: string, max: number): string {
  let bytes = 0;
  let out = '';
  for (const ch of s) {
    bytes += bytesOf(ch);
    if (bytes > max) break;
    out += ch;
  }
  return out;
}

/**
 * Markdown job summary of a CI check: verdict heading, counts (total and new), fixed and unchanged counts, a note
 * when no baseline existed, a table of pages, then the findings (new first) with impact, rule, WCAG criteria, page,
 * selector and help link. The findings table is cut to stay within `maxBytes` UTF-8 bytes, with a closing line
 * "… N more findings not shown".
 * @default options.maxBytes 1_000_000
 * @example await appendFile(process.env.GITHUB_STEP_SUMMARY!, toMarkdown(prepareReport({ check, violations }, { secrets: [apiKey] })));
 */
export function toMarkdown(report: PreparedReport, options: MarkdownOptions = {}): string {
  const maxBytes = options.maxBytes ?? 1_000_000;
  const { check, failOn, failOnDefaulted, findings, failures, failedPages, verdict, suppressed, batches } = report;
  const several = batches.length > 1;
  const others = pageThresholdsText(report.pageThresholds);

  const head: string[] = [`## Accessibility check: ${verdict.outcome}`, ''];
  const why = verdict.outcome === 'UNKNOWN' ? 'Not judged' : verdict.outcome === 'FAIL' ? 'Failed' : 'Passed';
  head.push(...verdict.reasons.map((r) => `- ${why}: ${mdCell(r)}`), '');
  head.push(
    `Service verdict: ${mdCell(check.verdict ?? 'none')} (status ${mdCell(check.status ?? 'missing')}). ` +
      (check.status === 'COMPLETED' && verdict.outcome !== 'UNKNOWN'
        ? `${failures.length} finding${failures.length === 1 ? '' : 's'} break${failures.length === 1 ? 's' : ''} the threshold `
        : 'Threshold ') +
      `${failOn}${failOnDefaulted ? ' (default)' : ''}` +
      (failedPages.length
        ? `; ${failedPages.length} page${failedPages.length === 1 ? '' : 's'} could not be checked.`
        : '.') +
      (others ? ` Pages judged by ${mdCell(others)}.` : ''),
    '',
    ...countsTable(check.counts, check.newCounts),
    '',
    `Fixed since the baseline: ${countText(check.fixedCount)} · Unchanged: ${countText(check.unchangedCount)}`,
    '',
  );
  if (suppressed.length)
    head.push(
      `Suppressed: ${suppressed.length} finding${suppressed.length === 1 ? '' : 's'} (reviewed suppressions; they do not count toward the threshold).`,
      '',
    );
  if (check.baselineMissing) {
    head.push('> No baseline check was found, so findings were not compared with an earlier check.', '');
  }
  if (several) {
    head.push(
      `### Checks (${batches.length})`,
      '',
      row(['Batch', 'Gate', 'Status', 'Pages', 'Failing', 'Suppressed', 'Check']),
      row(['---', '---', '---', '---:', '---:', '---:', '---']),
    );
    for (const b of batches) {
      head.push(
        row([
          mdCell(b.label),
          b.verdict.outcome,
          mdCell(b.status ?? 'n/a'),
          String(b.urls.length),
          String(b.failures),
          String(b.suppressed),
          b.appUrl ? mdLink(b.checkId ?? 'check', b.appUrl) : mdCell(b.checkId ?? 'none'),
        ]),
      );
    }
    head.push('', '### Pages', '');
  } else {
    const links = [
      `Check ${mdCell(check.id ?? 'unknown')}`,
      ...(check.appUrl ? [mdLink('Open in the app', check.appUrl)] : []),
    ];
    head.push(links.join(' · '), '', '### Pages', '');
  }
  const pages = check.pages ?? [];
  if (pages.length === 0) head.push('No pages were reported.', '');
  else {
    head.push(
      row(['Page', 'Status', ...IMPACTS, ...(several ? ['Batch'] : [])]),
      row(['---', '---', '---:', '---:', '---:', '---:', ...(several ? ['---'] : [])]),
    );
    for (const p of pages) {
      const batch = several ? [mdCell(batchOfPage(report, p.url) ?? 'n/a')] : [];
      head.push(
        row([
          mdLink(pageLabel(p.url), p.url) || mdCell(pageLabel(p.url)),
          mdCell(pageStatusText(p)),
          ...IMPACTS.map((i) => countText(countOf(p.counts, i))),
          ...batch,
        ]),
      );
    }
    head.push('');
  }
  head.push(`### Findings (${findings.length}, new first)`, '');

  if (findings.length === 0) return clipBytes([...head, 'No findings.', ''].join('\n'), maxBytes);

  const lines = [
    ...head,
    row(['Fails', 'New', 'Impact', 'Rule', 'WCAG', 'Page', 'Selector', 'Help', ...(several ? ['Batch'] : [])]),
    row(Array(several ? 9 : 8).fill('---')),
  ];
  let used = bytesOf(lines.join('\n')) + 1;
  // Room for the closing note with the largest possible count.
  const noteFor = (n: number): string => `\n_… ${n} more findings not shown (size limit of the summary)._\n`;
  const reserve = bytesOf(noteFor(findings.length));
  let shown = 0;
  for (const finding of findings) {
    const { violation: v, breaking, suppression } = finding;
    const line = row([
      breaking
        ? '**yes**'
        : suppression
          ? `suppressed: ${mdCell(suppression.reason)} (until ${mdCell(suppression.expires)})`
          : 'no',
      v.isNew === true ? 'new' : v.isNew === false ? 'no' : 'n/a',
      mdCell(impactLabel(v.impact)),
      mdCell(ruleIdOf(v)),
      mdCell(v.wcagSc?.join(', ') || 'n/a'),
      (mdLink(pageLabel(v.url), v.url) || mdCell(pageLabel(v.url))) + mdCell(checkpointText(v)),
      mdCell(targetOf(v)),
      mdLink('help', v.helpUrl),
      ...(several ? [mdCell(batchOfFinding(report, finding) ?? 'n/a')] : []),
    ]);
    const size = bytesOf(line) + 1;
    if (used + size + reserve > maxBytes) break;
    lines.push(line);
    used += size;
    shown++;
  }
  const hidden = findings.length - shown;
  return clipBytes(lines.join('\n') + (hidden > 0 ? `\n${noteFor(hidden)}` : '\n'), maxBytes);
}
