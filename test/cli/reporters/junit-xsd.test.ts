// The JUnit report against the schema Jenkins' xUnit plugin validates with (junit-10.xsd, test/fixtures), checked by
// xmllint (libxml2 compiled to WebAssembly: the xmllint-wasm devDependency, no system package): the shared reporter
// fixtures and crafted hostile reports.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { CiCheck, CiViolation } from '../../../src/index.js';
import type { CiReport } from '../../../src/cli/report/index.js';
import { PAGE_CHECKED_TESTCASE, PAGE_STATUS_TESTCASE } from '../../../src/cli/report/junit.js';
import { CommandGuard } from '../../../src/cli/io/output.js';
import { JUNIT_XSD, JUNIT_XSD_SHA256, validateJUnitXsd } from '../../support/junit-xsd.js';
import {
  adversarialReport,
  CHECKOUT,
  failedCheckReport,
  failReport,
  HOME,
  manyFindingsReport,
  sparseReport,
  unreachableReport,
  v,
} from './fixtures.js';
import { junitOf } from '../../support/reports.js';

const BIG = 100 * 1024;
// Every C0 and C1 control, DEL, the two non-characters XML forbids, and lone/reversed surrogates.
const CONTROLS = `${Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)).join('')}\u007F\u0085\u009F\uFFFE\uFFFF`;
const SURROGATES = 'a\uD800b\uDFFFc\uDC00\uD800d😀';
// Workflow commands after every kind of line break and blank the runners know.
const COMMANDS = [
  '\n::stop-commands::pwned',
  '\r\n::error title=x::injected',
  '\r::set-output name=verdict::PASS',
  '\n   \t::warning::indented',
  '\n\u00A0\u2028\u3000\uFEFF::notice::unicode blanks',
  'mid ##[stop-commands]tok ##[error]x',
  '##vso[task.setvariable variable=X]1 ##VSO[task.complete result=Succeeded]',
].join('');

function check(fields: Partial<CiCheck> = {}): CiCheck {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    status: 'COMPLETED',
    verdict: 'FAIL',
    failOn: 'ANY_CRITICAL',
    ...fields,
  };
}

/** A report with `text` in every string field of its check, pages and findings. */
function everywhere(text: string, extra: Partial<CiViolation> = {}): CiReport {
  const url = `https://a.example/${text}`;
  return {
    check: check({
      pages: [
        { url, status: 'DONE' },
        { url: `${url}/down`, status: 'UNREACHABLE' },
      ],
      failureReason: text,
    }),
    violations: [
      v({
        ruleId: text,
        target: text,
        url,
        helpUrl: text,
        failureSummary: text,
        fingerprint: text,
        wcagSc: [text],
        impact: 'critical',
        ...extra,
      }),
      v({ ruleId: text, target: text, url, impact: text, isNew: undefined }),
    ],
  };
}

const REPORTS: Record<string, () => CiReport> = {
  // test/cli/reporters/fixtures.ts
  fail: failReport,
  unreachable: unreachableReport,
  failedCheck: failedCheckReport,
  sparse: sparseReport,
  adversarial: adversarialReport,
  many: () => manyFindingsReport(2000),
  // Crafted.
  controls: () => everywhere(CONTROLS),
  surrogates: () => everywhere(SURROGATES),
  cdataEnd: () => everywhere(']]> <![CDATA[ x ]]> --> <!-- &amp; &#0; &#xD800; <?pi?>'),
  commands: () => everywhere(COMMANDS),
  big: () => everywhere('x'.repeat(BIG), { failureSummary: `${'y\n::z '.repeat(BIG / 6)}` }),
  missingFields: () => ({ check: { id: 'x' } as CiCheck, violations: [{}, {}, { url: '' }] }),
  emptyRecords: () => ({ check: check({ pages: [{}, {}], verdict: 'PASS' }), violations: [] }),
  pageWithoutFindings: () => ({
    check: check({
      verdict: 'PASS',
      pages: [
        { url: HOME, status: 'DONE' },
        { url: CHECKOUT, status: 'DONE' },
      ],
    }),
    violations: [],
  }),
  failedWithPages: () => ({
    check: check({
      status: 'FAILED',
      verdict: undefined,
      failureReason: 'Site unreachable',
      pages: [
        { url: HOME, status: 'QUEUED' },
        { url: CHECKOUT, status: 'RUNNING' },
      ],
    }),
    violations: [],
  }),
  timedOut: () => ({
    check: check({
      status: 'RUNNING',
      verdict: undefined,
      pages: [
        { url: HOME, status: 'DONE' },
        { url: CHECKOUT, status: 'RUNNING' },
      ],
    }),
    violations: [],
  }),
  allUnreachable: () => ({
    check: check({
      pages: [
        { url: HOME, status: 'UNREACHABLE' },
        { url: CHECKOUT, status: 'TIMEOUT' },
        { url: `${HOME}x`, status: 'ERROR' },
        { status: 'ERROR' },
      ],
    }),
    violations: [],
  }),
  unknownPageStatus: () => ({
    check: check({ verdict: 'PASS', pages: [{ url: HOME, status: 'SKIPPED' as 'DONE' }] }),
    violations: [],
  }),
  nothing: () => ({ check: check({ verdict: 'PASS', pages: [] }), violations: [] }),
};

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  htmlEntities: true,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && ['testsuite', 'testcase'].includes(name),
});

