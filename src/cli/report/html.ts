// A self-contained HTML report for reviewers: the verdict and why, counts per impact as a chart, new vs existing
// vs suppressed, findings by page and by rule with their help links, the run's CI checks (batches), and how the
// run was configured. One file, no script, no external resource: its Content-Security-Policy allows nothing but
// its own stylesheet (by hash), so it works offline and from any artifact viewer. Built to pass axe-core's
// default rules: landmarks, one h1 and ordered headings, captioned tables with header scopes, text alternatives
// for the chart, contrast of at least 4.5:1, and a skip list whose targets take focus.
import { pageStatusText, checkpointText } from '../verdict/attempts.js';
import { createHash } from 'node:crypto';
import type { CiViolation } from '../../index.js';
import { visibleText } from '../io/safe-text.js';
import type { RouteTable } from '../routes/index.js';
import { type SourceMapEntry, sourceOf } from '../pages/source-location.js';
import { batchOfFinding, batchOfPage } from '../verdict/aggregate.js';
import type { Finding, PreparedReport } from '../verdict/prepare.js';
import {
  compareText,
  IMPACTS,
  impactLabel,
  normalizeImpact,
  pageLabel,
  pageUrls,
  ruleIdOf,
  targetOf,
  pageThresholdsText,
  plural,
} from '../verdict/fields.js';
import { parseUrl } from '../io/parse-url.js';

/** How the run was configured and what its suppressions did (shown in the report). */
export interface HtmlRunInfo {
  /** Label and value pairs, in order (no secrets: file names and settings only). */
  settings: Array<[string, string]>;
  /** Suppression entries past their date (described). */
  expired: string[];
  /** Suppression entries in force that matched nothing (described). */
  stale: string[];
}

/** Options of {@link toHtml}. */
export interface HtmlOptions {
  /** Version of the CLI, shown in the footer. */
  toolVersion: string;
  /** The run's configuration and suppression notes. */
  run?: HtmlRunInfo | undefined;
  /**
   * URL path prefix → source file (`--source-map`): each page names the file that renders it, as SARIF locates it.
   * @default []
   */
  sourceMap?: readonly SourceMapEntry[] | undefined;
  /**
   * The route table of `--source-map auto`, for pages no `sourceMap` entry covers.
   * @default undefined (no inference)
   */
  routes?: RouteTable | undefined;
}

