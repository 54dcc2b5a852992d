// Benchmark 1: per-request overhead on loopback, our client vs bare openapi-fetch vs raw fetch, plus the
// SDK's pure cost per call with an in-memory fetch (see pure-cost.mjs).
import { repeat, repeatConcurrent } from './lib/bounded.mjs';
import { startLoopbackServer } from './lib/loopback-server.mjs';
import { fmtSpread, median, percentile, roundAll, summary } from './lib/stats.mjs';
import { judge, row } from './lib/table.mjs';
import { makeVariants } from './lib/variants.mjs';
import { measurePureCost } from './pure-cost.mjs';

// Many short rounds rather than a few long ones: on a shared 2-core machine the median of per-round
// ratios is what survives a neighbour's burst.
const ROUNDS = 20; // ≥ 5 measured rounds, after a warm-up round
const SEQ_N = 300; // requests per variant per sequential segment
const CONC_N = 600; // requests per variant per concurrency-8 segment
const SEGMENT_MAX_MS = 4_000; // time cap per segment on a very slow machine
// raw/openapi/ours are the comparison; rawRequest/rawSignal isolate two costs our transport pays.
const NAMES = ['raw', 'openapi', 'ours', 'rawRequest', 'rawSignal'];
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
    // The same fetch object for all: one dispatcher, one keep-alive pool.
    const v = await makeVariants(server.url, globalThis.fetch);
    for (const name of NAMES) {
      await segment(v[name], 1, 300); // warm-up: JIT, connections
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
  const stat = (mode, name, key) => summary(rounds.map((r) => r[mode][name][key]));
  // Per-round ratios against raw fetch measured in the same round.
  const ratio = (mode, name, key = 'rps') => summary(rounds.map((r) => r[mode][name][key] / r[mode].raw[key]));
  const rawP50 = median(rounds.map((r) => r.seq.raw.p50Ms));
  const timerFloor = rawP50 > TIMER_FLOOR_GUARD_MS;
  const s = {};
  for (const mode of ['seq', 'conc']) {
    for (const name of NAMES) {
      s[`${mode}.${name}.rps`] = stat(mode, name, 'rps');
      s[`${mode}.${name}.cpuUs`] = stat(mode, name, 'cpuUsPerReq');
      s[`${mode}.${name}.ratio`] = ratio(mode, name);
      s[`${mode}.${name}.cpuRatio`] = ratio(mode, name, 'cpuUsPerReq');
      s[`${mode}.${name}.extraCpuUs`] = summary(rounds.map((r) => r[mode][name].cpuUsPerReq - r[mode].raw.cpuUsPerReq));
    }
  }
  const x = (st) => `${fmtSpread(st, 3)}×`;
  const rps = (mode, name) => fmtSpread(s[`${mode}.${name}.rps`], 0);
  const cpu = (mode, name) => fmtSpread(s[`${mode}.${name}.cpuUs`], 1);
  const rows = [
    row('sequential req/s: ours vs raw fetch', rps('seq', 'ours'), rps('seq', 'raw'), x(s['seq.ours.ratio']), '≥ 0.97×', judge(s['seq.ours.ratio'].median, 0.97, true)),
    row('concurrency-8 req/s: ours vs raw fetch', rps('conc', 'ours'), rps('conc', 'raw'), x(s['conc.ours.ratio']), '≥ 0.95×', judge(s['conc.ours.ratio'].median, 0.95, true)),
    row('sequential req/s: bare openapi-fetch vs raw fetch', rps('seq', 'openapi'), rps('seq', 'raw'), x(s['seq.openapi.ratio']), 'info'),
    row('concurrency-8 req/s: bare openapi-fetch vs raw fetch', rps('conc', 'openapi'), rps('conc', 'raw'), x(s['conc.openapi.ratio']), 'info'),
    row('client CPU µs/req sequential: ours vs raw', cpu('seq', 'ours'), cpu('seq', 'raw'), x(s['seq.ours.cpuRatio']), 'info'),
    row('client CPU µs/req sequential: openapi-fetch vs raw', cpu('seq', 'openapi'), cpu('seq', 'raw'), x(s['seq.openapi.cpuRatio']), 'info'),
    row('client CPU µs/req concurrency 8: ours vs raw', cpu('conc', 'ours'), cpu('conc', 'raw'), x(s['conc.ours.cpuRatio']), 'info'),
    row('client CPU µs/req concurrency 8: openapi-fetch vs raw', cpu('conc', 'openapi'), cpu('conc', 'raw'), x(s['conc.openapi.cpuRatio']), 'info'),
    row('diag: fetch(new Request(url, init)) vs raw — seq / conc-8 req/s ratio', `${rps('seq', 'rawRequest')} / ${rps('conc', 'rawRequest')}`, `${rps('seq', 'raw')} / ${rps('conc', 'raw')}`, `${x(s['seq.rawRequest.ratio'])} / ${x(s['conc.rawRequest.ratio'])}`, 'info'),
    row('diag: raw fetch + AbortController signal + timer vs raw — seq / conc-8 req/s ratio', `${rps('seq', 'rawSignal')} / ${rps('conc', 'rawSignal')}`, `${rps('seq', 'raw')} / ${rps('conc', 'raw')}`, `${x(s['seq.rawSignal.ratio'])} / ${x(s['conc.rawSignal.ratio'])}`, 'info'),
    row('diag: extra client CPU µs/req vs raw (seq): Request-first / signal+timer / openapi-fetch / ours', ['rawRequest', 'rawSignal', 'openapi', 'ours'].map((n) => s[`seq.${n}.extraCpuUs`].median.toFixed(1)).join(' / '), '0', '', 'info'),
    row('timer-floor guard: raw fetch sequential p50 ms', median(rounds.map((r) => r.seq.ours.p50Ms)).toFixed(3), rawP50.toFixed(3), '', `raw p50 ≤ ${TIMER_FLOOR_GUARD_MS} ms`, { met: !timerFloor, text: timerFloor ? 'FLAG: undici timer-floor regression suspected' : 'ok (no timer floor)' }),
    ...pure.rows,
  ];
  return {
    title: '1. Per-request overhead (loopback, same fetch/dispatcher)',
    rows,
    notes: [
      `${ROUNDS} interleaved rounds (order rotated), ${SEQ_N} sequential + ${CONC_N} concurrency-8 GET /api/v1/sites per variant per round, after a warm-up round; ~200 B JSON; node:http keep-alive server in a child process, so CPU µs are the client's only.`,
      'Ratios are per-round throughput(variant)/throughput(raw fetch) from the same round: median (min–max). "diag" rows isolate two costs on top of raw fetch: building a Request before calling fetch (bare openapi-fetch does this and undici copies it into a second Request; our transport avoids it by giving openapi-fetch a plain request record through its `Request` option) and a per-attempt AbortController signal + timer (our transport pays it: it is the per-attempt timeout, and undici registers every signal it is given). "raw fetch + signal + timer" is therefore the ceiling for a client with timeouts.',
      timerFloor
        ? `WARNING: raw fetch p50 ${rawP50.toFixed(3)} ms > ${TIMER_FLOOR_GUARD_MS} ms on loopback: undici ${process.versions.undici} likely has the timer-floor regression (6.28.0, 7.28–7.29, 8.5–8.10) that hides SDK overhead.`
        : `Timer-floor guard: raw fetch p50 ${rawP50.toFixed(3)} ms ≤ ${TIMER_FLOOR_GUARD_MS} ms (undici ${process.versions.undici}): overhead is visible.`,
      ...pure.notes,
    ],
    raw: { summary: roundAll(s), rounds: roundAll(rounds), rawFetchP50Ms: rawP50, timerFloorFlag: timerFloor, pure: pure.raw },
  };
}
