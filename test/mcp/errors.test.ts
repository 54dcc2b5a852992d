// What goes wrong, said as an isError result an agent can act on: bad input names the field and sends nothing;
// the service's 401, 403 and SITE_NOT_FOUND name SVC_API_KEY, the scope or plan feature, and the registered,
// verified site; and the API key, echoed back by the service under debug logs, appears in no result, no log
// notification and no stderr line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { json, type Loopback, problem, serveEach, startLoopback } from '../support/loopback.js';
import { type McpSession, mcpSessions, textOf } from './support.js';

const serve = serveEach();
const start = mcpSessions();
const shared = mcpSessions({ until: 'file' });
const KEY = 'svc_live_Echo-Me_93f1c2d4e5';
const URL_A = 'https://shop.example.com/';
const ID = '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b0a';

describe('bad input: an isError result naming the field, and nothing sent', () => {
  const cases: Array<[string, string, Record<string, unknown>, RegExp]> = [
    [
      '21 URLs',
      'check_pages',
      { urls: Array.from({ length: 21 }, (_, i) => `${URL_A}p/${i}`) },
      /urls takes at most 20 items/,
    ],
    ['no URL', 'check_pages', { urls: [] }, /urls takes at least 1 item/],
    ['a non-URL', 'check_pages', { urls: [URL_A, 'not a url'] }, /urls\[1\] must be an absolute http\(s\) URL/],
    [
      'a URL of another scheme',
      'scan_page',
      { url: 'ftp://shop.example.com/' },
      /url must be an absolute http\(s\) URL/,
    ],
    ['a missing field', 'scan_page', {}, /url is required/],
    [
      'an extra field',
      'scan_page',
      { url: URL_A, label: 'x' },
      /label is not an input of this tool \(its inputs: url, timeoutMs\)/,
    ],
    ['two ids', 'get_findings', { checkId: ID, scanId: ID }, /checkId and scanId were both given; give exactly one id/],
    ['no id', 'get_findings', {}, /checkId, scanId or scanRunId is required/],
    ['onlyNew without a check', 'get_findings', { scanId: ID, onlyNew: true }, /onlyNew applies to checkId only/],
    ['a timeout too short', 'check_pages', { urls: [URL_A], timeoutMs: 999 }, /timeoutMs must be at least 1000/],
    [
      'a timeout that is no whole number',
      'scan_page',
      { url: URL_A, timeoutMs: 1500.5 },
      /timeoutMs must be a whole number/,
    ],
    [
      'a bad failOn',
      'check_pages',
      { urls: [URL_A], failOn: 'SOMETIMES' },
      /failOn must be one of NEW_CRITICAL, ANY_CRITICAL/,
    ],
    ['an id that is no UUID', 'verify_fix', { remediationItemId: '42' }, /remediationItemId must be a UUID/],
  ];

  // One server answers every case (a server each cost ~0.5 CPU-s to start): a refused input leaves it serving the
  // next, and the service it points at must see no request from any of them.
  let api: Loopback;
  let mcp: McpSession;
  beforeAll(async () => {
    api = await startLoopback(json(500, { title: 'nothing should reach the service' }));
    mcp = await shared({ SVC_API_KEY: KEY, SVC_BASE_URL: api.url });
  });
  afterAll(() => api?.close());

  it.each(cases)('%s (%s)', async (_name, tool, args, message) => {
    const result = await mcp.call(tool, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(textOf(result)).toMatch(new RegExp(`^Invalid input for ${tool}: .*Nothing was sent to the service\\.$`));
    expect(result.structuredContent).toMatchObject({ error: { kind: 'input', fields: [expect.any(String)] } });
    // The server started, listed its tools and answered: not one request reached the service.
    expect(api.requests).toEqual([]);
  });
});

describe("the service's errors", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ rateLimit: false });
  });
  afterAll(() => sim.stop());

  it('401: names the code and SVC_API_KEY', async () => {
    const api = await serve(problem(401, 'API_KEY_INVALID'));
    const mcp = await start({ SVC_API_KEY: KEY, SVC_BASE_URL: api.url });
    const result = await mcp.call('list_sites');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The service answered 401 API_KEY_INVALID \(Title 401: Detail 401\)\./);
    expect(textOf(result)).toContain('set SVC_API_KEY');
    expect(textOf(result)).toContain('traceId: 5b9e3c1a-8f2d-4e6b-9a7c-1d2e3f4a5b6c');
    expect(result.structuredContent).toEqual({
      error: { kind: 'api', status: 401, code: 'API_KEY_INVALID', traceId: '5b9e3c1a-8f2d-4e6b-9a7c-1d2e3f4a5b6c' },
    });
  });

  it('403 API_KEY_SCOPE_MISSING: names the scope the tool needs (the simulator, a key without ci:check)', async () => {
    const mcp = await start({ SVC_API_KEY: sim.keys.noCi, SVC_BASE_URL: sim.url });
    const result = await mcp.call('check_pages', { urls: [URL_A] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The service answered 403 API_KEY_SCOPE_MISSING/);
    expect(textOf(result)).toContain('The API key lacks a scope check_pages needs: ci:check.');
  });

  it('403 FEATURE_NOT_IN_PLAN: names the plan feature', async () => {
    const api = await serve(problem(403, 'FEATURE_NOT_IN_PLAN'));
    const mcp = await start({ SVC_API_KEY: KEY, SVC_BASE_URL: api.url });
    const result = await mcp.call('verify_fix', { remediationItemId: ID });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The service answered 403 FEATURE_NOT_IN_PLAN/);
    expect(textOf(result)).toContain('lacks a feature verify_fix needs (API_ACCESS and remediation tracking)');
  });

  it('404 SITE_NOT_FOUND: says the pages must be on a registered, verified site (the simulator)', async () => {
    const mcp = await start({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url });
    const result = await mcp.call('check_pages', { urls: ['https://unknown.example.net/'] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The service answered 404 SITE_NOT_FOUND/);
    expect(textOf(result)).toContain('Pages must be on a site registered (and, for check_pages, verified)');
    expect(textOf(result)).toContain('list_sites');
  });

  it('without SVC_API_KEY the server still starts, and every tool says what to set', async () => {
    const api = await serve(json(500, {}));
    const mcp = await start({ SVC_BASE_URL: api.url });
    const result = await mcp.call('list_sites');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('set SVC_API_KEY');
    expect(api.requests).toEqual([]);
  });
});

