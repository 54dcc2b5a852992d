// `svc-a11y doctor`, run in process: the simulator for a set-up where all is well, hostile loopback
// services for each way a set-up goes wrong (no key, a key refused, a base URL that is not the API, a scope or a
// plan feature missing, no verified site, a key echoed back), a loopback proxy that asks for a password, and real
// redis-servers (this file's own, started by startRedis and stopped by PID) for SVC_REDIS_URL. Every line's status
// and wording is asserted; no assertion reads the clock but against a timer set alongside.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from 'proxy';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis } from '../../scripts/redis.mjs';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { runCliInProcess, runCliLikeBinary } from '../support/cli-in-process.js';
import { type Handler, json, problem, refusedPort, serveEach, text } from '../support/loopback.js';
import { eventually, startSilentServer } from '../support/silent-tcp.js';
import { raceTimer } from '../support/timer.js';

const KEY = 'svc_doctor_9f3c1e7a5b2d4c6e8a0f';
const SITE_ID = 'e832d125-72cd-4720-9cc8-69615015f0d7';
const site = (verified: boolean, name = 'Example shop') => ({
  id: SITE_ID,
  name,
  rootUrl: 'https://shop.example.com/',
  normalizedHost: 'shop.example.com',
  verified,
});

/** The report's lines, without the summary of a run where all is well. */
const linesOf = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .filter((line) => line !== 'All is well.');
/** What a failed run says on stderr, and nothing else. */
const verdict = (problems: number, code: number) =>
  `error: ${problems} problem${problems === 1 ? '' : 's'} found: fix the FAIL line${problems === 1 ? '' : 's'} above (exit ${code})\n`;
/** The one line of a check, by its printed label. */
const lineOf = (stdout: string, label: string) => {
  const found = linesOf(stdout).filter((line) => line.slice(5).startsWith(`${label}:`));
  expect(found, `one line for ${label} in:\n${stdout}`).toHaveLength(1);
  return found[0]!;
};

/** A service answering the reads doctor makes: the sites, a scan and a CI check of no id, a site's trend. */
function service(routes: { sites?: Handler; scans?: Handler; ci?: Handler; trend?: Handler } = {}): Handler {
  return (req, res, index) => {
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
    const handler =
      path === '/api/v1/sites'
        ? (routes.sites ?? json(200, [site(true)]))
        : path.startsWith('/api/v1/scans/')
          ? (routes.scans ?? problem(404, 'SCAN_NOT_FOUND'))
          : path.startsWith('/api/v1/ci/checks/')
            ? (routes.ci ?? problem(404, 'CI_CHECK_NOT_FOUND'))
            : path.endsWith('/trend')
              ? (routes.trend ?? json(200, { siteId: SITE_ID, standard: 'WCAG22_AA', points: [] }))
              : problem(404, 'SITE_NOT_FOUND');
    return handler(req, res, index);
  };
}

const serve = serveEach();

