// A model of benchmark 4's multi-page jobs in simulated time (no HTTP, no timers: 400 jobs per row in well under
// a second), to answer what the real-time rows cannot: how few requests could any client need, and where do the
// shipped policy's tuning constants sit. Same job model as the simulator (QUEUED for the first quarter of T, or
// RUNNING from creation for jobs that report progress from the start, with pages finishing at log-normal shares
// of the RUNNING span), same progress code (src/progress.ts, compiled here by esbuild, so nothing needs building
// first). Lateness figures are exact here (no machine delays); the bench's 40–60 jobs per row draw its p95 from
// the worst 2–3 jobs, so expect ±0.1 there.
// Usage: node bench/polling-model.mjs   (diagnosis only: not part of `npm run bench` or `npm test`)
import { build } from 'esbuild';
import { seeded } from './lib/progress-jobs.mjs';

const MIN_REQUESTS = 2; // create + one terminal GET, as benchmark 4
const JOBS = 400;
const ROWS = [
  { label: 'T=4 s', minMs: 4_000, maxMs: 4_000, seed: 4 },
  { label: 'T=10 s', minMs: 10_000, maxMs: 10_000, seed: 10 },
  { label: 'T=20 s', minMs: 20_000, maxMs: 20_000, seed: 20 },
  { label: 'T=30 s', minMs: 30_000, maxMs: 30_000, seed: 30 },
  { label: 'T=4–30 s', minMs: 4_000, maxMs: 30_000, seed: 70 },
  { label: 'T=4–30 s, spread 1', minMs: 4_000, maxMs: 30_000, seed: 60, spread: 1 },
];

