import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { CiReport } from '../../../src/cli/report/index.js';
import { PAGE_CHECKED_TESTCASE } from '../../../src/cli/report/junit.js';
import {
  adversarialReport,
  CHECKOUT,
  EVIL_RULE,
  EVIL_SUMMARY_SAFE,
  EVIL_TARGET,
  EVIL_URL,
  EXTRA,
  failedCheckReport,
  failReport,
  HOME,
  sparseReport,
  unreachableReport,
  v,
} from './fixtures.js';
import { junitOf } from '../../support/reports.js';

type Attrs = Record<string, string>;
interface Problem extends Attrs {
  '#text': string;
}
interface ParsedCase {
  name: string;
  classname: string;
  time: string;
  failure?: Problem;
  error?: Problem;
  skipped?: Problem;
}
interface ParsedSuite {
  attrs: Attrs;
  cases: ParsedCase[];
}

// Numeric character references decoded (htmlEntities), text kept verbatim, every element an array.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  htmlEntities: true,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name, _path, _leaf, isAttribute) =>
    !isAttribute && ['testsuite', 'testcase', 'failure', 'error', 'skipped'].includes(name),
});

function parse(xml: string): { attrs: Attrs; suites: ParsedSuite[] } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = parser.parse(xml) as {
    testsuites: Attrs & {
      testsuite?: Array<
        Attrs & { testcase?: Array<Attrs & { failure?: Problem[]; error?: Problem[]; skipped?: Problem[] }> }
      >;
    };
  };
  const { testsuite = [], ...attrs } = doc.testsuites;
  return {
    attrs: attrs as Attrs,
    suites: testsuite.map(({ testcase = [], ...suiteAttrs }) => ({
      attrs: suiteAttrs as Attrs,
      cases: testcase.map((c) => {
        expect(c.failure?.length ?? 0).toBeLessThanOrEqual(1);
        expect(c.error?.length ?? 0).toBeLessThanOrEqual(1);
        expect(c.skipped?.length ?? 0).toBeLessThanOrEqual(1);
        return {
          name: c.name!,
          classname: c.classname!,
          time: c.time!,
          failure: c.failure?.[0],
          error: c.error?.[0],
          skipped: c.skipped?.[0],
        };
      }),
    })),
  };
}

// `tests`/`failures`/`errors`/`skipped` of every suite match its testcases, and the root's are the sums (the root
// has no `skipped`: junit-10.xsd rejects it there). Every suite and testcase has a `time`, and none is empty.
function expectConsistentTotals(doc: ReturnType<typeof parse>): void {
  let tests = 0;
  let failures = 0;
  let errors = 0;
  expect(doc.attrs.skipped).toBeUndefined();
  expect(doc.attrs.time).toBe('0');
  for (const suite of doc.suites) {
    expect(suite.cases.length).toBeGreaterThan(0);
    expect(suite.attrs.time).toBe('0');
    for (const c of suite.cases) expect(c.time).toBe('0');
    expect(Number(suite.attrs.tests)).toBe(suite.cases.length);
    expect(Number(suite.attrs.failures)).toBe(suite.cases.filter((c) => c.failure).length);
    expect(Number(suite.attrs.errors)).toBe(suite.cases.filter((c) => c.error).length);
    expect(Number(suite.attrs.skipped)).toBe(suite.cases.filter((c) => c.skipped).length);
    tests += suite.cases.length;
    failures += Number(suite.attrs.failures);
    errors += Number(suite.attrs.errors);
  }
  expect(doc.attrs).toMatchObject({
    name: 'svc-a11y',
    tests: String(tests),
    failures: String(failures),
    errors: String(errors),
  });
}

