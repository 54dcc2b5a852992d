// Static sites: test/fixtures/routes/static (no package.json; public/ wins over the root).
import { describe, expect, it } from 'vitest';
import { staticSiteRouter } from '../../../src/cli/routes/static-site.js';
import { casesOf, tableOf } from './fixture-check.js';

describe('static site routes', () => {
  it('matches every page of the fixture to its file (index.html for its folder, .html as written, dot-folders skipped)', () => {
    const { found, expected } = casesOf('static');
    expect(found).toEqual(expected);
    expect(tableOf('static').folders).toEqual(['test/fixtures/routes/static/public']);
  });

  it('x/index.html serves /x and /x/index.html; other files only their own path; non-HTML none', () => {
    expect(staticSiteRouter('x/index.html').map((s) => s.segments.map((g) => (g as { value: string }).value))).toEqual([
      ['x'],
      ['x', 'index.html'],
    ]);
    expect(staticSiteRouter('x/y.html')).toHaveLength(1);
    expect(staticSiteRouter('x/style.css')).toEqual([]);
  });
});
