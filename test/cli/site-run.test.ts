// `svc-a11y ci` over whole sites, end to end: the CLI in process against the simulator (through a recording proxy,
// so the test sees every CI check the CLI created), pages from a sitemap index on a loopback server. One gate:
// 45 pages of one site → 3 checks of ≤ 20, each page checked once, one report of each kind (validated by the
// consumers' own validators); 45 pages on two origins → grouped by site; FAIL and not-judged batches → the
// aggregated exit codes.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisDatabase } from '../support/redis-database.js';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { validateJUnitXsd } from '../support/junit-xsd.js';
import { startLoopback, type Loopback } from '../support/loopback.js';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.js';
import { validateSarif } from '../support/sarif.js';

const SHOP = 'https://shop.example.com';
const LEGACY = 'https://legacy.example.net';
const urlset = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u.replace(/&/g, '&amp;')}</loc></url>`).join('')}</urlset>`;
const index = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((u) => `<sitemap><loc>${u}</loc></sitemap>`).join('')}</sitemapindex>`;

const pages = Array.from({ length: 45 }, (_, i) => `${SHOP}/products/item-${String(i + 1).padStart(2, '0')}`);

let sim: Simulator;
let proxy: RecordingProxy;
let sitemaps: Loopback;
let dir: string;
const env = () => ({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: proxy.url });

beforeAll(async () => {
  sim = await startSimulator({ durations: { ciCheck: 400 } });
  proxy = await startRecordingProxy(sim.url);
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-site-'));
  // An index of three sitemaps (one gzip-compressed) listing the 45 pages; the third repeats two of them, one
  // with a fragment and an upper-case host: the same pages, checked once.
  const docs: Record<string, Buffer | string> = {
    '/sitemap.xml': '',
    '/sitemap-a.xml': urlset(pages.slice(0, 20)),
    '/sitemap-b.xml.gz': gzipSync(urlset(pages.slice(20, 40))),
    '/sitemap-c.xml': urlset([
      ...pages.slice(40),
      pages[0]!,
      `${pages[1]!.replace('shop.example.com', 'SHOP.example.com')}#reviews`,
    ]),
  };
  sitemaps = await startLoopback((req, res) => {
    const body =
      req.url === '/sitemap.xml'
        ? index(['/sitemap-a.xml', '/sitemap-b.xml.gz', '/sitemap-c.xml'].map((p) => `${sitemaps.url}${p}`))
        : docs[req.url];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': req.url.endsWith('.gz') ? 'application/gzip' : 'application/xml' }).end(body);
  });
});
afterAll(async () => {
  await proxy.close();
  await sitemaps.close();
  await sim.stop();
});