// src/progress.ts with its tuning constants read from `globalThis.__model` when set (each replacement must
// match, so a change to the source stops this script instead of silently measuring something else), and the
// simulator's own job timeline and page draw (src/testing), compiled together.
async function loadSources() {
  const src = (file) => new URL(`../src/${file}`, import.meta.url).pathname;
  const contents = `export * from '${src('progress.ts')}'; export { phaseOf, itemStage } from '${src('testing/jobs.ts')}'; export { drawPageEnds } from '${src('testing/page-durations.ts')}';`;
  const { outputFiles } = await build({
    stdin: { contents, loader: 'ts', resolveDir: src('') },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  });
  let code = outputFiles[0].text;
  const knobs = [
    // A job this wait created and first saw RUNNING counted from its creation, give or take a tenth of the window.
    [
      'anchor = { atMs: track.queuedAtMs + window * START_IN_WINDOW, pages: 0, uncertaintyMs: window / 2 }',
      'anchor = globalThis.__model?.createdAtOnce && track.created ? { atMs: track.queuedAtMs, pages: 0, uncertaintyMs: window / 10 } : { atMs: track.queuedAtMs + window * START_IN_WINDOW, pages: 0, uncertaintyMs: window / 2 }',
    ],
    ['window * START_IN_WINDOW', 'window * (globalThis.__model?.startInWindow ?? START_IN_WINDOW)'],
    ['AIM_INTO_ALLOWANCE * allowanceMs', '(globalThis.__model?.aim ?? AIM_INTO_ALLOWANCE) * allowanceMs'],
    ['Math.exp(-estimate.spread)', 'Math.exp(-(globalThis.__model?.uncertainty ?? 1) * estimate.spread)'],
    ['SLOWER_PAGES_SHARE * notStarted', '(globalThis.__model?.slower ?? SLOWER_PAGES_SHARE) * notStarted'],
    [
      'const atLeastMs = remainingAtLeast(track)',
      'const atLeastMs = globalThis.__model?.noBound ? void 0 : remainingAtLeast(track)',
    ],
    ['if (spread < fromAnchor.spread)', 'if (!globalThis.__model?.noFirstLook && spread < fromAnchor.spread)'],
    [
      'if (anchor.uncertaintyMs > 0 && first',
      'if (!globalThis.__model?.noLateStart && anchor.uncertaintyMs > 0 && first',
    ],
  ];
  for (const [from, to] of knobs) {
    if (!code.includes(from)) throw new Error(`bench/polling-model.mjs: src/progress.ts no longer contains "${from}"`);
    code = code.replace(from, to);
  }
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

const sources = await loadSources();

// The job as the simulator answers at time t: its phase, and each page's stage at that phase.
function answerAt(job, t) {
  const phase = sources.phaseOf(job, t);
  if (phase.stage === 'DONE') return { status: 'COMPLETED' };
  return {
    status: phase.stage,
    pages: job.pageEnds.map((_, i, all) => ({ status: sources.itemStage(i, all.length, phase, all) })),
  };
}

// `queuedShare`: the simulator's option (undefined: QUEUED for the first quarter; 0: progress from the start);
// 'late': QUEUED until a moment drawn in [0.4, 0.95] s, just before the first poll (0.8–1 s), which then sees
// the job RUNNING as if it had run from the start.
function jobsOf(row, queuedShare, [minPages, maxPages] = [5, 20]) {
  const next = seeded(row.seed * 7 + 1);
  const late = seeded(row.seed * 7 + 2);
  const pages = { seed: row.seed, spread: row.spread ?? 0.5, drawn: 0 };
  return Array.from({ length: JOBS }, () => {
    const T = Math.round(row.minMs + (row.maxMs - row.minMs) * next());
    const share = queuedShare === 'late' ? (400 + 550 * late()) / T : queuedShare;
    return {
      id: '',
      createdAt: 0,
      durationMs: T,
      T,
      queuedShare: share,
      pageEnds: sources.drawPageEnds(pages, minPages + Math.floor((maxPages - minPages + 1) * next())),
    };
  });
}

// pollUntilTerminal's loop at the defaults (1 s / 10 s), in simulated time.
function pollShipped(job, next) {
  const progress = sources;
  const intervalMs = 1_000;
  const maxIntervalMs = 10_000;
  // As pollUntilTerminal: the job counts as seen QUEUED when the wait began (`created` marks it for a knob).
  let track = { ...progress.observeJob({}, { atMs: 0, status: 'QUEUED' }), created: true };
  let t = intervalMs * (0.8 + next() * 0.2);
  for (let attempt = 0, requests = 2; ; attempt++, requests++) {
    const answer = answerAt(job, t);
    if (answer.status === 'COMPLETED') return { requests, latenessMs: t - job.T };
    track = progress.observeJob(track, { atMs: t, status: answer.status, progress: progress.readProgress(answer) });
    const planned = progress.progressWait(track, t, { intervalMs, maxIntervalMs, waitedMs: t });
    // Knob `jitter`: take 0–jitter off each planned wait, as the backoff does (0.2).
    t +=
      planned !== undefined
        ? planned * (1 - (globalThis.__model?.jitter ?? 0) * next())
        : Math.min(maxIntervalMs, intervalMs * 1.5 ** attempt) * (0.8 + next() * 0.2);
  }
}

// The fewest requests of a client that backs off blind (×growth from 1 s, capped, jittered) until it first
// sees the job RUNNING, then knows T exactly and polls once per cap up to T.
function pollOracle(job, next, growth, capMs) {
  let t = 1_000 * (0.8 + next() * 0.2);
  let requests = 2;
  for (let attempt = 1; t < job.T / 4; attempt++, requests++)
    t += Math.min(capMs, 1_000 * growth ** attempt) * (0.8 + next() * 0.2);
  // The GET at t saw the job RUNNING (or already done): then one GET per cap until T.
  return t < job.T ? requests + Math.max(1, Math.ceil((job.T - t) / capMs)) : requests;
}

const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(0.95 * (xs.length - 1))];
// Mean requests per job (the create included) / lateness p95 over each job's target.
const shipped = (queuedShare, pages) => (row) => {
  const next = seeded(row.seed);
  const runs = jobsOf(row, queuedShare, pages).map((job) => ({
    ...pollShipped(job, next),
    targetMs: Math.max(0.1 * job.T, 1_000),
  }));
  const requests = runs.reduce((a, r) => a + r.requests, 0) / runs.length;
  return `${requests.toFixed(2)} / ${p95(runs.map((r) => r.latenessMs / r.targetMs)).toFixed(2)}`;
};

