// Negative contract cases against Prism: auth, the document's body rules, rate limiting, problem examples.
import { describe, expect, inject, it } from 'vitest';
import * as z from 'zod/mini';
import { zProblemDetail } from '../../generated/zod.gen.js';
import { operations, resolve, spec } from '../support/spec.js';

const base = () => inject('prismUrl');
const auth = { Authorization: 'Bearer svc_contract_test_key' };

async function post(path: string, body: unknown, headers: Record<string, string> = auth) {
  const response = await fetch(`${base()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { response, problem: (await response.json()) as Record<string, unknown> };
}

const longUrl = `https://shop.example.com/${'a'.repeat(2049 - 'https://shop.example.com/'.length)}`;

describe('negative cases', () => {
  it('no bearer token → 401 problem with code API_KEY_INVALID, on every operation', async () => {
    for (const { method, path } of operations) {
      const url = `${base()}${path.replace('{id}', '3fa85f64-5717-4562-b3fc-2c963f66afa6')}`;
      const response = await fetch(url, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      });
      expect(response.status, `${method} ${path}`).toBe(401);
      const problem = await response.json();
      expect(z.safeParse(zProblemDetail, problem).success).toBe(true);
      expect(problem.code).toBe('API_KEY_INVALID');
    }
  });

  it('a URL of 2049 characters → 422 problem (scan and CI check)', async () => {
    expect(longUrl).toHaveLength(2049);
    for (const [path, body] of [
      ['/api/v1/scans', { url: longUrl }],
      ['/api/v1/ci/checks', { urls: [longUrl] }],
    ] as const) {
      const { response, problem } = await post(path, body);
      expect(response.status, path).toBe(422);
      expect(z.safeParse(zProblemDetail, problem).success).toBe(true);
    }
  });

  it('a URL of exactly 2048 characters is accepted', async () => {
    const { response } = await post('/api/v1/scans', { url: longUrl.slice(0, 2048) });
    expect(response.status).toBe(202);
  });

  it.each([
    ['no urls', []],
    ['21 urls', Array.from({ length: 21 }, (_, i) => `https://shop.example.com/p${i}`)],
  ])('%s → 422 problem', async (_name, urls) => {
    const { response, problem } = await post('/api/v1/ci/checks', { urls });
    expect(response.status).toBe(422);
    expect(z.safeParse(zProblemDetail, problem).success).toBe(true);
  });

  it('20 urls are accepted', async () => {
    const urls = Array.from({ length: 20 }, (_, i) => `https://shop.example.com/p${i}`);
    const { response } = await post('/api/v1/ci/checks', { urls });
    expect(response.status).toBe(202);
  });

  it('a failOn outside its enum, and a relative URL → 422', async () => {
    expect(
      (await post('/api/v1/ci/checks', { urls: ['https://shop.example.com/'], failOn: 'SOMETIMES' })).response.status,
    ).toBe(422);
    expect((await post('/api/v1/scans', { url: '/checkout' })).response.status).toBe(422);
    expect((await post('/api/v1/scans', { url: 'ftp://shop.example.com/' })).response.status).toBe(422);
  });

  it('Prefer: code=429 → 429 with an integer Retry-After', async () => {
    const response = await fetch(`${base()}/api/v1/sites`, { headers: { ...auth, Prefer: 'code=429' } });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await response.json()).code).toBe('RATE_LIMITED');
  });
});

