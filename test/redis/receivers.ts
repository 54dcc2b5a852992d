// The replay tests' harness: webhook receiver processes (test/support/replay-receiver.mjs over the built dist/),
// each on its own loopback port, and genuine deliveries signed independently of the code under test
// (node:crypto over `timestamp.body`, as the spec's signature rule says).
import { spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../reliability/support.js';

const worker = fileURLToPath(new URL('../support/replay-receiver.mjs', import.meta.url));

export const SECRET = 'whsec_receivers_test_secret';

export interface ReceiverOptions {
  store: 'redis' | 'memory';
  format?: 'esm' | 'cjs';
  redisUrl?: string;
  keyPrefix?: string;
  whenUnavailable?: 'fail-closed' | 'fail-open';
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
}

export interface Receiver {
  url: string;
  pid: number;
  /** The codes the receiver's store warned with, in order. */
  warnings(): Promise<string[]>;
  /** SIGTERM by PID; resolves once the process has exited. */
  stop(): Promise<void>;
}

/** Starts one receiver process and waits until it listens. */
export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  ensureBuilt();
  const child = spawn(process.execPath, [worker, JSON.stringify({ secret: SECRET, ...options })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!).port);
    });
    void exited.then(() => reject(new Error(`receiver exited before listening: ${stderr}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    pid: child.pid!,
    warnings: async () => (await fetch(`${url}/warnings`)).json() as Promise<string[]>,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGTERM');
      await exited;
    },
  };
}

export interface Delivery {
  body: string;
  headers: Record<string, string>;
}

/** A genuine delivery, timestamped now (within any tolerance), with a body no other test sends. */
export function delivery(n: number, timestamp = Math.floor(Date.now() / 1000)): Delivery {
  const body = JSON.stringify({
    type: 'scan_run.completed',
    scanRun: { id: `sr_${n}_${randomUUID()}`, status: 'COMPLETED' },
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-svc-event': 'scan_run.completed',
      'x-svc-delivery': `dlv_${n}`,
      'x-svc-timestamp': String(timestamp),
      'x-svc-signature': `v1=${createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex')}`,
    },
  };
}

/** The same signed delivery under a fresh (unsigned) delivery id and event kind. */
export function underFreshId(d: Delivery, copy: number): Delivery {
  return {
    body: d.body,
    headers: { ...d.headers, 'x-svc-delivery': `fresh_${copy}_${randomUUID()}`, 'x-svc-event': `kind_${copy % 3}` },
  };
}

/** POSTs one delivery; resolves to the receiver's status and body. */
export async function send(receiver: Receiver, d: Delivery): Promise<{ status: number; text: string }> {
  const response = await fetch(`${receiver.url}/hooks`, { method: 'POST', headers: d.headers, body: d.body });
  return { status: response.status, text: await response.text() };
}

/** Outcomes counted by kind: `accepted` (204), else the reason the receiver answered with. */
export function tally(results: Array<{ status: number; text: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status, text } of results) {
    const kind = status === 204 ? 'accepted' : `${status} ${text}`;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}
