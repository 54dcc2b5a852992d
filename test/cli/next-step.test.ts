// Every target error says the next step: a base URL that reaches some other HTTP server, a page on a
// site the service does not know (a preview host, localhost), a mistyped config key.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { json, problem, serveEach } from '../support/loopback.js';

const serve = serveEach();
const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-next-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = 'svc_next_step_key_1';

describe('a base URL that reaches another HTTP server', () => {
  it.each([
    ['a static server answering 501 Unsupported method', 501, 'text/html', '<h1>Error 501: Unsupported method</h1>'],
    ['a web app answering a JSON 404 that is not a problem', 404, 'application/json', '{"error":"not found"}'],
    ['a server answering 405 Method Not Allowed', 405, 'text/plain', 'Method Not Allowed'],
  ])('%s → exit 3 naming SVC_BASE_URL and --base-url', async (_name, status, type, body) => {
    const other = await serve((_req, res) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    });
    const r = await runCliInProcess(['ci', 'https://a.example/'], { SVC_API_KEY: KEY, SVC_BASE_URL: other.url });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/is SVC_BASE_URL \(or --base-url\) the service's API address/);
  });

  it("the service's own 404 problem is not taken for another server", async () => {
    const api = await serve(problem(404, 'NOT_FOUND'));
    const r = await runCliInProcess(['sites'], { SVC_API_KEY: KEY, SVC_BASE_URL: api.url });
    expect(r.code).toBe(3);
    expect(r.stderr).not.toMatch(/SVC_BASE_URL/);
  });
});

describe('a page on a site the service does not know', () => {
  it.each(['http://localhost:3000/', 'https://preview-42.example.com/'])(
    '%s → SITE_NOT_FOUND says pages must be on a registered site the service can reach, and where sites are listed',
    async (page) => {
      const api = await serve(
        json(
          404,
          { type: 'about:blank', title: 'Site not found', status: 404, code: 'SITE_NOT_FOUND' },
          {},
          'application/problem+json',
        ),
      );
      const r = await runCliInProcess(['ci', page], { SVC_API_KEY: KEY, SVC_BASE_URL: api.url });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/registered \(and, for CI checks, verified\) in your organisation/);
      expect(r.stderr).toMatch(/never localhost or a runner's private preview/);
      expect(r.stderr).toMatch(/'svc-a11y sites' lists the sites\./);
      expect(r.stderr).not.toMatch(/is SVC_BASE_URL/);
    },
  );
});

describe('a mistyped config file key', () => {
  it.each([
    ['failon', 'failOn'],
    ['failOnByURL', 'failOnByUrl'],
    ['setBaselin', 'setBaseline'],
    ['sitemaps', 'sitemap'],
    ['report', 'reports'],
  ])('%s → exit 2 with "did you mean %s?", nothing sent', async (typo, key) => {
    const file = join(dir, `${typo}.json`);
    writeFileSync(file, JSON.stringify({ urls: ['https://a.example/'], [typo]: 'x' }));
    const api = await serve(json(500, {}));
    const r = await runCliInProcess(['ci', '--config', file], { SVC_API_KEY: KEY, SVC_BASE_URL: api.url });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${typo} is not a known key; did you mean ${key}?`);
    expect(api.requests).toHaveLength(0);
  });

  it('a key nothing is close to gets no guess, only the list', async () => {
    const file = join(dir, 'far.json');
    writeFileSync(file, JSON.stringify({ urls: ['https://a.example/'], colour: 'blue' }));
    const r = await runCliInProcess(['ci', '--config', file], { SVC_API_KEY: KEY, SVC_BASE_URL: 'http://127.0.0.1:9' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/colour is not a known key \(known: urls, /);
  });
});
