// The transport builds requests from the operation table itself (openapi-fetch is used at compile time only):
// this pins every row to openapi.yaml — same operations, methods, routes and path parameters — and what the
// transport sends for them on the wire.
import { describe, expect, it } from 'vitest';
import { A11yClient } from '../../src/index.js';
import { ops } from '../../src/core/operations.js';
import { resolve, spec } from '../support/spec.js';

const documented = Object.entries(spec.paths).flatMap(([route, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, op]) => ({ id: op.operationId, method: method.toUpperCase(), route })),
);

describe('operation table', () => {
  it('holds exactly the documented operations, each with its method and route', () => {
    const table = Object.values(ops).map(({ id, method, route }) => ({ id, method, route }));
    expect(table.sort((a, b) => a.id.localeCompare(b.id))).toEqual(documented.sort((a, b) => a.id.localeCompare(b.id)));
  });

  it('every templated path parameter has a request schema that validates it', () => {
    for (const op of Object.values(ops)) {
      if (op.route.includes('{')) expect(op.schemas.path, op.id).toBeDefined();
    }
  });

  it("a route's {names} are the operation's path parameters in openapi.yaml and its path schema's keys", () => {
    // tsc checks the resources' `{ path: { … } }` against the generated types; this pins the runtime half:
    // the names the transport substitutes into the route are the ones the schema validates.
    for (const op of Object.values(ops)) {
      const names = [...op.route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      type Parameter = { name: string; in: string };
      const declared = spec.paths[op.route]![op.method.toLowerCase()] as unknown as {
        parameters?: Array<Parameter | { $ref: string }>;
      };
      const described = (declared.parameters ?? [])
        .map((p) => resolve<Parameter>(p))
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      const shape =
        (op.schemas.path as unknown as { _zod?: { def: { shape: Record<string, unknown> } } } | undefined)?._zod?.def
          .shape ?? {};
      expect({ route: names, schema: Object.keys(shape).sort() }, op.id).toEqual({
        route: described,
        schema: described,
      });
    }
  });

  it('sends the URL, method, headers and body a reader of the table expects', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    const fetchSpy = (async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      return new Response(
        JSON.stringify({ id: '3fa85f64-5717-4562-b3fc-2c963f66afa6', status: 'QUEUED', points: [] }),
        { status: 200 },
      );
    }) as typeof fetch;
    const client = new A11yClient({
      apiKey: 'svc_table_key',
      baseUrl: 'https://a11y.example.com/base/',
      fetch: fetchSpy,
      headers: { 'X-Trace': 't1' },
    });
    await client.sites.getTrend('3fa85f64-5717-4562-b3fc-2c963f66afa6', { limit: 5 });
    await client.ciChecks.create({ urls: ['https://shop.example.com/'] });
    expect(seen[0]!.url).toBe(
      'https://a11y.example.com/base/api/v1/sites/3fa85f64-5717-4562-b3fc-2c963f66afa6/trend?limit=5',
    );
    expect(seen[0]!.init).toMatchObject({ method: 'GET', body: undefined, redirect: 'manual' });
    expect(seen[0]!.init.headers).toEqual({
      accept: 'application/json, application/problem+json',
      'x-trace': 't1',
      authorization: 'Bearer svc_table_key',
    });
    expect(seen[1]!.url).toBe('https://a11y.example.com/base/api/v1/ci/checks');
    expect(seen[1]!.init).toMatchObject({ method: 'POST', body: '{"urls":["https://shop.example.com/"]}' });
    expect((seen[1]!.init.headers as Record<string, string>)['content-type']).toBe('application/json');
    expect(seen[1]!.init.signal).toBeInstanceOf(AbortSignal);
  });
});
