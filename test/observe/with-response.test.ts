// `.withResponse()` on every call, from the one shared mechanism: the parsed body and the HTTP response it came
// from, from the same single request, with exact types.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { A11yClient, NotFoundError } from '../../src/index.js';
import type { APIPromise, CiCheck, Site, WithResponse } from '../../src/index.js';
import { json, problem, serveEach } from '../support/loopback.js';

const id = '396154c7-55f5-43ad-bac0-2dd077d2efcb';
const serve = serveEach();
const client = (url: string) => new A11yClient({ apiKey: 'svc_with_response_key', baseUrl: url });
const site = { id: '8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d', name: 'Shop', baseUrl: 'https://shop.example.com' };

describe('withResponse()', () => {
  it('a plain call: the body and its response (status, rate-limit headers), one request', async () => {
    const api = await serve(
      json(200, { id, status: 'RUNNING' }, { 'x-ratelimit-remaining': '42', 'retry-after': '3' }),
    );
    const call = client(api.url).ciChecks.get(id);
    const { data, response } = await call.withResponse();
    expect(data).toEqual({ id, status: 'RUNNING' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('42');
    expect(response.headers.get('retry-after')).toBe('3');
    // Awaiting the same call gives the same body without a second request.
    expect(await call).toEqual(data);
    expect(api.requests).toHaveLength(1);
    expectTypeOf(call).toEqualTypeOf<APIPromise<CiCheck>>();
    expectTypeOf(data).toEqualTypeOf<CiCheck>();
    expectTypeOf(response).toEqualTypeOf<Response>();
  });

  it('a list call: the array and its response', async () => {
    const api = await serve(json(200, [site], { 'x-total-count': '1' }));
    const { data, response } = await client(api.url).sites.list().withResponse();
    expect(data).toEqual([site]);
    expect(response.headers.get('x-total-count')).toBe('1');
    expectTypeOf(data).toEqualTypeOf<Site[]>();
    // A function, not a call: a call made only for its type would send a request nobody awaits, and its failure
    // once the server is closed would surface in whatever test runs next.
    expectTypeOf(() => client(api.url).sites.list()).returns.resolves.toEqualTypeOf<Site[]>();
  });

  it('createAndWait: the terminal resource and the last poll’s response', async () => {
    const api = await serve([
      json(202, { id, status: 'QUEUED' }, { location: `/api/v1/ci/checks/${id}` }),
      json(200, { id, status: 'RUNNING' }, { 'x-poll': 'first' }),
      json(200, { id, status: 'COMPLETED', verdict: 'PASS' }, { 'x-poll': 'last' }),
    ]);
    const result = await client(api.url)
      .ciChecks.createAndWait({ urls: ['https://shop.example.com/'] }, { intervalMs: 10, maxIntervalMs: 20 })
      .withResponse();
    expect(result.data).toMatchObject({ status: 'COMPLETED', verdict: 'PASS' });
    expect(result.response.headers.get('x-poll')).toBe('last');
    expect(api.requests).toHaveLength(3);
    expectTypeOf(result).toEqualTypeOf<WithResponse<CiCheck>>();
  });

  it('an error rejects both faces with the same error class; catch and finally work as on any promise', async () => {
    const api = await serve(problem(404, 'CI_CHECK_NOT_FOUND'));
    await expect(client(api.url).ciChecks.get(id).withResponse()).rejects.toBeInstanceOf(NotFoundError);
    let finished = false;
    const caught = await client(api.url)
      .ciChecks.get(id)
      .finally(() => {
        finished = true;
      })
      .catch((e: unknown) => e);
    expect(caught).toBeInstanceOf(NotFoundError);
    expect(finished).toBe(true);
    await expect(Promise.all([client(api.url).ciChecks.get(id)])).rejects.toBeInstanceOf(NotFoundError);
  });

  it('is a Promise', async () => {
    const api = await serve(json(200, []));
    const call = client(api.url).sites.list();
    expect(call).toBeInstanceOf(Promise);
    expect(Object.prototype.toString.call(call)).toBe('[object Promise]');
    expectTypeOf(call).toMatchTypeOf<Promise<Site[]>>();
    await call;
  });
});
