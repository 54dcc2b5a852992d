// Astro routes: test/fixtures/routes/astro, and the reading of single file names.
import { describe, expect, it } from 'vitest';
import { astroRouter } from '../../../src/cli/routes/astro.js';
import { casesOf } from './fixture-check.js';

describe('Astro routes', () => {
  it('matches every page of the fixture to its file (dynamic, rest, parameters in text, precedence, exclusions, encoding)', () => {
    const { found, expected } = casesOf('astro');
    expect(found).toEqual(expected);
  });

  it('pages are .astro, Markdown, .mdx and .html files; endpoints and _-prefixed names are not', () => {
    expect(astroRouter('index.astro')).toEqual([{ segments: [] }]);
    expect(astroRouter('guide.markdown')).toEqual([{ segments: [{ kind: 'static', value: 'guide' }] }]);
    expect(astroRouter('[...path].astro')).toEqual([{ segments: [{ kind: 'catch-all', name: 'path', min: 0 }] }]);
    for (const file of ['api/data.json.ts', 'feed.xml.js', '_hidden.astro', '_lib/page.astro', 'style.css'])
      expect(astroRouter(file), file).toEqual([]);
  });
});
