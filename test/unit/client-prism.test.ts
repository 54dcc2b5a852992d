// Every resource method of the client against the Prism mock of openapi.yaml, over real HTTP.
import { describe, expect, inject, it } from 'vitest';
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
import { raceTimer } from '../support/timer.js';

const id = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const client = (headers: Record<string, string> = {}, extra = {}) =>
  new A11yClient({ apiKey: 'svc_prism_key', baseUrl: inject('prismUrl'), headers, ...extra });
const fast = { intervalMs: 5, maxIntervalMs: 10, timeoutMs: 10_000 };
// Prism answers every GET with the example's resource, whose id is the example's: a wait polls that id (a
// poll answer about another job is refused).
const exampleId = {
  scan: '0ef18b93-6a03-41cf-9a89-1ea15d601e90',
  scanRun: '7d9f4275-7864-41eb-b46d-16ce08028768',
  journeyRun: '16e1a4df-ffca-4894-a276-d5f6b9202d78',
  fixVerification: '17b35e73-4885-4c82-9e6d-7f3a15986db6',
  ciCheck: '396154c7-55f5-43ad-bac0-2dd077d2efcb',
};

describe('resources against Prism', () => {
  it('sites: list, listJourneys, getTrend, listFixes', async () => {
    const c = client();
    expect((await c.sites.list())[0]).toMatchObject({ verified: true, normalizedHost: 'shop.example.com' });
    expect((await c.sites.listJourneys(id)).map((j) => j.usesAuth)).toEqual([false, true]);
    expect((await c.sites.getTrend(id, { limit: 5 })).points?.length).toBe(2);
    expect((await c.sites.listFixes(id))[0]?.verifiable).toBe(true);
  });

  it('scans: create, get, listViolations, waitForCompletion, createAndWait', async () => {
    const c = client();
    expect(await c.scans.create({ url: 'https://shop.example.com/checkout' })).toEqual({
      id: expect.any(String),
      status: 'QUEUED',
    });
    expect((await c.scans.get(id)).status).toBe('COMPLETED');
    expect((await c.scans.listViolations(id))[0]?.ruleId).toBe('image-alt');
    expect((await c.scans.waitForCompletion(exampleId.scan, fast)).totalViolations).toBe(4);
    expect((await c.scans.createAndWait({ url: 'https://shop.example.com/' }, fast)).status).toBe('COMPLETED');
  });

  it('scanRuns: create, get, listViolations, getRootCauses, waitForCompletion, createAndWait', async () => {
    const c = client();
    expect((await c.scanRuns.create({ siteId: id })).status).toBe('QUEUED');
    expect((await c.scanRuns.get(id)).pagesDone).toBe(12);
    expect(await c.scanRuns.listViolations(id)).toHaveLength(2);
    expect((await c.scanRuns.getRootCauses(id)).clusters?.[0]?.component?.label).toBe('Product card');
    expect((await c.scanRuns.waitForCompletion(exampleId.scanRun, fast)).status).toBe('COMPLETED');
    const progress: string[] = [];
    const run = await c.scanRuns.createAndWait({ siteId: id }, { ...fast, onProgress: (r) => progress.push(r.status) });
    expect(run.status).toBe('COMPLETED');
    expect(progress).toEqual(['COMPLETED']);
  });

  it('journeys and journeyRuns: startRun, runAndWait, get, waitForCompletion', async () => {
    const c = client();
    expect((await c.journeys.startRun(id)).status).toBe('QUEUED');
    expect((await c.journeys.runAndWait(id, fast)).checkpoints).toHaveLength(2);
    expect((await c.journeyRuns.get(id)).status).toBe('COMPLETED');
    expect((await c.journeyRuns.waitForCompletion(exampleId.journeyRun, fast)).finishedAt).toBe('2026-11-20T10:01:40Z');
  });

  it('fixes and fixVerifications: startVerification, verifyAndWait, get, waitForCompletion', async () => {
    const c = client();
    expect((await c.fixes.startVerification(id)).status).toBe('QUEUED');
    expect((await c.fixes.verifyAndWait(id, fast)).outcome).toBe('FIXED');
    expect((await c.fixVerifications.get(id)).pagesScanned).toBe(2);
    await expect(c.fixVerifications.waitForCompletion(id, fast)).rejects.toThrow(
      /body\.id must be the polled job's id/,
    );
    expect((await c.fixVerifications.waitForCompletion(exampleId.fixVerification, fast)).status).toBe('COMPLETED');
  });

  it('ciChecks: create, get, listViolations, waitForCompletion, createAndWait', async () => {
    const c = client();
    const body = {
      urls: ['https://shop.example.com/'],
      failOn: 'NEW_CRITICAL' as const,
      setBaseline: true,
      context: { branch: 'main' },
    };
    expect((await c.ciChecks.create(body)).id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await c.ciChecks.get(id)).verdict).toBe('PASS');
    expect((await c.ciChecks.listViolations(id)).map((v) => v.isNew)).toEqual([true, false]);
    expect((await c.ciChecks.waitForCompletion(exampleId.ciCheck, fast)).status).toBe('COMPLETED');
    expect((await c.ciChecks.createAndWait(body, fast)).verdict).toBe('PASS');
  });

  it('a terminal failure is returned, not thrown', async () => {
    const c = client({ Prefer: 'example=failed' });
    const check = await c.ciChecks.waitForCompletion(exampleId.ciCheck, fast);
    expect(check).toMatchObject({ status: 'FAILED', failureReason: 'No page of the check could be reached.' });
    expect((await c.scans.waitForCompletion(exampleId.scan, fast)).failureReason?.code).toBe('PAGE_UNREACHABLE');
  });

  it('validateResponses: on, every example of getCiCheck passes; the schemas load lazily', async () => {
    for (const example of ['passed', 'failedVerdict', 'queued', 'running', 'failed']) {
      const c = client({ Prefer: `example=${example}` }, { validateResponses: true });
      expect((await c.ciChecks.get(id)).id).toBe(exampleId.ciCheck);
    }
  });
});

