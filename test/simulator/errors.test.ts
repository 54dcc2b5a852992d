// Every documented problem the simulator answers, asserted through the SDK's error classes (and raw HTTP
// where the SDK's own pre-validation would stop the request before it is sent).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  A11yClient,
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  isApiError,
} from '../../src/index.js';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { ISO_Z, UUID_V4, expectProblem, rejectionOf } from './helpers.js';

const shop = 'https://shop.example.com';
let sim: Simulator;
let full: A11yClient;
const unknown = randomUUID();

beforeAll(async () => {
  // Long enough that a second request finds the first job still QUEUED or RUNNING.
  sim = await startSimulator({
    durations: { scan: 2_000, scanRun: 2_000, ciCheck: 2_000, journeyRun: 2_000, fixVerification: 2_000 },
    rateLimit: false,
  });
  full = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url, maxRetries: 0 });
});
afterAll(() => sim.stop());

/** A raw request with the full key (for bodies the SDK would refuse to send). */
async function raw(method: string, path: string, body?: string, key: string | null = sim.keys.full) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  const res = await fetch(sim.url + path, { method, headers, body });
  const problem = (await res.json()) as Record<string, unknown>;
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(problem).toMatchObject({
    status: res.status,
    instance: path,
    traceId: expect.stringMatching(UUID_V4),
    timestamp: expect.stringMatching(ISO_Z),
  });
  return { status: res.status, code: problem.code, headers: res.headers };
}

describe('401, 403', () => {
  it('401 API_KEY_INVALID for an unknown or missing key', async () => {
    const bad = new A11yClient({ apiKey: 'svc_sim_not_a_key', baseUrl: sim.url, maxRetries: 0 });
    const e = await expectProblem(bad.sites.list(), 401, 'API_KEY_INVALID');
    expect(e).toBeInstanceOf(AuthenticationError);
    expect(await raw('GET', '/api/v1/sites', undefined, null)).toMatchObject({ status: 401, code: 'API_KEY_INVALID' });
  });

  it('403 API_KEY_SCOPE_MISSING for the noCi key on CI endpoints only', async () => {
    const noCi = new A11yClient({ apiKey: sim.keys.noCi, baseUrl: sim.url, maxRetries: 0 });
    const e = await expectProblem(noCi.ciChecks.create({ urls: [`${shop}/`] }), 403, 'API_KEY_SCOPE_MISSING');
    expect(e).toBeInstanceOf(PermissionDeniedError);
    await expectProblem(noCi.ciChecks.get(unknown), 403, 'API_KEY_SCOPE_MISSING');
    await expectProblem(noCi.ciChecks.listViolations(unknown), 403, 'API_KEY_SCOPE_MISSING');
    expect(await noCi.sites.list()).toHaveLength(3);
  });

  it('403 FEATURE_NOT_IN_PLAN for the freePlan key on the trend; the Free plan caps CI checks at 5 URLs', async () => {
    const free = new A11yClient({ apiKey: sim.keys.freePlan, baseUrl: sim.url, maxRetries: 0 });
    await expectProblem(free.sites.getTrend(sim.ids.verifiedSite), 403, 'FEATURE_NOT_IN_PLAN');
    expect((await full.sites.getTrend(sim.ids.verifiedSite)).points!.length).toBeGreaterThan(0);
    const urls = Array.from({ length: 6 }, (_, i) => `${shop}/p${i}`);
    await expectProblem(free.ciChecks.create({ urls }), 422, 'VALIDATION_FAILED');
  });
});

