// Reading sitemaps under bounds (src/cli/gate/sitemap.ts), against loopback servers: what a real sitemap holds (an
// index, nested, gzip, relative redirects, find/replace, exclude), and hostile documents refused within their
// bounds — entity expansion, 50 MB, a redirect to another origin, endless gzip, a gzip bomb, endless nesting,
// a server that never finishes — each with an error naming the sitemap. The last tests run the built binary:
// exit 2 naming the sitemap, under a kill timer.
import { mkdtemp, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { readSitemaps, SitemapError } from '../../src/cli/gate/sitemap.js';
import { parseSitemap, SitemapFormatError } from '../../src/cli/gate/sitemap-xml.js';
import { runCli } from '../support/cli.js';
import { type Handler, startLoopback, type Loopback } from '../support/loopback.js';

const urlset = (urls: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`;
const index = (locs: string[]) =>
  `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((u) => `<sitemap><loc>${u}</loc></sitemap>`).join('')}</sitemapindex>`;
const MiB = 1024 * 1024;

const servers: Loopback[] = [];
async function serve(handler: (path: string, res: ServerResponse, self: Loopback) => void): Promise<Loopback> {
  const server: Loopback = await startLoopback(((req, res) => handler(req.url, res, server)) as Handler);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

// Expects readSitemaps to refuse, naming the sitemap and matching the rule.
async function refused(sources: string[], rule: RegExp, options = {}): Promise<SitemapError> {
  const error = await readSitemaps(sources, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SitemapError);
  expect((error as Error).message).toMatch(/^sitemap /);
  expect((error as Error).message).toMatch(rule);
  return error as SitemapError;
}

describe('parseSitemap', () => {
  it('reads <loc> of a urlset and of an index, character references decoded, prefixed namespaces too', () => {
    expect(parseSitemap(urlset(['https://a.example/?a=1&amp;b=2', ' https://a.example/caf&#xE9; ']))).toEqual({
      kind: 'urlset',
      locs: ['https://a.example/?a=1&b=2', 'https://a.example/café'],
    });
    expect(parseSitemap(index(['https://a.example/s1.xml'])).kind).toBe('sitemapindex');
    expect(
      parseSitemap(
        '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://a.example/</sm:loc></sm:url></sm:urlset>',
      ).locs,
    ).toEqual(['https://a.example/']);
  });

  it('refuses a DOCTYPE or entity declaration (billion laughs, external entities) before parsing', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><urlset><url><loc>&lol9;</loc></url></urlset>`;
    expect(() => parseSitemap(laughs)).toThrow(SitemapFormatError);
    expect(() => parseSitemap(laughs)).toThrow(/DOCTYPE or entities/);
    expect(() =>
      parseSitemap('<!doctype x [<!ENTITY e SYSTEM "file:///etc/passwd">]><urlset><url><loc>&e;</loc></url></urlset>'),
    ).toThrow(/entity expansion is off/);
    // An entity reference without a declaration stays as written: nothing is looked up.
    expect(parseSitemap('<urlset><url><loc>https://a.example/&lol;</loc></url></urlset>').locs).toEqual([
      'https://a.example/&lol;',
    ]);
  });

  it('refuses what is not a sitemap: HTML, broken XML, another root', () => {
    expect(() => parseSitemap('<html><body>Not found</body></html>')).toThrow(
      /neither a <urlset> nor a <sitemapindex>/,
    );
    expect(() => parseSitemap('<urlset><url><loc>x</url></urlset>')).toThrow(/not well-formed XML \(line 1/);
  });
});

