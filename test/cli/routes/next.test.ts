// Next.js routes: the app router and the pages router of test/fixtures/routes/next (basePath '/shop' read from
// next.config.mjs), and the reading of single file names.
import { describe, expect, it } from 'vitest';
import { nextAppRouter } from '../../../src/cli/routes/next-app.js';
import { nextPagesRouter } from '../../../src/cli/routes/next-pages.js';
import { casesOf, tableOf } from './fixture-check.js';

const patterns = (specs: ReturnType<typeof nextAppRouter>) =>
  specs.map((s) => s.segments.map((g) => (g.kind === 'static' ? g.value : `${g.kind}:${'name' in g ? g.name : ''}`)));

describe('Next.js routes', () => {
  it('matches every page of the fixture to its file (groups, dynamic, catch-all, optional, precedence, exclusions, basePath, encoding)', () => {
    const { found, expected } = casesOf('next');
    expect(found).toEqual(expected);
  });

  it('reads both routers and the basePath literal of next.config.mjs', () => {
    const table = tableOf('next');
    expect(table.folders).toEqual(['test/fixtures/routes/next/app', 'test/fixtures/routes/next/pages']);
    expect(table.basePath).toEqual(['shop']);
  });

  it('app router: page files only, groups add nothing, private, slot and intercepting folders hold no route', () => {
    expect(patterns(nextAppRouter('(shop)/cart/page.jsx'))).toEqual([['cart']]);
    expect(patterns(nextAppRouter('docs/[[...slug]]/page.mdx'))).toEqual([['docs', 'catch-all:slug']]);
    expect(nextAppRouter('docs/[...slug]/page.tsx')[0]?.segments[1]).toEqual({
      kind: 'catch-all',
      name: 'slug',
      min: 1,
    });
    for (const file of [
      'api/route.ts',
      'layout.tsx',
      '_lib/page.tsx',
      '@modal/page.tsx',
      '(..)photo/page.tsx',
      'page.css',
    ])
      expect(nextAppRouter(file), file).toEqual([]);
    expect(patterns(nextAppRouter('%5Fnext/page.tsx'))).toEqual([['_next']]);
  });

  it('pages router: index is its folder; _app, _document, _error and api/ are no pages', () => {
    expect(patterns(nextPagesRouter('index.tsx'))).toEqual([[]]);
    expect(patterns(nextPagesRouter('blog/index.js'))).toEqual([['blog']]);
    expect(patterns(nextPagesRouter('blog/[slug].tsx'))).toEqual([['blog', 'dynamic:slug']]);
    for (const file of ['_app.tsx', '_document.tsx', '_error.tsx', 'api/users.ts', 'api.ts', 'types.d.ts'])
      expect(nextPagesRouter(file), file).toEqual([]);
  });
});
