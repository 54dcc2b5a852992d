// SvelteKit routes: test/fixtures/routes/sveltekit, and the reading of single file names.
import { describe, expect, it } from 'vitest';
import { svelteKitRouter } from '../../../src/cli/routes/sveltekit.js';
import { casesOf } from './fixture-check.js';

describe('SvelteKit routes', () => {
  it('matches every page of the fixture to its file (groups, dynamic, optional, rest, matchers, precedence, escapes)', () => {
    const { found, expected } = casesOf('sveltekit');
    expect(found).toEqual(expected);
  });

  it('+page.svelte (and +page@….svelte) is the page; +server, +layout, +page.ts and +error are not', () => {
    expect(svelteKitRouter('+page.svelte')).toEqual([{ segments: [] }]);
    expect(svelteKitRouter('(app)/[[lang]]/+page@(app).svelte')).toEqual([
      { segments: [{ kind: 'optional', name: 'lang' }] },
    ]);
    expect(svelteKitRouter('[u+00e9]t[x+e9]/+page.svelte')).toEqual([{ segments: [{ kind: 'static', value: 'été' }] }]);
    for (const file of ['+server.ts', '+layout.svelte', '+page.ts', '+page.server.ts', '+error.svelte', 'Card.svelte'])
      expect(svelteKitRouter(file), file).toEqual([]);
  });
});
