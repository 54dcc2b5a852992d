// Waiting and URLs: careless wait options are refused before anything is sent; a Location is
// followed only under baseUrl + /api/v1/; a poll answer about another job, and a 202 without a usable id,
// are refused and say what happened; a base URL with a query or fragment is refused at construction; the
// wait's deadline covers the request that starts the job.
import { afterEach, describe, expect, it } from 'vitest';
import {
  A11yClient,
  ConfigurationError,
  PollTimeoutError,
  RateLimitError,
  ResponseValidationError,
  type WaitOptions,
} from '../../src/index.js';
import { hang, json, startLoopback, type Handler, type Loopback } from '../support/loopback.js';
import { raceTimer } from '../support/timer.js';

const KEY = 'svc_polling_hardening_key';
const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const OTHER = '9c858901-8a57-4791-81fe-4c455b099bc9';
const ciBody = { urls: ['https://shop.example.com/'] };
const check = (status: string, id = ID) => ({ id, status, verdict: status === 'COMPLETED' ? 'PASS' : undefined });
let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const serve = async (handlers: Handler | Handler[], path = '') => {
  server = await startLoopback(handlers);
  return new A11yClient({ apiKey: KEY, baseUrl: server.url + path, maxRetries: 0 });
};
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('wait options are checked before anything is sent', () => {
  const bad: Array<[string, WaitOptions]> = [
    ['intervalMs 0', { intervalMs: 0 }],
    ['intervalMs -5', { intervalMs: -5 }],
    ['intervalMs NaN', { intervalMs: Number.NaN }],
    ['intervalMs Infinity', { intervalMs: Number.POSITIVE_INFINITY }],
    ['maxIntervalMs NaN', { maxIntervalMs: Number.NaN }],
    ['maxIntervalMs 0', { maxIntervalMs: 0 }],
    ['timeoutMs 0', { timeoutMs: 0 }],
    ['timeoutMs NaN', { timeoutMs: Number.NaN }],
    ['timeoutMs -1', { timeoutMs: -1 }],
  ];
  it.each(bad)(
    '%s → ConfigurationError naming the option; no request (waitForCompletion and createAndWait)',
    async (_name, options) => {
      const client = await serve(json(200, check('COMPLETED')));
      const option = Object.keys(options)[0]!;
      for (const call of [
        () => client.ciChecks.waitForCompletion(ID, options),
        () => client.ciChecks.createAndWait(ciBody, options),
      ]) {
        const err = (await failure(call())) as Error;
        expect(err).toBeInstanceOf(ConfigurationError);
        expect(err.message).toContain(option);
      }
      expect(server!.requests).toHaveLength(0);
    },
  );

  it('onProgress that is not a function is refused before sending', async () => {
    const client = await serve(json(200, check('COMPLETED')));
    const err = await failure(client.ciChecks.waitForCompletion(ID, { onProgress: 'log' as never }));
    expect(err).toBeInstanceOf(ConfigurationError);
    expect(server!.requests).toHaveLength(0);
  });
});

