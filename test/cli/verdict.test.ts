// The gate fails closed: every combination of status × service verdict × pages × findings (× a wait that ended
// first) is judged by one function, and every reporter shows that one result. The four shapes that once exited 0
// without being a pass are also run through the CLI (in process) against a loopback server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiCheck, CiViolation } from '../../src/index.js';
import {
  prepareReport,
  toGitHubAnnotations,
  toJUnit,
  toMarkdown,
  toSarif,
  toText,
} from '../../src/cli/report/index.js';
import { decideVerdict } from '../../src/cli/verdict/verdict.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { json, startLoopback, type Loopback } from '../support/loopback.js';

const STATUSES = ['COMPLETED', 'FAILED', 'RUNNING', 'QUEUED', undefined, 'SOMETHING_NEW'] as const;
const VERDICTS = ['PASS', 'FAIL', undefined, 'MAYBE'] as const;
const PAGES: Record<string, CiCheck['pages']> = {
  missing: undefined,
  empty: [],
  'all DONE': [
    { url: 'https://a.example/', status: 'DONE' },
    { url: 'https://a.example/b', status: 'DONE' },
  ],
  'one QUEUED': [
    { url: 'https://a.example/', status: 'DONE' },
    { url: 'https://a.example/b', status: 'QUEUED' },
  ],
  'one RUNNING': [{ url: 'https://a.example/', status: 'RUNNING' }],
  'one UNREACHABLE': [
    { url: 'https://a.example/', status: 'DONE' },
    { url: 'https://a.example/b', status: 'UNREACHABLE' },
  ],
  'one without status': [{ url: 'https://a.example/' }],
};
const FINDINGS: Record<string, CiViolation[]> = {
  none: [],
  'one counted': [{ ruleId: 'image-alt', impact: 'critical', isNew: true, url: 'https://a.example/' }],
  'one not counted': [{ ruleId: 'region', impact: 'minor', isNew: true, url: 'https://a.example/' }],
};

// The rules of the issue, written out independently of the implementation.
function expected(
  status: string | undefined,
  verdict: string | undefined,
  pages: CiCheck['pages'],
  counted: boolean,
  waitEnded: boolean,
): 'PASS' | 'FAIL' | 'UNKNOWN' {
  const completed = status === 'COMPLETED' && !waitEnded;
  if (completed && (counted || verdict === 'FAIL')) return 'FAIL';
  const everyPageDone = pages !== undefined && pages.length > 0 && pages.every((p) => p.status === 'DONE');
  return completed && verdict === 'PASS' && everyPageDone ? 'PASS' : 'UNKNOWN';
}

const rows = STATUSES.flatMap((status) =>
  VERDICTS.flatMap((verdict) =>
    Object.entries(PAGES).flatMap(([pagesName, pages]) =>
      Object.entries(FINDINGS).flatMap(([findingsName, violations]) =>
        [false, true].map((waitEnded) => ({ status, verdict, pagesName, pages, findingsName, violations, waitEnded })),
      ),
    ),
  ),
);

// Which rule of the verdict decides a row: the first that applies, in the order the rules are written. A row is one
// combination; a rule is what a test means, so each rule is one test over every combination it decides.
function ruleOf(row: (typeof rows)[number]): string {
  if (row.status !== 'COMPLETED')
    return 'a check not COMPLETED (failed, running, queued, missing, unknown) is not a pass';
  if (row.waitEnded) return 'a wait that ended first is not a pass, whatever the check says';
  if (row.findingsName === 'one counted') return 'a completed check with a finding the threshold counts fails';
  if (row.verdict === 'FAIL') return 'a completed check the service failed fails, whatever the findings';
  if (row.verdict !== 'PASS') return 'a completed check without a known verdict is not a pass';
  if (row.pages === undefined || row.pages.length === 0 || row.pages.some((p) => p.status !== 'DONE'))
    return 'a service PASS with a page missing or not DONE is not a pass';
  return 'a service PASS with every page DONE and no counted finding passes';
}

