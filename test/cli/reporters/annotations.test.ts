import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty } from '../../../src/cli/report/index.js';
import {
  adversarialReport,
  CHECKOUT,
  EVIL_RULE,
  EVIL_SUMMARY_SAFE,
  failReport,
  manyFindingsReport,
  unreachableReport,
} from './fixtures.js';
import { annotationsOf } from '../../support/reports.js';

// What the Actions runner does with an escaped value.
const unescapeRunner = (s: string): string =>
  s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');

describe('toGitHubAnnotations', () => {
  it('emits one ::error per finding that breaks the threshold, new first', () => {
    const lines = annotationsOf(failReport());
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.startsWith('::error title='))).toBe(true);
    expect(lines.map((l) => /finding%3A ([\w-]+)::/.exec(l)?.[1])).toEqual(['color-contrast', 'label', 'image-alt']);
    expect(lines[0]).toContain('a.btn-primary on https://shop.example.com/');
  });

  it('warns about pages that could not be checked', () => {
    expect(annotationsOf(unreachableReport())).toEqual([
      `::warning title=Page could not be checked::${CHECKOUT} (status UNREACHABLE)`,
    ]);
  });

  it('caps at 10 lines and closes with a notice of what was left out', () => {
    const lines = annotationsOf(manyFindingsReport(25));
    expect(lines).toHaveLength(11);
    expect(lines.slice(0, 10).every((l) => l.startsWith('::error '))).toBe(true);
    expect(lines[10]).toMatch(/^::notice::15 more annotations not shown/);
  });

  it('honours max, and emits no notice when nothing was left out', () => {
    const lines = annotationsOf(manyFindingsReport(5), { max: 3 });
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(/^::notice::2 more /);
    expect(annotationsOf(manyFindingsReport(10))).toHaveLength(10);
    expect(annotationsOf(manyFindingsReport(10)).some((l) => l.startsWith('::notice'))).toBe(false);
  });

  it('escapes data and properties so API text cannot break out of the command', () => {
    const [line] = annotationsOf(adversarialReport());
    expect(line).toBeDefined();
    expect(line).not.toMatch(/[\r\n\u0007\u001b]/);
    const match = /^::error title=([^:]*)::(.*)$/s.exec(line!);
    expect(match).not.toBeNull();
    const [, title, data] = match!;
    // A property holds no raw `:` or `,`, which would end it.
    expect(title).not.toMatch(/[:,]/);
    expect(unescapeRunner(title!)).toBe(`New critical accessibility finding: ${EVIL_RULE}`);
    expect(title).toContain('%25%3A%2C');
    expect(unescapeRunner(data!)).toContain(EVIL_SUMMARY_SAFE);
    // The `%0A` already in the data stays literal text, not a line break.
    expect(data).toContain('%250A');
  });

  it('implements GitHub escaping rules', () => {
    expect(escapeData('100%\r\n:,')).toBe('100%25%0D%0A:,');
    expect(escapeProperty('100%\r\n:,')).toBe('100%25%0D%0A%3A%2C');
    expect(escapeData('%0A')).toBe('%250A');
  });
});
