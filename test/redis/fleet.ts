// The fleet test's harness: N processes × M calls with one key, sharing a Redis budget, against the simulator
// limiting the key to `perWindow` requests per `windowMs` (time-scaled minute), with every answer counted.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSimulator } from '../../src/testing/index.js';
import { ensureBuilt } from '../reliability/support.js';

const worker = fileURLToPath(new URL('../support/fleet-worker.mjs', import.meta.url));

export interface FleetResult {
  ok: number;
  failures: string[];
  warnings: string[];
  requests: number;
  tooMany: number;
  /** First to last request the server saw, in ms. */
  elapsedMs: number;
  /** What the key's window allows for that many requests: (accepted − 1) / rate. */
  idealMs: number;
}

/** Runs the fleet; `during` runs alongside it (e.g. kills Redis after a while). */
export async function runFleet(options: { processes: number; calls: number; perWindow: number; windowMs: number; redisUrl: string; shareOfRate: number; during?: () => Promise<void> }): Promise<FleetResult> {
  ensureBuilt();
  const sim = await startSimulator({ rateLimit: { requestsPerMinute: options.perWindow, windowMs: options.windowMs } });
  // The key's rate, per minute, from its window; the fleet asks for a share of it (below 1: margin for jitter).
  const rpm = (options.perWindow * 60_000) / options.windowMs;
  try {
    const runs = Array.from({ length: options.processes }, () =>
      new Promise<{ ok: number; failures: string[]; warnings: string[]; answers: Array<[number, number]> }>((resolve, reject) => {
        execFile(process.execPath, [worker, sim.url, sim.keys.full, options.redisUrl, String(options.calls), String(rpm * options.shareOfRate)], { timeout: 120_000 }, (error, stdout) =>
          error ? reject(error) : resolve(JSON.parse(stdout)),
        );
      }),
    );
    const [results] = await Promise.all([Promise.all(runs), options.during?.()]);
    const seen = results.flatMap((r) => r.answers);
    const accepted = seen.filter(([, status]) => status !== 429).map(([at]) => at).sort((a, b) => a - b);
    return {
      ok: results.reduce((n, r) => n + r.ok, 0),
      failures: results.flatMap((r) => r.failures),
      warnings: results.flatMap((r) => r.warnings),
      requests: seen.length,
      tooMany: seen.filter(([, status]) => status === 429).length,
      elapsedMs: accepted.length ? accepted.at(-1)! - accepted[0]! : 0,
      idealMs: ((accepted.length - 1) * options.windowMs) / options.perWindow,
    };
  } finally {
    await sim.stop();
  }
}