describe('404', () => {
  it('answers the documented *_NOT_FOUND code per resource', async () => {
    for (const [call, code] of [
      [full.scans.get(unknown), 'SCAN_NOT_FOUND'],
      [full.scans.listViolations(unknown), 'SCAN_NOT_FOUND'],
      [full.scanRuns.get(unknown), 'SCAN_NOT_FOUND'],
      [full.scanRuns.listViolations(unknown), 'SCAN_NOT_FOUND'],
      [full.scanRuns.getRootCauses(unknown), 'SCAN_NOT_FOUND'],
      [full.ciChecks.get(unknown), 'CI_CHECK_NOT_FOUND'],
      [full.ciChecks.listViolations(unknown), 'CI_CHECK_NOT_FOUND'],
      [full.journeys.startRun(unknown), 'JOURNEY_NOT_FOUND'],
      [full.journeyRuns.get(unknown), 'JOURNEY_NOT_FOUND'],
      [full.sites.listJourneys(unknown), 'SITE_NOT_FOUND'],
      [full.sites.getTrend(unknown), 'SITE_NOT_FOUND'],
      [full.scanRuns.create({ siteId: unknown }), 'SITE_NOT_FOUND'],
      [full.scans.create({ url: 'https://unknown.example.com/' }), 'SITE_NOT_FOUND'],
      [full.ciChecks.create({ urls: ['https://unknown.example.com/'] }), 'SITE_NOT_FOUND'],
    ] as const) {
      expect(await expectProblem(call, 404, code)).toBeInstanceOf(NotFoundError);
    }
  });

  it('answers 404 without a code on the tracked-fix endpoints (the document shows none)', async () => {
    await expectProblem(full.sites.listFixes(unknown), 404, undefined);
    await expectProblem(full.fixes.startVerification(unknown), 404, undefined);
    await expectProblem(full.fixVerifications.get(unknown), 404, undefined);
  });

  it('treats a non-UUID path id as unknown, and answers unknown routes and methods', async () => {
    expect(await raw('GET', '/api/v1/scans/not-a-uuid')).toMatchObject({ status: 404, code: 'SCAN_NOT_FOUND' });
    expect(await raw('GET', '/api/v1/ci/checks/42')).toMatchObject({ status: 404, code: 'CI_CHECK_NOT_FOUND' });
    expect(await raw('GET', '/api/v1/nothing-here')).toMatchObject({ status: 404, code: undefined });
    const wrong = await raw('DELETE', '/api/v1/sites');
    expect(wrong).toMatchObject({ status: 405 });
    expect(wrong.headers.get('allow')).toBe('GET');
  });
});

describe('409', () => {
  it('DOMAIN_NOT_VERIFIED for a CI check of the unverified site', async () => {
    const e = await expectProblem(
      full.ciChecks.create({ urls: ['https://blog.example.org/'] }),
      409,
      'DOMAIN_NOT_VERIFIED',
    );
    expect(e).toBeInstanceOf(ConflictError);
  });

  it('SCAN_ALREADY_RUNNING for a second scan run of a site, or a second scan of a page', async () => {
    await full.scanRuns.create({ siteId: sim.ids.unverifiedSite });
    await expectProblem(full.scanRuns.create({ siteId: sim.ids.unverifiedSite }), 409, 'SCAN_ALREADY_RUNNING');
    await full.scans.create({ url: `${shop}/busy` });
    await expectProblem(full.scans.create({ url: `${shop}/busy` }), 409, 'SCAN_ALREADY_RUNNING');
    expect((await full.scans.create({ url: `${shop}/other` })).status).toBe('QUEUED');
  });

  it('JOURNEY_ALREADY_RUNNING for a second run of a journey; 409 without code for a second fix verification', async () => {
    await full.journeys.startRun(sim.ids.guestJourney);
    await expectProblem(full.journeys.startRun(sim.ids.guestJourney), 409, 'JOURNEY_ALREADY_RUNNING');
    await full.fixes.startVerification(sim.ids.fix);
    await expectProblem(full.fixes.startVerification(sim.ids.fix), 409, undefined);
  });
});