describe('toJUnit', () => {
  it('writes one suite per page, including URLs seen only in findings', () => {
    const doc = parse(junitOf(failReport()));
    expect(doc.suites.map((s) => s.attrs.name)).toEqual([HOME, CHECKOUT, EXTRA]);
    expect(doc.suites.map((s) => s.cases.length)).toEqual([3, 2, 1]);
    expectConsistentTotals(doc);
    expect(doc.attrs).toMatchObject({ tests: '6', failures: '3', errors: '0' });
  });

  it('fails exactly the findings that break the threshold, with impact and details', () => {
    const doc = parse(junitOf(failReport()));
    const cases = doc.suites.flatMap((s) => s.cases);
    expect(cases.filter((c) => c.failure).map((c) => c.name)).toEqual([
      'color-contrast a.btn-primary',
      'label #email',
      'image-alt img.logo',
    ]);
    const contrast = cases.find((c) => c.name === 'color-contrast a.btn-primary')!;
    expect(contrast.classname).toBe(HOME);
    expect(contrast.failure?.type).toBe('critical');
    expect(contrast.failure?.message).toContain('color-contrast');
    for (const part of [
      'WCAG: 1.4.3',
      'Help: https://dequeuniversity.com/rules/axe/4.10/color-contrast',
      'insufficient color contrast',
      'Fingerprint: fp-contrast',
      'New: true',
    ]) {
      expect(contrast.failure?.['#text']).toContain(part);
    }
    // Findings under the threshold pass.
    expect(cases.find((c) => c.name === 'region div.promo')?.failure).toBeUndefined();
  });

  it('counts as failures the findings of the stricter and looser thresholds', () => {
    const report = failReport();
    report.check.failOn = 'NONE';
    expect(parse(junitOf(report)).attrs.failures).toBe('1'); // only the verdict: FAIL with nothing to explain it
    report.check.failOn = 'ANY_CRITICAL';
    expect(parse(junitOf(report)).attrs.failures).toBe('2');
    report.check.failOn = undefined;
    expect(parse(junitOf(report)).attrs.failures).toBe('1');
  });

  it('reports an unreachable page as an error testcase named "page status"', () => {
    const doc = parse(junitOf(unreachableReport()));
    expectConsistentTotals(doc);
    const checkout = doc.suites.find((s) => s.attrs.name === CHECKOUT)!;
    expect(checkout.cases).toHaveLength(1);
    expect(checkout.cases[0]).toMatchObject({
      name: 'page status',
      classname: CHECKOUT,
      error: { type: 'UNREACHABLE' },
    });
    expect(doc.attrs).toMatchObject({ errors: '1', failures: '0' });
  });

  it('never looks green for a check that did not complete', () => {
    const doc = parse(junitOf(failedCheckReport()));
    expectConsistentTotals(doc);
    expect(doc.attrs.errors).toBe('1');
    expect(doc.suites[0]?.cases[0]?.error?.message).toContain('Site unreachable');
  });

  it('accepts records with missing fields', () => {
    const doc = parse(junitOf(sparseReport()));
    expectConsistentTotals(doc);
    expect(doc.suites.map((s) => s.attrs.name)).toEqual(['(unknown page)', HOME]);
    // Two findings without rule and selector: the second name gets a suffix so names stay unique.
    expect(doc.suites[0]?.cases.map((c) => c.name)).toEqual([
      'unknown-rule (no selector)',
      'unknown-rule (no selector) (2)',
      'image-alt (no selector)',
    ]);
  });

  it('carries adversarial strings through escaping, dropping only characters XML 1.0 cannot hold', () => {
    const xml = junitOf(adversarialReport());
    // Nothing outside XML 1.0's Char production.
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
    const doc = parse(xml);
    expectConsistentTotals(doc);
    const [suite] = doc.suites;
    expect(suite?.attrs.name).toBe(EVIL_URL);
    const [testcase] = suite?.cases ?? [];
    expect(testcase?.name).toBe(`${EVIL_RULE} ${EVIL_TARGET.replace(/[\u0007\u001b]/g, '\uFFFD')}`);
    expect(testcase?.classname).toBe(EVIL_URL);
    expect(testcase?.failure?.message).toContain(EVIL_RULE);
    expect(testcase?.failure?.['#text']).toContain(`Summary: ${EVIL_SUMMARY_SAFE}`);
    expect(testcase?.failure?.['#text']).toContain('Fingerprint: fp<&>"');
  });

  it('keeps line breaks in attributes and lone surrogates out', () => {
    const report: CiReport = {
      check: { id: 'x', status: 'COMPLETED' },
      violations: [v({ ruleId: 'a\nb\tc\rd', target: 'x\uD800y', impact: 'critical', isNew: true })],
    };
    const xml = junitOf(report);
    // As references: a conforming parser turns raw tabs and newlines in attributes into spaces.
    // CR was made a line feed where the report entered (a lone CR ends a line for CI runners).
    expect(xml).toContain('name="a&#10;b&#9;c&#10;d x\uFFFDy"');
    const [testcase] = parse(xml).suites[0]?.cases ?? [];
    expect(testcase?.name).toBe('a\nb\tc\nd x\uFFFDy');
  });

  it('names testcases stably, whatever order the API returns findings in', () => {
    const report = failReport();
    const reversed = { ...report, violations: [...report.violations].reverse() };
    expect(junitOf(reversed)).toBe(junitOf(report));
    const names = parse(junitOf(report)).suites.flatMap((s) => s.cases.map((c) => c.name));
    expect(names).toContain('link-name footer a');
    expect(new Set(names).size).toBe(names.length);
  });
  it('gives a checked page without findings one passing testcase, and a page that was not checked a skipped one', () => {
    const report = unreachableReport();
    report.check.pages!.push({ url: EXTRA, status: 'DONE' });
    const doc = parse(junitOf(report));
    expectConsistentTotals(doc);
    expect(doc.suites.find((s) => s.attrs.name === EXTRA)?.cases).toEqual([
      { name: PAGE_CHECKED_TESTCASE, classname: EXTRA, time: '0' },
    ]);

    const failed: CiReport = {
      check: { id: 'x', status: 'FAILED', pages: [{ url: HOME, status: 'QUEUED' }] },
      violations: [],
    };
    const home = parse(junitOf(failed)).suites.find((s) => s.attrs.name === HOME)!;
    expect(home.attrs).toMatchObject({ tests: '1', failures: '0', errors: '0', skipped: '1' });
    expect(home.cases[0]).toMatchObject({
      name: 'page status',
      skipped: { type: 'QUEUED', message: 'Page was not checked: the check did not complete (status FAILED)' },
    });
  });

  it('writes workflow commands in API text as character references: nothing for a CI log to run, the same text for XML', () => {
    const text = 'a\n::stop-commands::tok\n  ::error::x ##[error]y ##vso[task.complete]z';
    const xml = junitOf({
      check: { id: 'x', status: 'COMPLETED' },
      violations: [v({ ruleId: text, failureSummary: text, impact: 'critical', isNew: true })],
    });
    expect(xml).toContain('\n&#58;:stop-commands::tok\n  &#58;:error::x ##&#91;error]y ##vso&#91;task.complete]z');
    expect(xml).not.toMatch(/^\s*::|##(vso)?\[/m);
    const [testcase] = parse(xml).suites[0]?.cases ?? [];
    expect(testcase?.failure?.['#text']).toContain(`Summary: ${text}`);
    expect(testcase?.name).toBe(`${text} a`);
  });
});
