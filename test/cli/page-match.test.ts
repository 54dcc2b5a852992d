// The gate judges every page it asked for: a check is judged only when each URL it was created with
// is reported once and no other page is; a service that drops, repeats or adds a page gets exit 4 naming the URLs,
// in every batch of a run and in every report. URLs compare as the service would (docs/cli.md, "What counts as
// the same page").
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { comparePages } from '../../src/cli/verdict/page-match.js';
import { distinctPages, pageKey } from '../../src/cli/pages/page-urls.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { json, passingService, type Seen, serveEach } from '../support/loopback.js';

describe('what counts as the same page', () => {
  it.each([
    ['https://a.example/docs', 'HTTPS://A.EXAMPLE/docs'],
    ['https://a.example/docs', 'https://a.example:443/docs'],
    ['http://a.example/docs', 'http://a.example:80/docs'],
    ['https://a.example/docs', 'https://a.example/docs/'],
    ['https://a.example/docs', 'https://a.example/docs//'],
    ['https://a.example', 'https://a.example/'],
    ['https://a.example/docs?x=1', 'https://a.example/docs/?x=1'],
    ['https://a.example/a/../docs', 'https://a.example/docs'],
    ['https://a.example/docs#top', 'https://a.example/docs'],
    ['https://bücher.example/', 'https://xn--bcher-kva.example/'],
    ['  https://a.example/docs ', 'https://a.example/docs'],
  ])('%s is %s', (a, b) => {
    expect(pageKey(a)).toBe(pageKey(b));
  });

  it.each([
    ['https://a.example/docs', 'https://a.example/Docs'],
    ['https://a.example/docs', 'http://a.example/docs'],
    ['https://a.example/docs', 'https://a.example:8443/docs'],
    ['https://a.example/docs', 'https://www.a.example/docs'],
    ['https://a.example/docs?a=1&b=2', 'https://a.example/docs?b=2&a=1'],
    ['https://a.example/docs?x=1', 'https://a.example/docs'],
    ['https://a.example/%7Edocs', 'https://a.example/~docs'],
    ['https://a.example/docs', 'not a url'],
  ])('%s is not %s', (a, b) => {
    expect(pageKey(a)).not.toBe(pageKey(b));
  });

  it('a run asks for each page once, in the spelling first given', () => {
    expect(
      distinctPages([
        'https://a.example/docs',
        'https://a.example/docs/',
        'https://a.example/x',
        'https://a.example/docs',
      ]),
    ).toEqual(['https://a.example/docs', 'https://a.example/x']);
  });
});

describe('comparePages', () => {
  const asked = ['https://a.example/', 'https://a.example/b', 'https://a.example/c'];
  it('nothing differs when every page is reported once, in any spelling', () => {
    expect(
      comparePages(asked, [
        { url: 'https://A.example:443/c/' },
        { url: 'https://a.example' },
        { url: 'https://a.example/b#x' },
      ]),
    ).toEqual({ missing: [], repeated: [], unasked: [] });
  });
  it('names the pages missing, repeated and not asked for', () => {
    expect(
      comparePages(asked, [
        { url: 'https://a.example/' },
        { url: 'https://a.example/' },
        { url: 'https://a.example/evil' },
        { url: 42 },
        {},
        null,
      ]),
    ).toEqual({
      missing: ['https://a.example/b', 'https://a.example/c'],
      repeated: ['https://a.example/'],
      unasked: ['https://a.example/evil', '(a page with no URL)', '(a page with no URL)', '(a page with no URL)'],
    });
  });
});