describe('422', () => {
  it('SITE_AUTH_NOT_CONFIGURED for an auth journey on a site without an auth profile', async () => {
    const e = await expectProblem(
      full.journeys.startRun(sim.ids.authJourneyNoProfile),
      422,
      'SITE_AUTH_NOT_CONFIGURED',
    );
    expect(e).toBeInstanceOf(UnprocessableEntityError);
  });

  it('422 without code for a fix that cannot be verified automatically', async () => {
    await expectProblem(full.fixes.startVerification(sim.ids.unverifiableFix), 422, undefined);
  });

  it.each([
    ['no urls', { urls: [] }, 'VALIDATION_FAILED'],
    ['21 urls', { urls: Array.from({ length: 21 }, (_, i) => `${shop}/${i}`) }, 'VALIDATION_FAILED'],
    ['urls missing', { failOn: 'NONE' }, 'VALIDATION_FAILED'],
    ['unknown failOn', { urls: [`${shop}/`], failOn: 'SOMETIMES' }, 'VALIDATION_FAILED'],
    ['setBaseline not boolean', { urls: [`${shop}/`], setBaseline: 'yes' }, 'VALIDATION_FAILED'],
    ['urls on two sites', { urls: [`${shop}/`, 'https://legacy.example.net/'] }, 'VALIDATION_FAILED'],
    ['ftp url', { urls: ['ftp://shop.example.com/'] }, 'INVALID_URL'],
    ['relative url', { urls: ['/checkout'] }, 'INVALID_URL'],
    ['unparseable url', { urls: ['https://[shop'] }, 'INVALID_URL'],
    ['url over 2048 chars', { urls: [`${shop}/${'a'.repeat(2048)}`] }, 'INVALID_URL'],
  ])('CI check body with %s → 422 %s', async (_name, body, code) => {
    expect(await raw('POST', '/api/v1/ci/checks', JSON.stringify(body))).toMatchObject({ status: 422, code });
  });

  it('validates scan bodies the same way; bad JSON is 422 where declared, else 400', async () => {
    expect(await raw('POST', '/api/v1/scans', JSON.stringify({ url: 'shop.example.com' }))).toMatchObject({
      status: 422,
      code: 'INVALID_URL',
    });
    expect(await raw('POST', '/api/v1/scans', JSON.stringify({}))).toMatchObject({
      status: 422,
      code: 'VALIDATION_FAILED',
    });
    expect(await raw('POST', '/api/v1/ci/checks', '{"urls": [')).toMatchObject({
      status: 422,
      code: 'VALIDATION_FAILED',
    });
    expect(await raw('POST', '/api/v1/scan-runs', 'not json')).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
  });
});

describe('429', () => {
  it('limits each key separately, with an integer Retry-After, until the window frees a slot', async () => {
    let now = Date.UTC(2026, 0, 1);
    const limited = await startSimulator({ rateLimit: { requestsPerMinute: 5, windowMs: 60_000 }, clock: () => now });
    try {
      const client = new A11yClient({ apiKey: limited.keys.full, baseUrl: limited.url, maxRetries: 0 });
      for (let i = 0; i < 5; i++) {
        await client.sites.list();
        now += 1_000;
      }
      const e = await expectProblem(client.sites.list(), 429, 'RATE_LIMITED');
      expect(e).toBeInstanceOf(RateLimitError);
      // The first request leaves the window 60 s after it was made, 55 s from now.
      expect(e.headers.get('retry-after')).toBe('55');
      expect((e as RateLimitError).retryAfterMs).toBe(55_000);
      now += 500;
      expect((await rejectionOf(client.sites.list())) as RateLimitError).toMatchObject({ retryAfterMs: 55_000 }); // 54.5 s, rounded up
      // Another key has its own budget.
      const other = new A11yClient({ apiKey: limited.keys.noCi, baseUrl: limited.url, maxRetries: 0 });
      expect(await other.sites.list()).toHaveLength(3);
      now += 54_500;
      expect(await client.sites.list()).toHaveLength(3);
      expect(isApiError(await rejectionOf(client.sites.list()), 'RATE_LIMITED')).toBe(true);
      // Refused requests are counted as received.
      expect(limited.requestCount(limited.keys.full)).toBe(9);
      expect(limited.requestCount()).toBe(10);
    } finally {
      await limited.stop();
    }
  });

  it('time-scales the window with windowMs', async () => {
    const limited = await startSimulator({ rateLimit: { requestsPerMinute: 2, windowMs: 300 } });
    try {
      const client = new A11yClient({ apiKey: limited.keys.full, baseUrl: limited.url, maxRetries: 0 });
      await client.sites.list();
      await client.sites.list();
      const e = (await rejectionOf(client.sites.list())) as RateLimitError;
      expect(e.headers.get('retry-after')).toBe('1'); // under a second, rounded up
      await new Promise((r) => setTimeout(r, 320));
      expect(await client.sites.list()).toHaveLength(3);
    } finally {
      await limited.stop();
    }
  });
});
