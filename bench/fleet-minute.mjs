// Benchmark 7b: a matrix on one key in real time. Four processes (a 4-shard matrix) share one budget in Redis at
// exactly the key's rate (120 per minute, the SDK's default with a store), against the simulator counting the
// key's requests over a real sliding minute; 50 calls each, all at once, so the fleet runs past the first minute
// and the window rolls over (where a request sent a few ms after its slot meets one sent a window later).
// Reported: 429 answers, the most requests the service saw in any 60 s, the time against the ideal (the rate's
// own bound), and the Redis commands run per reservation (INFO commandstats, scripts' commands included).
// Usage: node bench/fleet-minute.mjs [runs]   (each run ~110 s)
import { createConnection } from 'node:net';
import { startRedis } from '../scripts/redis.mjs';
import { runWorkers } from './lib/fleet-processes.mjs';
import { importTesting } from './lib/package.mjs';

const PROCESSES = 4;
const CALLS = 50;
const RPM = 120;

// One raw RESP command on a fresh connection (no client library needed for INFO).
function redisCommand(port, args) {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let text = '';
    socket.on('data', (d) => {
      text += d.toString('utf8');
      const m = /^\$(\d+)\r\n/.exec(text);
      if (m && text.length >= m[0].length + Number(m[1]) + 2) {
        socket.end();
        resolve(text.slice(m[0].length, m[0].length + Number(m[1])));
      }
    });
    socket.on('error', reject);
    socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
  });
}

async function commandCounts(port) {
  const info = await redisCommand(port, ['INFO', 'commandstats']);
  const counts = {};
  for (const m of info.matchAll(/^cmdstat_(\w+(?:\|\w+)?):calls=(\d+)/gm)) counts[m[1]] = Number(m[2]);
  return counts;
}

function mostInAMinute(times) {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let end = 0, start = 0; end < sorted.length; end++) {
    while (sorted[start] <= sorted[end] - 60_000) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

async function once(redis) {
  const { startSimulator } = await importTesting();
  const sim = await startSimulator({ rateLimit: { requestsPerMinute: RPM, windowMs: 60_000 }, seed: 1 });
  try {
    const before = await commandCounts(redis.port);
    const t0 = Date.now();
    const results = await runWorkers(
      PROCESSES,
      { mode: 'redis', url: sim.url, apiKey: sim.keys.full, calls: CALLS, rpm: RPM, redisUrl: redis.url },
      300_000,
    );
    const elapsedMs = Date.now() - t0;
    const after = await commandCounts(redis.port);
    const answers = results.flatMap((r) => r.answers);
    const scripts = (after.evalsha ?? 0) - (before.evalsha ?? 0) + ((after.eval ?? 0) - (before.eval ?? 0));
    const inside = Object.keys(after)
      .filter(
        (k) => !['evalsha', 'eval', 'info', 'script|load', 'script', 'hello', 'client|setinfo', 'client'].includes(k),
      )
      .reduce((n, k) => n + after[k] - (before[k] ?? 0), 0);
    // The ideal: the rate's own bound for every request sent (the first minute's `RPM` at once would be the
    // burst; the SDK's default is strict spacing, so the ideal is one interval per request after the first).
    const idealMs = ((answers.length - 1) * 60_000) / RPM;
    return {
      calls: PROCESSES * CALLS,
      failures: results.reduce((n, r) => n + r.failures, 0),
      warnings: results.flatMap((r) => r.warnings),
      requests: answers.length,
      tooMany: answers.filter(([, s]) => s === 429).length,
      mostInAMinute: mostInAMinute(answers.map(([t]) => t)),
      elapsedS: Math.round(elapsedMs / 100) / 10,
      vsIdeal: Math.round((elapsedMs / idealMs) * 1000) / 1000,
      scripts,
      commandsPerScript: Math.round((inside / Math.max(scripts, 1)) * 10) / 10,
    };
  } finally {
    await sim.stop();
  }
}

const runs = Number(process.argv[2] ?? 1);
const redis = await startRedis();
try {
  for (let i = 0; i < runs; i++) console.log(JSON.stringify(await once(redis)));
} finally {
  await redis.stop();
}