describe('svc-a11y ci against a service that reports other pages than it was asked for', () => {
  const serve = serveEach();
  const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-pages-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const done = (url: string) => ({ url, status: 'DONE' });
  // A service that answers COMPLETED/PASS with the pages `report(asked)` lists.
  const service = (report: (asked: string[]) => unknown[]) => serve(passingService([], report));
  const ci = (api: { url: string }, ...args: string[]) =>
    runCliInProcess(['ci', ...args], { SVC_API_KEY: 'svc_page_match_key_1', SVC_BASE_URL: api.url });
  const A = 'https://a.example/';
  const B = 'https://a.example/b';
  const C = 'https://a.example/c';

  it.each([
    [
      'a page dropped',
      () => [done(A), done(C)],
      /1 page asked for is missing from the check's answer: https:\/\/a\.example\/b/,
    ],
    [
      'every page dropped but one',
      () => [done(A)],
      /2 pages asked for are missing from the check's answer: https:\/\/a\.example\/b, https:\/\/a\.example\/c/,
    ],
    [
      'a page reported twice',
      () => [done(A), done(B), done(B), done(C)],
      /1 page is reported more than once: https:\/\/a\.example\/b/,
    ],
    [
      'a page not asked for',
      () => [done(A), done(B), done(C), done('https://a.example/admin')],
      /reports 1 page it was not asked for: https:\/\/a\.example\/admin/,
    ],
    [
      'a page swapped for another',
      () => [done(A), done(B), done('https://a.example/C')],
      /missing from the check's answer: https:\/\/a\.example\/c;.*not asked for: https:\/\/a\.example\/C/,
    ],
    [
      'a page without a URL in place of one',
      () => [done(A), done(B), { status: 'DONE' }],
      /missing from the check's answer: https:\/\/a\.example\/c.*\(a page with no URL\)/,
    ],
  ])('%s: exit 4 naming the URLs', async (_name, pages, says) => {
    const api = await service(pages);
    const r = await ci(api, A, B, C);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/^error: the check could not be judged: /m);
    expect(r.stderr).toMatch(says);
    expect(r.stdout).toMatch(/^Accessibility check: UNKNOWN/);
  });

  it('the same pages in other spellings pass: host case, default port, trailing slash, fragment', async () => {
    const api = await service(() => [
      done('HTTPS://A.EXAMPLE:443'),
      done('https://a.example/b/'),
      done('https://a.example/c#main'),
    ]);
    const r = await ci(api, A, B, C);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Accessibility check: PASS/);
  });

  it('two spellings of one page given are asked for once, and the answer is held against that one', async () => {
    const api = await service((asked) => asked.map(done));
    const r = await ci(api, 'https://a.example/docs', 'https://a.example/docs/', 'https://A.example/docs#x');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(api.requests[0]!.body).urls).toEqual(['https://a.example/docs']);
  });

  it('every report says which page is missing', async () => {
    const api = await service(() => [done(A)]);
    const file = (name: string) => join(dir, name);
    const r = await ci(
      api,
      A,
      B,
      '--report',
      `json=${file('r.json')}`,
      '--report',
      `junit=${file('r.xml')}`,
      '--report',
      `sarif=${file('r.sarif')}`,
      '--report',
      `markdown=${file('r.md')}`,
      '--report',
      `html=${file('r.html')}`,
    );
    expect(r.code, r.stderr).toBe(4);
    for (const name of ['r.json', 'r.xml', 'r.sarif', 'r.md', 'r.html']) {
      const text = readFileSync(file(name), 'utf8');
      expect(text, name).toMatch(/missing from the check(&#39;|&#x27;|&apos;|'|’)s answer: https:\/\/a\.example\/b/);
    }
    expect(JSON.parse(readFileSync(file('r.json'), 'utf8')).verdict.outcome).toBe('UNKNOWN');
  });

  it('holds for every batch of a whole-site run: one batch of two dropping a page makes the run exit 4, naming it', async () => {
    const urls = Array.from({ length: 25 }, (_, i) => `https://a.example/p/${String(i).padStart(2, '0')}`);
    const dropped = urls[24]!;
    const checks = new Map<string, string[]>();
    let n = 0;
    const api = await serve((req: Seen, res) => {
      if (req.method === 'POST') {
        const id = `0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d${String(n++).padStart(2, '0')}`;
        checks.set(id, (JSON.parse(req.body) as { urls: string[] }).urls);
        return json(202, { id, status: 'QUEUED' }, { location: `/api/v1/ci/checks/${id}` })(req, res, 0);
      }
      const id = /checks\/([0-9a-f-]{36})/.exec(req.url)![1]!;
      if (req.url.endsWith('/violations')) return json(200, [])(req, res, 0);
      const pages = checks
        .get(id)!
        .filter((u) => u !== dropped)
        .map(done);
      return json(200, { id, status: 'COMPLETED', verdict: 'PASS', pages })(req, res, 0);
    });
    const r = await ci(api, ...urls);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stdout).toMatch(
      new RegExp(
        `a\\.example 2/2: 1 page asked for is missing from the check's answer: ${dropped.replaceAll('.', '\\.')}`,
      ),
    );
    expect(r.stdout).not.toMatch(/a\.example 1\/2: /);
  });
});
