// JUnit XML for CI test-report viewers (GitLab, Jenkins, Azure DevOps, GitHub test-report actions).
import type { CiViolation } from '../../index.js';
import { classify } from './findings.js';
import { type CiReport, impactLabel, pageLabel, pageUrls, ruleIdOf, targetOf } from './report.js';

// Escaping by hand rather than with an XML library: the runtime may import only local files, and XML 1.0 needs only
// five entities plus the removal of the characters it cannot carry at all (most C0 controls, lone surrogates,
// U+FFFE/U+FFFF), which become U+FFFD so a parser never rejects the whole report.
const NOT_XML_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function xmlText(s: string): string {
  // `>` too, so `]]>` never appears; `\r` as a reference, or parsers would normalise it away.
  return s
    .replace(NOT_XML_CHAR, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

function xmlAttr(s: string): string {
  // Tabs and newlines as references: attribute-value normalisation would turn them into spaces.
  return xmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

interface Problem {
  kind: 'failure' | 'error';
  type: string;
  message: string;
  body: string;
}

interface TestCase {
  name: string;
  classname: string;
  problem?: Problem;
}

/** Name of the testcase that reports a page which could not be checked. */
export const PAGE_STATUS_TESTCASE = 'page status';

/** Name of the suite that reports problems of the check as a whole (it did not complete, or an unexplained FAIL). */
export const CHECK_SUITE = 'svc-a11y check';

function failureOf(v: CiViolation): Problem {
  const impact = impactLabel(v.impact);
  const age = v.isNew === true ? 'New ' : v.isNew === false ? 'Existing ' : '';
  const lines = [
    `Rule: ${ruleIdOf(v)}`,
    `Impact: ${impact}`,
    `WCAG: ${v.wcagSc?.length ? v.wcagSc.join(', ') : 'n/a'}`,
    `Page: ${pageLabel(v.url)}`,
    `Selector: ${targetOf(v)}`,
    ...(v.helpUrl ? [`Help: ${v.helpUrl}`] : []),
    ...(v.failureSummary ? [`Summary: ${v.failureSummary}`] : []),
    ...(v.fingerprint ? [`Fingerprint: ${v.fingerprint}`] : []),
    `New: ${v.isNew === undefined ? 'unknown' : String(v.isNew)}`,
  ];
  return {
    kind: 'failure',
    type: impact,
    message: `${age}${impact} accessibility finding ${ruleIdOf(v)} at ${targetOf(v)}`,
    body: lines.join('\n'),
  };
}

function renderCase(c: TestCase): string {
  const open = `    <testcase name="${xmlAttr(c.name)}" classname="${xmlAttr(c.classname)}"`;
  if (!c.problem) return `${open}/>`;
  const p = c.problem;
  return [
    `${open}>`,
    `      <${p.kind} type="${xmlAttr(p.type)}" message="${xmlAttr(p.message)}">${xmlText(p.body)}</${p.kind}>`,
    '    </testcase>',
  ].join('\n');
}

function tally(cases: TestCase[]): string {
  const failures = cases.filter((c) => c.problem?.kind === 'failure').length;
  const errors = cases.filter((c) => c.problem?.kind === 'error').length;
  return `tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="0"`;
}

/**
 * JUnit XML of a CI check: one `<testsuite>` per page URL (the check's pages, then URLs seen only in findings),
 * one `<testcase>` per finding named `"<ruleId> <selector>"` with the page URL as classname. Findings that break
 * the threshold carry a `<failure>`; the others pass. A page that could not be checked gets an `<error>` testcase
 * named `page status`, and a check that did not complete gets an `<error>` in the `svc-a11y check` suite, so a
 * check that could not run never looks green. A name repeated within a page gets a ` (2)`, ` (3)` … suffix.
 * @example await writeFile('a11y-junit.xml', toJUnit({ check, violations }));
 */
export function toJUnit(report: CiReport): string {
  const { check } = report;
  const { findings, failures, failedPages } = classify(report);
  const suites = new Map<string, TestCase[]>(pageUrls(report).map((url) => [url, []]));
  const casesOf = (url: string): TestCase[] => {
    const cases = suites.get(url) ?? [];
    suites.set(url, cases);
    return cases;
  };

  for (const page of failedPages) {
    const url = pageLabel(page.url);
    casesOf(url).push({
      name: PAGE_STATUS_TESTCASE,
      classname: url,
      problem: {
        kind: 'error',
        type: page.status ?? 'ERROR',
        message: `Page could not be checked: ${page.status}`,
        body: `Page: ${url}\nStatus: ${page.status}`,
      },
    });
  }

  // Names already used per page (a Set: a page may hold thousands of findings).
  const used = new Map<string, Set<string>>();
  for (const { violation: v, breaking } of findings) {
    const url = pageLabel(v.url);
    const names = used.get(url) ?? new Set([PAGE_STATUS_TESTCASE]);
    used.set(url, names);
    const base = `${ruleIdOf(v)} ${targetOf(v)}`;
    let name = base;
    for (let n = 2; names.has(name); n++) name = `${base} (${n})`;
    names.add(name);
    casesOf(url).push({ name, classname: url, ...(breaking ? { problem: failureOf(v) } : {}) });
  }

  // Problems of the check as a whole, so JUnit is never green when the check is not.
  const checkCases: TestCase[] = [];
  if (check.status !== 'COMPLETED') {
    checkCases.push({
      name: 'check status',
      classname: 'svc-a11y',
      problem: {
        kind: 'error',
        type: check.status ?? 'UNKNOWN',
        message: `Check did not complete: ${check.status}${check.failureReason ? ` (${check.failureReason})` : ''}`,
        body: [`Check: ${check.id}`, `Status: ${check.status}`, ...(check.failureReason ? [`Reason: ${check.failureReason}`] : [])].join('\n'),
      },
    });
  } else if (check.verdict === 'FAIL' && failures.length === 0 && failedPages.length === 0) {
    // The service failed the check for a reason no finding here explains (e.g. a threshold this version
    // does not know): report its verdict rather than a green run.
    checkCases.push({
      name: 'verdict',
      classname: 'svc-a11y',
      problem: { kind: 'failure', type: 'verdict', message: 'The service reported the verdict FAIL', body: `Check: ${check.id}\nVerdict: FAIL` },
    });
  }
  if (checkCases.length > 0) suites.set(CHECK_SUITE, checkCases);

  const all = [...suites.values()].flat();
  const body = [...suites].map(([name, cases]) =>
    cases.length === 0
      ? `  <testsuite name="${xmlAttr(name)}" ${tally(cases)}/>`
      : [`  <testsuite name="${xmlAttr(name)}" ${tally(cases)}>`, ...cases.map(renderCase), '  </testsuite>'].join('\n'),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="svc-a11y" ${tally(all)}>`,
    ...body,
    '</testsuites>',
    '',
  ].join('\n');
}
