// Webhook deliveries: sent when a scan run turns terminal without anyone polling, signed so that
// verifyWebhook accepts them, retried with a stable delivery id, bounded by maxAttempts, stopped by stop().
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A11yClient } from '../../src/index.js';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { delay } from './helpers.js';
import { refusedPort } from '../support/loopback.js';

const SECRET = 'whsec_sim_test';
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

// A loopback receiver answering each request with the next status of `script` (then 200).
let receiver: Server;
let received: Received[] = [];
let script: number[] = [];
let receiverUrl: string;
let sim: Simulator;
let client: A11yClient;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(script.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  sim = await startSimulator({
    durations: { scanRun: 100 },
    rateLimit: false,
    webhook: { url: receiverUrl, secret: SECRET, retryDelayMs: 50 },
  });
  client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url });
});
afterAll(async () => {
  await sim.stop();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function until(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for deliveries');
    await delay(10);
  }
}

describe('webhook deliveries', () => {
  it('delivers scan_run.completed without polling, retries a 500 with the same id, and signs verifiably', async () => {
    received = [];
    script = [500];
    const before = sim.deliveries.length;
    const { id } = await client.scanRuns.create({ siteId: sim.ids.verifiedSite });
    // An attempt is recorded once its answer is read: wait for the records, not just the requests.
    await until(() => sim.deliveries.length === before + 2);
    const attempts = sim.deliveries.slice(before);
    expect(attempts).toEqual([
      { id: expect.any(String), attempt: 1, status: 500, type: 'scan_run.completed' },
      { id: attempts[0]!.id, attempt: 2, status: 200, type: 'scan_run.completed' },
    ]);
    expect(received.map((r) => r.headers['x-svc-delivery'])).toEqual([attempts[0]!.id, attempts[0]!.id]);
    expect(received[0]!.headers['x-svc-event']).toBe('scan_run.completed');
    expect(received[0]!.headers['content-type']).toBe('application/json');

    const event = await verifyWebhook({ body: received[1]!.body, headers: received[1]!.headers, secret: SECRET });
    expect(event).toMatchObject({ id: attempts[0]!.id, type: 'scan_run.completed' });
    expect(event.payload).toMatchObject({
      type: 'scan_run.completed',
      scanRun: { id, status: 'COMPLETED', pagesDone: 8, pagesTotal: 8 },
    });
    await expect(
      verifyWebhook({ body: received[1]!.body, headers: received[1]!.headers, secret: 'wrong' }),
    ).rejects.toThrow();
    // The delivery body is the run as GET /scan-runs/{id} shows it.
    expect((event.payload as { scanRun: unknown }).scanRun).toEqual(await client.scanRuns.get(id));
  });

  it('delivers a FAILED run too, and gives up after maxAttempts', async () => {
    received = [];
    script = [503, 503, 503, 503];
    const before = sim.deliveries.length;
    const { id } = await client.scanRuns.create({ siteId: sim.ids.offlineSite });
    await until(() => sim.deliveries.length === before + 3);
    await delay(150); // no fourth attempt follows
    expect(received).toHaveLength(3);
    expect(sim.deliveries.slice(before).map((d) => [d.attempt, d.status])).toEqual([
      [1, 503],
      [2, 503],
      [3, 503],
    ]);
    expect(JSON.parse(received[0]!.body)).toMatchObject({
      scanRun: { id, status: 'FAILED', failureReason: { code: 'ROOT_UNREACHABLE' } },
    });
  });

  it('records connection errors as attempts, and stop() ends pending retries and timers', async () => {
    const deadUrl = `http://127.0.0.1:${await refusedPort()}/`;

    const other = await startSimulator({
      durations: { scanRun: 50 },
      rateLimit: false,
      webhook: { url: deadUrl, secret: SECRET, maxAttempts: 5, retryDelayMs: 100 },
    });
    const otherClient = new A11yClient({ apiKey: other.keys.full, baseUrl: other.url });
    await otherClient.scanRuns.create({ siteId: other.ids.verifiedSite });
    await until(() => other.deliveries.length >= 1);
    expect(other.deliveries[0]).toMatchObject({ attempt: 1, status: 'error' });
    await other.stop();
    const count = other.deliveries.length;
    await delay(250);
    expect(other.deliveries).toHaveLength(count); // nothing after stop
    expect(count).toBeLessThan(5);
  });

  it('does not deliver for runs seeded as history', () => {
    expect(sim.deliveries.length).toBe(5); // 2 attempts of the first test + 3 of the second
  });
});