// Every character that could end an element, an attribute or a character reference.
const esc = (s: string): string =>
  visibleText(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

// Links only to absolute http(s) URLs (never `javascript:` from API data); anything else is text.
function link(text: string, url: string | undefined): string {
  const parsed = url && url.length <= 2048 ? parseUrl(url) : undefined;
  if (!parsed || !/^https?:$/.test(parsed.protocol)) return esc(text);
  return `<a href="${esc(parsed.href)}" rel="noopener noreferrer">${esc(text)}</a>`;
}

// Colours: text and badges meet WCAG AA contrast (4.5:1) on white; bars are decoration beside the numbers.
const STYLE = `
:root{color-scheme:light}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
header,main,footer{max-width:72rem;margin:0 auto;padding:0 1rem}
header{padding-top:1rem}
a{color:#0b57d0}
a:focus,summary:focus,[tabindex="-1"]:focus{outline:3px solid #0b57d0;outline-offset:2px}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;list-style:none}
h1{font-size:1.6rem;margin:.5rem 0}
h2{font-size:1.3rem;margin-top:2rem;border-bottom:1px solid #767676}
h3{font-size:1.05rem;margin:0;display:inline}
.badge{display:inline-block;padding:.1rem .6rem;border-radius:.3rem;color:#fff;font-weight:700}
.PASS{background:#146c2e}.FAIL{background:#b3261e}.UNKNOWN{background:#5f4b00}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border:1px solid #949494;padding:.3rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f2f2f2}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.bar rect.t{fill:#5c5c5c}.bar rect.new{fill:#b3261e}.bar rect.sup{fill:#9aa0a6}
details{margin:.5rem 0;border:1px solid #c4c4c4;border-radius:.3rem;padding:.25rem .75rem}
summary{cursor:pointer;padding:.25rem 0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
footer{margin:2rem auto;color:#4d4d4d;font-size:.9rem}
`;

const SECTIONS = [
  ['verdict', 'Verdict'],
  ['impacts', 'Findings by impact'],
  ['pages', 'Findings by page'],
  ['rules', 'Findings by rule'],
  ['batches', 'CI checks'],
  ['suppressions', 'Suppressions'],
  ['configuration', 'Configuration'],
] as const;

function section(id: string, title: string, body: string): string {
  // tabindex -1 on the heading: following a skip link moves the keyboard focus there, not only the scroll.
  return `<section aria-labelledby="${id}"><h2 id="${id}" tabindex="-1">${esc(title)}</h2>\n${body}\n</section>`;
}

function state(f: Finding): string {
  if (f.suppression) return `suppressed until ${esc(f.suppression.expires)}: ${esc(f.suppression.reason)}`;
  return f.breaking ? `<strong>fails</strong> ${esc(f.failOn)}` : 'does not fail';
}

const age = (v: CiViolation) => (v.isNew === true ? 'new' : v.isNew === false ? 'existing' : 'unknown');

function verdictSection(report: PreparedReport): string {
  const { verdict, check, failOn, failOnDefaulted, findings, failures, suppressed, failedPages } = report;
  const newCount = findings.filter((f) => f.violation.isNew === true).length;
  const others = pageThresholdsText(report.pageThresholds);
  return section(
    'verdict',
    'Verdict',
    [
      `<p><span class="badge ${verdict.outcome}">${verdict.outcome}</span> exit code ${verdict.exitCode}</p>`,
      `<ul>${verdict.reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>`,
      '<table><caption>Summary</caption><tbody>',
      `<tr><th scope="row">Threshold</th><td>${esc(failOn)}${failOnDefaulted ? ' (default)' : ''}${others ? `; ${esc(others)}` : ''}</td></tr>`,
      `<tr><th scope="row">Service verdict</th><td>${esc(check.verdict ?? 'none')} (status ${esc(check.status ?? 'missing')})</td></tr>`,
      `<tr><th scope="row">Findings</th><td>${findings.length}: ${newCount} new, ${findings.filter((f) => f.violation.isNew === false).length} existing</td></tr>`,
      `<tr><th scope="row">Break the threshold</th><td>${failures.length}</td></tr>`,
      `<tr><th scope="row">Suppressed</th><td>${suppressed.length}</td></tr>`,
      `<tr><th scope="row">Pages not checked</th><td>${failedPages.length}</td></tr>`,
      '</tbody></table>',
    ].join('\n'),
  );
}

function impactsSection(report: PreparedReport): string {
  const rows = [...IMPACTS, undefined].map((impact) => {
    const of = report.findings.filter((f) => normalizeImpact(f.violation.impact) === impact);
    return {
      label: impact ?? 'unknown',
      total: of.length,
      fresh: of.filter((f) => f.violation.isNew === true && !f.suppression).length,
      suppressed: of.filter((f) => f.suppression).length,
    };
  });
  const max = Math.max(1, ...rows.map((r) => r.total));
  const width = 240;
  const bar = (r: (typeof rows)[number]) => {
    const w = (n: number) => Math.round((n / max) * width);
    // The numbers are in the row's cells; the bar repeats them as a picture, so it is hidden from screen readers.
    return `<svg class="bar" width="${width}" height="16" aria-hidden="true" focusable="false"><rect class="t" x="0" y="3" width="${w(r.total)}" height="10"/><rect class="new" x="0" y="3" width="${w(r.fresh)}" height="10"/><rect class="sup" x="${w(r.total - r.suppressed)}" y="3" width="${w(r.suppressed)}" height="10"/></svg>`;
  };
  return section(
    'impacts',
    'Findings by impact',
    [
      '<table><caption>Findings per impact: new (red bar), existing, and suppressed (light bar)</caption>',
      '<thead><tr><th scope="col">Impact</th><th scope="col">Findings</th><th scope="col">New, not suppressed</th><th scope="col">Suppressed</th><th scope="col">Chart</th></tr></thead><tbody>',
      ...rows.map(
        (r) =>
          `<tr><th scope="row">${esc(r.label)}</th><td class="n">${r.total}</td><td class="n">${r.fresh}</td><td class="n">${r.suppressed}</td><td>${bar(r)}</td></tr>`,
      ),
      '</tbody></table>',
    ].join('\n'),
  );
}

function findingsTable(caption: string, findings: Finding[], columns: 'page' | 'rule', report: PreparedReport): string {
  const head =
    columns === 'page'
      ? ['Rule', 'Impact', 'Age', 'Outcome', 'Selector', 'Help']
      : ['Page', 'Impact', 'Age', 'Outcome', 'Selector', 'Batch'];
  const rows = findings.map((f) => {
    const v = f.violation;
    const first = columns === 'page' ? esc(ruleIdOf(v)) : `${link(pageLabel(v.url), v.url)}${esc(checkpointText(v))}`;
    const last =
      columns === 'page'
        ? v.helpUrl
          ? link('how to fix', v.helpUrl)
          : 'none'
        : esc(batchOfFinding(report, f) ?? 'the check');
    return `<tr><th scope="row">${first}</th><td>${esc(impactLabel(v.impact))}</td><td>${age(v)}</td><td>${state(f)}</td><td><code>${esc(targetOf(v))}</code></td><td>${last}</td></tr>`;
  });
  return [
    `<table><caption>${esc(caption)}</caption><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead><tbody>`,
    ...rows,
    '</tbody></table>',
  ].join('\n');
}

// The source file that renders a page, as SARIF points at it, or nothing when no map entry or route covers it.
function renderedBy(url: string, options: HtmlOptions): string {
  const source = sourceOf(url, options.sourceMap ?? [], options.routes);
  if (!source) return '';
  const route = source.route ? ` (route <code>${esc(source.route)}</code>)` : '';
  return ` · rendered by <code>${esc(`${source.file}:${source.line}`)}</code>${route}`;
}

function pagesSection(report: PreparedReport, options: HtmlOptions): string {
  const statusOf = new Map((report.check.pages ?? []).map((p) => [pageLabel(p.url), pageStatusText(p)]));
  const byPage = new Map<string, Finding[]>(pageUrls(report).map((u) => [u, []]));
  for (const f of report.findings) byPage.get(pageLabel(f.violation.url))?.push(f);
  const blocks = [...byPage].map(([url, findings], i) => {
    const batch = batchOfPage(report, url);
    const failing = findings.filter((f) => f.breaking).length;
    const summary = `<h3>${esc(url)}</h3> — ${esc(statusOf.get(url) ?? 'not listed')}, ${plural(findings.length, 'finding')}, ${failing} failing${batch ? `, batch ${esc(batch)}` : ''}`;
    const body = findings.length
      ? findingsTable(`Findings on page ${i + 1}`, findings, 'page', report)
      : '<p>No findings.</p>';
    return `<details${failing ? ' open' : ''}><summary>${summary}</summary>\n<p>${link('Open the page', url)}${renderedBy(url, options)}</p>\n${body}</details>`;
  });
  return section('pages', 'Findings by page', blocks.length ? blocks.join('\n') : '<p>No pages were reported.</p>');
}

function rulesSection(report: PreparedReport): string {
  const byRule = new Map<string, Finding[]>();
  for (const f of report.findings) byRule.get(ruleIdOf(f.violation))?.push(f) ?? byRule.set(ruleIdOf(f.violation), [f]);
  const blocks = [...byRule.keys()].sort(compareText).map((rule) => {
    const findings = byRule.get(rule)!;
    const help = findings.map((f) => f.violation.helpUrl).find((u) => u && /^https?:/i.test(u));
    const wcag = [...new Set(findings.flatMap((f) => f.violation.wcagSc ?? []))].sort(compareText);
    const failing = findings.filter((f) => f.breaking).length;
    const summary = `<h3>${esc(rule)}</h3> — ${plural(findings.length, 'finding')}, ${failing} failing${wcag.length ? `, WCAG ${esc(wcag.join(', '))}` : ''}`;
    return `<details${failing ? ' open' : ''}><summary>${summary}</summary>\n<p>${help ? link(`How to fix ${rule}`, help) : 'No help link was reported.'}</p>\n${findingsTable(`Findings of rule ${rule}`, findings, 'rule', report)}</details>`;
  });
  return section('rules', 'Findings by rule', blocks.length ? blocks.join('\n') : '<p>No findings.</p>');
}

function batchesSection(report: PreparedReport): string {
  const rows = report.batches.map(
    (b) =>
      `<tr><th scope="row">${esc(b.label)}</th><td>${b.appUrl ? link(b.checkId ?? 'check', b.appUrl) : esc(b.checkId ?? 'none')}</td><td>${esc(b.status ?? 'n/a')}</td><td>${esc(b.serviceVerdict ?? 'none')}</td><td><span class="badge ${b.verdict.outcome}">${b.verdict.outcome}</span></td><td class="n">${b.urls.length}</td><td class="n">${b.failures}</td><td class="n">${b.suppressed}</td></tr>`,
  );
  return section(
    'batches',
    'CI checks',
    [
      `<p>${plural(report.batches.length, 'CI check')} (at most 20 pages of one site each).</p>`,
      '<table><caption>CI checks of this run</caption><thead><tr><th scope="col">Batch</th><th scope="col">Check</th><th scope="col">Status</th><th scope="col">Service verdict</th><th scope="col">Gate</th><th scope="col">Pages</th><th scope="col">Failing</th><th scope="col">Suppressed</th></tr></thead><tbody>',
      ...rows,
      '</tbody></table>',
    ].join('\n'),
  );
}

function suppressionsSection(report: PreparedReport, run: HtmlRunInfo | undefined): string {
  const list = (items: string[], none: string) =>
    items.length ? `<ul>${items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>` : `<p>${none}</p>`;
  const reasons = new Map<string, number>();
  for (const f of report.suppressed)
    reasons.set(
      `${f.suppression!.reason} (until ${f.suppression!.expires})`,
      (reasons.get(`${f.suppression!.reason} (until ${f.suppression!.expires})`) ?? 0) + 1,
    );
  return section(
    'suppressions',
    'Suppressions',
    [
      `<p>${plural(report.suppressed.length, 'finding')} suppressed; they do not count toward the threshold.</p>`,
      list(
        [...reasons].map(([r, n]) => `${n} × ${r}`),
        'No finding was suppressed.',
      ),
      '<h3>Expired entries</h3>',
      list(run?.expired ?? [], 'None.'),
      '<h3>Stale entries (matched no finding)</h3>',
      list(run?.stale ?? [], 'None.'),
    ].join('\n'),
  );
}

function configurationSection(run: HtmlRunInfo | undefined): string {
  const settings = run?.settings ?? [];
  return section(
    'configuration',
    'Configuration',
    settings.length
      ? `<dl>${settings.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`
      : '<p>Not recorded.</p>',
  );
}

/**
 * The HTML report: one self-contained document (no script, no external resource; a Content-Security-Policy that
 * allows only its own stylesheet). Findings are grouped by page (pages with failing findings open) and by rule,
 * with help links, the run's CI checks and its configuration.
 * @example await writeFile('a11y.html', toHtml(prepareReport({ check, violations }), { toolVersion: '0.1.0' }));
 */
export function toHtml(report: PreparedReport, options: HtmlOptions): string {
  const styleHash = createHash('sha256').update(STYLE).digest('base64');
  const csp = `default-src 'none'; style-src 'sha256-${styleHash}'; img-src 'none'; form-action 'none'; base-uri 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Accessibility check: ${report.verdict.outcome}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1 id="top" tabindex="-1">Accessibility check: <span class="badge ${report.verdict.outcome}">${report.verdict.outcome}</span></h1>
<nav aria-label="Sections"><ul>${SECTIONS.map(([id, title]) => `<li><a href="#${id}">${title}</a></li>`).join('')}</ul></nav>
</header>
<main>
${verdictSection(report)}
${impactsSection(report)}
${pagesSection(report, options)}
${rulesSection(report)}
${batchesSection(report)}
${suppressionsSection(report, options.run)}
${configurationSection(options.run)}
</main>
<footer><p>svc-a11y ${esc(options.toolVersion)}. This file makes no network request; links open the pages and help in your browser. <a href="#top">Back to the top</a></p></footer>
</body>
</html>
`;
}
