// A model of benchmark 4's multi-page jobs in simulated time (no HTTP, no timers: 400 jobs per row in well under
// a second; the last table, a Bayesian poller's, takes ~25 s), to answer what the real-time rows cannot: how few
// requests could any client need, and where do the shipped policy's tuning constants sit. Same job model as the
// simulator (QUEUED for the first quarter of T, or RUNNING from creation for jobs that report progress from the
// start, with pages finishing at log-normal shares of the RUNNING span), same progress code (src/wait/progress.ts,
// compiled here by esbuild, so nothing needs building first). Lateness figures are exact here (no machine
// delays); the bench's 40–60 jobs per row draw its p95 from the worst 2–3 jobs, so expect ±0.1 there.
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

// src/wait/progress.ts with its tuning constants read from `globalThis.__model` when set (each replacement must
// match, so a change to the source stops this script instead of silently measuring something else), and the
// simulator's own job timeline and page draw (src/testing), compiled together.
async function loadSources() {
  const src = (file) => new URL(`../src/${file}`, import.meta.url).pathname;
  const contents = `export * from '${src('wait/progress.ts')}'; export { phaseOf, itemStage } from '${src('testing/jobs.ts')}'; export { drawPageEnds } from '${src('testing/page-durations.ts')}';`;
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
    // Issue 35: the least wait (a share of the allowance), and the bound at the first RUNNING look with no page done.
    ['? WAIT_AT_LEAST_SHARE :', '? (globalThis.__model?.atLeast ?? WAIT_AT_LEAST_SHARE) :'],
    [
      'if (last.atMs === runningSeenAtMs && last.done === 0',
      'if (!globalThis.__model?.noFirstLookBound && last.atMs === runningSeenAtMs && last.done === 0',
    ],
    ['FIRST_LOOK_WINDOWS * (', '(globalThis.__model?.firstLookWindows ?? FIRST_LOOK_WINDOWS) * ('],
    ['LATE_START_WINDOWS * windowMs', '(globalThis.__model?.lateStartWindows ?? LATE_START_WINDOWS) * windowMs'],
  ];
  // Every occurrence (SLOWER_PAGES_SHARE bounds both the first look and the later ones).
  for (const [from, to] of knobs) {
    if (!code.includes(from))
      throw new Error(`bench/polling-model.mjs: src/wait/progress.ts no longer contains "${from}"`);
    code = code.replaceAll(from, to);
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

// A wait's loop in simulated time: the first poll after one interval (jittered, as a created job's), then each
// wait from `plan(answer, t)` (ms), or the backoff (×1.5 from 1 s, capped at 10 s, −20 % jitter) when it has none.
function simulate(job, next, plan) {
  let t = 1_000 * (0.8 + next() * 0.2);
  for (let attempt = 0, requests = 2; ; attempt++, requests++) {
    const answer = answerAt(job, t);
    if (answer.status === 'COMPLETED') return { requests, latenessMs: t - job.T };
    t += plan(answer, t) ?? Math.min(10_000, 1_000 * 1.5 ** attempt) * (0.8 + next() * 0.2);
  }
}

// pollUntilTerminal's waits at the defaults (1 s / 10 s).
function pollShipped(job, next) {
  const progress = sources;
  // As pollUntilTerminal: the job counts as seen QUEUED when the wait began (`created` marks it for a knob).
  let track = { ...progress.trackJob({}, { atMs: 0, status: 'QUEUED' }), created: true };
  return simulate(job, next, (answer, t) => {
    track = progress.trackJob(track, { atMs: t, status: answer.status, progress: progress.readProgress(answer) });
    const planned = progress.progressWait(track, t, { intervalMs: 1_000, maxIntervalMs: 10_000, waitedMs: t });
    // Knob `jitter`: take 0–jitter off each planned wait, as the backoff does (0.2).
    return planned === undefined ? undefined : planned * (1 - (globalThis.__model?.jitter ?? 0) * next());
  });
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
// A row's jobs polled by `poll`: mean requests per job (the create included) / lateness p95 over each job's target.
const measured = (row, queuedShare, pages, poll) => {
  const next = seeded(row.seed);
  const runs = jobsOf(row, queuedShare, pages).map((job) => ({
    ...poll(job, next),
    targetMs: Math.max(0.1 * job.T, 1_000),
  }));
  const requests = runs.reduce((a, r) => a + r.requests, 0) / runs.length;
  return `${requests.toFixed(2)} / ${p95(runs.map((r) => r.latenessMs / r.targetMs)).toFixed(2)}`;
};
const shipped = (queuedShare, pages) => (row) => measured(row, queuedShare, pages, pollShipped);

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

// Issue 35's change: aim 0.65 (was 0.6), waits ≥ 90 % of the allowance, a bound at the first RUNNING look with no
// page done (at most 3 windows), and two windows before the look after one with pages done.
const BEFORE_35 = { aim: 0.6, atLeast: 0, noFirstLookBound: true, lateStartWindows: 0 };
const settings = [
  ['shipped', {}],
  ['before the progress planner (aim 0.6, no least wait, no bounds at the first look)', BEFORE_35],
  ['aim 0.6', { aim: 0.6 }],
  ['least wait: the whole allowance', { atLeast: 1 }],
  ['no least wait', { atLeast: 0 }],
  ['no bound at the first look (a second look after one interval)', { noFirstLookBound: true }],
  ['first look: at most 3 windows', { firstLookWindows: 3 }],
  ['first look: at most 4 windows', { firstLookWindows: 4 }],
  ['pages done at the first look: a look after one interval (no two windows)', { lateStartWindows: 0 }],
  ['pages done at the first look: one window', { lateStartWindows: 1 }],
  ['aim 0.5', { aim: 0.5 }],
  ['aim 0.8', { aim: 0.8 }],
  ['uncertainty ×1.5', { uncertainty: 1.5 }],
  ['page under way: not started ≥ 60 % (slower 0.6)', { slower: 0.6 }],
  ['page under way: not started ≥ 80 % (slower 0.8)', { slower: 0.8 }],
  ['page under way not used (the first planner)', { noBound: true }],
  ['0–20 % jitter on planned waits (the first planner)', { jitter: 0.2 }],
  ['the first planner, both changes (both above)', { noBound: true, jitter: 0.2 }],
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
  'Jobs reporting progress from the start (queuedShare 0), defaults: mean requests per job / lateness p95 ÷ max(10 % of T, 1 s). Targets: ≤ 6.5 / ≤ 1 at T = 4–30 s (the progress planner; the first polling target asked ≤ 6)',
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
  ['before the progress planner', BEFORE_35],
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

// How far any poller could go on these jobs: a Bayesian one that knows the simulator's page model exactly
// (log-normal page durations of spread 0.5, normalised to the job's RUNNING span) and looks as late as it dares.
// Its belief: page shares drawn from that model (PARTICLES per page count), the job's start on a grid over the
// window [created, first seen RUNNING] (prior density ∝ 1 − position, or the creation itself when `startKnown`),
// and the RUNNING span log-uniform in [100 ms, 10 min] (the wait's default deadline). Each look keeps, per share
// draw and start, the spans consistent with every count seen; the next poll comes when completion has probability
// ALPHA of having been missed by more than its allowance (greedy), within [1 s, 10 s]. Not a shippable design
// (~10⁵ operations per poll, a page model the document does not show); it bounds what a better estimate buys.
const PARTICLES = 600;
const START_GRID = 8;
const BAYES_ALPHA = 0.02;
const bayesShares = new Map();
// PARTICLES draws of a job's page ends, by the simulator's own draw (src/testing/page-durations.ts).
function sharesFor(pages) {
  if (!bayesShares.has(pages)) {
    const source = { seed: pages * 7919, spread: 0.5, drawn: 0 };
    bayesShares.set(
      pages,
      Array.from({ length: PARTICLES }, () => sources.drawPageEnds(source, pages)),
    );
  }
  return bayesShares.get(pages);
}
function bayesWait(belief, now, startKnown) {
  const { queuedAt, runningAt, pages, looks } = belief;
  const starts = startKnown
    ? [[queuedAt, 1]]
    : Array.from({ length: START_GRID }, (_, j) => {
        const u = (j + 0.5) / START_GRID;
        return [queuedAt + u * (runningAt - queuedAt), 1 - u];
      });
  // Components: a start, the log-span interval consistent with every look, and its weight.
  const parts = [];
  for (const ends of sharesFor(pages))
    for (const [start, prior] of starts) {
      let lo = Math.log(100);
      let hi = Math.log(600_000);
      for (const { t, done } of looks) {
        const ran = t - start;
        if (!(ran > 0)) hi = -Infinity;
        lo = Math.max(lo, Math.log(ran / ends[done]));
        if (done >= 1) hi = Math.min(hi, Math.log(ran / ends[done - 1]));
      }
      if (hi > lo) parts.push([start, lo, hi, prior * (hi - lo)]);
    }
  if (parts.length === 0) return undefined;
  const total = parts.reduce((a, p) => a + p[3], 0);
  const below = (f) =>
    parts.reduce(
      (a, [s, l, h, w]) => (f > s ? a + w * Math.min(1, Math.max(0, (Math.log(f - s) - l) / (h - l))) : a),
      0,
    ) / total;
  let lo = now;
  let hi = now + 600_000;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (below(mid) < BAYES_ALPHA) lo = mid;
    else hi = mid;
  }
  const poll = lo + Math.max(1_000, 0.1 * lo);
  return Math.min(10_000, Math.max(1_000, poll - now));
}
function pollBayes(job, next, startKnown) {
  const belief = { queuedAt: 0, runningAt: undefined, pages: job.pageEnds?.length ?? 0, looks: [] };
  return simulate(job, next, (answer, t) => {
    if (answer.status === 'QUEUED') {
      Object.assign(belief, { queuedAt: t, runningAt: undefined, looks: [] });
      return undefined;
    }
    belief.runningAt ??= t;
    belief.looks.push({ t, done: sources.readProgress(answer).done });
    return bayesWait(belief, t, startKnown);
  });
}
const bayesCell = (queuedShare, startKnown, spread) =>
  measured({ label: '', minMs: 4_000, maxMs: 30_000, seed: 70, spread }, queuedShare, undefined, (job, next) =>
    pollBayes(job, next, startKnown),
  );
console.log(
  '\nA Bayesian poller that knows the page model (spread 0.5), CI checks of 5–20 pages, T 4–30 s: mean requests per job / lateness p95 ÷ target (shipped: the tables above, column T=4–30 s)',
);
console.log(
  '| start | pages spread 0.5, progress from the start | even pages, progress from the start | spread 0.5, QUEUED until just before the first poll |\n|---|---|---|---|',
);
for (const [label, known] of [
  ['known (the creation)', true],
  ['unknown, in [created, first seen RUNNING]', false],
])
  console.log(
    `| ${label} | ${bayesCell(0, known, 0.5)} | ${bayesCell(0, known, 0)} | ${known ? 'n/a (it is not the creation)' : bayesCell('late', known, 0.5)} |`,
  );