describe('problem examples', () => {
  const problemResponses = Object.entries(spec.components.responses);

  it.each(problemResponses)(
    'every named example of %s parses as ProblemDetail and matches its status',
    (_name, response) => {
      const media = response.content!['application/problem+json']!;
      const examples = Object.values(media.examples ?? {});
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples)
        expect(z.safeParse(zProblemDetail, resolve(example as { value: unknown }).value).success).toBe(true);
    },
  );

  // The document's per-endpoint problem codes (section 4), by operation and status.
  const documented: Record<string, Record<string, string[]>> = {
    listSites: {},
    createScan: { 404: ['SITE_NOT_FOUND'], 409: ['SCAN_ALREADY_RUNNING'], 422: ['INVALID_URL', 'VALIDATION_FAILED'] },
    createScanRun: { 404: ['SITE_NOT_FOUND'], 409: ['SCAN_ALREADY_RUNNING'] },
    getScan: { 404: ['SCAN_NOT_FOUND'] },
    listScanViolations: { 404: ['SCAN_NOT_FOUND'] },
    getScanRun: { 404: ['SCAN_NOT_FOUND'] },
    listScanRunViolations: { 404: ['SCAN_NOT_FOUND'] },
    getScanRunRootCauses: { 404: ['SCAN_NOT_FOUND'] },
    listSiteJourneys: { 404: ['SITE_NOT_FOUND'] },
    getSiteTrend: { 404: ['SITE_NOT_FOUND'] },
    createJourneyRun: {
      404: ['JOURNEY_NOT_FOUND'],
      409: ['JOURNEY_ALREADY_RUNNING'],
      422: ['SITE_AUTH_NOT_CONFIGURED'],
    },
    getJourneyRun: {},
    listSiteFixes: { 404: [], 409: [], 422: [] },
    createFixVerification: { 404: [], 409: [], 422: [] },
    getFixVerification: { 404: [], 409: [], 422: [] },
    createCiCheck: { 404: ['SITE_NOT_FOUND'], 409: ['DOMAIN_NOT_VERIFIED'], 422: ['INVALID_URL', 'VALIDATION_FAILED'] },
    getCiCheck: { 404: ['CI_CHECK_NOT_FOUND'] },
    listCiCheckViolations: { 404: ['CI_CHECK_NOT_FOUND'] },
  };
  const common = {
    401: ['API_KEY_INVALID'],
    403: ['API_KEY_SCOPE_MISSING', 'FEATURE_NOT_IN_PLAN'],
    429: ['RATE_LIMITED'],
  };

  it.each(operations.map((o) => [o.operationId, o] as const))(
    '%s declares exactly the documented statuses, with examples carrying each code',
    async (operationId, { operation, method, path }) => {
      const expected: Record<string, string[]> = { ...common, ...documented[operationId] };
      const declared = Object.keys(operation.responses).filter((s) => Number(s) >= 400);
      expect(declared.sort()).toEqual(Object.keys(expected).sort());
      for (const [status, codes] of Object.entries(expected)) {
        const response = resolve(operation.responses[status]!);
        const examples = response.content!['application/problem+json']!.examples!;
        const values = Object.values(examples).map(
          (e) => resolve(e as { value: { code?: string; status: number } }).value,
        );
        expect(
          values
            .map((v) => v.code)
            .filter(Boolean)
            .sort(),
        ).toEqual([...codes].sort());
        for (const v of values) expect(v.status).toBe(Number(status));
        if (status === '429') expect(response.headers).toHaveProperty('Retry-After');
        // Prism serves each named example, by name.
        for (const name of Object.keys(examples)) {
          const url = `${base()}${path.replace('{id}', '3fa85f64-5717-4562-b3fc-2c963f66afa6')}`;
          const answer = await fetch(url, {
            method,
            headers: { ...auth, 'content-type': 'application/json', Prefer: `code=${status}, example=${name}` },
            body:
              method === 'POST'
                ? JSON.stringify(
                    path.endsWith('/scans')
                      ? { url: 'https://a.example/' }
                      : path.endsWith('checks')
                        ? { urls: ['https://a.example/'] }
                        : path.endsWith('scan-runs')
                          ? { siteId: '3fa85f64-5717-4562-b3fc-2c963f66afa6' }
                          : undefined,
                  )
                : undefined,
          });
          expect(answer.status, `${operationId} ${status} ${name}`).toBe(Number(status));
          expect(await answer.json()).toEqual(resolve(examples[name] as { value: unknown }).value);
        }
      }
    },
  );

  it('every 202 declares Location with an example, and every operation lists its scopes', () => {
    for (const { operationId, operation } of operations) {
      const accepted = operation.responses['202'];
      if (accepted) expect(Object.keys(accepted.headers ?? {}), operationId).toEqual(['Location']);
      const scopes = operation.security?.[0]?.bearerAuth ?? [];
      expect(scopes.length, operationId).toBeGreaterThan(0);
    }
  });
});