const head = ['', ...ROWS.map((r) => r.label)];
const table = (title, rows) => {
  console.log(`\n${title}\n| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
  for (const [label, cell] of rows) console.log(`| ${label} | ${ROWS.map(cell).join(' | ')} |`);
};

table('Oracle: blind backoff until first seen RUNNING, then T known exactly (mean requests ÷ 2)', [
  ...[1.5, 2, 3].flatMap((growth) =>
    [10_000, Infinity].map((cap) => [
      `×${growth}, cap ${cap === Infinity ? 'none' : '10 s'}`,
      (row) => {
        const next = seeded(row.seed);
        return `${(jobsOf(row).reduce((a, job) => a + pollOracle(job, next, growth, cap), 0) / JOBS / MIN_REQUESTS).toFixed(2)}×`;
      },
    ]),
  ),
]);

const settings = [
  ['shipped', {}],
  ['aim 0.5', { aim: 0.5 }],
  ['aim 0.8', { aim: 0.8 }],
  ['uncertainty ×1.5', { uncertainty: 1.5 }],
  ['page under way: not started ≥ 60 % (slower 0.6)', { slower: 0.6 }],
  ['page under way: not started ≥ 80 % (slower 0.8)', { slower: 0.8 }],
  ['page under way not used (issue 12)', { noBound: true }],
  ['0–20 % jitter on planned waits (issue 12)', { jitter: 0.2 }],
  ['issue 12 (both above)', { noBound: true, jitter: 0.2 }],
  [
    'a created job first seen RUNNING counted from its creation (not shipped: see the last table)',
    { createdAtOnce: true },
  ],
  ['start in window 0.5', { startInWindow: 0.5 }],
];
const policyTable = (title, queuedShare, pages, rows = settings) =>
  table(
    title,
    rows.map(([label, knobs]) => [
      label,
      (row) => {
        globalThis.__model = knobs;
        try {
          return shipped(queuedShare, pages)(row);
        } finally {
          globalThis.__model = undefined;
        }
      },
    ]),
  );
policyTable(
  'Jobs reporting progress from the start (queuedShare 0), defaults: mean requests per job / lateness p95 ÷ max(10 % of T, 1 s). Targets (issue 22): ≤ 6 / ≤ 1',
  0,
);
policyTable(
  'Jobs QUEUED for the first quarter of T, defaults: mean requests per job / lateness p95 ÷ max(10 % of T, 1 s). Target: requests ≤ 1.5 × the oracle row "×1.5, cap 10 s" (× 2)',
  undefined,
);
policyTable(
  'Jobs QUEUED until 0.4–0.95 s, just before the first poll, defaults: mean requests per job / lateness p95 ÷ max(10 % of T, 1 s)',
  'late',
);
// Whole-site scan runs of 20–100 pages: counts move from the first poll. What the first look's rate and the bound
// of a late start (pages done at the first RUNNING look may have gone by in no time) change there.
const manyPages = [
  ['shipped', {}],
  ['rate from the first look not used', { noFirstLook: true }],
  ['no bound for a start just before the first RUNNING look', { noLateStart: true }],
  ['neither (the waits before them)', { noFirstLook: true, noLateStart: true }],
];
for (const [kind, queuedShare] of [
  ['reporting progress from the start', 0],
  ['QUEUED for the first quarter of T', undefined],
  ['QUEUED until 0.4–0.95 s, just before the first poll', 'late'],
])
  policyTable(
    `Jobs of 20–100 pages ${kind}: mean requests per job / lateness p95 ÷ max(10 % of T, 1 s)`,
    queuedShare,
    [20, 100],
    manyPages,
  );
