// Contract tests: every operation of openapi.yaml, called over real HTTP against Prism (`--errors`), with
// openapi-fetch typed by generated/schema.ts; every answer must parse with the generated zod schema.
import { describe, expect, inject, it } from 'vitest';
import createClient from 'openapi-fetch';
import type { paths } from '../../generated/schema.js';
import * as z from 'zod/mini';
import * as gen from '../../generated/zod.gen.js';
import { examplesOf, operations } from '../support/spec.js';

const id = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const auth = { Authorization: 'Bearer svc_contract_test_key' };
const api = () => createClient<paths>({ baseUrl: inject('prismUrl'), headers: auth });

type Call = (prefer?: string) => Promise<{ response: Response; data?: unknown; error?: unknown }>;
const withPrefer = (prefer?: string) => (prefer ? { Prefer: prefer } : {});

// One row per operation: how to call it validly, the documented success status, the generated response schema.
const table: Record<string, { call: Call; status: number; schema: z.ZodMiniType }> = {
  listSites: {
    status: 200,
    schema: gen.zListSitesResponse,
    call: (p) => api().GET('/api/v1/sites', { headers: withPrefer(p) }),
  },
  createScan: {
    status: 202,
    schema: gen.zCreateScanResponse,
    call: (p) =>
      api().POST('/api/v1/scans', { body: { url: 'https://shop.example.com/checkout' }, headers: withPrefer(p) }),
  },
  getScan: {
    status: 200,
    schema: gen.zGetScanResponse,
    call: (p) => api().GET('/api/v1/scans/{id}', { params: { path: { id } }, headers: withPrefer(p) }),
  },
  listScanViolations: {
    status: 200,
    schema: gen.zListScanViolationsResponse,
    call: (p) => api().GET('/api/v1/scans/{id}/violations', { params: { path: { id } }, headers: withPrefer(p) }),
  },
  createScanRun: {
    status: 202,
    schema: gen.zCreateScanRunResponse,
    call: (p) => api().POST('/api/v1/scan-runs', { body: { siteId: id }, headers: withPrefer(p) }),
  },
  getScanRun: {
    status: 200,
    schema: gen.zGetScanRunResponse,
    call: (p) => api().GET('/api/v1/scan-runs/{id}', { params: { path: { id } }, headers: withPrefer(p) }),
  },
  listScanRunViolations: {
    status: 200,
    schema: gen.zListScanRunViolationsResponse,
    call: (p) => api().GET('/api/v1/scan-runs/{id}/violations', { params: { path: { id } }, headers: withPrefer(p) }),
  },
  getScanRunRootCauses: {
    status: 200,
    schema: gen.zGetScanRunRootCausesResponse,
    call: (p) => api().GET('/api/v1/scan-runs/{id}/root-causes', { params: { path: { id } }, headers: withPrefer(p) }),
  },
  listSiteJourneys: {
    status: 200,
    schema: gen.zListSiteJourneysResponse,
    call: (p) => api().GET('/api/v1/sites/{id}/journeys', { params: { path: { id } }, headers: withPrefer(p) }),
  },
  createJourneyRun: {
    status: 202,
    schema: gen.zCreateJourneyRunResponse,
    call: (p) => api().POST('/api/v1/journeys/{id}/runs', { params: { path: { id } }, headers: withPrefer(p) }),
  },
  getJourneyRun: {
    status: 200,
    schema: gen.zGetJourneyRunResponse,
    call: (p) => api().GET('/api/v1/journey-runs/{id}', { params: { path: { id } }, headers: withPrefer(p) }),
  },
  getSiteTrend: {
    status: 200,
    schema: gen.zGetSiteTrendResponse,
    call: (p) =>
      api().GET('/api/v1/sites/{id}/trend', { params: { path: { id }, query: { limit: 10 } }, headers: withPrefer(p) }),
  },
  listSiteFixes: {
    status: 200,
    schema: gen.zListSiteFixesResponse,
    call: (p) => api().GET('/api/v1/sites/{id}/fixes', { params: { path: { id } }, headers: withPrefer(p) }),
  },
  createFixVerification: {
    status: 202,
    schema: gen.zCreateFixVerificationResponse,
    call: (p) =>
      api().POST('/api/v1/remediation-items/{id}/verifications', { params: { path: { id } }, headers: withPrefer(p) }),
  },
  getFixVerification: {
    status: 200,
    schema: gen.zGetFixVerificationResponse,
    call: (p) => api().GET('/api/v1/fix-verifications/{id}', { params: { path: { id } }, headers: withPrefer(p) }),
  },
  createCiCheck: {
    status: 202,
    schema: gen.zCreateCiCheckResponse,
    call: (p) =>
      api().POST('/api/v1/ci/checks', {
        body: {
          urls: ['https://shop.example.com/'],
          failOn: 'NEW_CRITICAL',
          setBaseline: false,
          context: { branch: 'main' },
        },
        headers: withPrefer(p),
      }),
  },
  getCiCheck: {
    status: 200,
    schema: gen.zGetCiCheckResponse,
    call: (p) => api().GET('/api/v1/ci/checks/{id}', { params: { path: { id } }, headers: withPrefer(p) }),
  },
  listCiCheckViolations: {
    status: 200,
    schema: gen.zListCiCheckViolationsResponse,
    call: (p) => api().GET('/api/v1/ci/checks/{id}/violations', { params: { path: { id } }, headers: withPrefer(p) }),
  },
};

describe('every operation of openapi.yaml against Prism', () => {
  it('the table covers every operation of the description, and nothing else', () => {
    // Named, so a regenerated description with a new endpoint says what to add (public-methods.test.ts says
    // where its resource method goes).
    const missing = operations
      .filter((o) => !table[o.operationId])
      .map(
        (o) =>
          `${o.method} ${o.path} (${o.operationId}) has no contract row: add one to the table in test/contract/operations.test.ts`,
      );
    const extra = Object.keys(table)
      .filter((id) => !operations.some((o) => o.operationId === id))
      .map((id) => `${id} is in the contract table but not in openapi.yaml`);
    expect([...missing, ...extra], [...missing, ...extra].join('\n')).toEqual([]);
  });

  for (const { operationId, operation } of operations) {
    const row = table[operationId];
    // No row: the coverage test above names it; the calls below need one.
    if (!row) continue;
    describe(operationId, () => {
      const success = String(row.status);

      it(`answers ${row.status} with a body that parses with the generated schema`, async () => {
        const { response, data } = await row.call();
        expect(response.status).toBe(row.status);
        expect(z.safeParse(row.schema, data).success).toBe(true);
        if (row.status === 202) expect(response.headers.get('location')).toMatch(/^\/api\/v1\//);
      });

      it.each(examplesOf(operationId, success))('serves the named example %s, which parses', async (name, value) => {
        const { response, data } = await row.call(`example=${name}`);
        expect(response.status).toBe(row.status);
        expect(data).toEqual(value);
        expect(z.safeParse(row.schema, data).success).toBe(true);
      });

      const errorStatuses = Object.keys(operation.responses).filter((s) => Number(s) >= 400);
      it.each(errorStatuses)('answers a declared %s as a problem+json ProblemDetail', async (status) => {
        const { response, error } = await row.call(`code=${status}`);
        expect(response.status).toBe(Number(status));
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(z.safeParse(gen.zProblemDetail, error).success).toBe(true);
        expect((error as { status?: number }).status).toBe(Number(status));
      });
    });
  }
});