// (Map.groupBy is Node 21+.)
const byRule = new Map<string, typeof rows>();
for (const row of rows) byRule.set(ruleOf(row), [...(byRule.get(ruleOf(row)) ?? []), row]);
const rules = [...byRule];

describe('the verdict, for every combination', () => {
  it(`covers ${rows.length} combinations, each decided by one of ${rules.length} rules`, () => {
    expect(rows.length).toBe(
      STATUSES.length * VERDICTS.length * Object.keys(PAGES).length * Object.keys(FINDINGS).length * 2,
    );
    expect(rules.reduce((n, [, group]) => n + group.length, 0)).toBe(rows.length);
  });

  it.each(rules)('%s (every combination it decides)', (_rule, group) => {
    for (const row of group) {
      const name = `status ${row.status} × verdict ${row.verdict} × pages ${row.pagesName} × findings ${row.findingsName} × wait ended ${row.waitEnded}`;
      const check = { id: 'c', status: row.status, verdict: row.verdict, pages: row.pages } as CiCheck;
      const report = prepareReport(
        { check, violations: row.violations },
        {
          failOn: 'ANY_CRITICAL',
          waitEnded: row.waitEnded ? 'the wait did not finish within 10 ms (--timeout)' : undefined,
        },
      );
      const outcome = expected(row.status, row.verdict, row.pages, row.findingsName === 'one counted', row.waitEnded);
      expect(report.verdict.outcome, name).toBe(outcome);
      expect(report.verdict.exitCode, name).toBe({ PASS: 0, FAIL: 1, UNKNOWN: 4 }[outcome]);
      expect(report.verdict.reasons.length, name).toBeGreaterThan(0);

      // Every reporter shows this one result.
      expect(toText(report, { color: false }), name).toMatch(new RegExp(`^Accessibility check: ${outcome}\\n`));
      expect(toMarkdown(report), name).toMatch(new RegExp(`^## Accessibility check: ${outcome}\\n`));
      const run = toSarif(report, { toolVersion: '0' }).runs[0]!;
      expect(run.properties?.verdict, name).toBe(outcome);
      expect(run.invocations?.[0]?.executionSuccessful, name).toBe(
        outcome !== 'UNKNOWN' && !row.pagesName.includes('UNREACHABLE'),
      );
      const junit = toJUnit(report);
      expect(/<(failure|error) /.test(junit), name).toBe(outcome !== 'PASS');
      const annotations = toGitHubAnnotations(report);
      expect(annotations[0]?.startsWith('::error title=Accessibility check could not be judged::') ?? false, name).toBe(
        outcome === 'UNKNOWN',
      );
      if (outcome !== 'PASS') {
        expect(toText(report, { color: false }), name).not.toMatch(/^Accessibility check: PASS/m);
        expect(toMarkdown(report), name).not.toContain('Accessibility check: PASS');
      }
    }
  });

  it('says why it cannot judge, in words', () => {
    const reasons = (check: CiCheck) =>
      decideVerdict({ check, failures: 0, failOn: 'NEW_CRITICAL' }).reasons.join('; ');
    expect(reasons({ id: 'c', status: 'COMPLETED', pages: [{ url: 'u', status: 'DONE' }] })).toBe(
      'the service gave no verdict',
    );
    expect(reasons({ id: 'c', status: 'COMPLETED', verdict: 'PASS', pages: [] })).toBe(
      'the check lists no pages, so none is known to have been checked',
    );
    expect(
      reasons({
        id: 'c',
        status: 'COMPLETED',
        verdict: 'PASS',
        pages: [
          { url: 'u', status: 'DONE' },
          { url: 'q', status: 'QUEUED' },
        ],
      }),
    ).toBe('1 page of 2 was not checked: q (QUEUED)');
    expect(reasons({ id: 'c', status: 'FAILED', failureReason: 'Site unreachable' })).toBe(
      'the check did not complete (status FAILED): Site unreachable',
    );
    const many = Array.from({ length: 5 }, (_, i) => ({ url: `p${i}`, status: 'TIMEOUT' as const }));
    expect(reasons({ id: 'c', status: 'COMPLETED', verdict: 'PASS', pages: many })).toBe(
      '5 pages of 5 were not checked: p0 (TIMEOUT), p1 (TIMEOUT), p2 (TIMEOUT) and 2 more',
    );
  });

  it("our threshold wins over the service's: a finding --fail-on counts fails the gate under PASS, and --fail-on beats the check's own failOn", () => {
    const check: CiCheck = {
      id: 'c',
      status: 'COMPLETED',
      verdict: 'PASS',
      failOn: 'NONE',
      pages: [{ url: 'u', status: 'DONE' }],
    };
    const violations = [{ impact: 'serious', isNew: false }];
    expect(prepareReport({ check, violations }).verdict.outcome).toBe('PASS');
    const strict = prepareReport({ check, violations }, { failOn: 'SERIOUS_OR_WORSE' });
    expect(strict.verdict).toEqual({
      outcome: 'FAIL',
      exitCode: 1,
      reasons: ['1 finding breaks the threshold SERIOUS_OR_WORSE'],
    });
    expect(strict.failOn).toBe('SERIOUS_OR_WORSE');
  });
});

