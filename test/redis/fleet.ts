// The fleet tests' harness: N processes × M sequential calls with one key, sharing a Redis budget, against
// the simulator limiting the key to `perWindow` requests per `windowMs` (a time-scaled minute) — or against a
// server of the test's own — with every answer counted (429s the client retried included).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSimulator } from '../../src/testing/index.js';
import { ensureBuilt } from '../reliability/support.js';

const worker = fileURLToPath(new URL('../support/fleet-worker.mjs', import.meta.url));

export interface FleetOptions {
  processes: number;
  calls: number;
  /** The key's limit at the simulator: `perWindow` requests per `windowMs`. */
  perWindow: number;
  windowMs: number;
  redisUrl: string;
  /** The fleet's rate as a share of the key's (below 1: margin for jitter). */
  shareOfRate: number;
  /** Call `store.connect()` before the first call (the first use docs/fleet.md shows does not). */
  connect?: boolean;
  /** A server of the test's own instead of the simulator (its key: any). */
  server?: { url: string };
  /**
   * Runs alongside the fleet (kills or freezes Redis after a while), from the time every process has had its
   * first answer: on a busy machine, six Node processes can take seconds to boot, and harm done before they run
   * would test their start-up, not a store failing mid-run.
   */
  during?: () => Promise<void>;
}

export interface FleetResult {
  ok: number;
  failures: string[];
  warnings: string[];
  /** Each process's warnings, in order. */
  warningsByProcess: string[][];
  requests: number;
  tooMany: number;
  /** Every answer the fleet got: [time, status]. */
  answers: Array<[number, number]>;
  /** First to last request the server accepted, in ms. */
  elapsedMs: number;
  /** What the key's window allows for that many requests: (accepted − 1) / rate. */
  idealMs: number;
}

/** Runs the fleet. */
export async function runFleet(options: FleetOptions): Promise<FleetResult> {
  ensureBuilt();
  const sim = options.server
    ? undefined
    : await startSimulator({ rateLimit: { requestsPerMinute: options.perWindow, windowMs: options.windowMs } });
  const baseUrl = options.server?.url ?? sim!.url;
  const apiKey = sim?.keys.full ?? 'svc_fleet_test_key_0123456789';
  // The key's rate, per minute, from its window; the fleet asks for a share of it.
  const requestsPerMinute = ((options.perWindow * 60_000) / options.windowMs) * options.shareOfRate;
  try {
    const args = JSON.stringify({
      baseUrl,
      apiKey,
      redisUrl: options.redisUrl,
      calls: options.calls,
      requestsPerMinute,
      connect: options.connect ?? false,
    });
    const serving: Array<Promise<void>> = [];
    const runs = Array.from(
      { length: options.processes },
      () =>
        new Promise<{ ok: number; failures: string[]; warnings: string[]; answers: Array<[number, number]> }>(
          (resolve, reject) => {
            const child = execFile(process.execPath, [worker, args], { timeout: 120_000 }, (error, stdout) =>
              error ? reject(error) : resolve(JSON.parse(stdout)),
            );
            // A process that ends (or fails) before its first answer counts as started, so nothing waits forever.
            serving.push(
              new Promise<void>((started) => {
                child.stderr?.on('data', (chunk: Buffer) => chunk.includes('serving') && started());
                child.on('exit', () => started());
              }),
            );
          },
        ),
    );
    const during = options.during && Promise.all(serving).then(options.during);
    const [results] = await Promise.all([Promise.all(runs), during]);
    const answers = results.flatMap((r) => r.answers).sort((a, b) => a[0] - b[0]);
    const accepted = answers.filter(([, status]) => status !== 429).map(([at]) => at);
    return {
      ok: results.reduce((n, r) => n + r.ok, 0),
      failures: results.flatMap((r) => r.failures),
      warnings: results.flatMap((r) => r.warnings),
      warningsByProcess: results.map((r) => r.warnings),
      requests: answers.length,
      tooMany: answers.filter(([, status]) => status === 429).length,
      answers,
      elapsedMs: accepted.length ? accepted.at(-1)! - accepted[0]! : 0,
      idealMs: ((accepted.length - 1) * options.windowMs) / options.perWindow,
    };
  } finally {
    await sim?.stop();
  }
}

/**
 * Whether each process warned once per outage: UNAVAILABLE, then RECOVERED when Redis answered again, in
 * turn (a process may end its calls before it finds Redis back).
 */
export function oneWarningPerOutage(r: FleetResult): boolean {
  return r.warningsByProcess.every((list) =>
    list.every((code, i) => code === (i % 2 === 0 ? 'RATE_LIMIT_STORE_UNAVAILABLE' : 'RATE_LIMIT_STORE_RECOVERED')),
  );
}

/** Resolves after `ms`. */
export const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
