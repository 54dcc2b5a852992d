import { describe, expect, it } from 'vitest';
import type { FailOn, PageStatus } from '../../../src/index.js';
import { DEFAULT_FAIL_ON } from '../../../src/vocabulary/index.js';
import { breaksThreshold, isPageFailure, sortFindings } from '../../../src/cli/verdict/threshold.js';
import { failReport, v } from './fixtures.js';

const IMPACTS = ['critical', 'serious', 'moderate', 'minor', undefined, 'unknown-impact'] as const;
const AGES = [true, false, undefined] as const;

// Which impacts break each threshold, for new and for not-new findings (written out, not derived from the code).
const TABLE: Record<FailOn | 'undefined', { new: string[]; old: string[] }> = {
  NEW_CRITICAL: { new: ['critical'], old: [] },
  undefined: { new: ['critical'], old: [] },
  ANY_CRITICAL: { new: ['critical'], old: ['critical'] },
  SERIOUS_OR_WORSE: { new: ['critical', 'serious'], old: ['critical', 'serious'] },
  NONE: { new: [], old: [] },
};

describe('breaksThreshold', () => {
  const rows = Object.entries(TABLE).flatMap(([failOn, expected]) =>
    IMPACTS.flatMap((impact) =>
      AGES.map((isNew) => ({
        failOn: failOn === 'undefined' ? undefined : (failOn as FailOn),
        impact,
        isNew,
        breaks: (isNew === true ? expected.new : expected.old).includes(impact ?? ''),
      })),
    ),
  );

  it.each(rows)('failOn $failOn, impact $impact, isNew $isNew → $breaks', ({ failOn, impact, isNew, breaks }) => {
    expect(breaksThreshold({ impact, isNew }, failOn)).toBe(breaks);
  });

  it('covers every threshold × impact × age combination', () => {
    expect(rows).toHaveLength(5 * IMPACTS.length * AGES.length);
    expect(rows.filter((r) => r.breaks)).toHaveLength(1 + 1 + 3 + 6);
  });

  it('defaults to NEW_CRITICAL and ignores the case of the impact', () => {
    expect(DEFAULT_FAIL_ON).toBe('NEW_CRITICAL');
    expect(breaksThreshold({ impact: 'Critical', isNew: true }, undefined)).toBe(true);
    expect(breaksThreshold({ impact: ' SERIOUS ', isNew: false }, 'SERIOUS_OR_WORSE')).toBe(true);
    expect(breaksThreshold({}, 'SERIOUS_OR_WORSE')).toBe(false);
  });

  it('treats a threshold it does not know like the default', () => {
    const future = 'ANY_SERIOUS' as FailOn;
    expect(breaksThreshold({ impact: 'critical', isNew: true }, future)).toBe(true);
    expect(breaksThreshold({ impact: 'critical', isNew: false }, future)).toBe(false);
  });
});

describe('isPageFailure', () => {
  it.each<[PageStatus | undefined, boolean]>([
    ['UNREACHABLE', true],
    ['ERROR', true],
    ['TIMEOUT', true],
    ['DONE', false],
    ['QUEUED', false],
    ['RUNNING', false],
    [undefined, false],
  ])('%s → %s', (status, failed) => {
    expect(isPageFailure({ url: 'https://a.example/', status })).toBe(failed);
  });

  it('accepts a missing page', () => {
    expect(isPageFailure(undefined)).toBe(false);
  });
});

describe('sortFindings', () => {
  it('puts new findings first, then by impact, then url, rule and selector', () => {
    const sorted = sortFindings(failReport().violations).map((f) => f.fingerprint);
    expect(sorted).toEqual(['fp-contrast', 'fp-label', 'fp-link', 'fp-img', 'fp-region', 'fp-custom']);
  });

  it('orders unknown impacts after minor, and ties by url, rule id and selector', () => {
    const input = [
      v({ fingerprint: 'unknown', impact: 'blocker', isNew: true }),
      v({ fingerprint: 'minor', impact: 'minor', isNew: true }),
      v({ fingerprint: 'b-url', impact: 'serious', url: 'https://b.example/', ruleId: 'a', target: 'a' }),
      v({ fingerprint: 'a-url-b-rule', impact: 'serious', url: 'https://a.example/', ruleId: 'b', target: 'a' }),
      v({ fingerprint: 'a-url-a-rule-b', impact: 'serious', url: 'https://a.example/', ruleId: 'a', target: 'b' }),
      v({ fingerprint: 'a-url-a-rule-a', impact: 'serious', url: 'https://a.example/', ruleId: 'a', target: 'a' }),
    ];
    expect(sortFindings(input).map((f) => f.fingerprint)).toEqual([
      'a-url-a-rule-a',
      'a-url-a-rule-b',
      'a-url-b-rule',
      'b-url',
      'minor',
      'unknown',
    ]);
  });

  it('is stable and does not change its input', () => {
    const input = ['first', 'second', 'third'].map((fingerprint) => v({ fingerprint }));
    const copy = [...input];
    expect(sortFindings(input).map((f) => f.fingerprint)).toEqual(['first', 'second', 'third']);
    expect(input).toEqual(copy);
    expect(sortFindings(input)).not.toBe(input);
  });

  it('handles findings with no fields', () => {
    expect(sortFindings([{}, { isNew: true }, { impact: 'minor' }])).toEqual([
      { isNew: true },
      { impact: 'minor' },
      {},
    ]);
  });
});