describe('a sitemap index of 45 pages on one site', () => {
  it('3 checks of ≤ 20, every page once, one report of each kind with each page’s batch; exit from the aggregated verdict', {
    timeout: 90_000,
  }, async () => {
    const out = (name: string) => join(dir, name);
    const before = proxy.requests.length;
    const started = Date.now();
    const r = await runCliLikeBinary(
      [
        'ci',
        '--sitemap',
        `${sitemaps.url}/sitemap.xml`,
        '--fail-on',
        'NONE',
        '--set-baseline',
        '--rate-limit',
        '120',
        '--report',
        `junit=${out('a.xml')}`,
        '--report',
        `sarif=${out('a.sarif')}`,
        '--report',
        `markdown=${out('a.md')}`,
        '--report',
        `html=${out('a.html')}`,
        '--format',
        'json',
      ],
      { env: env(), timeoutMs: 80_000 },
    );
    const wallMs = Date.now() - started;
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Sitemaps: 45 pages from 4 documents');
    expect(r.stderr).toContain('45 pages on 1 site: 3 CI checks of at most 20 pages each.');

    const created = proxy.created().slice(-3);
    expect(proxy.created().length).toBe(3);
    expect(created.map((c) => c.urls.length)).toEqual([15, 15, 15]);
    const checked = created.flatMap((c) => c.urls);
    expect(new Set(checked).size).toBe(45);
    expect([...checked].sort()).toEqual([...pages].sort());
    // Each check carries its batch key; --set-baseline and the threshold go with every batch.
    expect(created.map((c) => c.context?.svcA11yBatch)).toEqual([`${SHOP} 1/3`, `${SHOP} 2/3`, `${SHOP} 3/3`]);
    for (const c of created) expect(c).toMatchObject({ setBaseline: true, failOn: 'NONE' });

    // stdout (--format json): the merged check, every batch, the verdict.
    const json = JSON.parse(r.stdout);
    expect(json.verdict.outcome).toBe('PASS');
    expect(json.batches.map((b: { label: string }) => b.label)).toEqual([
      'shop.example.com 1/3',
      'shop.example.com 2/3',
      'shop.example.com 3/3',
    ]);
    expect(json.check.pages).toHaveLength(45);

    // One SARIF run (schema-valid) listing the batches.
    const sarif = JSON.parse(await readFile(out('a.sarif'), 'utf8'));
    expect(validateSarif(sarif), JSON.stringify(validateSarif.errors)).toBe(true);
    expect(sarif.runs).toHaveLength(1);
    expect(sarif.runs[0].properties.batches.map((b: { batch: string }) => b.batch)).toEqual([
      'shop.example.com 1/3',
      'shop.example.com 2/3',
      'shop.example.com 3/3',
    ]);

    // One JUnit document (junit-10.xsd) with a suite per page, each naming its batch.
    const junitText = await readFile(out('a.xml'), 'utf8');
    const xsd = validateJUnitXsd({ run: junitText });
    expect(xsd.ok, xsd.output).toBe(true);
    const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junitText);
    const suites = [junit.testsuites.testsuite].flat() as Array<{
      name: string;
      properties?: { property: { name: string; value: string } };
    }>;
    expect(suites.map((s) => s.name).sort()).toEqual([...pages].sort());
    for (const s of suites)
      expect(s.properties?.property).toMatchObject({
        name: 'batch',
        value: expect.stringMatching(/^shop\.example\.com [123]\/3$/),
      });

    // One summary and one HTML report, each listing the three checks.
    const markdown = await readFile(out('a.md'), 'utf8');
    expect(markdown.match(/^## Accessibility check/gm)).toHaveLength(1);
    expect(markdown).toContain('### Checks (3)');
    const html = await readFile(out('a.html'), 'utf8');
    for (const label of ['shop.example.com 1/3', 'shop.example.com 2/3', 'shop.example.com 3/3'])
      expect(html).toContain(label);

    // The figures the issue asks for (a budget of 120 requests per minute; informative, never asserted on).
    console.info(
      `45-URL sitemap run under 120/min: ${proxy.requests.length - before} requests, ${wallMs} ms wall time`,
    );
  });

  it('the same pages in another order (a URL file, shuffled) give the same batches', { timeout: 60_000 }, async () => {
    const file = join(dir, 'urls.txt');
    const shuffled = [...pages].reverse();
    await (await import('node:fs/promises')).writeFile(file, shuffled.join('\n'));
    const from = proxy.created().length;
    const r = await runCliLikeBinary(['ci', '--urls-file', file, '--fail-on', 'NONE', '--quiet'], {
      env: env(),
      timeoutMs: 50_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const again = proxy.created().slice(from);
    const first = proxy.created().slice(0, 3);
    expect(again.map((c) => [c.context?.svcA11yBatch, c.urls])).toEqual(
      first.map((c) => [c.context?.svcA11yBatch, c.urls]),
    );
  });
});

describe('pages on several sites', () => {
  it('45 URLs on two origins are grouped by site: no check mixes origins', { timeout: 60_000 }, async () => {
    const urls = [
      ...Array.from({ length: 25 }, (_, i) => `${SHOP}/clean/s${i}`),
      ...Array.from({ length: 20 }, (_, i) => `${LEGACY}/clean/l${i}`),
    ];
    const from = proxy.created().length;
    const r = await runCliLikeBinary(['ci', ...urls, '--quiet'], { env: env(), timeoutMs: 50_000 });
    expect(r.code, r.stderr).toBe(0);
    const created = proxy.created().slice(from);
    expect(created.map((c) => [c.context?.svcA11yBatch, c.urls.length])).toEqual([
      [`${LEGACY} 1/1`, 20],
      [`${SHOP} 1/2`, 13],
      [`${SHOP} 2/2`, 12],
    ]);
    for (const c of created) expect(new Set(c.urls.map((u) => new URL(u).origin)).size).toBe(1);
  });

  it('a batch that FAILs and one that cannot be judged → exit 1, both named; not judged alone → exit 4', {
    timeout: 60_000,
  }, async () => {
    const failing = `${SHOP}/clean/a?regress=1`;
    const unreachable = `${LEGACY}/clean/unreachable`;
    const both = await runCliLikeBinary(['ci', failing, `${SHOP}/clean/b`, `${LEGACY}/clean/c`, unreachable], {
      env: env(),
      timeoutMs: 50_000,
    });
    expect(both.code, both.stderr).toBe(1);
    expect(both.stdout).toContain('Accessibility check: FAIL');
    expect(both.stdout).toMatch(/shop\.example\.com: 1 finding breaks the threshold NEW_CRITICAL/);
    // The unreachable page was checked again alone (--recheck 1, the default), and that check ended FAILED.
    expect(both.stdout).toMatch(
      /also not judged: legacy\.example\.net recheck 1: the check did not complete \(status FAILED\)/,
    );

    const unknown = await runCliLikeBinary(['ci', `${SHOP}/clean/b`, `${LEGACY}/clean/c`, unreachable], {
      env: env(),
      timeoutMs: 50_000,
    });
    expect(unknown.code, unknown.stderr).toBe(4);
    expect(unknown.stdout).toContain('Accessibility check: UNKNOWN');

    const pass = await runCliLikeBinary(['ci', `${SHOP}/clean/b`, `${LEGACY}/clean/c`], {
      env: env(),
      timeoutMs: 50_000,
    });
    expect(pass.code, pass.stderr).toBe(0);
  });

  it('--max-urls: more pages than it allows, after the sitemaps are read, is refused naming the count and the flag; no check', {
    timeout: 30_000,
  }, async () => {
    const from = proxy.created().length;
    const r = await runCliLikeBinary(['ci', '--sitemap', `${sitemaps.url}/sitemap.xml`, '--max-urls', '40'], {
      env: env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('45 URLs to check, more than --max-urls 40');
    expect(proxy.created().length).toBe(from);
  });
});

describe('one deadline and one rate budget for every batch', () => {
  it('--timeout covers the whole run: every batch still running then is not judged → exit 4, each named once', {
    timeout: 60_000,
  }, async () => {
    const slow = await startSimulator({ durations: { ciCheck: 60_000 }, rateLimit: false });
    try {
      const urls = [...Array.from({ length: 21 }, (_, i) => `${SHOP}/clean/t${i}`), `${LEGACY}/clean/t`];
      const r = await runCliLikeBinary(['ci', ...urls, '--timeout', '2s', '--quiet'], {
        env: { SVC_API_KEY: slow.keys.full, SVC_BASE_URL: slow.url },
        timeoutMs: 50_000,
      });
      expect(r.code, r.stderr).toBe(4);
      const ended =
        r.stderr.match(
          /^error: CI check [0-9a-f-]{36} did not finish within 2000 ms \(--timeout\); it was (QUEUED|RUNNING) when last seen\. Its reports were written with what is known\.$/gm,
        ) ?? [];
      expect(ended).toHaveLength(3);
    } finally {
      await slow.stop();
    }
  });

  it('with --redis-url, the batches draw on the budget shared through Redis', { timeout: 60_000 }, async () => {
    const redisUrl = await redisDatabase();
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    try {
      const key = `svc-a11y:rl:v1:${createHash('sha256').update(sim.keys.full).digest('hex').slice(0, 32)}`;
      await redis.del(key);
      const urls = Array.from({ length: 25 }, (_, i) => `${SHOP}/clean/r${i}`);
      const r = await runCliLikeBinary(['ci', ...urls, '--redis-url', redisUrl, '--quiet'], {
        env: env(),
        timeoutMs: 50_000,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(await redis.exists(key)).toBe(1);
    } finally {
      await redis.quit();
    }
  });
});
