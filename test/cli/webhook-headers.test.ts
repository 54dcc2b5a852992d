// `svc-a11y webhook verify` judges a saved delivery as verifyWebhook judged the same bytes live: each request below
// is sent byte for byte to a real node:http server on 127.0.0.1 (port 0) whose handler runs verifyWebhook on
// req.headers, then handed to the CLI in process as its stdin. Repeated X-Svc-Signature (and other X-Svc-*) lines
// must combine the same way (Node joins them with ", "), give the same verdict and the same reason. What the CLI prints labels the
// unsigned headers (X-Svc-Event, X-Svc-Delivery) as unsigned.
import { createHmac } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRawRequest } from '../../src/cli/commands/webhook.js';
import { WebhookVerificationError, verifyWebhook, type WebhookEvent } from '../../src/webhooks/index.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';

const SECRET = 'whsec_cli_headers_secret';
const BODY = '{"type":"scan_run.completed","scanRun":{"id":"r1","status":"COMPLETED"}}';
const NAMES = ['x-svc-event', 'x-svc-delivery', 'x-svc-timestamp', 'x-svc-signature'] as const;

interface Judged {
  headers: Record<string, string | string[] | undefined>;
  event?: WebhookEvent;
  reason?: string;
}

let server: Server;
let port: number;

beforeAll(async () => {
  // The receiver every webhooks example is: raw body bytes and req.headers straight into verifyWebhook.
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(NAMES.map((name) => [name, req.headers[name]]));
      verifyWebhook({ body: Buffer.concat(chunks), headers: req.headers, secret: SECRET }).then(
        (event) => res.end(JSON.stringify({ headers, event })),
        (error: unknown) =>
          res.end(
            JSON.stringify({
              headers,
              reason: error instanceof WebhookVerificationError ? error.reason : String(error),
            }),
          ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends `raw` as is over a socket and returns what the live receiver made of it. */
function judgeLive(raw: Buffer): Promise<Judged> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const response = Buffer.concat(chunks).toString('latin1');
      const status = response.slice(0, response.indexOf('\r\n'));
      if (!status.startsWith('HTTP/1.1 200')) return reject(new Error(`the server refused the request: ${status}`));
      resolve(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as Judged);
    });
  });
}

const mac = (timestamp: number, encoding: 'hex' | 'base64' = 'hex') =>
  createHmac('sha256', SECRET).update(`${timestamp}.${BODY}`).digest(encoding);
const WRONG = `v1=${'0'.repeat(64)}`;

/** A request with the given header lines (after Host and Content-Length), CRLF throughout, as Node's parser wants. */
function request(lines: (timestamp: number) => string[]): Buffer {
  const timestamp = Math.floor(Date.now() / 1000);
  const head = [
    'POST /hooks HTTP/1.1',
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(BODY)}`,
    'Connection: close',
    ...lines(timestamp),
  ];
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${BODY}`, 'latin1');
}
const base = (ts: number) => ['X-Svc-Event: scan_run.completed', 'X-Svc-Delivery: d-1', `X-Svc-Timestamp: ${ts}`];

