import { describe, expect, it } from 'vitest';
import { cleanText } from '../../../src/cli/report/index.js';
import {
  adversarialReport,
  APP_URL,
  failedCheckReport,
  failReport,
  sparseReport,
  unreachableReport,
} from './fixtures.js';
import { textOf } from '../../support/reports.js';

describe('toText', () => {
  it('has no ANSI escape at all without colour, even with an ESC in API data', () => {
    for (const report of [
      failReport(),
      unreachableReport(),
      adversarialReport(),
      sparseReport(),
      failedCheckReport(),
    ]) {
      expect(textOf(report, { color: false })).not.toContain('\u001b');
    }
  });

  it('colours only when asked', () => {
    const text = textOf(failReport(), { color: true });
    expect(text).toContain('\u001b[31m');
    expect(text.replace(/\u001b\[\d+m/g, '')).toBe(textOf(failReport(), { color: false }));
  });

  it('shows verdict, threshold, counts, new counts, fixed and unchanged', () => {
    const text = textOf(failReport(), { color: false });
    expect(text.split('\n')[0]).toBe('Accessibility check: FAIL');
    expect(text).toContain('Threshold SERIOUS_OR_WORSE: 3 findings break it');
    expect(text).toContain('Findings: 5 (critical 2, serious 1, moderate 1, minor 1)');
    expect(text).toContain('New:      3 (critical 1, serious 1, moderate 0, minor 1)');
    expect(text).toContain('Fixed: 3, unchanged: 4');
    expect(text).toContain(`Details: ${APP_URL}`);
  });

  it('lists new findings before existing ones, with selector, WCAG and help URL', () => {
    const text = textOf(failReport(), { color: false });
    const at = (s: string): number => text.indexOf(s);
    expect(at('link-name')).toBeGreaterThan(-1);
    expect(at('color-contrast')).toBeLessThan(at('label'));
    expect(at('label')).toBeLessThan(at('link-name'));
    expect(at('link-name')).toBeLessThan(at('image-alt'));
    expect(at('image-alt')).toBeLessThan(at('region'));
    expect(text).toContain('selector: a.btn-primary');
    expect(text).toContain('help:     https://dequeuniversity.com/rules/axe/4.10/color-contrast');
    expect(text).toContain('WCAG 1.3.1, 4.1.2');
    expect(text).toMatch(/FAIL {2}new {2}critical {2}color-contrast/);
  });

  it('shows page statuses and failed checks', () => {
    const text = textOf(unreachableReport(), { color: false });
    expect(text).toMatch(/UNREACHABLE {2}https:\/\/shop\.example\.com\/checkout/);
    expect(text).toContain('1 page could not be checked');
    const failed = textOf(failedCheckReport(), { color: false });
    expect(failed).toMatch(
      /^Accessibility check: UNKNOWN\n {2}not judged: the check did not complete \(status FAILED\): Site unreachable\n/,
    );
    expect(failed).not.toContain('PASS');
  });

  it('tolerates missing fields and keeps every finding on its own lines', () => {
    const text = textOf(sparseReport(), { color: false });
    expect(text).toContain('Findings: n/a');
    expect(text).toContain('selector: (no selector)');
    const adversarial = textOf(adversarialReport(), { color: false });
    expect(adversarial).toContain('rule<&"\'>|%:,😀');
    expect(adversarial.split('\n').filter((l) => l.startsWith('  FAIL'))).toHaveLength(1);
  });

  it('cleans control characters', () => {
    expect(cleanText('a\r\nb\tc\u001b[2J\u0007')).toBe('a b c\uFFFD[2J\uFFFD');
  });
});
