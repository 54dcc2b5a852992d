// Report fixtures shared by the reporter tests. Built by hand from the API's record shapes.
import type { CiViolation } from '../../../src/index.js';
import type { CiReport } from '../../../src/cli/report/index.js';

export const HOME = 'https://shop.example.com/';
export const CHECKOUT = 'https://shop.example.com/checkout';
export const EXTRA = 'https://shop.example.com/only-in-findings';
export const APP_URL = 'https://app.example.com/ci/checks/7b0c9a1e-2f0e-4a55-9d1c-1f2e3d4c5b6a';

/** A completed FAIL check (SERIOUS_OR_WORSE): 2 pages, 6 findings mixing new/existing and impacts. */
export function failReport(): CiReport {
  return {
    check: {
      id: '7b0c9a1e-2f0e-4a55-9d1c-1f2e3d4c5b6a',
      status: 'COMPLETED',
      verdict: 'FAIL',
      failOn: 'SERIOUS_OR_WORSE',
      baselineMissing: false,
      counts: { critical: 2, serious: 1, moderate: 1, minor: 1 },
      newCounts: { critical: 1, serious: 1, moderate: 0, minor: 1 },
      fixedCount: 3,
      unchangedCount: 4,
      baselineCheckId: '0a4d6a1b-3c2e-4f5a-8b9c-0d1e2f3a4b5c',
      pages: [
        { url: HOME, status: 'DONE', counts: { critical: 1, serious: 0, moderate: 1, minor: 1 } },
        { url: CHECKOUT, status: 'DONE', counts: { critical: 1, serious: 1, moderate: 0, minor: 0 } },
      ],
      appUrl: APP_URL,
    },
    // Deliberately not in report order.
    violations: [
      v({
        ruleId: 'region',
        impact: 'moderate',
        url: HOME,
        target: 'div.promo',
        isNew: false,
        fingerprint: 'fp-region',
      }),
      v({
        ruleId: 'image-alt',
        impact: 'critical',
        url: CHECKOUT,
        target: 'img.logo',
        isNew: false,
        fingerprint: 'fp-img',
        wcagSc: ['1.1.1'],
      }),
      v({
        ruleId: 'color-contrast',
        impact: 'critical',
        url: HOME,
        target: 'a.btn-primary',
        isNew: true,
        fingerprint: 'fp-contrast',
      }),
      v({
        ruleId: 'label',
        impact: 'serious',
        url: CHECKOUT,
        target: '#email',
        isNew: true,
        fingerprint: 'fp-label',
        wcagSc: ['1.3.1', '4.1.2'],
      }),
      v({ ruleId: 'link-name', impact: 'minor', url: HOME, target: 'footer a', isNew: true, fingerprint: 'fp-link' }),
      v({
        ruleId: 'custom-rule',
        impact: undefined,
        isNew: undefined,
        url: EXTRA,
        target: 'main',
        fingerprint: 'fp-custom',
      }),
    ],
  };
}

/** Fingerprints of the findings of {@link failReport} that break SERIOUS_OR_WORSE. */
export const FAIL_BREAKING = ['fp-contrast', 'fp-label', 'fp-img'];

/** A full finding with defaults for the fields a test does not care about. */
export function v(fields: Partial<CiViolation>): CiViolation {
  return {
    ruleId: 'color-contrast',
    impact: 'serious',
    wcagSc: ['1.4.3'],
    url: HOME,
    helpUrl: `https://dequeuniversity.com/rules/axe/4.10/${fields.ruleId ?? 'color-contrast'}`,
    target: 'a',
    failureSummary: 'Fix any of the following:\n  Element has insufficient color contrast',
    fingerprint: 'fp',
    isNew: true,
    ...fields,
  };
}

/** A completed check whose second page was unreachable; no finding breaks the default threshold. */
export function unreachableReport(): CiReport {
  return {
    check: {
      id: '5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
      status: 'COMPLETED',
      verdict: 'FAIL',
      counts: { critical: 0, serious: 0, moderate: 0, minor: 1 },
      newCounts: { critical: 0, serious: 0, moderate: 0, minor: 0 },
      fixedCount: 0,
      unchangedCount: 1,
      pages: [
        { url: HOME, status: 'DONE', counts: { minor: 1 } },
        { url: CHECKOUT, status: 'UNREACHABLE' },
      ],
    },
    violations: [v({ ruleId: 'link-name', impact: 'minor', isNew: false, url: HOME })],
  };
}

/** A check that could not run at all. */
export function failedCheckReport(): CiReport {
  return {
    check: { id: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b', status: 'FAILED', failureReason: 'Site unreachable' },
    violations: [],
  };
}

/** Only the fields the types require. */
export function sparseReport(): CiReport {
  return {
    check: {
      id: 'f0e1d2c3-b4a5-4968-8776-655443322110',
      status: 'COMPLETED',
      verdict: 'PASS',
      pages: [{}, { url: HOME }],
    },
    violations: [{}, { ruleId: 'image-alt' }, { impact: 'critical', isNew: true }],
  };
}

export const EVIL_RULE = `rule<&"'>|%:,😀`;
export const EVIL_TARGET = `div[data-x="a|b"] > a:nth-child(2), span 'q' & <b> 😀\u0007\u001b[31m`;
export const EVIL_URL = `https://evil.example.com/p|a%th?q=<&"'>&x=1,2:3#😀`;
const EVIL_SUMMARY = `Fix any:\r\n  line|two\n%0A ::error::injected, 100% "bad" <script>`;
/** {@link EVIL_SUMMARY} as every report shows it: made safe where it entered (CR LF is a line feed). */
export const EVIL_SUMMARY_SAFE = `Fix any:\n  line|two\n%0A ::error::injected, 100% "bad" <script>`;
/** {@link EVIL_TARGET} as every report shows it: BEL and ESC made visible as U+FFFD. */
export const EVIL_TARGET_SAFE = `div[data-x="a|b"] > a:nth-child(2), span 'q' & <b> 😀\uFFFD\uFFFD[31m`;
export const EVIL_HELP = 'https://help.example.com/rule?x=a|b&y=(c)';

/** Adversarial strings in every field a reporter prints. */
export function adversarialReport(): CiReport {
  return {
    check: {
      id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
      status: 'COMPLETED',
      verdict: 'FAIL',
      failOn: 'ANY_CRITICAL',
      baselineMissing: true,
      counts: { critical: 1 },
      pages: [{ url: EVIL_URL, status: 'DONE' }],
      appUrl: 'https://app.example.com/ci/checks/a1b2c3d4?x=|',
    },
    violations: [
      v({
        ruleId: EVIL_RULE,
        impact: 'critical',
        wcagSc: ['1.4.3|x', '2.1.1\n'],
        url: EVIL_URL,
        helpUrl: EVIL_HELP,
        target: EVIL_TARGET,
        failureSummary: EVIL_SUMMARY,
        fingerprint: 'fp<&>"',
        isNew: true,
      }),
    ],
  };
}

/** `n` breaking findings (new, critical) spread over 2 pages. */
export function manyFindingsReport(n: number): CiReport {
  const report = failReport();
  report.violations = Array.from({ length: n }, (_, i) =>
    v({
      ruleId: `rule-${i % 50}`,
      impact: 'critical',
      url: i % 2 ? HOME : CHECKOUT,
      target: `main > section:nth-child(${i}) > a.link-${i}`,
      fingerprint: `fp-${i}`,
      isNew: true,
    }),
  );
  return report;
}