describe('error classes from Prism problem answers', () => {
  const cases = [
    ['401', AuthenticationError, 'API_KEY_INVALID', () => client({ Prefer: 'code=401' }).sites.list()],
    ['403', PermissionDeniedError, 'API_KEY_SCOPE_MISSING', () => client({ Prefer: 'code=403' }).ciChecks.get(id)],
    ['404', NotFoundError, 'SCAN_NOT_FOUND', () => client({ Prefer: 'code=404' }).scans.get(id)],
    [
      '409',
      ConflictError,
      'DOMAIN_NOT_VERIFIED',
      () => client({ Prefer: 'code=409' }).ciChecks.create({ urls: ['https://blog.example.org/'] }),
    ],
    [
      '422',
      UnprocessableEntityError,
      'SITE_AUTH_NOT_CONFIGURED',
      () => client({ Prefer: 'code=422' }).journeys.startRun(id),
    ],
    [
      '429',
      RateLimitError,
      'RATE_LIMITED',
      () => client({ Prefer: 'code=429' }, { maxRetryDelayMs: 1000 }).sites.list(),
    ],
  ] as const;

  it.each(cases)('Prefer: code=%s → %o with its problem code', async (status, Class, code, call) => {
    const err = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Class);
    expect(isApiError(err, code)).toBe(true);
    const e = err as InstanceType<typeof Class>;
    expect(e.status).toBe(Number(status));
    expect(e.traceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(e.message).toContain(status);
    expect(e.message).toContain(code);
    expect(e.message).toContain(e.traceId!);
    expect(e.problem?.status).toBe(Number(status));
  });

  it('429 whose Retry-After (30 s) exceeds maxRetryDelayMs throws at once, carrying the wait', async () => {
    // "At once": before a timer of maxRetryDelayMs, set when the 429 arrived, fires (Prism's own answer time, which
    // a busy machine stretches, is not part of it); a client that waited maxRetryDelayMs first would lose the race.
    let timer: ReturnType<typeof raceTimer> | undefined;
    const answered: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      timer = raceTimer(1000);
      return response;
    };
    const err = (await client({ Prefer: 'code=429' }, { maxRetryDelayMs: 1000, fetch: answered })
      .sites.list()
      .catch((e) => e)) as RateLimitError;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.retryAfterMs).toBe(30_000);
    expect(timer!.fired()).toBe(false);
    timer!.clear();
  });
});