describe('Location is followed only under baseUrl + /api/v1/', () => {
  it.each([
    ['another tenant on the same host', `/tenant-b/api/v1/ci/checks/${ID}`],
    ['outside the API on the same origin', '/admin/export?all=1'],
    ['the API root of the host, outside the base path', `/api/v1/ci/checks/${ID}`],
  ])("%s → not followed; polls go to the job's own route under the base URL", async (_name, location) => {
    const client = await serve([json(202, check('QUEUED'), { location }), json(200, check('COMPLETED'))], '/tenant-a');
    const done = await client.ciChecks.createAndWait(ciBody, { intervalMs: 5 });
    expect(done.status).toBe('COMPLETED');
    expect(server!.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /tenant-a/api/v1/ci/checks',
      `GET /tenant-a/api/v1/ci/checks/${ID}`,
    ]);
    expect(server!.requests[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("a Location under the base URL's API prefix is followed as given", async () => {
    const location = `/tenant-a/api/v1/ci/checks/${ID}?view=full`;
    const client = await serve([json(202, check('QUEUED'), { location }), json(200, check('COMPLETED'))], '/tenant-a');
    await client.ciChecks.createAndWait(ciBody, { intervalMs: 5 });
    expect(server!.requests[1]!.url).toBe(location);
  });
});

describe('answers that do not fit the job', () => {
  it('a poll answer about another job is refused (ResponseValidationError on body.id), not returned', async () => {
    const client = await serve([json(200, check('COMPLETED', OTHER))]);
    const err = (await failure(client.ciChecks.waitForCompletion(ID, { intervalMs: 5 }))) as ResponseValidationError;
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.field).toBe('body.id');
    expect(err.message).toContain(ID);
  });

  it('a poll via Location whose answer names another job is refused too', async () => {
    const client = await serve([
      json(202, check('QUEUED'), { location: `/api/v1/ci/checks/${ID}` }),
      json(200, check('COMPLETED', OTHER)),
    ]);
    const err = (await failure(client.ciChecks.createAndWait(ciBody, { intervalMs: 5 }))) as ResponseValidationError;
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.field).toBe('body.id');
  });

  it.each([
    ['not a UUID', 'job-42'],
    ['missing', undefined],
    ['a number', 42],
  ])(
    'a 202 whose id is %s → ResponseValidationError saying the request was sent (never "Nothing was sent")',
    async (_name, id) => {
      const client = await serve([json(202, { id, status: 'QUEUED' })]);
      const err = (await failure(client.ciChecks.createAndWait(ciBody, { intervalMs: 5 }))) as ResponseValidationError;
      expect(err).toBeInstanceOf(ResponseValidationError);
      expect(err.operationId).toBe('createCiCheck');
      expect(err.field).toBe('body.id');
      expect(err.message).toMatch(/was sent and accepted/);
      expect(err.message).not.toContain('Nothing was sent');
      expect(server!.requests).toHaveLength(1);
    },
  );
});

describe('base URL', () => {
  it.each([
    'https://a11y.example.com/?tenant=a',
    'https://a11y.example.com/#frag',
    'https://a11y.example.com/x?',
    'https://a11y.example.com#',
  ])('%s → ConfigurationError at construction', (baseUrl) => {
    expect(() => new A11yClient({ apiKey: KEY, baseUrl })).toThrow(/query .* or fragment/);
  });
});

describe('the wait deadline covers the create request', () => {
  it("a POST that never answers ends at the wait's timeoutMs, not the request timeout", async () => {
    server = await startLoopback(hang);
    const client = new A11yClient({ apiKey: KEY, baseUrl: server.url, timeoutMs: 30_000 });
    // Ended by the 300 ms deadline: before a timer of 2 s set alongside it fires (the 30 s request timeout would lose).
    const bounded = raceTimer(2000);
    const err = (await failure(client.ciChecks.createAndWait(ciBody, { timeoutMs: 300 }))) as PollTimeoutError;
    expect(err).toBeInstanceOf(PollTimeoutError);
    expect(err.jobId).toBeUndefined();
    expect(err.message).toMatch(/starting the job/);
    expect(bounded.fired()).toBe(false);
    bounded.clear();
  });

  it('a 429 on the create whose Retry-After ends after the deadline fails at once with RateLimitError (retryAt), not at the deadline', async () => {
    server = await startLoopback(json(429, { code: 'RATE_LIMITED' }, { 'retry-after': '1' }));
    const client = new A11yClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 10 });
    const started = Date.now();
    const err = (await failure(client.ciChecks.createAndWait(ciBody, { timeoutMs: 400 }))) as RateLimitError;
    // Waiting 1 s could only end in the 400 ms deadline: the error says when the key may send again instead.
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err).not.toBeInstanceOf(PollTimeoutError);
    // Retry-After: 1 counted from the 429, which came after the call began (not from whenever this line runs).
    expect(err.retryAt!.getTime()).toBeGreaterThanOrEqual(started + 1000);
    expect(err.retryAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(server.requests).toHaveLength(1);
  });
});
