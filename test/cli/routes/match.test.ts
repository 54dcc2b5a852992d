// The matcher on hand-written tables: the path only, percent-decoded per segment, the trailing slash ignored, the
// base path removed as whole segments, and the most specific route first, segment by segment from the left.
import { describe, expect, it } from 'vitest';
import { bracketSegment } from '../../../src/cli/routes/brackets.js';
import { matchRoute, pathSegments, type Route, type RouteTable } from '../../../src/cli/routes/index.js';

const RULES = { restMin: 1 as const, mixed: true };
const route = (pattern: string, extra: Partial<Route> = {}): Route => ({
  file: `${pattern || '/'}.tsx`,
  line: 1,
  pattern,
  segments: pattern
    .split('/')
    .filter(Boolean)
    .map((s) => bracketSegment(s, { ...RULES, restMin: s.startsWith('[[') ? 0 : 1 })),
  ...extra,
});
const table = (routes: Route[], basePath: string[] = []): RouteTable => ({
  framework: 'next',
  folders: ['app'],
  basePath,
  routes,
  truncated: false,
});
const fileFor = (t: RouteTable, path: string) => matchRoute(t, `https://a.example${path}`)?.file;

describe('matchRoute', () => {
  it('static beats dynamic beats catch-all, compared from the left', () => {
    const t = table([route('/[a]/b'), route('/x/[b]'), route('/x/[...rest]'), route('/x/y'), route('/[...all]')]);
    expect(fileFor(t, '/x/y')).toBe('/x/y.tsx');
    expect(fileFor(t, '/x/z')).toBe('/x/[b].tsx');
    expect(fileFor(t, '/q/b')).toBe('/[a]/b.tsx');
    expect(fileFor(t, '/x/z/w')).toBe('/x/[...rest].tsx');
    expect(fileFor(t, '/q/r/s')).toBe('/[...all].tsx');
    // Left first: a static first segment wins over a later one.
    expect(fileFor(table([route('/[a]/b'), route('/x/[b]')]), '/x/b')).toBe('/x/[b].tsx');
  });

  it('a parameter inside text beats a bare parameter; a route that needs no optional segment beats one that skips it', () => {
    expect(fileFor(table([route('/[id]'), route('/post-[id]')]), '/post-7')).toBe('/post-[id].tsx');
    expect(fileFor(table([route('/docs/[[...slug]]'), route('/docs')]), '/docs')).toBe('/docs.tsx');
    expect(fileFor(table([route('/docs/[[...slug]]')]), '/docs')).toBe('/docs/[[...slug]].tsx');
  });

  it('an index route wins over the layout with the same path; then the first file', () => {
    const layout = route('/users', { file: 'users.vue' });
    const index = route('/users', { file: 'users/index.vue', index: true });
    expect(fileFor(table([index, layout]), '/users')).toBe('users/index.vue');
    expect(fileFor(table([layout, index]), '/users')).toBe('users/index.vue');
    expect(fileFor(table([route('/a', { file: 'b.tsx' }), route('/a', { file: 'a.tsx' })]), '/a')).toBe('a.tsx');
  });

  it('reads the path only, decoded per segment, with the trailing slash ignored', () => {
    const t = table([route('/'), route('/a b'), route('/a%2Fb'), route('/x/y')]);
    expect(fileFor(t, '/?q=1#top')).toBe('/.tsx');
    expect(fileFor(t, '/a%20b/')).toBe('/a b.tsx');
    // %2F decodes inside its segment: it is no separator.
    expect(pathSegments('https://a.example/a%2Fb')).toEqual(['a/b']);
    expect(fileFor(t, '/x%2Fy')).toBeUndefined();
    expect(pathSegments('https://a.example/%E0%A4%A/ok')).toEqual(['%E0%A4%A', 'ok']);
    // A decomposed file name (as macOS may write it) serves the composed URL browsers send.
    expect(fileFor(table([route('/cafe\u0301')]), '/caf%C3%A9')).toBe('/cafe\u0301.tsx');
  });

  it('removes the base path as whole segments; a URL outside it matches nothing', () => {
    const t = table([route('/'), route('/about')], ['docs']);
    expect(fileFor(t, '/docs')).toBe('/.tsx');
    expect(fileFor(t, '/docs/about')).toBe('/about.tsx');
    expect(fileFor(t, '/about')).toBeUndefined();
    expect(fileFor(t, '/docsite/about')).toBeUndefined();
  });

  it('matches nothing for a URL that is not http(s) or not a URL, or a path no route takes', () => {
    const t = table([route('/[...all]')]);
    expect(matchRoute(t, 'mailto:x@a.example')).toBeUndefined();
    expect(matchRoute(t, 'not a url')).toBeUndefined();
    expect(fileFor(table([route('/a')]), '/b')).toBeUndefined();
  });

  it('stays bounded on a route of many catch-alls against a long path', () => {
    const many = route(`${Array.from({ length: 12 }, (_, i) => `/[[...p${i}]]`).join('')}/end`);
    const started = performance.now();
    matchRoute(table([many]), `https://a.example/${'x/'.repeat(60)}nope`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
