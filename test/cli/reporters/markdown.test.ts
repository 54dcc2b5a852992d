import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { mdCell } from '../../../src/cli/report/index.js';
import {
  adversarialReport,
  failedCheckReport,
  failReport,
  manyFindingsReport,
  sparseReport,
  unreachableReport,
} from './fixtures.js';
import { markdownOf } from '../../support/reports.js';

// Table cells of a markdown row, split on pipes that are not escaped.
const cellsOf = (line: string): string[] =>
  line
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) => c.trim());
const findingRows = (md: string): string[] => md.split('\n').filter((l) => /^\| (\*\*yes\*\*|no) \|/.test(l));

describe('mdCell and URL credentials', () => {
  it("redacts a URL's user:password@ before clipping the cell (a long token would lose its @ to the clip)", () => {
    const token = `eyJ${'x'.repeat(400)}`;
    const cell = mdCell(`https://x-access-token:${token}@staging.example.com/login`);
    expect(cell).not.toContain('eyJxxx');
    // The `@` after the redaction would read as a mention of the user "staging" on GitHub: a zero-width space breaks it.
    expect(cell).toContain('https://\\[redacted\\]@&#8203;staging.example.com/login');
  });

  it.each([
    ['@acme/team', '@&#8203;acme/team'],
    ['cc @someone-else.', 'cc @&#8203;someone-else.'],
    ['fixes #12, acme/shop#7', 'fixes #&#8203;12, acme/shop#&#8203;7'],
    ['GH-34 and gh-5', 'GH&#8203;-34 and gh&#8203;-5'],
    ['commit 1a2b3c4d5e6f7a8b', 'commit 1a2b3c&#8203;4d5e6f&#8203;7a8b'],
    ['deadbeef', 'deadbe&#8203;ef'],
  ])('%s forms no mention, reference or commit link: %s', (text, cell) => {
    expect(mdCell(text)).toBe(cell);
  });

  it('leaves text that forms none of them as it is', () => {
    for (const text of ['user@ example', '# heading', 'abc123', 'color #fff', 'a-b-c-d-e-f-g'])
      expect(mdCell(text)).not.toContain('&#8203;');
  });
});

describe('toMarkdown', () => {
  it('heads with the verdict and shows total and new counts, fixed and unchanged', () => {
    const md = markdownOf(failReport());
    expect(md.startsWith('## Accessibility check: FAIL\n')).toBe(true);
    expect(md).toContain('| critical | 2 | 1 |');
    expect(md).toContain('| serious | 1 | 1 |');
    expect(md).toContain('| moderate | 1 | 0 |');
    expect(md).toContain('| minor | 1 | 1 |');
    expect(md).toContain('| **all** | 5 | 3 |');
    expect(md).toContain('Fixed since the baseline: 3');
    expect(md).toContain('Unchanged: 4');
    expect(md).toContain('3 findings break the threshold SERIOUS_OR_WORSE');
    expect(md).not.toContain('No baseline');
  });

  it('lists page statuses and findings new first, with WCAG, selector and help link', () => {
    const md = markdownOf(unreachableReport());
    expect(md).toContain('| UNREACHABLE |');
    expect(md).toContain('1 page could not be checked');
    const rows = findingRows(markdownOf(failReport()));
    expect(rows).toHaveLength(6);
    expect(rows.map((r) => cellsOf(r)[3])).toEqual([
      'color-contrast',
      'label',
      'link-name',
      'image-alt',
      'region',
      'custom-rule',
    ]);
    expect(cellsOf(rows[1]!)).toEqual([
      '**yes**',
      'new',
      'serious',
      'label',
      '1.3.1, 4.1.2',
      '[https://shop.example.com/checkout](https://shop.example.com/checkout)',
      '#email',
      '[help](https://dequeuniversity.com/rules/axe/4.10/label)',
    ]);
  });

  it('notes a missing baseline and a check that did not complete', () => {
    expect(markdownOf(adversarialReport())).toContain('No baseline check was found');
    const failed = markdownOf(failedCheckReport());
    expect(failed).toContain('## Accessibility check: UNKNOWN');
    expect(failed).toContain('- Not judged: the check did not complete (status FAILED): Site unreachable');
    expect(failed).not.toContain('PASS');
  });

  it('shows n/a for counts the API did not send', () => {
    const md = markdownOf(sparseReport());
    expect(md).toContain('| critical | n/a | n/a |');
    expect(md).toContain('(unknown page)');
  });

  it('escapes pipes and line breaks so every row keeps its columns', () => {
    const md = markdownOf(adversarialReport());
    const [row] = findingRows(md);
    expect(row).toBeDefined();
    const cells = cellsOf(row!);
    expect(cells).toHaveLength(8);
    expect(cells[3]).toBe('rule\\<\\&"\'\\>\\|%:,😀');
    expect(cells[4]).toBe('1.4.3\\|x, 2.1.1<br>');
    expect(cells[6]).toContain('div\\[data-x="a\\|b"\\]');
    expect(cells[6]).not.toMatch(/[\u0007\u001b]/);
    // A link destination never holds a raw pipe, which would split the cell.
    expect(cells[7]).toBe('[help](https://help.example.com/rule?x=a%7Cb&y=%28c%29)');
    for (const line of md.split('\n').filter((l) => l.startsWith('| ')))
      expect(line.trimEnd().endsWith('|')).toBe(true);
  });

  it('escapes cell text', () => {
    expect(mdCell('a|b')).toBe('a\\|b');
    expect(mdCell('x\r\ny\nz')).toBe('x<br>y<br>z');
    expect(mdCell('<img src=x onerror=alert(1)>')).toBe('\\<img src=x onerror=alert(1)\\>');
    expect(mdCell('**bold** _it_ `code` [l](u)')).toBe('\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\[l\\](u)');
  });

  it('stays within maxBytes for 20 000 findings and says how many were not shown', () => {
    const report = manyFindingsReport(20_000);
    const md = markdownOf(report);
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThanOrEqual(1_000_000);
    const shown = findingRows(md).length;
    expect(shown).toBeGreaterThan(1000);
    expect(shown).toBeLessThan(20_000);
    expect(md).toContain(`… ${20_000 - shown} more findings not shown`);
    // Still the full header.
    expect(md).toContain('## Accessibility check: FAIL');
    expect(md).toContain('### Findings (20000, new first)');
  });

  it('honours a small maxBytes and counts UTF-8 bytes, not characters', () => {
    const report = manyFindingsReport(300);
    for (const f of report.violations) f.target = `${f.target} 😀😀😀😀😀😀😀😀`;
    const md = markdownOf(report, { maxBytes: 8_000 });
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThanOrEqual(8_000);
    const shown = findingRows(md).length;
    expect(shown).toBeGreaterThan(0);
    expect(md).toContain(`… ${300 - shown} more findings not shown`);
    // Not truncated when everything fits.
    expect(markdownOf(failReport())).not.toContain('not shown');
  });

  it('never exceeds maxBytes even when the header alone is larger', () => {
    const md = markdownOf(failReport(), { maxBytes: 100 });
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThanOrEqual(100);
  });
});
