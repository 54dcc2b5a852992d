// Benchmark 1: per-request overhead on loopback — our client beside the peers users would pick instead (bare
// openapi-fetch, ky with hand-written calls, the hey-api generated SDK), raw fetch and raw fetch with an
// AbortController timeout (the ceiling for any client with a timeout) — plus each client's pure cost per call
// with an in-memory fetch (see pure-cost.mjs).
import { repeat, repeatConcurrent } from './lib/bounded.mjs';
import { QUICK } from './lib/env.mjs';
import { prepareHeyApi } from './lib/heyapi.mjs';
import { startLoopbackServer } from './lib/loopback-server.mjs';
import { fmtSpread, median, percentile, roundAll, summary } from './lib/stats.mjs';
import { grid, judge, row } from './lib/table.mjs';
import { LABELS, checkVariants, makeVariants } from './lib/variants.mjs';
import { measurePureCost } from './pure-cost.mjs';

// Many short rounds rather than a few long ones: on a shared 2-core machine the median of per-round
// ratios is what survives a neighbour's burst.
const ROUNDS = QUICK ? 5 : 20; // ≥ 5 measured rounds, after a warm-up round
const SEQ_N = QUICK ? 150 : 300; // requests per variant per sequential segment
const CONC_N = QUICK ? 300 : 600; // requests per variant per concurrency-8 segment
const SEGMENT_MAX_MS = 4_000; // time cap per segment on a very slow machine
// The clients compared (table order), then the diagnostic rawRequest (the cost of building a Request first).
const CLIENTS = ['raw', 'rawSignal', 'openapi', 'ky', 'heyapi', 'ours'];
const NAMES = [...CLIENTS, 'rawRequest'];
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
  const done =
    concurrency === 1
      ? await repeat(n, SEGMENT_MAX_MS, timed)
      : await repeatConcurrent(n, SEGMENT_MAX_MS, concurrency, timed);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return {
    n: done,
    ms,
    rps: (done / ms) * 1000,
    cpuUsPerReq: (cpu.user + cpu.system) / done,
    p50Ms: percentile(lat, 50),
  };
}

// Rotating the order each round keeps "who goes first after a GC or a noisy neighbour" from favouring one.
const orderOf = (round) => NAMES.map((_, i) => NAMES[(i + round) % NAMES.length]);

export async function run() {
  // Generate the hey-api SDK before the server starts (a child process; ~2 s), so no round pays for it.
  const hey = await prepareHeyApi();
  const server = await startLoopbackServer();
  try {
    // The same fetch object for all: one dispatcher, one keep-alive pool.
    const t0 = performance.now();
    const v = await makeVariants(server.url, globalThis.fetch);
    await checkVariants(v);
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
    const t1 = performance.now();
    const pure = await measurePureCost();
    const seconds = { loopback: (t1 - t0) / 1000, pure: (performance.now() - t1) / 1000 };
    return report(rounds, pure, hey.version, seconds);
  } finally {
    await server.stop();
  }
}