const variants: [string, 'accepted' | string, Buffer][] = [
  ['one valid line', 'accepted', request((ts) => [...base(ts), `X-Svc-Signature: v1=${mac(ts)}`])],
  [
    'two lines, the valid one first',
    'accepted',
    request((ts) => [...base(ts), `X-Svc-Signature: v1=${mac(ts)}`, `X-Svc-Signature: ${WRONG}`]),
  ],
  [
    'two lines, the valid one second',
    'accepted',
    request((ts) => [...base(ts), `X-Svc-Signature: ${WRONG}`, `X-Svc-Signature: v1=${mac(ts)}`]),
  ],
  [
    'two invalid lines',
    'SIGNATURE_MISMATCH',
    request((ts) => [...base(ts), `X-Svc-Signature: ${WRONG}`, `X-Svc-Signature: v1=${'f'.repeat(64)}`]),
  ],
  [
    'two malformed lines',
    'MALFORMED_SIGNATURE',
    request((ts) => [...base(ts), 'X-Svc-Signature: v1=zz', 'X-Svc-Signature: v0=abc']),
  ],
  [
    'an empty line, then a valid one',
    'accepted',
    request((ts) => [...base(ts), 'X-Svc-Signature:', `X-Svc-Signature: v1=${mac(ts)}`]),
  ],
  [
    'a malformed line, then a valid base64 one',
    'accepted',
    request((ts) => [...base(ts), 'X-Svc-Signature: v1=zz', `X-Svc-Signature: v1=${mac(ts, 'base64')}`]),
  ],
  [
    'two lines in different name cases, padded with spaces and tabs',
    'accepted',
    request((ts) => [...base(ts), `x-svc-signature:\t ${WRONG} \t`, `X-SVC-SIGNATURE:   v1=${mac(ts)}  `]),
  ],
  [
    'two values on one line, then a third line',
    'accepted',
    request((ts) => [...base(ts), `X-Svc-Signature: ${WRONG}, v1=${'1'.repeat(64)}`, `X-Svc-Signature: v1=${mac(ts)}`]),
  ],
  [
    'two X-Svc-Timestamp lines (not a timestamp once joined)',
    'INVALID_TIMESTAMP',
    request((ts) => [...base(ts), `X-Svc-Timestamp: ${ts}`, `X-Svc-Signature: v1=${mac(ts)}`]),
  ],
  [
    'two X-Svc-Delivery lines (joined: an unsigned id, not checked)',
    'accepted',
    request((ts) => [...base(ts), 'X-Svc-Delivery: d-2', `X-Svc-Signature: v1=${mac(ts)}`]),
  ],
];

describe('webhook verify reads repeated header lines as Node does', () => {
  it.each(variants)('%s: the same X-Svc-* headers as req.headers', async (_label, _expected, raw) => {
    const live = await judgeLive(raw);
    const { headers } = parseRawRequest(raw);
    for (const name of NAMES) expect([name, headers[name]]).toEqual([name, live.headers[name]]);
  });

  it.each(variants)('%s: the CLI gives the live receiver’s verdict (%s)', async (_label, expected, raw) => {
    const live = await judgeLive(raw);
    expect(live.reason ?? 'accepted').toBe(expected);
    const cli = await runCliLikeBinary(['webhook', 'verify', '--secret', SECRET, '--json'], { stdin: raw });
    if (live.event) {
      expect(cli.stderr).toBe('');
      expect(cli.code).toBe(0);
      expect(JSON.parse(cli.stdout)).toEqual({ ...live.event, unsigned: ['id', 'type'] });
    } else {
      expect(cli.code).toBe(1);
      expect(cli.stdout).toBe('');
      expect(cli.stderr).toContain(`webhook verification failed: ${live.reason}:`);
    }
  });
});

describe('webhook verify labels what is not signed', () => {
  it('prints the timestamp as signed, the event kind and delivery id as unsigned', async () => {
    const raw = request((ts) => [...base(ts), `X-Svc-Signature: v1=${mac(ts)}`]);
    const timestamp = /X-Svc-Timestamp: (\d+)/.exec(raw.toString('latin1'))![1];
    const cli = await runCliLikeBinary(['webhook', 'verify', '--secret', SECRET], { stdin: raw });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toBe(
      `verified: X-Svc-Signature matches the timestamp and the body (${Buffer.byteLength(BODY)} bytes)\n` +
        `  timestamp (signed): ${timestamp}\n` +
        '  event (unsigned): scan_run.completed\n' +
        '  delivery id (unsigned): d-1\n',
    );
  });

  it('control characters in an unsigned header are not passed to the terminal', async () => {
    // Node's own parser refuses these bytes; a saved file can hold anything.
    const raw = request((ts) => [
      'X-Svc-Event: scan\x1b[2Jrun',
      'X-Svc-Delivery: d\x07-\x1b]0;title\x07',
      `X-Svc-Timestamp: ${ts}`,
      `X-Svc-Signature: v1=${mac(ts)}`,
    ]);
    const cli = await runCliLikeBinary(['webhook', 'verify', '--secret', SECRET], { stdin: raw });
    expect(cli.code).toBe(0);
    expect(cli.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(cli.stdout).toContain('event (unsigned): scan\uFFFD[2Jrun\n');
    expect(cli.stdout).toContain('delivery id (unsigned): d\uFFFD-\uFFFD]0;title\uFFFD\n');
  });
});
