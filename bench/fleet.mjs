// Benchmark 7: a fleet on one key. 6 processes × 50 calls started at once with one API key against the simulator
// limiting the key to 120 requests per 6 s window (a minute time-scaled by 10): without a client budget, with
// an in-process budget per process, and with one budget shared in Redis — as docs/fleet.md writes it (no
// connect() call) and connected first — then the shared budget with Redis killed (SIGKILL) after 5 s, frozen
// (SIGSTOP) for 4 s, and a 3 s pause one process received (a server of the benchmark's own answers the 80th
// request 429 Retry-After: 3; requests fleet-wide during the pause are counted).
import { createServer } from 'node:http';
import { startRedis } from '../scripts/redis.mjs';
import { runWorkers } from './lib/fleet-processes.mjs';
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
const IDEAL_S = (PROCESSES * CALLS - 1) / ALLOWED_PER_S / 0.97;
const PAUSE_AT = 80;
const after = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A server answering every request 200 [] but the PAUSE_AT-th, 429 Retry-After: 3; it records arrival times.
async function pauseServer() {
  const arrivals = [];
  let pausedAt = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const n = arrivals.push(Date.now());
      if (n - 1 === PAUSE_AT) {
        pausedAt = Date.now();
        res
          .writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '3' })
          .end('{"status":429,"code":"RATE_LIMITED","title":"Too many requests"}');
      } else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    during: () => arrivals.filter((t) => t > pausedAt && t < pausedAt + 3000).length,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function fleet(name, mode, { redis, fault } = {}) {
  const { startSimulator } = await importTesting();
  const loopback = fault === 'pause' ? await pauseServer() : undefined;
  const sim = loopback
    ? undefined
    : await startSimulator({ rateLimit: { requestsPerMinute: LIMIT, windowMs: WINDOW_MS }, seed: 1 });
  const server = loopback ?? sim;
  const marks = {};
  try {
    const t0 = Date.now();
    const faults = {
      kill: async () => {
        await after(5000);
        process.kill(redis.pid, 'SIGKILL');
      },
      freeze: async () => {
        await after(4000);
        process.kill(redis.pid, 'SIGSTOP');
        marks.stoppedAt = Date.now();
        await after(4000);
        process.kill(redis.pid, 'SIGCONT');
        marks.continuedAt = Date.now();
      },
    };
    const [results] = await Promise.all([
      runWorkers(
        PROCESSES,
        {
          mode,
          url: server.url,
          apiKey: sim?.keys.full ?? 'svc_bench_fleet_key_0123456789',
          calls: CALLS,
          rpm: RPM,
          redisUrl: redis?.url,
        },
        120_000,
      ),
      faults[fault]?.(),
    ]);
    const elapsedMs = Date.now() - t0;
    const answers = results.flatMap((r) => r.answers);
    const accepted = answers
      .filter(([, s]) => s !== 429)
      .map(([t]) => t)
      .sort((a, b) => a - b);
    const served = accepted.length > 1 ? accepted.at(-1) - accepted[0] : 0;
    return {
      name,
      mode,
      fault: fault ?? 'none',
      calls: PROCESSES * CALLS,
      failures: results.reduce((n, r) => n + r.failures, 0),
      warnings: results.reduce((n, r) => n + r.warnings.length, 0),
      requests: answers.length,
      tooMany: answers.filter(([, s]) => s === 429).length,
      elapsedMs,
      servedMs: served,
      ratio: (((accepted.length - 1) / Math.max(served, 1)) * 1000) / ALLOWED_PER_S,
      servedWhileFrozen: marks.stoppedAt
        ? accepted.filter((t) => t > marks.stoppedAt + 1000 && t < marks.continuedAt).length
        : undefined,
      duringPause: loopback?.during(),
    };
  } finally {
    await loopback?.stop();
    await sim?.stop();
  }
}