describe('the CLI never exits 0 on a check it cannot judge', () => {
  const ID = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
  const cases: Array<{
    name: string;
    check: Partial<CiCheck>;
    violations: CiViolation[];
    args: string[];
    code: number;
    says: RegExp;
  }> = [
    {
      name: 'COMPLETED with no verdict',
      check: { status: 'COMPLETED', pages: [{ url: 'https://a.example/', status: 'DONE' }] },
      violations: [],
      args: [],
      code: 4,
      says: /the service gave no verdict/,
    },
    {
      name: 'PASS with a finding --fail-on counts',
      check: { status: 'COMPLETED', verdict: 'PASS', pages: [{ url: 'https://a.example/', status: 'DONE' }] },
      violations: [{ ruleId: 'image-alt', impact: 'critical', isNew: false, url: 'https://a.example/' }],
      args: ['--fail-on', 'ANY_CRITICAL'],
      code: 1,
      says: /^Accessibility check: FAIL\n {2}1 finding breaks the threshold ANY_CRITICAL/,
    },
    {
      name: 'PASS with a page still QUEUED',
      check: {
        status: 'COMPLETED',
        verdict: 'PASS',
        pages: [
          { url: 'https://a.example/', status: 'DONE' },
          { url: 'https://a.example/b', status: 'QUEUED' },
        ],
      },
      violations: [],
      args: [],
      code: 4,
      says: /1 page of 2 was not checked: https:\/\/a\.example\/b \(QUEUED\)/,
    },
    {
      name: 'PASS with pages: []',
      check: { status: 'COMPLETED', verdict: 'PASS', pages: [] },
      violations: [],
      args: [],
      code: 4,
      says: /the check lists no pages/,
    },
    {
      name: 'a real PASS',
      check: { status: 'COMPLETED', verdict: 'PASS', pages: [{ url: 'https://a.example/', status: 'DONE' }] },
      violations: [],
      args: [],
      code: 0,
      says: /^Accessibility check: PASS\n/,
    },
  ];
  let api: Loopback;
  let current = cases[0]!;
  beforeAll(async () => {
    api = await startLoopback((req, res) => {
      if (req.method === 'POST')
        return json(202, { id: ID, status: 'QUEUED' }, { location: `/api/v1/ci/checks/${ID}` })(req, res, 0);
      if (req.url.endsWith('/violations')) return json(200, current.violations)(req, res, 0);
      return json(200, { id: ID, ...current.check })(req, res, 0);
    });
  });
  afterAll(() => api?.close());

  it.each(cases)('$name → exit $code', async (c) => {
    current = c;
    const r = await runCliInProcess(['ci', 'https://a.example/', ...c.args], {
      SVC_API_KEY: 'svc_verdict_test_key',
      SVC_BASE_URL: api.url,
    });
    expect(r.code, r.stderr).toBe(c.code);
    expect(`${r.stdout}\n${r.stderr}`).toMatch(c.says);
    if (c.code === 4) expect(r.stderr).toMatch(/^error: the check could not be judged: /m);
  });
});