function report(rounds, pure, heyVersion, seconds) {
  const stat = (mode, name, key) => summary(rounds.map((r) => r[mode][name][key]));
  // Per-round ratios of two variants measured in the same round (a / b).
  const vs = (mode, a, b, key = 'rps') => summary(rounds.map((r) => r[mode][a][key] / r[mode][b][key]));
  const rawP50 = median(rounds.map((r) => r.seq.raw.p50Ms));
  const timerFloor = rawP50 > TIMER_FLOOR_GUARD_MS;
  const s = {};
  for (const mode of ['seq', 'conc']) {
    for (const name of NAMES) {
      s[`${mode}.${name}.rps`] = stat(mode, name, 'rps');
      s[`${mode}.${name}.cpuUs`] = stat(mode, name, 'cpuUsPerReq');
      s[`${mode}.${name}.ratio`] = vs(mode, name, 'raw');
      s[`${mode}.${name}.ceilingRatio`] = vs(mode, name, 'rawSignal');
      s[`${mode}.${name}.cpuRatio`] = vs(mode, name, 'raw', 'cpuUsPerReq');
      s[`${mode}.${name}.extraCpuUs`] = summary(rounds.map((r) => r[mode][name].cpuUsPerReq - r[mode].raw.cpuUsPerReq));
    }
    // Ours against each peer, per round (> 1: ours ahead).
    for (const peer of ['openapi', 'ky', 'heyapi']) s[`${mode}.ours.vs.${peer}`] = vs(mode, 'ours', peer);
  }
  const x = (st, d = 3) => `${fmtSpread(st, d)}×`;
  const rps = (mode, name) => fmtSpread(s[`${mode}.${name}.rps`], 0);
  const both = (f) => `${f('seq')} / ${f('conc')}`;
  const modeLabel = { seq: 'sequential', conc: 'concurrency-8' };
  const rows = [];
  for (const mode of ['seq', 'conc']) {
    const m = modeLabel[mode];
    const rawTarget = mode === 'seq' ? 0.97 : 0.95;
    rows.push(
      row(
        `${m} req/s: ours vs raw fetch`,
        rps(mode, 'ours'),
        rps(mode, 'raw'),
        x(s[`${mode}.ours.ratio`]),
        `≥ ${rawTarget}×`,
        judge(s[`${mode}.ours.ratio`].median, rawTarget, true),
      ),
      row(
        `${m} req/s: ours vs ceiling (raw fetch + AbortController timeout)`,
        rps(mode, 'ours'),
        rps(mode, 'rawSignal'),
        x(s[`${mode}.ours.ceilingRatio`]),
        '≥ 0.95×',
        judge(s[`${mode}.ours.ceilingRatio`].median, 0.95, true),
      ),
      row(
        `${m} req/s: ours vs ky`,
        rps(mode, 'ours'),
        rps(mode, 'ky'),
        x(s[`${mode}.ours.vs.ky`]),
        '≥ 1.00× (ahead)',
        judge(s[`${mode}.ours.vs.ky`].median, 1, true),
      ),
      row(
        `${m} req/s: ours vs hey-api SDK`,
        rps(mode, 'ours'),
        rps(mode, 'heyapi'),
        x(s[`${mode}.ours.vs.heyapi`]),
        '≥ 1.00× (ahead)',
        judge(s[`${mode}.ours.vs.heyapi`].median, 1, true),
      ),
      row(
        `${m} req/s: ours vs bare openapi-fetch`,
        rps(mode, 'ours'),
        rps(mode, 'openapi'),
        x(s[`${mode}.ours.vs.openapi`]),
        'info',
      ),
    );
  }
  rows.push(
    row(
      'diag: fetch(new Request(url, init)) vs raw — seq / conc-8 req/s ratio',
      both((m) => rps(m, 'rawRequest')),
      both((m) => rps(m, 'raw')),
      both((m) => x(s[`${m}.rawRequest.ratio`])),
      'info',
    ),
    row(
      'diag: extra client CPU µs/req vs raw (seq): Request-first / signal+timer / openapi-fetch / ky / hey-api / ours',
      ['rawRequest', 'rawSignal', 'openapi', 'ky', 'heyapi', 'ours']
        .map((n) => s[`seq.${n}.extraCpuUs`].median.toFixed(1))
        .join(' / '),
      '0',
      '',
      'info',
    ),
    row(
      'timer-floor guard: raw fetch sequential p50 ms',
      median(rounds.map((r) => r.seq.ours.p50Ms)).toFixed(3),
      rawP50.toFixed(3),
      '',
      `raw p50 ≤ ${TIMER_FLOOR_GUARD_MS} ms`,
      { met: !timerFloor, text: timerFloor ? 'FLAG: undici timer-floor regression suspected' : 'ok (no timer floor)' },
    ),
    ...pure.rows,
  );
  // Side by side: every client's figures from the same rounds, each ratio against raw fetch and the ceiling.
  const label = {
    ...LABELS,
    heyapi: LABELS.heyapi.replace('@hey-api/openapi-ts', `@hey-api/openapi-ts ${heyVersion}`),
  };
  const ratioCell = (mode, name, key) =>
    name === key ? '1' : fmtSpread(s[`${mode}.${name}.${key === 'raw' ? 'ratio' : 'ceilingRatio'}`], 2);
  const pureCell = (op, name) => (name === 'raw' ? '0 (baseline)' : fmtSpread(pure.cost[op][name], 2));
  const cpuCell = (name) =>
    `${s[`seq.${name}.cpuUs`].median.toFixed(1)} / ${s[`conc.${name}.cpuUs`].median.toFixed(1)}`;
  const peers = grid(
    'Side by side (same rounds; ratios are per-round medians (min–max) of throughput against raw fetch and against the ceiling)',
    [
      'client',
      'seq req/s',
      'seq × raw',
      'seq × ceiling',
      'conc-8 req/s',
      'conc-8 × raw',
      'conc-8 × ceiling',
      'client CPU µs/req seq / conc-8',
      'pure cost µs/call list',
      'pure cost µs/call get-by-id',
    ],
    CLIENTS.map((n) => [
      label[n],
      rps('seq', n),
      ratioCell('seq', n, 'raw'),
      ratioCell('seq', n, 'rawSignal'),
      rps('conc', n),
      ratioCell('conc', n, 'raw'),
      ratioCell('conc', n, 'rawSignal'),
      cpuCell(n),
      pureCell('list', n),
      pureCell('get', n),
    ]),
  );
  return {
    title: '1. Per-request overhead (loopback, same fetch/dispatcher): ours and the peers',
    rows,
    tables: [peers],
    notes: [
      `${ROUNDS} interleaved rounds (order rotated), ${SEQ_N} sequential + ${CONC_N} concurrency-8 GET /api/v1/sites per variant per round, after a warm-up round; ~200 B JSON; node:http keep-alive server in a child process, so CPU µs are the client's only.`,
      'Every variant sends through the same fetch (one undici dispatcher and pool) with the same Accept and Authorization headers and parses the JSON. Ours: `new A11yClient({ apiKey, baseUrl, fetch })` with validateResponses false (its default), `client.sites.list()`. ky: `ky.get(url, { headers, timeout: 30000, retry: 2, fetch }).json()`. hey-api: the SDK generated from openapi.yaml with plugins @hey-api/client-fetch, zod and @hey-api/sdk `validator: true` (zod parses the request options and the response), bundled by esbuild, `listSites({ client })` on a client made with `createClient(createConfig({ baseUrl, fetch, auth, headers, throwOnError: true }))`. Bare openapi-fetch: `createClient({ baseUrl, fetch, headers }).GET(path)`.',
      'Ratios are per-round throughput(a)/throughput(b) from the same round: median (min–max). "Ceiling" = raw fetch with a per-call AbortController signal + armed 30 s timer: the fastest any client with a timeout can be (undici registers every signal it is given). The "diag" Request-first row isolates building a Request before calling fetch (openapi-fetch, ky and hey-api\'s client all do; undici then copies it into a second Request).',
      timerFloor
        ? `WARNING: raw fetch p50 ${rawP50.toFixed(3)} ms > ${TIMER_FLOOR_GUARD_MS} ms on loopback: undici ${process.versions.undici} likely has the timer-floor regression (6.28.0, 7.28–7.29, 8.5–8.10) that hides SDK overhead.`
        : `Timer-floor guard: raw fetch p50 ${rawP50.toFixed(3)} ms ≤ ${TIMER_FLOOR_GUARD_MS} ms (undici ${process.versions.undici}): overhead is visible.`,
      ...pure.notes,
      `Time: loopback rounds ${seconds.loopback.toFixed(1)} s, pure cost ${seconds.pure.toFixed(1)} s.`,
    ],
    raw: {
      seconds: roundAll(seconds),
      summary: roundAll(s),
      rounds: roundAll(rounds),
      rawFetchP50Ms: rawP50,
      timerFloorFlag: timerFloor,
      pure: pure.raw,
    },
  };
}