describe('the API key is never shown', () => {
  it('echoed by the service under SVC_LOG=debug: absent from results, log notifications and stderr', async () => {
    // The service echoes the key as given, in upper case, percent-encoded and JSON-escaped, in its error detail,
    // and puts it in a site's name (with a terminal control and a bidi override) and URL on the next call.
    const echoes = `${KEY} ${KEY.toUpperCase()} ${encodeURIComponent(KEY)} ${JSON.stringify(KEY)}`;
    const api = await serve([
      (req, res) =>
        json(
          403,
          {
            status: 403,
            code: 'API_KEY_SCOPE_MISSING',
            title: `key ${KEY}`,
            detail: `your key ${echoes} lacks it`,
            traceId: KEY,
          },
          {},
          'application/problem+json',
        )(req, res, 0),
      json(200, [
        {
          id: ID,
          name: `Shop of ${KEY}\u001b[2J\u202E`,
          rootUrl: `https://user:${KEY}@shop.example.com/`,
          verified: true,
        },
      ]),
    ]);
    const mcp = await start({ SVC_API_KEY: KEY, SVC_BASE_URL: api.url, SVC_LOG: 'debug' });
    const denied = await mcp.call('list_sites');
    const listed = await mcp.call('list_sites');
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('[redacted]');
    expect(listed.isError).toBeFalsy();
    // The service's text is made safe as the CLI's output is: the key redacted, controls and bidi overrides visible.
    expect((listed.structuredContent as { sites: Array<{ name: string; rootUrl: string }> }).sites[0]).toMatchObject({
      name: 'Shop of [redacted]\uFFFD[2J\uFFFD',
      rootUrl: 'https://[redacted]@shop.example.com/',
    });
    // The debug lines were written (requests, answers), and went out as log notifications too.
    expect(mcp.stderr()).toMatch(/debug: /);
    expect(mcp.logs.length).toBeGreaterThan(0);
    expect(mcp.logs.some((line) => line.includes('403'))).toBe(true);
    const everything = [JSON.stringify(denied), JSON.stringify(listed), ...mcp.logs, mcp.stderr()].join('\n');
    for (const spelling of [KEY, KEY.toUpperCase(), encodeURIComponent(KEY), KEY.slice(0, 16)])
      expect(everything).not.toContain(spelling);
    // The key did reach the service, where it belongs.
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});
