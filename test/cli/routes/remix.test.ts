// Remix / React Router flat routes: test/fixtures/routes/remix, and the reading of single file names.
import { describe, expect, it } from 'vitest';
import { remixRouter } from '../../../src/cli/routes/remix.js';
import { casesOf, tableOf } from './fixture-check.js';

describe('Remix / React Router flat routes', () => {
  it('matches every page of the fixture to its file (index, layouts, params, optional, splat, pathless, escapes, folders)', () => {
    const { found, expected } = casesOf('remix');
    expect(found).toEqual(expected);
  });

  it('a resource route (no default export) and a pathless layout are no pages', () => {
    const files = tableOf('remix').routes.map((r) => r.file.replace(/^.*\/app\/routes\//, ''));
    expect(files).not.toContain('sitemap[.]xml.tsx');
    expect(files).not.toContain('_auth.tsx');
    expect(files).toContain('concerts.tsx');
  });

  it('reads the file-name conventions', () => {
    expect(remixRouter('_index.tsx')).toEqual([{ segments: [], index: true }]);
    expect(remixRouter('($lang).$id.tsx')).toEqual([
      {
        segments: [
          { kind: 'optional', name: 'lang' },
          { kind: 'dynamic', name: 'id' },
        ],
        index: false,
      },
    ]);
    expect(remixRouter('(en).about.tsx')[0]?.segments[0]).toEqual({ kind: 'optional', name: 'en', value: 'en' });
    expect(remixRouter('robots[.txt].ts')[0]?.segments).toEqual([{ kind: 'static', value: 'robots.txt' }]);
    expect(remixRouter('[_]private.tsx')[0]?.segments).toEqual([{ kind: 'static', value: '_private' }]);
    expect(remixRouter('app_.settings.tsx')[0]?.segments).toEqual([
      { kind: 'static', value: 'app' },
      { kind: 'static', value: 'settings' },
    ]);
    expect(remixRouter('_auth.tsx')).toEqual([]);
    expect(remixRouter('blog/index.tsx')[0]?.segments).toEqual([{ kind: 'static', value: 'blog' }]);
    expect(remixRouter('blog/helper.ts')).toEqual([]);
    expect(remixRouter('a/b/route.tsx')).toEqual([]);
  });
});