export async function run() {
  const results = [];
  const shared = await startRedis();
  try {
    results.push(await fleet('no client budget', 'none'));
    results.push(await fleet('in-process budget per process', 'local'));
    results.push(await fleet('shared in Redis, connect() first', 'redis-connect', { redis: shared }));
    results.push(await fleet('shared in Redis, no connect() (docs/fleet.md)', 'redis', { redis: shared }));
    results.push(
      await fleet('shared in Redis, a 3 s pause on one process', 'redis', { redis: shared, fault: 'pause' }),
    );
  } finally {
    await shared.stop();
  }
  for (const fault of ['kill', 'freeze']) {
    const own = await startRedis();
    try {
      results.push(
        await fleet(
          fault === 'kill' ? 'shared in Redis, Redis killed after 5 s' : 'shared in Redis, Redis frozen 4 s',
          'redis',
          { redis: own, fault },
        ),
      );
    } finally {
      // A frozen server is resumed before it is stopped (SIGTERM waits while it is stopped); a killed one is gone.
      if (fault === 'freeze') process.kill(own.pid, 'SIGCONT');
      await own.stop();
    }
  }
  const rows = [];
  for (const r of results) {
    const judged = r.mode.startsWith('redis');
    rows.push(
      row(
        `${r.name}: failed calls of ${r.calls}`,
        String(r.failures),
        '0',
        '',
        judged ? '0 failures' : 'info',
        judged ? { met: r.failures === 0, text: r.failures === 0 ? 'met' : `MISSED by ${r.failures}` } : undefined,
      ),
    );
    if (r.fault === 'pause') {
      rows.push(
        row(
          `${r.name}: requests fleet-wide during the pause`,
          String(r.duringPause),
          '',
          '',
          '≤ 6',
          judge(r.duringPause, 6, false),
        ),
      );
      continue;
    }
    const target = r.fault === 'none' && judged ? '≤ 3' : 'info';
    rows.push(
      row(
        `${r.name}: 429 answers / requests`,
        `${r.tooMany} / ${r.requests}`,
        '',
        `${((r.tooMany / r.requests) * 100).toFixed(1)} %`,
        target,
        target === 'info' ? undefined : judge(r.tooMany, 3, false),
      ),
    );
    rows.push(
      row(
        `${r.name}: achieved rate (accepted answers, first to last)`,
        `${(r.ratio * ALLOWED_PER_S || 0).toFixed(2)}/s`,
        `${ALLOWED_PER_S.toFixed(2)}/s allowed`,
        `${r.ratio.toFixed(3)}×`,
        r.fault === 'none' && judged ? '≥ 0.90× allowed' : 'info',
        r.fault === 'none' && judged ? judge(r.ratio, 0.9, true) : undefined,
      ),
    );
    rows.push(
      row(
        `${r.name}: elapsed`,
        `${(r.elapsedMs / 1000).toFixed(2)} s`,
        `${IDEAL_S.toFixed(2)} s ideal at 97 %`,
        `${(r.elapsedMs / 1000 / IDEAL_S).toFixed(2)}×`,
        'info',
      ),
    );
    if (r.servedWhileFrozen !== undefined)
      rows.push(
        row(
          `${r.name}: requests served while frozen (after its first second)`,
          String(r.servedWhileFrozen),
          '0 before the frozen-store bound',
          '',
          '> 0',
          judge(r.servedWhileFrozen, 1, true),
        ),
      );
  }
  return {
    title: `7. A fleet on one key (${PROCESSES} processes × ${CALLS} calls, 120 per 6 s window)`,
    rows,
    notes: [
      `Simulator: sliding window of ${LIMIT} requests per ${WINDOW_MS} ms per key (a minute scaled by 1/10; Retry-After in whole seconds). Each process starts its ${CALLS} sites.list calls at once with the same key; every answer is recorded by a fetch wrapper, so 429s the client retried are counted.`,
      `Client budgets at ${RPM.toFixed(0)}/min (97 % of the key's scaled rate). "In-process budget per process" is rateLimit without a store: each process believes it has the whole budget. "Shared in Redis" is RedisRateLimitStore (GCRA in one Lua script per request, Redis time); "no connect()" is the first use docs/fleet.md shows (the first call waits for the connection, up to 1 s).`,
      `The pause: a server of the benchmark's own answers every request 200 but the ${PAUSE_AT + 1}st, 429 Retry-After: 3; requests arriving in the 3 s after that answer are counted fleet-wide. Killed / frozen: a redis-server of the phase's own, SIGKILL after 5 s / SIGSTOP at 4 s, SIGCONT 4 s later.`,
      'Failed calls are calls that still ended in RateLimitError after maxRetries (2) re-sends.',
    ],
    raw: roundAll(results),
  };
}
