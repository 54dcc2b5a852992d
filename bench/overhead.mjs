// Benchmark 1: per-request overhead on loopback, our client vs bare openapi-fetch vs raw fetch, plus the
// SDK's pure cost per call with an in-memory fetch (see pure-cost.mjs).
import { repeat, repeatConcurrent } from './lib/bounded.mjs';
import { startLoopbackServer } from './lib/loopback-server.mjs';
import { percentile, round, summary, fmtSpread, median } from './lib/stats.mjs';
import { judge, row } from './lib/table.mjs';
import { makeVariants } from './lib/variants.mjs';
import { measurePureCost } from './pure-cost.mjs';

const ROUNDS = 7; // ≥ 5 measured rounds, after one warm-up round
const SEQ_N = 800; // requests per variant per sequential segment
const CONC_N = 1600; // requests per variant per concurrency-8 segment
const SEGMENT_MAX_MS = 4_000; // time cap per segment on a very slow machine
const NAMES = ['raw', 'openapi', 'ours'];
// Raw fetch's p50 above this on loopback means undici's timer-floor regression is present (docs/benchmarks.md).
const TIMER_FLOOR_GUARD_MS = 0.5;

async function segment(fn, concurrency, n) {
  const lat = [];
  const timed = async () => {
    const t = performance.now();
    await fn();
    lat.push(performance.now() - t);
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const done = concurrency === 1 ? await repeat(n, SEGMENT_MAX_MS, timed) : await repeatConcurrent(n, SEGMENT_MAX_MS, concurrency, timed);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { n: done, ms, rps: (done / ms) * 1000, cpuUsPerReq: (cpu.user + cpu.system) / done, p50Ms: percentile(lat, 50) };
}

// Rotating the order each round keeps "who goes first after a GC or a noisy neighbour" from favouring one.
const orderOf = (round) => NAMES.map((_, i) => NAMES[(i + round) % NAMES.length]);

export async function run() {
  const server = await startLoopbackServer();
  try {
    // The same fetch object for all three: one dispatcher, one keep-alive pool.
    const v = await makeVariants(server.url, globalThis.fetch);
    for (const name of NAMES) {
      await segment(v[name], 1, 200); // warm-up: JIT, connections
      await segment(v[name], 8, 400);
    }
    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) {
      const seq = {};
      const conc = {};
      for (const name of orderOf(r)) seq[name] = await segment(v[name], 1, SEQ_N);
      for (const name of orderOf(r)) conc[name] = await segment(v[name], 8, CONC_N);
      rounds.push({ seq, conc });
    }
    const pure = await measurePureCost();
    return report(rounds, pure);
  } finally {
    await server.stop();
  }
}

function report(rounds, pure) {
  const pick = (mode, name, key) => rounds.map((r) => r[mode][name][key]);
  const ratio = (mode, name) => summary(rounds.map((r) => r[mode][name].rps / r[mode].raw.rps));
  const s = {
    seqRatioOurs: ratio('seq', 'ours'),
    seqRatioOpenapi: ratio('seq', 'openapi'),
    concRatioOurs: ratio('conc', 'ours'),
    concRatioOpenapi: ratio('conc', 'openapi'),
  };
  const stat = (mode, name, key) => summary(pick(mode, name, key));
  const rawP50 = median(pick('seq', 'raw', 'p50Ms'));
  const timerFloor = rawP50 > TIMER_FLOOR_GUARD_MS;
  const seqV = judge(s.seqRatioOurs.median, 0.97, true);
  const concV = judge(s.concRatioOurs.median, 0.95, true);
  const cpuOurs = stat('seq', 'ours', 'cpuUsPerReq');
  const cpuRaw = stat('seq', 'raw', 'cpuUsPerReq');
  const cpuOa = stat('seq', 'openapi', 'cpuUsPerReq');
  const cpuRatio = summary(rounds.map((r) => r.seq.ours.cpuUsPerReq / r.seq.raw.cpuUsPerReq));
  const rows = [
    row('sequential req/s (ours vs raw fetch)', fmtSpread(stat('seq', 'ours', 'rps'), 0), fmtSpread(stat('seq', 'raw', 'rps'), 0), `${fmtSpread(s.seqRatioOurs, 3)}×`, '≥ 0.97×', seqV),
    row('sequential req/s (openapi-fetch vs raw fetch)', fmtSpread(stat('seq', 'openapi', 'rps'), 0), fmtSpread(stat('seq', 'raw', 'rps'), 0), `${fmtSpread(s.seqRatioOpenapi, 3)}×`, 'info'),
    row('concurrency-8 req/s (ours vs raw fetch)', fmtSpread(stat('conc', 'ours', 'rps'), 0), fmtSpread(stat('conc', 'raw', 'rps'), 0), `${fmtSpread(s.concRatioOurs, 3)}×`, '≥ 0.95×', concV),
    row('concurrency-8 req/s (openapi-fetch vs raw fetch)', fmtSpread(stat('conc', 'openapi', 'rps'), 0), fmtSpread(stat('conc', 'raw', 'rps'), 0), `${fmtSpread(s.concRatioOpenapi, 3)}×`, 'info'),
    row('client CPU µs/request, sequential (ours / openapi-fetch vs raw)', `${fmtSpread(cpuOurs, 1)} / ${fmtSpread(cpuOa, 1)}`, fmtSpread(cpuRaw, 1), `${fmtSpread(cpuRatio, 3)}×`, 'info'),
    row('client CPU µs/request, concurrency 8 (ours / openapi-fetch vs raw)', `${fmtSpread(stat('conc', 'ours', 'cpuUsPerReq'), 1)} / ${fmtSpread(stat('conc', 'openapi', 'cpuUsPerReq'), 1)}`, fmtSpread(stat('conc', 'raw', 'cpuUsPerReq'), 1), '', 'info'),
    row('sequential p50 latency ms (ours vs raw) — timer-floor guard', `${median(pick('seq', 'ours', 'p50Ms')).toFixed(3)}`, `${rawP50.toFixed(3)}`, '', `raw p50 ≤ ${TIMER_FLOOR_GUARD_MS} ms`, { met: !timerFloor, text: timerFloor ? 'FLAG: undici timer-floor regression suspected' : 'ok (no timer floor)' }),
    ...pure.rows,
  ];
  return {
    title: '1. Per-request overhead (loopback, same fetch/dispatcher)',
    rows,
    notes: [
      `${ROUNDS} interleaved rounds (order rotated), ${SEQ_N} sequential + ${CONC_N} concurrency-8 requests per variant per round, after a warm-up round. Server in a child process, so CPU µs are the client's only.`,
      `Ratios are per-round throughput(ours)/throughput(raw fetch), median (min–max).`,
      timerFloor ? `WARNING: raw fetch p50 ${rawP50.toFixed(3)} ms > ${TIMER_FLOOR_GUARD_MS} ms on loopback: undici ${process.versions.undici} likely has the timer-floor regression that hides SDK overhead.` : `Timer-floor guard: raw fetch p50 ${rawP50.toFixed(3)} ms ≤ ${TIMER_FLOOR_GUARD_MS} ms (undici ${process.versions.undici}).`,
      ...pure.notes,
    ],
    raw: { summary: roundAll(s), rounds: roundAll(rounds), rawFetchP50Ms: rawP50, timerFloorFlag: timerFloor, pure: pure.raw },
  };
}

// Keeps latest.json readable: 3 decimals everywhere.
export function roundAll(x) {
  if (typeof x === 'number') return round(x);
  if (Array.isArray(x)) return x.map(roundAll);
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, roundAll(v)]));
  return x;
}
