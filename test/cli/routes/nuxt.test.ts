// Nuxt routes: test/fixtures/routes/nuxt (served under --base-path /app), and the reading of single file names.
import { describe, expect, it } from 'vitest';
import { nuxtRouter } from '../../../src/cli/routes/nuxt.js';
import { casesOf } from './fixture-check.js';

describe('Nuxt routes', () => {
  it('matches every page of the fixture to its file (index over its parent, dynamic, optional, catch-all, groups, base path)', () => {
    const { found, expected } = casesOf('nuxt');
    expect(found).toEqual(expected);
  });

  it('index stands for its folder; parameters inside text; -prefixed names are ignored', () => {
    expect(nuxtRouter('users/index.vue')).toEqual([{ segments: [{ kind: 'static', value: 'users' }], index: true }]);
    const [spec] = nuxtRouter('user-[id].vue');
    expect(spec?.segments[0]).toMatchObject({ kind: 'dynamic' });
    expect(nuxtRouter('-old/page.vue')).toEqual([]);
    expect(nuxtRouter('notes.txt')).toEqual([]);
  });
});
