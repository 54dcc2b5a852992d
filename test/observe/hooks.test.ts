// Request/response hooks against a loopback service: called around every attempt in order, with the same request
// object; the key redacted unless the hooks opt in; headers they add are sent; a hook that throws ends the call
// with HookError (its error as the cause), and nothing more is sent.
import { describe, expect, it } from 'vitest';
import { A11yClient, HookError } from '../../src/index.js';
import type { HookRequest, HookResponse, Hooks } from '../../src/index.js';
import { json, serveEach, text } from '../support/loopback.js';

const KEY = 'svc_Hooks_Key-77xyz';
const serve = serveEach();
const client = (url: string, hooks: Hooks) => new A11yClient({ apiKey: KEY, baseUrl: url, hooks });

describe('hooks', () => {
  it('onRequest then onResponse around each attempt, re-sends included, with the same request object', async () => {
    const api = await serve([text(503, 'busy'), json(200, [], { 'x-ratelimit-remaining': '7' })]);
    const calls: Array<['request', HookRequest] | ['response', HookResponse]> = [];
    await client(api.url, {
      onRequest: (request) => void calls.push(['request', request]),
      onResponse: async (response) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        calls.push(['response', response]);
      },
    }).sites.list();
    expect(calls.map(([kind, value]) => `${kind} ${'attempt' in value ? value.attempt : value.status}`)).toEqual([
      'request 1',
      'response 503',
      'request 2',
      'response 200',
    ]);
    const [first, second] = [calls[0]![1] as HookRequest, calls[2]![1] as HookRequest];
    expect((calls[1]![1] as HookResponse).request).toBe(first);
    expect((calls[3]![1] as HookResponse).request).toBe(second);
    expect(first).toMatchObject({ operationId: 'listSites', method: 'GET', url: `${api.url}/api/v1/sites` });
    const last = calls[3]![1] as HookResponse;
    expect(last.headers.get('x-ratelimit-remaining')).toBe('7');
    expect(last.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('hooks see authorization redacted by default, and the key only when they opt in', async () => {
    const api = await serve(json(200, []));
    const seen: string[] = [];
    const onRequest = (request: HookRequest) => void seen.push(request.headers.authorization!);
    await client(api.url, { onRequest }).sites.list();
    await client(api.url, { onRequest, unredacted: true }).sites.list();
    expect(seen).toEqual(['Bearer [redacted]', `Bearer ${KEY}`]);
    // The service got the key both times.
    expect(api.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
  });

  it('headers onRequest adds are sent (a trace context); authorization stays the key whatever the hook does', async () => {
    const api = await serve(json(200, []));
    await client(api.url, {
      onRequest: (request) => {
        request.headers.traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
        request.headers.authorization = 'Bearer stolen';
      },
    }).sites.list();
    expect(api.requests[0]!.headers.traceparent).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('onRequest throwing: HookError with the hook and its error as cause, and nothing is sent', async () => {
    const api = await serve(json(200, []));
    const thrown = new Error('tracer not started');
    const error = await client(api.url, {
      onRequest: () => {
        throw thrown;
      },
    })
      .sites.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect(error).toMatchObject({ name: 'HookError', hook: 'onRequest', cause: thrown });
    expect((error as Error).message).toBe('The onRequest hook threw: Error: tracer not started');
    expect(api.requests).toHaveLength(0);
  });

  it('onResponse rejecting: HookError, and a 503 is not re-sent after it', async () => {
    const api = await serve([text(503, 'busy'), json(200, [])]);
    const error = await client(api.url, { onResponse: () => Promise.reject(new TypeError(`bad ${KEY}`)) })
      .sites.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect((error as HookError).hook).toBe('onResponse');
    expect((error as HookError).cause).toBeInstanceOf(TypeError);
    // The message never carries the key, even when the hook's error does.
    expect((error as Error).message).toBe('The onResponse hook threw: TypeError: bad [redacted]');
    expect(api.requests).toHaveLength(1);
  });

  it('an invalid header added by onRequest is a HookError, not a request', async () => {
    const api = await serve(json(200, []));
    const error = await client(api.url, {
      onRequest: (request) => {
        request.headers['x-bad'] = 'line\nbreak';
      },
    })
      .sites.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookError);
    expect((error as Error).message).toContain('headers["x-bad"] is not a valid HTTP header name and value');
    expect(api.requests).toHaveLength(0);
  });

  it('polls of createAndWait go through the hooks too', async () => {
    const id = '396154c7-55f5-43ad-bac0-2dd077d2efcb';
    const api = await serve([json(202, { id, status: 'QUEUED' }), json(200, { id, status: 'COMPLETED' })]);
    const ops: string[] = [];
    await client(api.url, { onRequest: (r) => void ops.push(r.operationId) }).ciChecks.createAndWait(
      { urls: ['https://shop.example.com/'] },
      { intervalMs: 10 },
    );
    expect(ops).toEqual(['createCiCheck', 'getCiCheck']);
  });
});
