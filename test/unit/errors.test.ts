// The error factory and the API key's absence from every error, log and inspection.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  A11yClient,
  ApiError,
  ConfigurationError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  errorFromResponse,
  isApiError,
} from '../../src/index.js';
import { problem, startLoopback, text } from '../support/loopback.js';

const request = { method: 'GET', url: 'https://api.example.com/api/v1/scans/x' };
const problemBody = (extra = {}) =>
  JSON.stringify({
    type: 'https://docs.example.com/p',
    title: 'Scan not found',
    status: 404,
    detail: 'No scan with this id.',
    instance: '/api/v1/scans/x',
    code: 'SCAN_NOT_FOUND',
    traceId: '0a4d8b6f-3e7c-4d1a-8f2b-6c7d8e9f0a1b',
    timestamp: '2026-11-20T10:00:00Z',
    ...extra,
  });

describe('errorFromResponse', () => {
  it('maps a problem+json body to the class of its status with every field', async () => {
    const err = await errorFromResponse(
      new Response(problemBody(), { status: 404, headers: { 'content-type': 'application/problem+json' } }),
      request,
    );
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({
      status: 404,
      code: 'SCAN_NOT_FOUND',
      title: 'Scan not found',
      detail: 'No scan with this id.',
      type: 'https://docs.example.com/p',
      instance: '/api/v1/scans/x',
      traceId: '0a4d8b6f-3e7c-4d1a-8f2b-6c7d8e9f0a1b',
      timestamp: '2026-11-20T10:00:00Z',
      method: 'GET',
      url: request.url,
    });
    expect(err.problem?.code).toBe('SCAN_NOT_FOUND');
    expect(err.message).toBe(
      '404 SCAN_NOT_FOUND Scan not found: No scan with this id. (traceId 0a4d8b6f-3e7c-4d1a-8f2b-6c7d8e9f0a1b) [GET https://api.example.com/api/v1/scans/x]',
    );
    expect(err.name).toBe('NotFoundError');
  });

  it.each([
    [
      'an HTML 502',
      new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
      InternalServerError,
    ],
    ['an empty 503', new Response(null, { status: 503 }), InternalServerError],
    ['truncated JSON 409', new Response('{"code":"SCAN_ALR', { status: 409 }), ConflictError],
    ['a JSON array 429', new Response('[1,2]', { status: 429, headers: { 'retry-after': '7' } }), RateLimitError],
    ['an unknown 418', new Response('teapot', { status: 418 }), ApiError],
  ] as const)('%s still gives the right class, with code undefined', async (_name, response, Class) => {
    const err = await errorFromResponse(response, request);
    expect(err).toBeInstanceOf(Class);
    expect(err.code).toBeUndefined();
    expect(err.status).toBe(response.status);
    expect(err.message).toContain(String(response.status));
  });

  it('RateLimitError carries Retry-After in ms', async () => {
    const err = (await errorFromResponse(
      new Response(problemBody({ status: 429, code: 'RATE_LIMITED' }), {
        status: 429,
        headers: { 'retry-after': '7' },
      }),
      request,
    )) as RateLimitError;
    expect(err.retryAfterMs).toBe(7000);
  });

  it('a problem without code keeps title and traceId; code is undefined', async () => {
    const err = await errorFromResponse(new Response(problemBody({ code: undefined }), { status: 404 }), request);
    expect(err.code).toBeUndefined();
    expect(err.traceId).toBe('0a4d8b6f-3e7c-4d1a-8f2b-6c7d8e9f0a1b');
  });

  it('isApiError narrows on the code', async () => {
    const err: unknown = await errorFromResponse(new Response(problemBody(), { status: 404 }), request);
    expect(isApiError(err)).toBe(true);
    expect(isApiError(err, 'SCAN_NOT_FOUND')).toBe(true);
    expect(isApiError(err, 'SITE_NOT_FOUND')).toBe(false);
    expect(isApiError(new Error('x'))).toBe(false);
    if (isApiError(err, 'SCAN_NOT_FOUND')) {
      const code: 'SCAN_NOT_FOUND' = err.code;
      expect(code).toBe('SCAN_NOT_FOUND');
    }
  });
});

describe('configuration', () => {
  it('a missing key or base URL throws at construction naming the environment variable', () => {
    const env = { key: process.env.SVC_API_KEY, url: process.env.SVC_BASE_URL };
    delete process.env.SVC_API_KEY;
    delete process.env.SVC_BASE_URL;
    try {
      expect(() => new A11yClient({ baseUrl: 'https://a.example' })).toThrow(/SVC_API_KEY/);
      expect(() => new A11yClient({ apiKey: 'svc_x' })).toThrow(/SVC_BASE_URL/);
      expect(() => new A11yClient({ apiKey: 'svc_x', baseUrl: 'a.example' })).toThrow(ConfigurationError);
      expect(() => new A11yClient({ apiKey: 'svc_x', baseUrl: 'https://a.example', timeoutMs: -1 })).toThrow(
        /timeoutMs/,
      );
      process.env.SVC_API_KEY = 'svc_from_env';
      process.env.SVC_BASE_URL = 'https://env.example.com/';
      expect(new A11yClient().baseUrl).toBe('https://env.example.com');
    } finally {
      if (env.key === undefined) delete process.env.SVC_API_KEY;
      else process.env.SVC_API_KEY = env.key;
      if (env.url === undefined) delete process.env.SVC_BASE_URL;
      else process.env.SVC_BASE_URL = env.url;
    }
  });
});

describe('the API key never leaks', () => {
  const key = 'svc_LEAKCANARY_0123456789abcdef';

  it('is absent from util.inspect and JSON.stringify of the client', () => {
    const client = new A11yClient({ apiKey: key, baseUrl: 'https://a.example' });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(key);
    expect(JSON.stringify(client)).not.toContain(key);
    expect(inspect(client.ciChecks, { depth: 10, showHidden: true })).not.toContain(key);
  });

  it('is absent from errors of every path, even when the server echoes it back', async () => {
    const server = await startLoopback([
      (req, res) => {
        res.writeHead(401, { 'content-type': 'application/problem+json' });
        res.end(
          JSON.stringify({
            title: `bad key ${req.headers.authorization}`,
            detail: String(req.headers.authorization),
            code: 'API_KEY_INVALID',
            status: 401,
          }),
        );
      },
      problem(429, 'RATE_LIMITED', { 'retry-after': '9999' }),
      text(502, 'gateway'),
    ]);
    const client = new A11yClient({ apiKey: key, baseUrl: server.url, maxRetries: 0 });
    const errors: unknown[] = [];
    for (let i = 0; i < 3; i++) errors.push(await client.sites.list().catch((e) => e));
    errors.push(
      await new A11yClient({ apiKey: key, baseUrl: 'http://127.0.0.1:1', maxRetries: 0 }).sites.list().catch((e) => e),
    );
    errors.push(await client.scans.create({ url: 'nope' }).catch((e) => e));
    await server.close();
    for (const err of errors) {
      expect(err).toBeInstanceOf(Error);
      const e = err as Error;
      const all = [
        e.message,
        e.stack,
        JSON.stringify(e),
        inspect(e, { depth: 10, showHidden: true }),
        String(e),
        JSON.stringify((e as ApiError).problem ?? {}),
      ].join('\n');
      expect(all).not.toContain(key);
    }
    expect((errors[0] as ApiError).detail).toBe('Bearer [redacted]');
  });
});
