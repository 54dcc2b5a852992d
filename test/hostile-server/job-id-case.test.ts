// Job ids are UUIDs, and UUIDs compare case-insensitively: a poll answer that echoes the id in the other case is
// the same job (returned), while an answer about a different job is still refused. Loopback servers on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { A11yClient, ResponseValidationError } from '../../src/index.js';
import { json, startLoopback, type Handler, type Loopback } from '../support/loopback.js';

const lower = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const upper = lower.toUpperCase();
const mixed = '3FA85F64-5717-4562-b3fc-2C963F66AFA6';
const other = '9c858901-8a57-4791-81fe-4c455b099bc9';
const check = (id: string, status: string) => ({ id, status, verdict: status === 'COMPLETED' ? 'PASS' : undefined });

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const serve = async (handlers: Handler[]) => {
  server = await startLoopback(handlers);
  return new A11yClient({ apiKey: 'svc_job_id_case_key', baseUrl: server.url, maxRetries: 0 });
};

describe('a polled job id echoed in another case is the same job', () => {
  it.each([
    ['lower-case id, upper-case answer', lower, upper],
    ['upper-case id, lower-case answer', upper, lower],
    ['lower-case id, mixed-case answer', lower, mixed],
  ])('waitForCompletion: %s → the job is returned', async (_name, asked, answered) => {
    const client = await serve([json(200, check(answered, 'COMPLETED'))]);
    const done = await client.ciChecks.waitForCompletion(asked, { intervalMs: 5 });
    expect(done.status).toBe('COMPLETED');
    expect(done.id).toBe(answered);
  });

  it.each([
    ['202 lower, polls answer upper (via Location)', lower, upper, { location: `/api/v1/ci/checks/${lower}` }],
    ['202 upper, polls answer lower (own route)', upper, lower, {}],
  ])('createAndWait: %s → the job is returned', async (_name, created, polled, headers) => {
    const client = await serve([
      json(202, check(created, 'QUEUED'), headers),
      json(200, check(polled, 'RUNNING')),
      json(200, check(polled, 'COMPLETED')),
    ]);
    const done = await client.ciChecks.createAndWait({ urls: ['https://shop.example.com/'] }, { intervalMs: 5 });
    expect(done.status).toBe('COMPLETED');
    expect(server!.requests).toHaveLength(3);
  });

  it.each([lower, upper])('an answer about another job is still refused (asked %s)', async (asked) => {
    const client = await serve([json(200, check(other.toUpperCase(), 'COMPLETED'))]);
    const err = (await client.ciChecks
      .waitForCompletion(asked, { intervalMs: 5 })
      .catch((e: unknown) => e)) as ResponseValidationError;
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.field).toBe('body.id');
  });
});
