// Benchmark 7: a fleet on one key. 6 processes × 50 calls started at once with one API key against the simulator
// limiting the key to 120 requests per 6 s window (a minute time-scaled by 10): without a client budget, with
// an in-process budget per process (today's `rateLimit` without a store), and with one budget shared in Redis.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startRedis } from '../scripts/redis.mjs';
import { importTesting } from './lib/package.mjs';
import { roundAll } from './lib/stats.mjs';
import { judge, row } from './lib/table.mjs';

const PROCESSES = 6;
const CALLS = 50;
const LIMIT = 120;
const WINDOW_MS = 6_000;
const ALLOWED_PER_S = (LIMIT / WINDOW_MS) * 1000;
// The fleet asks for 97 % of the key's rate: a sliding window counts arrivals, and arrivals jitter by a few ms.
const RPM = ((LIMIT * 60_000) / WINDOW_MS) * 0.97;
const worker = fileURLToPath(new URL('./lib/fleet-worker.mjs', import.meta.url));

async function fleet(mode, redisUrl) {
  const { startSimulator } = await importTesting();
  const sim = await startSimulator({ rateLimit: { requestsPerMinute: LIMIT, windowMs: WINDOW_MS }, seed: 1 });
  try {
    const t0 = Date.now();
    const results = await Promise.all(
      Array.from({ length: PROCESSES }, () =>
        new Promise((resolve, reject) =>
          execFile(process.execPath, [worker, mode, sim.url, sim.keys.full, String(CALLS), String(RPM), redisUrl ?? ''], { timeout: 120_000 }, (error, stdout) =>
            error ? reject(error) : resolve(JSON.parse(stdout)),
          ),
        ),
      ),
    );
    const elapsedMs = Date.now() - t0;
    const answers = results.flatMap((r) => r.answers);
    const accepted = answers.filter(([, s]) => s !== 429).map(([t]) => t).sort((a, b) => a - b);
    const served = accepted.length > 1 ? accepted.at(-1) - accepted[0] : 0;
    return {
      mode,
      calls: PROCESSES * CALLS,
      failures: results.reduce((n, r) => n + r.failures, 0),
      requests: answers.length,
      tooMany: answers.filter(([, s]) => s === 429).length,
      elapsedMs,
      achievedPerS: (accepted.length / Math.max(served, 1)) * 1000,
      ratio: ((accepted.length - 1) / Math.max(served, 1)) * 1000 / ALLOWED_PER_S,
    };
  } finally {
    await sim.stop();
  }
}

export async function run() {
  const redis = await startRedis();
  const results = [];
  try {
    for (const mode of ['none', 'local', 'redis']) results.push(await fleet(mode, redis.url));
  } finally {
    await redis.stop();
  }
  const names = { none: 'no client budget', local: 'in-process budget per process', redis: 'one budget shared in Redis' };
  const rows = [];
  for (const r of results) {
    const name = `${names[r.mode]}`;
    rows.push(
      row(`${name}: failed calls of ${r.calls}`, String(r.failures), '0', '', r.mode === 'redis' ? '0 failures' : 'info', r.mode === 'redis' ? { met: r.failures === 0, text: r.failures === 0 ? 'met' : `MISSED by ${r.failures}` } : undefined),
      row(`${name}: 429 answers / requests`, `${r.tooMany} / ${r.requests}`, '', `${((r.tooMany / r.requests) * 100).toFixed(1)} %`, r.mode === 'redis' ? '≤ 1 %' : 'info', r.mode === 'redis' ? judge(r.tooMany / r.requests, 0.01, false) : undefined),
      row(`${name}: achieved rate (accepted answers, first to last)`, `${r.achievedPerS.toFixed(2)}/s`, `${ALLOWED_PER_S.toFixed(2)}/s allowed`, `${r.ratio.toFixed(3)}×`, r.mode === 'redis' ? '≥ 0.90× allowed' : 'info', r.mode === 'redis' ? judge(r.ratio, 0.9, true) : undefined),
      row(`${name}: elapsed`, `${(r.elapsedMs / 1000).toFixed(2)} s`, `${((r.calls - 1) / ALLOWED_PER_S).toFixed(2)} s ideal`, '', 'info'),
    );
  }
  return {
    title: `7. A fleet on one key (${PROCESSES} processes × ${CALLS} calls, 120 per 6 s window)`,
    rows,
    notes: [
      `Simulator: sliding window of ${LIMIT} requests per ${WINDOW_MS} ms per key (a minute scaled by 1/10; Retry-After in whole seconds). Each process starts its ${CALLS} sites.list calls at once with the same key; every answer is recorded by a fetch wrapper, so 429s the client retried are counted.`,
      `Client budgets at ${RPM.toFixed(0)}/min (97 % of the key's scaled rate). "In-process budget per process" is rateLimit without a store: each process believes it has the whole budget. "Shared in Redis" is RedisRateLimitStore (GCRA in one Lua script per request, Redis time), connected before the first call.`,
      'Failed calls are calls that still ended in RateLimitError after maxRetries (2) re-sends.',
    ],
    raw: roundAll(results),
  };
}