describe('readSitemaps: what a site serves', () => {
  it('follows an index (nested, gzip by its bytes, a same-origin redirect), de-duplicates, rewrites and excludes', async () => {
    const site = await serve((path, res, self) => {
      const docs: Record<string, string | Buffer> = {
        '/sitemap.xml': index([`${self.url}/nested.xml`, `${self.url}/moved.xml`]),
        '/nested.xml': index([`${self.url}/pages.bin`, `${self.url}/sitemap.xml`]),
        '/pages.bin': gzipSync(
          urlset(['https://www.example.com/a', 'https://www.example.com/admin/x', 'https://www.example.com/b#top']),
        ),
        '/new.xml': urlset(['https://www.example.com/b', 'https://www.example.com/c']),
      };
      if (path === '/moved.xml') return void res.writeHead(301, { location: '/new.xml' }).end();
      const body = docs[path];
      if (body === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    });
    const result = await readSitemaps([`${site.url}/sitemap.xml`], {
      exclude: [/\/admin\//],
      find: /^https:\/\/www\.example\.com/,
      replace: 'http://localhost:3000',
    });
    // Breadth first: the redirected sitemap (listed by the top index) before the nested index's pages.
    expect(result).toEqual({
      urls: ['http://localhost:3000/b', 'http://localhost:3000/c', 'http://localhost:3000/a'],
      documents: 4,
      excluded: 1,
    });
  });

  it('a connection reset before any answer is sent once more (a kept-alive connection the server closed); a second reset is the error', async () => {
    let resets = 1;
    const flaky = await serve((path, res) => {
      if (resets-- > 0) return void res.socket?.destroy();
      res.writeHead(200).end(urlset([`https://a.example${path}`]));
    });
    expect(await readSitemaps([`${flaky.url}/sitemap.xml`])).toEqual({
      urls: ['https://a.example/sitemap.xml'],
      documents: 1,
      excluded: 0,
    });
    expect(flaky.requests).toHaveLength(2);
    const broken = await serve((_path, res) => void res.socket?.destroy());
    await refused([`${broken.url}/sitemap.xml`], /sitemap\.xml could not be fetched/);
    expect(broken.requests).toHaveLength(2);
  });

  it('takes page URLs as listed, whatever host serves the sitemap', async () => {
    const site = await serve((_path, res) => res.writeHead(200).end(urlset(['https://shop.example.com/'])));
    expect((await readSitemaps([`${site.url}/sitemap.xml`])).urls).toEqual(['https://shop.example.com/']);
  });

  it('reads local files, gzip too; a device or a FIFO is refused unread', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-a11y-sitemap-'));
    await writeFile(join(dir, 'sitemap.xml.gz'), gzipSync(urlset(['https://a.example/x'])));
    expect((await readSitemaps([join(dir, 'sitemap.xml.gz')])).urls).toEqual(['https://a.example/x']);
    await refused(['/dev/zero'], /\/dev\/zero is not a regular file/);
    await refused([join(dir, 'missing.xml')], /cannot be read \(ENOENT\)/);
  });
});

describe('readSitemaps: hostile documents, refused within their bounds', () => {
  it('entity expansion: refused, naming the sitemap', async () => {
    const site = await serve((_p, res) =>
      res
        .writeHead(200)
        .end(
          '<?xml version="1.0"?><!DOCTYPE u [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><urlset><url><loc>https://a.example/&b;</loc></url></urlset>',
        ),
    );
    await refused(
      [`${site.url}/sitemap.xml`],
      new RegExp(`^sitemap ${site.url}/sitemap.xml declares a DOCTYPE or entities`),
    );
  });

  it('50 MB streamed: reading stops at the 10 MiB cap; the server never gets to send it all', async () => {
    let sent = 0;
    let closed = false;
    const site = await serve((_p, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      res.write('<urlset>');
      const pump = () => {
        while (sent < 50 * 1000 * 1000 && !closed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('</urlset>');
      };
      res.on('close', () => (closed = true));
      pump();
    });
    await refused([`${site.url}/big.xml`], /is larger than the 10 MiB cap per sitemap; stopped reading/);
    expect(sent).toBeLessThan(50 * 1000 * 1000);
  });

  it('50 MB announced by Content-Length: refused before reading the body', async () => {
    let sent = 0;
    const site = await serve((_p, res) => {
      res.writeHead(200, { 'content-length': String(50 * 1000 * 1000) });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (sent < 50 * 1000 * 1000 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    });
    await refused([`${site.url}/big.xml`], /larger than the 10 MiB cap/);
    expect(sent).toBeLessThan(50 * 1000 * 1000);
  });

  it('a redirect to another origin: refused, and the other origin is never asked', async () => {
    const other = await serve((_p, res) => res.writeHead(200).end(urlset(['https://a.example/'])));
    const site = await serve((_p, res) => res.writeHead(302, { location: `${other.url}/sitemap.xml` }).end());
    await refused([`${site.url}/sitemap.xml`], new RegExp(`redirects to another origin \\(${other.url}\\)`));
    expect(other.requests).toEqual([]);
  });

  it('an index listing a sitemap on another origin: refused (the protocol allows its own site only)', async () => {
    const other = await serve((_p, res) => res.writeHead(200).end(urlset(['https://a.example/'])));
    const site = await serve((_p, res) => res.writeHead(200).end(index([`${other.url}/sitemap.xml`])));
    await refused([`${site.url}/index.xml`], /lists http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml on another origin/);
    expect(other.requests).toEqual([]);
  });

  it('endless gzip (gzip members without end, and a Content-Encoding: gzip stream without end): stopped at the cap', async () => {
    const member = gzipSync(Buffer.alloc(MiB));
    const endless = (res: ServerResponse, headers: Record<string, string>) => {
      res.writeHead(200, headers);
      const pump = () => {
        while (!res.destroyed) if (!res.write(member)) return void res.once('drain', pump);
      };
      pump();
    };
    const raw = await serve((_p, res) => endless(res, { 'content-type': 'application/gzip' }));
    await refused([`${raw.url}/sitemap.xml.gz`], /larger than the 10 MiB cap|decompresses to more than the 10 MiB cap/);
    const encoded = await serve((_p, res) =>
      endless(res, { 'content-type': 'application/xml', 'content-encoding': 'gzip' }),
    );
    await refused([`${encoded.url}/sitemap.xml`], /larger than the 10 MiB cap/);
  });

  it('a gzip bomb (a few kB that expand to 1 GiB): zlib stops at the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * MiB));
    const site = await serve((_p, res) => res.writeHead(200).end(Buffer.concat(Array(16).fill(bomb))));
    await refused([`${site.url}/bomb.xml.gz`], /decompresses to more than the 10 MiB cap per sitemap/);
  });

  it('indexes nested without end: refused at the depth bound; an index listing itself is read once', async () => {
    const site = await serve((path, res, self) => {
      const n = Number(/\d+/.exec(path)?.[0] ?? 0);
      res.writeHead(200).end(index([`${self.url}/index-${n + 1}.xml`]));
    });
    await refused(
      [`${site.url}/index-0.xml`],
      /index-3\.xml \(listed in .*index-2\.xml\) is a sitemap index nested 3 levels deep; at most 3 are followed/,
    );
    const self = await serve((_p, res, me) => res.writeHead(200).end(index([`${me.url}/sitemap.xml`])));
    expect(await readSitemaps([`${self.url}/sitemap.xml`])).toEqual({ urls: [], documents: 1, excluded: 0 });
  });

  it('too many documents: refused at the count bound', async () => {
    const site = await serve((path, res, self) => {
      if (path === '/index.xml')
        return void res.writeHead(200).end(index(Array.from({ length: 10 }, (_, i) => `${self.url}/s${i}.xml`)));
      res.writeHead(200).end(urlset([`https://a.example${path}`]));
    });
    await refused([`${site.url}/index.xml`], /one document more than the 5 sitemaps a run reads/, { maxDocuments: 5 });
  });

  it('documents past the total bytes of a run: refused; a validator message that would quote the document is clipped', async () => {
    const site = await serve((path, res, self) => {
      if (path === '/index.xml')
        return void res.writeHead(200).end(index(Array.from({ length: 5 }, (_, i) => `${self.url}/s${i}.xml`)));
      res.writeHead(200).end(urlset([`https://a.example${path}`, 'x'.repeat(MiB)].slice(0, 1)) + ' '.repeat(MiB));
    });
    await refused(
      [`${site.url}/index.xml`],
      /s[2-4]\.xml \(listed in .*\) (takes the sitemaps of the run past the 3 MiB they may hold in all|is one document past the 3 MiB)/,
      { maxTotalBytes: 3 * MiB },
    );
    const deep = await serve((_p, res) => res.writeHead(200).end(`<urlset>${'<a>'.repeat(200_000)}`));
    const error = await refused([`${deep.url}/deep.xml`], /is not well-formed XML/);
    expect(error.message.length).toBeLessThan(400);
  });

  it('a server that sends a byte now and then, forever: refused when the time given to sitemaps ends', async () => {
    const site = await serve((_p, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 50);
    });
    await refused([`${site.url}/slow.xml`], /was not read within the 0\.5 s given to sitemaps/, { timeoutMs: 500 });
  });

  it('an answer other than 2xx, and a page entry that is not an http(s) URL, are refused naming the sitemap', async () => {
    const site = await serve((path, res) =>
      path === '/gone.xml' ? res.writeHead(410).end() : res.writeHead(200).end(urlset(['javascript:alert(1)'])),
    );
    await refused([`${site.url}/gone.xml`], /gone\.xml answered HTTP 410/);
    await refused([`${site.url}/bad.xml`], /lists "javascript:alert\(1\)", which is not an absolute http\(s\) URL/);
  });
});

describe('svc-a11y ci --sitemap (built binary): a hostile sitemap → exit 2 naming it, nothing sent', () => {
  it.each([
    [
      'entity expansion',
      (res: ServerResponse) =>
        res.writeHead(200).end('<!DOCTYPE u [<!ENTITY a "a">]><urlset><url><loc>&a;</loc></url></urlset>'),
      /declares a DOCTYPE or entities/,
    ],
    [
      'a redirect to another origin',
      (res: ServerResponse) => res.writeHead(307, { location: 'http://127.0.0.2:9/sitemap.xml' }).end(),
      /redirects to another origin \(http:\/\/127\.0\.0\.2:9\)/,
    ],
    [
      'endless data',
      (res: ServerResponse) => {
        res.writeHead(200);
        const chunk = Buffer.alloc(MiB, 'a');
        const pump = () => {
          while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
        };
        pump();
      },
      /larger than the 10 MiB cap/,
    ],
  ])('%s', { timeout: 40_000 }, async (_name, handler, rule) => {
    const api = await serve((_p, res) => res.writeHead(500).end());
    const site = await serve((_p, res) => handler(res));
    const r = await runCli(['ci', '--sitemap', `${site.url}/sitemap.xml`], {
      env: { SVC_API_KEY: 'svc_test_key_1', SVC_BASE_URL: api.url },
      timeoutMs: 30_000,
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`error: sitemap ${site.url}/sitemap.xml `);
    expect(r.stderr).toMatch(rule);
    expect(api.requests).toEqual([]);
  });
});
