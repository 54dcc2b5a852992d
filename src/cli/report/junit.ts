// JUnit XML for CI test-report viewers (GitLab, Jenkins, Azure DevOps, GitHub test-report actions).
//
// Valid against Jenkins' `junit-10.xsd` (jenkinsci/xunit-plugin, shipped as test/fixtures/junit-10.xsd and
// checked with xmllint in the tests). That schema puts only `name`, `time`, `tests`, `failures` and `errors` on
// `<testsuites>` (no `skipped`), requires `name`, `tests`, `failures` and `errors` on every `<testsuite>`, and `name`
// on every `<testcase>`; `time` must match its SUREFIRE_TIME pattern (digits, at most 3 decimals: "0" is fine).
// `timestamp`, `hostname`, `id` and `package` are optional there and written by nothing here: the API gives no time
// and no host for a check or a page (see below), and a local hostname would describe the CI machine, not the service
// that checked the pages.
//
// What the consumers read (so the report is shaped for them):
// - GitLab (lib/gitlab/ci/parsers/test/junit.rb): every `testcase` under `testsuites>testsuite` (nested suites
//   too); shows `classname` as the "Suite" column and `name` as the name, `file` as a link (not written: the XSD
//   has no `file` on testcase, and a page is no repository file) and `time` as the duration; the status comes from
//   the first child among `failure` (failed), `error` (error), `skipped` (skipped), else success, with the
//   element's text as details. Suite attributes and the counts are not shown; a repeated classname+name is dropped.
// - Azure DevOps (PublishTestResults@2, testResultsFormat JUnit; the agent's JUnitResultReader): per testsuite
//   `name` (the run title when there is one suite), `hostname`, `timestamp` and `time`; per testcase `name` (title
//   and automated test name — a case with an empty name is dropped), `classname` (test storage) and `time`;
//   `failure` or `error` → Failed with `message` as the error message and the text as the stack trace, `skipped`
//   → Not executed, else Passed. It counts outcomes from the testcases, not from `tests`/`failures`/`errors`.
// - Jenkins (junit plugin): suite `name`/`time`/`timestamp`, case `classname` (split at its last `.` into
//   package and class)/`name`/`time` and the `failure`/`error`/`skipped` children.
//
// Times: the API reports no start, end or duration for a check, a page or a finding (CiCheck, Page and CiViolation
// in generated/schema.ts carry none), so every `time` is 0 rather than a made-up value.

import { pageStatusText, checkpointText } from '../verdict/attempts.js';
import type { CiViolation, Page } from '../../index.js';
import { batchOfPage } from '../verdict/aggregate.js';
import type { BatchSummary, PreparedReport, SuppressionNote } from '../verdict/prepare.js';
import { impactLabel, pageLabel, pageUrls, ruleIdOf, targetOf } from '../verdict/fields.js';

// Escaping by hand rather than with an XML library: the runtime may import only local files, and XML 1.0 needs only
// five entities plus the removal of the characters it cannot carry at all (most C0 controls, lone surrogates,
// U+FFFE/U+FFFF), which become U+FFFD so a parser never rejects the whole report.
const NOT_XML_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// Workflow commands in API text (the report may be printed to a CI log with `--format junit`): the GitHub runner
// runs a line whose first non-blank characters are `::` and, in its older syntax, `##[command]` anywhere in a line;
// Azure Pipelines runs `##vso[command]` anywhere in a line. A character reference for that `:` or `[` reads the
// same to every XML parser but no longer matches in the log. Blanks are those .NET's TrimStart removes, plus U+FEFF
// as in the CLI's output guard (XML has already lost \v and \f to U+FFFD; \r is a reference below, so only \n
// starts a line here).
const COMMAND_AT_LINE_START = /(\n[\t \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]*):/g;
const COMMAND_IN_LINE = /##(vso)?\[/gi;