type Node = Record<string, string | undefined> & {
  testsuite?: Node[];
  testcase?: Node[];
  failure?: Node;
  error?: Node;
  skipped?: Node;
  '#text'?: string;
};
const parse = (xml: string) => (parser.parse(xml) as { testsuites: Node }).testsuites;

describe('junit-10.xsd (test/fixtures)', () => {
  it('is the file fetched from jenkinsci/xunit-plugin, unchanged', () => {
    expect(createHash('sha256').update(readFileSync(JUNIT_XSD)).digest('hex')).toBe(JUNIT_XSD_SHA256);
  });

  it('fails with a clear message, not a verdict on the documents, when the schema does not load', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-xsd-'));
    try {
      const unresolved = join(dir, 'unresolved.xsd');
      writeFileSync(
        unresolved,
        '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="testsuites" type="nope"/></xs:schema>',
      );
      const notXml = join(dir, 'not-xml.xsd');
      writeFileSync(notXml, 'not a schema');
      for (const schema of [unresolved, notXml]) {
        for (const doc of ['<testsuites/>', '<testsuites>'])
          expect(() => validateJUnitXsd({ a: doc }, schema)).toThrow(`xmllint could not load ${schema}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects what the reporter used to write (skipped on <testsuites>, a time with 4 decimals, a nameless testcase)', () => {
    const suite = '<testsuite name="s" tests="1" failures="0" errors="0"><testcase name="c"/></testsuite>';
    const result = validateJUnitXsd({
      skippedOnRoot: `<testsuites name="x" tests="1" failures="0" errors="0" skipped="0">${suite}</testsuites>`,
      longTime: `<testsuites time="0.0001">${suite}</testsuites>`,
      nameless:
        '<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase/></testsuite></testsuites>',
      good: `<testsuites time="1,234.5">${suite}</testsuites>`,
    });
    expect(result.valid).toEqual({ skippedOnRoot: false, longTime: false, nameless: false, good: true });
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/attribute 'skipped' is not allowed/);
  });

  it('rejects a document that is not well-formed XML, or not a JUnit report at all', () => {
    const result = validateJUnitXsd({ unclosed: '<testsuites>', html: '<html><body/></html>', empty: '' });
    expect(result.valid).toEqual({ unclosed: false, html: false, empty: false });
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/No matching global declaration available for the validation root/);
  });
});

describe('toJUnit against junit-10.xsd (xmllint)', () => {
  const xml = Object.fromEntries(Object.entries(REPORTS).map(([name, make]) => [name, junitOf(make())]));

  it('every report validates: the shared fixtures and the crafted ones', () => {
    const result = validateJUnitXsd(xml);
    expect(result.valid, result.output.slice(0, 4000)).toEqual(
      Object.fromEntries(Object.keys(xml).map((name) => [name, true])),
    );
    expect(result.ok).toBe(true);
  });

  it('has time on <testsuites>, every testsuite and every testcase, and counts that match the testcases', () => {
    for (const [name, doc] of Object.entries(xml)) {
      const root = parse(doc);
      expect(root.time, name).toBe('0');
      expect(root.skipped, name).toBeUndefined();
      const cases = (root.testsuite ?? []).flatMap((suite) => {
        expect(suite.time, `${name}: ${suite.name}`).toBe('0');
        const own = suite.testcase ?? [];
        expect(own.length, `${name}: a suite with no testcase`).toBeGreaterThan(0);
        expect(suite).toMatchObject({
          tests: String(own.length),
          failures: String(own.filter((c) => c.failure !== undefined).length),
          errors: String(own.filter((c) => c.error !== undefined).length),
          skipped: String(own.filter((c) => c.skipped !== undefined).length),
        });
        return own;
      });
      for (const c of cases) {
        expect(c.time, `${name}: ${c.name}`).toBe('0');
        // Azure DevOps drops a testcase without a name; GitLab keys tests by classname + name.
        expect(c.name, name).toMatch(/\S/);
        expect(c.classname, name).toMatch(/\S/);
      }
      expect(root.tests, name).toBe(String(cases.length));
      expect(root.failures, name).toBe(String(cases.filter((c) => c.failure !== undefined).length));
      expect(root.errors, name).toBe(String(cases.filter((c) => c.error !== undefined).length));
    }
  });

  it('gives a page without findings one passing testcase, and never a green one to a page that was not checked', () => {
    const done = parse(xml.pageWithoutFindings!).testsuite!;
    expect(
      done.map((s) => [s.name, s.testcase!.map((c) => [c.name, c.failure ?? c.error ?? c.skipped ?? 'passed'])]),
    ).toEqual([
      [HOME, [[PAGE_CHECKED_TESTCASE, 'passed']]],
      [CHECKOUT, [[PAGE_CHECKED_TESTCASE, 'passed']]],
    ]);
    for (const name of ['failedWithPages', 'timedOut', 'unknownPageStatus']) {
      const root = parse(xml[name]!);
      const pages = root.testsuite!.filter((s) => s.name !== 'svc-a11y check');
      const notChecked = pages.filter((s) => s.testcase![0]!.skipped !== undefined);
      expect(notChecked.length, name).toBeGreaterThan(0);
      for (const s of notChecked)
        expect(s.testcase![0]).toMatchObject({
          name: PAGE_STATUS_TESTCASE,
          skipped: { message: expect.stringMatching(/^Page was not checked: /) },
        });
    }
    // The timed-out check: the DONE page's findings were never read, so it is not "checked" either.
    expect(parse(xml.timedOut!).testsuite!.map((s) => s.testcase![0]!.name)).toEqual([
      PAGE_STATUS_TESTCASE,
      PAGE_STATUS_TESTCASE,
      'check status',
    ]);
    // Unreachable pages are errors, not skips.
    expect(parse(xml.allUnreachable!).errors).toBe('4');
  });

  it('leaves nothing a CI log would run: the parsed text is the API text as made safe where it entered', () => {
    const doc = xml.commands!;
    for (const line of doc.split(/\r\n|\r|\n/)) {
      expect(line).not.toMatch(/^[\s\uFEFF]*::/);
      expect(line).not.toMatch(/##(vso)?\[/i);
    }
    // The stdout guard finds nothing to change, so `--format junit` on stdout is byte-identical to the file.
    expect(new CommandGuard().guard(doc)).toBe(doc);
    const root = parse(doc);
    const finding = root.testsuite![0]!.testcase!.find((c) => c.failure)!;
    // Line breaks of every kind became line feeds, the invisible U+FEFF a visible U+FFFD; nothing else changed.
    const safe = COMMANDS.replace(/\r\n?|\u2028/g, '\n').replace(/\uFEFF/g, '\uFFFD');
    expect(finding.failure!['#text']).toContain(`Summary: ${safe}`);
    expect(finding.name).toBe(`${safe} ${safe}`);
    expect(root.testsuite!.find((s) => s.name === 'svc-a11y check')).toBeUndefined();
  });

  it('keeps 100 kB strings whole', () => {
    const root = parse(xml.big!);
    const finding = root.testsuite![0]!.testcase!.find((c) => c.failure)!;
    expect(finding.name).toBe(`${'x'.repeat(BIG)} ${'x'.repeat(BIG)}`);
    expect(finding.failure!['#text']).toContain('y\n::z y\n::z ');
  });
});