describe('svc-a11y doctor against the simulator', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ rateLimit: false });
  });
  afterAll(() => sim.stop());

  it('all is well: exit 0, one line per check (ok or info), each site with whether it is verified', async () => {
    const r = await runCliInProcess(['doctor'], { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('All is well.');
    for (const line of linesOf(r.stdout)) expect(line).toMatch(/^(ok {2}|info) \S.*: \S/);
    expect(lineOf(r.stdout, 'API key')).toBe('ok   API key: accepted (SVC_API_KEY)');
    expect(lineOf(r.stdout, 'base URL')).toBe(`ok   base URL: ${sim.url} (SVC_BASE_URL) answers the Developer API v1`);
    expect(lineOf(r.stdout, 'scope sites:read, plan feature API_ACCESS')).toMatch(
      /^ok {3}.*held: GET \/api\/v1\/sites answered 200/,
    );
    expect(lineOf(r.stdout, 'scope scans:read')).toMatch(/^ok {3}.*answered 404 SCAN_NOT_FOUND, not 403/);
    expect(lineOf(r.stdout, 'scope ci:check')).toMatch(
      /^ok {3}.*answered 404 CI_CHECK_NOT_FOUND, not 403 \(needed by ci[,)]/,
    );
    expect(lineOf(r.stdout, 'plan feature TREND_HISTORY')).toMatch(/^ok {3}.*in the plan/);
    expect(r.stdout).toMatch(
      /^info scope scans:write; plan features JOURNEYS, AUTHENTICATED_SCANS, remediation tracking: not shown/m,
    );
    expect(lineOf(r.stdout, 'sites')).toBe('ok   sites: 3 listed, 2 verified');
    expect(lineOf(r.stdout, 'site Example shop')).toBe(
      `ok   site Example shop: https://shop.example.com/ (id ${sim.ids.verifiedSite}): verified`,
    );
    expect(lineOf(r.stdout, 'site Example blog')).toMatch(
      new RegExp(
        `^info site Example blog: https://blog\\.example\\.org/ \\(id ${sim.ids.unverifiedSite}\\): not verified: CI checks of its pages answer 409 DOMAIN_NOT_VERIFIED`,
      ),
    );
    // The simulator sends no rate-limit headers, as the document shows none.
    expect(lineOf(r.stdout, 'rate limit')).toMatch(/^info rate limit: the service sent no rate-limit headers/);
    expect(lineOf(r.stdout, 'proxy')).toMatch(/^info proxy: none set/);
    expect(lineOf(r.stdout, 'Redis')).toMatch(/^info Redis: not set \(--redis-url \/ SVC_REDIS_URL\)/);
    expect(r.stdout).not.toContain(sim.keys.full);
  });

  it("the config file's journeys: each found with its site (one that logs in says what it needs), an unknown id FAILs", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'svc-a11y-doctor-journeys-'));
    const missing = '7f3e2d1c-0b9a-4876-8543-210fedcba987';
    await writeFile(
      join(folder, 'svc-a11y.config.json'),
      JSON.stringify({ journeys: [sim.ids.guestJourney, sim.ids.authJourney, missing] }),
    );
    const r = await runCliLikeBinary(['doctor'], {
      env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url },
      cwd: folder,
    });
    expect(r.code).toBe(2);
    expect(lineOf(r.stdout, 'journey Guest checkout')).toBe(
      `ok   journey Guest checkout: ${sim.ids.guestJourney} on https://shop.example.com/`,
    );
    expect(lineOf(r.stdout, 'journey Account settings')).toMatch(
      /logs in: needs AUTHENTICATED_SCANS and the site's saved auth profile/,
    );
    expect(lineOf(r.stdout, `journey ${missing}`)).toMatch(
      /^FAIL .*not among the journeys of the organization's sites/,
    );
    expect(lineOf(r.stdout, 'plan feature JOURNEYS')).toMatch(
      /^info .*only when a journey run starts, and doctor starts none/,
    );
  });

  it('--json: the same checks as records, ok and the exit code', async () => {
    const r = await runCliInProcess(['doctor', '--json'], { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      ok: boolean;
      exitCode: number;
      checks: Array<{ id: string; status: string }>;
    };
    expect(report.ok).toBe(true);
    expect(report.exitCode).toBe(0);
    expect(report.checks.map((c) => c.id)).toEqual([
      'api-key',
      'base-url',
      'access:sites',
      'scope:scans:read',
      'scope:ci:check',
      'feature:TREND_HISTORY',
      'not-shown',
      'sites',
      'site',
      'site',
      'site',
      'rate-limit',
      'proxy',
      'redis',
    ]);
    expect(report.checks.every((c) => c.status === 'ok' || c.status === 'info')).toBe(true);
    // The text report has exactly one line per check, and the summary.
    const text = await runCliInProcess(['doctor'], { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url });
    expect(linesOf(text.stdout)).toHaveLength(report.checks.length);
  });

  it("a key without ci:check (the simulator's): FAIL naming the scope, exit 3; `doctor sites` does not need it: exit 0", async () => {
    const env = { SVC_API_KEY: sim.keys.noCi, SVC_BASE_URL: sim.url };
    const all = await runCliInProcess(['doctor'], env);
    expect(all.code).toBe(3);
    expect(lineOf(all.stdout, 'scope ci:check')).toMatch(
      /^FAIL scope ci:check: the key lacks the scope ci:check \(needed by ci[^)]*\): GET \/api\/v1\/ci\/checks\/\{id\} answered 403 API_KEY_SCOPE_MISSING.*create one with ci:check in the organization's settings, under Developer API, and set SVC_API_KEY/,
    );
    expect(all.stderr).toBe(verdict(1, 3));
    expect(all.stdout).not.toContain('All is well.');
    const sites = await runCliInProcess(['doctor', 'sites'], env);
    expect(sites.code).toBe(0);
    expect(lineOf(sites.stdout, 'scope ci:check')).toMatch(
      /^info scope ci:check: the key lacks the scope ci:check \(not needed by sites\)/,
    );
  });

  it("the Free plan's key: FAIL naming the plan feature TREND_HISTORY; `doctor ci` does not need it", async () => {
    const env = { SVC_API_KEY: sim.keys.freePlan, SVC_BASE_URL: sim.url };
    const all = await runCliInProcess(['doctor'], env);
    expect(all.code).toBe(3);
    expect(lineOf(all.stdout, 'plan feature TREND_HISTORY')).toMatch(
      /^FAIL plan feature TREND_HISTORY: the plan lacks the feature TREND_HISTORY \(needed by trend\): .*403 FEATURE_NOT_IN_PLAN/,
    );
    expect((await runCliInProcess(['doctor', 'ci'], env)).code).toBe(0);
  });

  it('a command name doctor does not know: usage error (exit 2) with the closest one', async () => {
    const r = await runCliInProcess(['doctor', 'sitse'], { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"sitse" is not one; did you mean sites?');
    expect(r.stdout).toBe('');
  });

  it('--help says what is checked and what each exit code means', async () => {
    const r = await runCliInProcess(['doctor', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: svc-a11y doctor [command…] [--json]');
    expect(r.stdout).toMatch(
      /Exit codes of doctor: 0 all is well.*; 2 a setting is missing or malformed\n[\s\S]*; 3 the service,/,
    );
    expect((await runCliInProcess(['--help'])).stdout).toMatch(/^ {2}doctor +Check the set-up/m);
  });
});

describe('svc-a11y doctor against hostile services', () => {
  it('no API key: FAIL naming SVC_API_KEY, exit 2, nothing sent', async () => {
    const api = await serve(service());
    const r = await runCliInProcess(['doctor'], { SVC_BASE_URL: api.url });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(verdict(1, 2));
    expect(lineOf(r.stdout, 'API key')).toMatch(/^FAIL API key: missing: set SVC_API_KEY or pass --api-key/);
    expect(lineOf(r.stdout, 'scopes, plan features, sites, rate limit')).toMatch(/^info .*not checked/);
    expect(api.requests).toHaveLength(0);
  });

  it('no base URL: FAIL naming SVC_BASE_URL / --base-url, exit 2', async () => {
    const r = await runCliInProcess(['doctor'], { SVC_API_KEY: KEY });
    expect(r.code).toBe(2);
    expect(lineOf(r.stdout, 'base URL')).toBe(
      "FAIL base URL: missing: set SVC_BASE_URL or pass --base-url (the service's address, without /api/v1)",
    );
  });

  it('401 whose title and detail echo the key: FAIL naming SVC_API_KEY, exit 3, the key in no output', async () => {
    const api = await serve((req, res) => {
      const key = String(req.headers.authorization).replace(/^Bearer /, '');
      res.writeHead(401, { 'content-type': 'application/problem+json' });
      res.end(
        JSON.stringify({
          type: 'about:blank',
          title: `Key ${key} refused`,
          status: 401,
          detail: `The key ${key} (${encodeURIComponent(key)}, ${key.toUpperCase()}) is revoked`,
          code: 'API_KEY_INVALID',
          traceId: '5b9e3c1a-8f2d-4e6b-9a7c-1d2e3f4a5b6c',
        }),
      );
    });
    const r = await runCliInProcess(['doctor', '--api-key', KEY], { SVC_BASE_URL: api.url });
    expect(r.code).toBe(3);
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(lineOf(r.stdout, 'API key')).toMatch(
      /^FAIL API key: refused: GET \/api\/v1\/sites answered 401 API_KEY_INVALID — Key \[redacted\] refused: The key \[redacted\].*check --api-key: the key may be mistyped, revoked/,
    );
    expect(lineOf(r.stdout, 'base URL')).toMatch(/^ok {3}base URL: .*answers the Developer API v1/);
    for (const output of [r.stdout, r.stderr]) {
      expect(output).not.toContain(KEY);
      expect(output.toLowerCase()).not.toContain(KEY.slice(4).toLowerCase());
    }
  });

  it.each([
    [
      'an HTML page (200)',
      text(200, '<!doctype html><html><body>Welcome</body></html>'),
      /something that is not the API \(Response of \w+ does not match the API description: body must be valid JSON\.\): is SVC_BASE_URL \(or --base-url\) the service's API address\?/,
    ],
    [
      'a 404 that is no problem document',
      json(404, { error: 'Not Found' }),
      /answered 404.*The answer is not the API's \(no problem document with a code\): is SVC_BASE_URL \(or --base-url\) the service's API address\?$/,
    ],
    [
      'an HTML 404',
      text(404, '<html><body>404 Not Found</body></html>'),
      /answered 404.*is SVC_BASE_URL \(or --base-url\) the service's API address\?$/,
    ],
    [
      'a 501',
      text(501, '<html><body>Not Implemented</body></html>'),
      /answered 501.*is SVC_BASE_URL \(or --base-url\) the service's API address\?$/,
    ],
  ])(
    'a base URL answering %s: FAIL naming SVC_BASE_URL, exit 3, the key not judged',
    async (_name, handler, wording) => {
      const api = await serve(handler);
      const r = await runCliInProcess(['doctor'], { SVC_API_KEY: KEY, SVC_BASE_URL: api.url });
      expect(r.code).toBe(3);
      expect(lineOf(r.stdout, 'base URL')).toMatch(/^FAIL base URL: http:\/\/127\.0\.0\.1:\d+ \(SVC_BASE_URL\)/);
      expect(lineOf(r.stdout, 'base URL')).toMatch(wording);
      expect(lineOf(r.stdout, 'API key')).toBe('info API key: not checked: the base URL did not answer as the API');
      // One request: nothing else is asked of a server that is not the API.
      expect(api.requests).toHaveLength(1);
    },
  );

  it('a base URL nothing listens on: FAIL naming SVC_BASE_URL, exit 3', async () => {
    const r = await runCliInProcess(['doctor'], {
      SVC_API_KEY: KEY,
      SVC_BASE_URL: `http://127.0.0.1:${await refusedPort()}`,
    });
    expect(r.code).toBe(3);
    expect(lineOf(r.stdout, 'base URL')).toMatch(/could not be reached .*check SVC_BASE_URL \(or --base-url\)/);
  });

  it('403 on the list of sites: FAIL naming the plan feature API_ACCESS (or the scope sites:read)', async () => {
    const feature = await serve(service({ sites: problem(403, 'FEATURE_NOT_IN_PLAN') }));
    const r = await runCliInProcess(['doctor'], { SVC_API_KEY: KEY, SVC_BASE_URL: feature.url });
    expect(r.code).toBe(3);
    expect(lineOf(r.stdout, 'API key')).toMatch(/^ok {3}API key: accepted/);
    expect(lineOf(r.stdout, 'scope sites:read, plan feature API_ACCESS')).toMatch(
      /^FAIL .*: the plan lacks the feature API_ACCESS \(needed by .*sites.*\): GET \/api\/v1\/sites answered 403 FEATURE_NOT_IN_PLAN/,
    );
    expect(lineOf(r.stdout, 'sites')).toMatch(/^info sites: not listed/);
    const scope = await serve(service({ sites: problem(403, 'API_KEY_SCOPE_MISSING') }));
    const s = await runCliInProcess(['doctor'], { SVC_API_KEY: KEY, SVC_BASE_URL: scope.url });
    expect(lineOf(s.stdout, 'scope sites:read, plan feature API_ACCESS')).toMatch(
      /^FAIL .*: the key lacks the scope sites:read \(needed by sites, journeys, fixes[,)]/,
    );
  });

  it('403 on the CI and trend reads: FAIL naming ci:check and TREND_HISTORY; each judged only for the commands named', async () => {
    const api = await serve(
      service({ ci: problem(403, 'API_KEY_SCOPE_MISSING'), trend: problem(403, 'FEATURE_NOT_IN_PLAN') }),
    );
    const env = { SVC_API_KEY: KEY, SVC_BASE_URL: api.url };
    const all = await runCliInProcess(['doctor'], env);
    expect(all.code).toBe(3);
    expect(lineOf(all.stdout, 'scope ci:check')).toMatch(/^FAIL .*the key lacks the scope ci:check/);
    expect(lineOf(all.stdout, 'plan feature TREND_HISTORY')).toMatch(
      /^FAIL .*the plan lacks the feature TREND_HISTORY/,
    );
    expect(all.stderr).toBe(verdict(2, 3));
    const trend = await runCliInProcess(['doctor', 'trend'], env);
    expect(trend.code).toBe(3);
    expect(lineOf(trend.stdout, 'scope ci:check')).toMatch(/^info .*\(not needed by trend\)/);
    expect((await runCliInProcess(['doctor', 'sites', 'scan'], env)).code).toBe(0);
  });

  it('no verified site: FAIL for ci (409 DOMAIN_NOT_VERIFIED), the site named as not verified; `doctor scan` does not need one', async () => {
    const api = await serve(service({ sites: json(200, [site(false)]) }));
    const env = { SVC_API_KEY: KEY, SVC_BASE_URL: api.url };
    const r = await runCliInProcess(['doctor'], env);
    expect(r.code).toBe(3);
    expect(lineOf(r.stdout, 'sites')).toMatch(
      /^FAIL sites: 1 listed, none verified: CI checks need a verified site, else 409 DOMAIN_NOT_VERIFIED \(needed by ci[,;]/,
    );
    expect(lineOf(r.stdout, 'site Example shop')).toBe(
      `info site Example shop: https://shop.example.com/ (id ${SITE_ID}): not verified: CI checks of its pages answer 409 DOMAIN_NOT_VERIFIED until its domain is verified`,
    );
    expect((await runCliInProcess(['doctor', 'scan'], env)).code).toBe(0);
  });

  it("rate-limit headers of the answer are shown, with the CLI's own budget", async () => {
    const headers = { 'RateLimit-Limit': '120', 'RateLimit-Remaining': '87', 'RateLimit-Reset': '30', 'X-Other': '1' };
    const api = await serve(service({ sites: json(200, [site(true)], headers) }));
    const r = await runCliInProcess(['doctor'], { SVC_API_KEY: KEY, SVC_BASE_URL: api.url, SVC_RATE_LIMIT: '60' });
    expect(r.code).toBe(0);
    expect(lineOf(r.stdout, 'rate limit')).toBe(
      'ok   rate limit: ratelimit-limit: 120, ratelimit-remaining: 87, ratelimit-reset: 30 (the answer to GET /api/v1/sites); this CLI spaces its requests to 60 per minute (SVC_RATE_LIMIT)',
    );
  });

  it('429 on the list of sites: FAIL on the rate limit line with its Retry-After', async () => {
    const api = await serve(service({ sites: problem(429, 'RATE_LIMITED', { 'Retry-After': '17' }) }));
    const r = await runCliInProcess(['doctor'], { SVC_API_KEY: KEY, SVC_BASE_URL: api.url });
    expect(r.code).toBe(3);
    expect(lineOf(r.stdout, 'rate limit')).toMatch(
      /^FAIL rate limit: the key is rate limited now: .*429 RATE_LIMITED.*\(Retry-After: 17 s\)/,
    );
    expect(api.requests).toHaveLength(1);
  });
});

describe('svc-a11y doctor behind a proxy that asks for a password', () => {
  const PASSWORD = 'pr0xy-D0ctor_pw';
  let sim: Simulator;
  let proxy: Server;
  let proxyPort: number;
  const seen: string[] = [];
  beforeAll(async () => {
    sim = await startSimulator({ rateLimit: false });
    const withAuth = createProxy(createHttpServer());
    // The proxy calls authenticate(req) before serving a request (its documented hook).
    withAuth.authenticate = (req: IncomingMessage) =>
      req.headers['proxy-authorization'] === `Basic ${Buffer.from(`tester:${PASSWORD}`).toString('base64')}`;
    withAuth.on('request', (req) => seen.push(`${req.method} ${req.url}`));
    proxy = withAuth;
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyPort = (proxy.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await sim.stop();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });

  it('the proxy in use is shown with its credentials redacted; the requests went through it; exit 0', async () => {
    const r = await runCliInProcess(['doctor'], {
      SVC_API_KEY: sim.keys.full,
      SVC_BASE_URL: sim.url,
      HTTP_PROXY: `http://tester:${PASSWORD}@127.0.0.1:${proxyPort}`,
    });
    expect(r.code).toBe(0);
    expect(lineOf(r.stdout, 'proxy')).toBe(
      `info proxy: HTTP_PROXY http://[redacted]@127.0.0.1:${proxyPort}/; requests to ${sim.url} go through HTTP_PROXY`,
    );
    expect(seen).toContain(`GET ${sim.url}/api/v1/sites`);
    for (const output of [r.stdout, r.stderr]) {
      expect(output).not.toContain(PASSWORD);
      expect(output).not.toContain(encodeURIComponent(PASSWORD));
    }
  });

  it('a proxy variable that is not a URL: FAIL naming it, exit 2, its value not printed', async () => {
    const r = await runCliInProcess(['doctor'], {
      SVC_API_KEY: sim.keys.full,
      SVC_BASE_URL: sim.url,
      HTTPS_PROXY: `tester:${PASSWORD}@proxy`,
    });
    expect(r.code).toBe(2);
    expect(lineOf(r.stdout, 'proxy')).toMatch(/^FAIL proxy: HTTPS_PROXY is not an http:\/\/ or https:\/\/ URL/);
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
  });
});

describe('svc-a11y doctor with SVC_REDIS_URL', () => {
  let sim: Simulator;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  beforeAll(async () => {
    sim = await startSimulator({ rateLimit: false });
    redis = await startRedis();
  });
  afterAll(async () => {
    await sim.stop();
    await redis?.stop();
  });
  const admin = async (url: string, command: string[]) => {
    const client = createClient({ url });
    await client.connect();
    try {
      return await client.sendCommand(command);
    } finally {
      await client.quit();
    }
  };

  it('reachable, maxmemory-policy noeviction: both ok, exit 0; a policy that evicts: FAIL naming it and noeviction', async () => {
    const env = { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url, SVC_REDIS_URL: redis.url };
    const well = await runCliInProcess(['doctor'], env);
    expect(well.code).toBe(0);
    expect(lineOf(well.stdout, 'Redis')).toBe(`ok   Redis: ${redis.url} (SVC_REDIS_URL) answers`);
    expect(lineOf(well.stdout, 'Redis maxmemory-policy')).toMatch(/^ok {3}Redis maxmemory-policy: noeviction/);
    await admin(redis.url, ['CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru']);
    try {
      const evicts = await runCliInProcess(['doctor'], env);
      expect(evicts.code).toBe(3);
      expect(lineOf(evicts.stdout, 'Redis maxmemory-policy')).toMatch(
        /^FAIL Redis maxmemory-policy: allkeys-lru: it can evict the shared rate budget's keys.*set maxmemory-policy noeviction$/,
      );
    } finally {
      await admin(redis.url, ['CONFIG', 'SET', 'maxmemory-policy', 'noeviction']);
    }
    // The probe's key lived 1 ms: nothing of doctor's is left in Redis.
    expect(await admin(redis.url, ['KEYS', 'svc-a11y:doctor:*'])).toEqual([]);
  });

  it('a Redis password (--redis-url) is never printed', async () => {
    const password = 'r3dis-D0ctor_pw';
    await admin(redis.url, ['CONFIG', 'SET', 'requirepass', password]);
    const url = `redis://:${password}@127.0.0.1:${redis.port}`;
    try {
      const r = await runCliInProcess(['doctor', '--redis-url', url], {
        SVC_API_KEY: sim.keys.full,
        SVC_BASE_URL: sim.url,
      });
      expect(r.code).toBe(0);
      expect(lineOf(r.stdout, 'Redis')).toBe(
        `ok   Redis: redis://[redacted]@127.0.0.1:${redis.port} (--redis-url) answers`,
      );
      expect(r.stdout + r.stderr).not.toContain(password);
    } finally {
      await admin(url, ['CONFIG', 'SET', 'requirepass', '']);
    }
  });

  it('a refused port: one FAIL line naming SVC_REDIS_URL, exit 3, ended by the refusal', async () => {
    const url = `redis://127.0.0.1:${await refusedPort()}`;
    // A hang guard set alongside, far beyond the 1 s bound on connecting: the refusal ends the check, not a timer.
    const guard = raceTimer(20_000);
    const r = await runCliInProcess(['doctor'], {
      SVC_API_KEY: sim.keys.full,
      SVC_BASE_URL: sim.url,
      SVC_REDIS_URL: url,
    });
    expect(guard.fired()).toBe(false);
    guard.clear();
    expect(r.code).toBe(3);
    const redisLines = linesOf(r.stdout).filter((line) => line.includes('Redis'));
    expect(redisLines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^FAIL Redis: ${url.replace(/\./g, '\\.')} \\(SVC_REDIS_URL\\) could not be reached \\(.*ECONNREFUSED.*\\): check SVC_REDIS_URL`,
        ),
      ),
    ]);
    // The API's checks did not wait on Redis: they ran with the in-process budget, with no warning.
    expect(r.stderr).toBe(verdict(1, 3));
  });

  it('a Redis that accepts and never answers: one FAIL line after the bound the store planned (1000 ms), its socket let go', async () => {
    const silent = await startSilentServer();
    try {
      const r = await runCliInProcess(['doctor'], {
        SVC_REDIS_URL: silent.url,
        SVC_API_KEY: KEY,
        SVC_BASE_URL: sim.url,
      });
      expect(r.code).toBe(3);
      expect(lineOf(r.stdout, 'Redis')).toMatch(
        /^FAIL Redis: .*could not be reached \(connecting to Redis: no answer within 1000 ms\): check SVC_REDIS_URL/,
      );
      // Let go: the store ends its socket when the bound is hit (the close lands on the loop's next turns).
      await eventually(() => silent.open() === 0, 10_000);
      expect(silent.open()).toBe(0);
    } finally {
      await silent.close();
    }
  });
});