function xmlText(s: string): string {
  // `>` too, so `]]>` never appears; `\r` as a reference, or parsers would normalise it away.
  return s
    .replace(NOT_XML_CHAR, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;')
    .replace(COMMAND_AT_LINE_START, '$1&#58;')
    .replace(COMMAND_IN_LINE, (m) => `${m.slice(0, -1)}&#91;`);
}

function xmlAttr(s: string): string {
  // Tabs and newlines as references: attribute-value normalisation would turn them into spaces.
  return xmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

interface Problem {
  kind: 'failure' | 'error' | 'skipped';
  type: string;
  message: string;
  body: string;
}

interface TestCase {
  name: string;
  classname: string;
  problem?: Problem;
}

/** Name of the testcase that reports a page which could not be checked (an error) or was not checked (skipped). */
export const PAGE_STATUS_TESTCASE = 'page status';

/** Name of the passing testcase of a checked page that has no finding, so the page is a test of its own. */
export const PAGE_CHECKED_TESTCASE = 'page checked';

/** Name of the suite that reports problems of the check as a whole (it did not complete, or an unexplained FAIL). */
const CHECK_SUITE = 'svc-a11y check';

// Every `time`: the API gives no duration (see the top of this file). "0" matches the XSD's SUREFIRE_TIME.
const TIME = '0';

function failureOf(v: CiViolation): Problem {
  const impact = impactLabel(v.impact);
  const age = v.isNew === true ? 'New ' : v.isNew === false ? 'Existing ' : '';
  const lines = [
    `Rule: ${ruleIdOf(v)}`,
    `Impact: ${impact}`,
    `WCAG: ${v.wcagSc?.length ? v.wcagSc.join(', ') : 'n/a'}`,
    `Page: ${pageLabel(v.url)}${checkpointText(v)}`,
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

// A suppressed finding is reported, not hidden: skipped (Azure DevOps "Not executed", GitLab "skipped"), with the
// suppression's reason and end date as the message.
function suppressedOf(v: CiViolation, s: SuppressionNote): Problem {
  const failure = failureOf(v);
  return {
    kind: 'skipped',
    type: 'suppressed',
    message: `Suppressed until ${s.expires}: ${s.reason}`,
    body: `${failure.body}\nSuppressed: ${s.reason}\nSuppression expires: ${s.expires}`,
  };
}

/**
 * The testcase of a page with no finding: passing when the check completed and the page is DONE, else skipped with the reason — a page of a check that did not complete, or one still QUEUED or
 * RUNNING, was not checked, and must not look green.
 */
function emptyPageCase(url: string, page: Page | undefined, checkStatus: string | undefined): TestCase {
  const status = page?.status;
  if (checkStatus === 'COMPLETED' && status === 'DONE') return { name: PAGE_CHECKED_TESTCASE, classname: url };
  const reason =
    checkStatus === 'COMPLETED'
      ? `page status ${status}`
      : `the check did not complete (status ${checkStatus ?? 'unknown'})`;
  return {
    name: PAGE_STATUS_TESTCASE,
    classname: url,
    problem: {
      kind: 'skipped',
      type: status ?? 'UNKNOWN',
      message: `Page was not checked: ${reason}`,
      body: [`Page: ${url}`, `Status: ${status ?? 'unknown'}`, `Check status: ${checkStatus ?? 'unknown'}`].join('\n'),
    },
  };
}

function testCaseXml(c: TestCase): string {
  const open = `    <testcase name="${xmlAttr(c.name)}" classname="${xmlAttr(c.classname)}" time="${TIME}"`;
  if (!c.problem) return `${open}/>`;
  const p = c.problem;
  return [
    `${open}>`,
    `      <${p.kind} type="${xmlAttr(p.type)}" message="${xmlAttr(p.message)}">${xmlText(p.body)}</${p.kind}>`,
    '    </testcase>',
  ].join('\n');
}

interface Tally {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function tally(cases: TestCase[]): Tally {
  const count = (kind: Problem['kind']) => cases.filter((c) => c.problem?.kind === kind).length;
  return { tests: cases.length, failures: count('failure'), errors: count('error'), skipped: count('skipped') };
}

// The problems of one batch as a whole in a run of several checks: one it could not judge is an error, a FAIL
// of the service's that none of its findings or pages explains a failure; each testcase named after the batch.
function batchCases(b: BatchSummary, report: PreparedReport): TestCase[] {
  const body = [
    `Batch: ${b.label}`,
    `Check: ${b.checkId ?? 'none'}`,
    `Status: ${b.status ?? 'unknown'}`,
    `Service verdict: ${b.serviceVerdict ?? 'none'}`,
    ...b.verdict.reasons.map((r) => `Reason: ${r}`),
  ].join('\n');
  if (b.verdict.outcome === 'UNKNOWN') {
    const completed = b.status === 'COMPLETED';
    return [
      {
        name: `${b.label}: ${completed ? 'verdict' : 'check status'}`,
        classname: 'svc-a11y',
        problem: {
          kind: 'error',
          type: completed ? 'UNKNOWN' : (b.status ?? 'UNKNOWN'),
          message: `The check could not be judged: ${b.verdict.reasons.join('; ')}`,
          body,
        },
      },
    ];
  }
  const pageFailed = report.failedPages.some((p) => b.urls.includes(p.url ?? ''));
  if (b.verdict.outcome === 'FAIL' && b.failures === 0 && !pageFailed) {
    return [
      {
        name: `${b.label}: verdict`,
        classname: 'svc-a11y',
        problem: { kind: 'failure', type: 'verdict', message: 'The service reported the verdict FAIL', body },
      },
    ];
  }
  return [];
}

/**
 * JUnit XML of a CI check, valid against Jenkins' junit-10.xsd: one `<testsuite>` per page URL (the check's pages,
 * then URLs seen only in findings), one `<testcase>` per finding named `"<ruleId> <selector>"` with the page URL as
 * classname. Findings that break the threshold carry a `<failure>`; the others pass. A page with no finding gets
 * one testcase: `page checked` (passing) when the check completed and the page is DONE, else `page status` with
 * `<skipped>`. A page that could not be checked gets an `<error>` testcase named `page status`, and a check that
 * did not complete gets an `<error>` in the `svc-a11y check` suite, so a check that could not run never looks green.
 * A name repeated within a page gets a ` (2)`, ` (3)` … suffix. Every `time` is 0: the API reports no durations.
 * Text that a CI log would run as a command (`::` at a line start, `##[`, `##vso[`) is written with character
 * references, so printing the report is safe and every XML parser reads the same text.
 * @example await writeFile('a11y-junit.xml', toJUnit(prepareReport({ check, violations })));
 */
export function toJUnit(report: PreparedReport): string {
  const { check, findings, failures, failedPages, verdict } = report;
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
        message: `Page could not be checked: ${pageStatusText(page)}`,
        body: `Page: ${url}\nStatus: ${pageStatusText(page)}`,
      },
    });
  }

  // Names already used per page (a Set: a page may hold thousands of findings).
  const used = new Map<string, Set<string>>();
  for (const { violation: v, breaking, suppression } of findings) {
    const url = pageLabel(v.url);
    const names = used.get(url) ?? new Set([PAGE_STATUS_TESTCASE, PAGE_CHECKED_TESTCASE]);
    used.set(url, names);
    const base = `${ruleIdOf(v)} ${targetOf(v)}`;
    let name = base;
    for (let n = 2; names.has(name); n++) name = `${base} (${n})`;
    names.add(name);
    const problem = breaking ? failureOf(v) : suppression ? suppressedOf(v, suppression) : undefined;
    casesOf(url).push({ name, classname: url, ...(problem ? { problem } : {}) });
  }

  // A page without any testcase yet: a test of its own (the first page entry of a URL listed twice decides).
  const pageOf = new Map<string, Page>();
  for (const page of [...(check.pages ?? [])].reverse()) pageOf.set(pageLabel(page.url), page);
  for (const [url, cases] of suites)
    if (cases.length === 0) cases.push(emptyPageCase(url, pageOf.get(url), check.status));

  // Problems of the check as a whole, so JUnit is never green when the check is not.
  const single = report.batches.length <= 1;
  const checkCases: TestCase[] = single ? [] : report.batches.flatMap((b) => batchCases(b, report));
  if (single && verdict.outcome === 'UNKNOWN') {
    checkCases.push({
      name: check.status === 'COMPLETED' ? 'verdict' : 'check status',
      classname: 'svc-a11y',
      problem: {
        kind: 'error',
        type: check.status === 'COMPLETED' ? 'UNKNOWN' : (check.status ?? 'UNKNOWN'),
        message: `The check could not be judged: ${verdict.reasons.join('; ')}`,
        body: [
          `Check: ${check.id}`,
          `Status: ${check.status}`,
          `Service verdict: ${check.verdict ?? 'none'}`,
          ...verdict.reasons.map((r) => `Reason: ${r}`),
        ].join('\n'),
      },
    });
  } else if (single && verdict.outcome === 'FAIL' && failures.length === 0 && failedPages.length === 0) {
    // The service failed the check for a reason no finding here explains (e.g. a threshold this version
    // does not know): report its verdict rather than a green run.
    checkCases.push({
      name: 'verdict',
      classname: 'svc-a11y',
      problem: {
        kind: 'failure',
        type: 'verdict',
        message: 'The service reported the verdict FAIL',
        body: `Check: ${check.id}\nVerdict: FAIL`,
      },
    });
  }
  if (checkCases.length > 0) suites.set(CHECK_SUITE, checkCases);

  // `skipped` only on suites: junit-10.xsd has no `skipped` on <testsuites>.
  const all = tally([...suites.values()].flat());
  const thresholdOf = new Map(report.pageThresholds.map((p) => [p.url, p.failOn]));
  const body = [...suites].map(([name, cases]) => {
    const t = tally(cases);
    // In a run of several checks, each page's suite names its batch (a property: junit-10.xsd allows them).
    const batch = name === CHECK_SUITE ? undefined : batchOfPage(report, name);
    // A page judged by another threshold than the run's says which (junit-10.xsd allows properties on suites).
    const threshold = name === CHECK_SUITE ? undefined : thresholdOf.get(name);
    const properties = [
      ...(batch ? [`<property name="batch" value="${xmlAttr(batch)}"/>`] : []),
      ...(threshold ? [`<property name="failOn" value="${xmlAttr(threshold)}"/>`] : []),
    ];
    return [
      `  <testsuite name="${xmlAttr(name)}" tests="${t.tests}" failures="${t.failures}" errors="${t.errors}" skipped="${t.skipped}" time="${TIME}">`,
      ...(properties.length ? [`    <properties>${properties.join('')}</properties>`] : []),
      ...cases.map(testCaseXml),
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="svc-a11y" tests="${all.tests}" failures="${all.failures}" errors="${all.errors}" time="${TIME}">`,
    ...body,
    '</testsuites>',
    '',
  ].join('\n');
}
