// GitLab's Code Quality report: the shape GitLab reads (an array of issues with description,
// check_name, a fingerprint unique in the file and stable across runs, one of GitLab's five severities, a relative
// path and a line from 1), suppressed findings left out, and a finding on a mapped page pointing at its file.
import { describe, expect, it } from 'vitest';
import { prepareReport, toCodeQuality } from '../../../src/cli/report/index.js';
import { adversarialReport, CHECKOUT, failReport, HOME, manyFindingsReport, v } from './fixtures.js';

const SEVERITIES = ['info', 'minor', 'major', 'critical', 'blocker'];

function checkShape(issues: ReturnType<typeof toCodeQuality>): void {
  expect(Array.isArray(issues)).toBe(true);
  for (const issue of issues) {
    expect(Object.keys(issue).sort()).toEqual(['check_name', 'description', 'fingerprint', 'location', 'severity']);
    expect(issue.description).not.toBe('');
    expect(issue.check_name).toMatch(/^svc-a11y\//);
    expect(SEVERITIES).toContain(issue.severity);
    expect(issue.location.path).not.toMatch(/^[a-z][a-z0-9+.-]*:|^\/|(^|\/)\.\.(\/|$)/i);
    expect(issue.location.lines.begin).toBeGreaterThanOrEqual(1);
  }
  expect(new Set(issues.map((i) => i.fingerprint)).size).toBe(issues.length);
}

describe('toCodeQuality', () => {
  it('one issue per finding, with severity from impact and the page as a relative path', () => {
    const issues = toCodeQuality(prepareReport(failReport()));
    checkShape(issues);
    expect(issues).toHaveLength(failReport().violations.length);
    const severityOf = (ruleId: string) => issues.find((i) => i.check_name === `svc-a11y/${ruleId}`)?.severity;
    expect(severityOf('region')).toBe('minor'); // moderate
    expect(issues.map((i) => i.severity).sort()).toEqual(
      failReport()
        // An impact this version does not know (or none) is info.
        .violations.map(
          (f) =>
            ({ critical: 'critical', serious: 'major', moderate: 'minor', minor: 'info' })[f.impact ?? ''] ?? 'info',
        )
        .sort(),
    );
    expect(issues.map((i) => i.location.path)).toContain('shop.example.com/checkout');
    expect(issues.map((i) => i.location.path)).toContain('shop.example.com/');
  });

  it('fingerprints are the same run after run, and unique even for findings that repeat', () => {
    const twice = v({ ruleId: 'image-alt', impact: 'critical', url: HOME, target: 'img' });
    const report = { ...failReport(), violations: [twice, { ...twice }, v({ ruleId: 'label', url: CHECKOUT })] };
    const first = toCodeQuality(prepareReport(report));
    const again = toCodeQuality(prepareReport(structuredClone(report)));
    checkShape(first);
    expect(again.map((i) => i.fingerprint)).toEqual(first.map((i) => i.fingerprint));
    // The service's fingerprint decides when there is one: the same finding keeps its fingerprint if its text changes.
    const a = toCodeQuality(prepareReport({ ...failReport(), violations: [v({ fingerprint: 'fp-1', target: 'a' })] }));
    const b = toCodeQuality(prepareReport({ ...failReport(), violations: [v({ fingerprint: 'fp-1', target: 'b' })] }));
    expect(a[0]!.fingerprint).toBe(b[0]!.fingerprint);
  });

  it('leaves out findings a reviewed suppression accepted', () => {
    const report = failReport();
    const all = toCodeQuality(prepareReport(report));
    const suppressed = toCodeQuality(
      prepareReport(report, {
        suppressions: [{ index: 0, ruleId: 'region', reason: 'reviewed', expires: '2999-01-01' }],
      }),
    );
    expect(suppressed).toHaveLength(all.length - 1);
    expect(suppressed.some((i) => i.check_name === 'svc-a11y/region')).toBe(false);
  });

  it('a finding on a mapped page points at its source file', () => {
    const issues = toCodeQuality(prepareReport(failReport()), {
      sourceMap: [{ prefix: '/checkout', file: 'src/pages/checkout.tsx' }],
    });
    const onCheckout = failReport().violations.filter((f) => f.url === CHECKOUT).length;
    expect(issues.filter((i) => i.location.path === 'src/pages/checkout.tsx')).toHaveLength(onCheckout);
  });

  it('hostile text stays inside its string, and hostile URLs give paths that never climb or carry a scheme', () => {
    const issues = toCodeQuality(prepareReport(adversarialReport()));
    checkShape(issues);
    const text = JSON.stringify(issues);
    expect(JSON.parse(text)).toEqual(issues);
    expect(text).not.toMatch(/[\u0000-\u001f]/);
  });

  it('a large report: 2 000 findings, all unique fingerprints', () => {
    checkShape(toCodeQuality(prepareReport(manyFindingsReport(2_000))));
  });
});
