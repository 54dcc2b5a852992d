// Benchmark 8b: whole sites over many draws, in virtual time. The CLI's own schedule (runSchedule, its planner and its
// pacer) against the model of the service's checks in test/support/schedule-model.ts, compiled here by esbuild with the
// sources it imports, so nothing needs building first. A run of minutes takes milliseconds and gives the same figures
// on every machine: each row is 500 seeded draws, and reports the median draw beside the worst, for lateness (the
// median and the latest check of a draw), requests per check and wall / ideal. With `--against REV` the schedule and
// the planner of that revision run the same draws side by side (e.g. the one before the bound per check, 4bb8446).
// Usage: node bench/whole-site-model.mjs [--against REV] [--draws N]   (in `npm run bench`, without --against)
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { grid, judge, row } from './lib/table.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const option = (name) => {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
};

/** The model, compiled with today's sources or with `rev`'s schedule and planner in their place. */
async function loadModel(rev) {
  const replaced = new Map(
    rev
      ? ['src/cli/gate/schedule.ts', 'src/cli/gate/poll-planner.ts'].map((file) => [
          `${ROOT}${file}`,
          execFileSync('git', ['show', `${rev}:${file}`], { cwd: ROOT, encoding: 'utf8' }),
        ])
      : [],
  );
  const { outputFiles } = await build({
    entryPoints: [`${ROOT}test/support/schedule-model.ts`],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'revision',
        setup(b) {
          b.onLoad({ filter: /src[\\/]cli[\\/]ci[\\/](schedule|poll-planner)\.ts$/ }, (args) =>
            replaced.has(args.path) ? { contents: replaced.get(args.path), loader: 'ts' } : undefined,
          );
        },
      },
    ],
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);
}

const KINDS = (ISSUE_DRAW) => [
  { name: '500 URLs: 25 checks, 15–60 s, a quarter queued a fifth', draw: ISSUE_DRAW },
  {
    name: '500 URLs: 25 checks, half queued a third',
    draw: { ...ISSUE_DRAW, queuedChecks: 0.5, queuedShare: 0.35 },
  },
  { name: '500 URLs: 25 checks of 5–120 s', draw: { ...ISSUE_DRAW, minMs: 5_000, maxMs: 120_000 } },
  { name: '500 URLs: 25 checks of 2–8 s', draw: { ...ISSUE_DRAW, minMs: 2_000, maxMs: 8_000 } },
  { name: '500 URLs: pages spread 1 (very uneven)', draw: { ...ISSUE_DRAW, pageSpread: 1 } },
  { name: '200 URLs: 10 checks', draw: { ...ISSUE_DRAW, checks: 10 } },
  { name: '100 URLs: 5 checks', draw: { ...ISSUE_DRAW, checks: 5 } },
  { name: '20 URLs: 1 check', draw: { ...ISSUE_DRAW, checks: 1 } },
  { name: '1 200 URLs: 60 checks (the budget binds)', draw: { ...ISSUE_DRAW, checks: 60 } },
  // One process and 5 000 pages (--max-urls 5000): 250 checks, the budget binding for most of the run. Fewer draws:
  // each is ten times the work of a draw of 25 checks.
  { name: '5 000 URLs: 250 checks (the budget binds)', draw: { ...ISSUE_DRAW, checks: 250 }, draws: 50 },
];

async function rowsOf(model, kind, allDraws) {
  const figures = [];
  const draws = Math.min(allDraws, kind.draws ?? allDraws);
  for (let seed = 1; seed <= draws; seed++) {
    const r = await model.modelRun(model.drawChecks(seed, kind.draw));
    const late = r.lateMs.map((ms) => ms / 1000);
    figures.push({
      medianLate: model.median(late),
      maxLate: Math.max(...late),
      perCheck: r.perCheck,
      ratio: r.wallMs / r.idealMs,
      overRate: r.overRate,
      inBounds:
        model.median(late) <= 6 &&
        Math.max(...late) <= 15 &&
        r.perCheck <= 6 &&
        r.wallMs / r.idealMs <= 1.3 &&
        !r.overRate,
    });
  }
  const of = (key) => figures.map((f) => f[key]);
  const median = model.median;
  return {
    medianLate: [median(of('medianLate')), Math.max(...of('medianLate'))],
    maxLate: [median(of('maxLate')), Math.max(...of('maxLate'))],
    perCheck: [median(of('perCheck')), Math.max(...of('perCheck'))],
    ratio: [median(of('ratio')), Math.max(...of('ratio'))],
    overRate: Math.max(...of('overRate')),
    inBounds: figures.filter((f) => f.inBounds).length,
  };
}

const pair = ([median, worst], digits = 1) => `${median.toFixed(digits)} / ${worst.toFixed(digits)}`;

export async function run() {
  const draws = Number(option('--draws') ?? 500);
  const against = option('--against');
  const model = await loadModel(undefined);
  const baseline = against ? await loadModel(against) : undefined;
  const kinds = KINDS(model.ISSUE_DRAW);
  const lines = [];
  const rows = [];
  for (const kind of kinds) {
    const ours = await rowsOf(model, kind, draws);
    const theirs = baseline ? await rowsOf(baseline, kind, draws) : undefined;
    lines.push({ kind, ours, theirs });
  }
  // The issue's bounds, on the worst draw of its kind (the first row), beside the planner it is run against.
  const [first] = lines;
  const bounds = [
    ['median lateness', 'medianLate', 6, (x) => `${x.toFixed(1)} s`, '≤ 6 s'],
    ['the latest check', 'maxLate', 15, (x) => `${x.toFixed(1)} s`, '≤ 15 s'],
    ['requests per check', 'perCheck', 6, (x) => x.toFixed(2), '≤ 6'],
    ['wall / ideal', 'ratio', 1.3, (x) => x.toFixed(2), '≤ 1.3'],
  ];
  for (const [what, key, target, shown, targetText] of bounds)
    rows.push(
      row(
        `worst of the draws of 25 checks: ${what}`,
        shown(first.ours[key][1]),
        first.theirs ? shown(first.theirs[key][1]) : '',
        '',
        targetText,
        judge(first.ours[key][1], target, false),
      ),
    );
  const columns = [
    'draws of',
    'planner',
    'median late s (median / worst draw)',
    'latest s (median / worst)',
    'requests / check (median / worst)',
    'wall / ideal (median / worst)',
    'past the rate',
    `draws within all bounds (of ${draws})`,
  ];
  const body = lines.flatMap(({ kind, ours, theirs }) =>
    [
      ['today', ours],
      [against, theirs],
    ]
      .filter(([, figures]) => figures)
      .map(([name, f]) => [
        kind.name,
        name,
        pair(f.medianLate),
        pair(f.maxLate),
        pair(f.perCheck, 2),
        pair(f.ratio, 2),
        f.overRate,
        f.inBounds,
      ]),
  );
  const table = grid(
    `Whole sites in virtual time: ${draws} seeded draws per row, 120 requests per minute`,
    columns,
    body,
  );
  const notes = [
    'The schedule of the CLI (runSchedule with its planner and pacer) against test/support/schedule-model.ts: a check is QUEUED for its share of its duration, then its 20 pages finish at log-normal shares of the rest (spread 0.5 unless said); requests reach the service 20 ms after they leave and are answered 20 ms later. Virtual time: the figures are the same on every machine.',
    'Lateness: when a poll first reached the service after the check finished, minus that finish. Ideal of a whole-site run: the larger of the budget bound — a create, one poll and a findings read per check (4 in 5 have findings) at the key’s rate — and the duration bound — creates 0.5 s apart, each check ending at its create plus its duration — plus 1 s. Creating every check at once (a burst within the key’s minute) can beat it.',
    'Within all bounds: median lateness ≤ 6 s, the latest ≤ 15 s, ≤ 6 requests per check, ≤ 1.3× the ideal, nothing past the rate (the bounds set for 500 URLs; fewer checks spend more per check on the probes, one check up to 10).',
  ];
  return { title: '8b. Whole sites over many draws (virtual time)', rows, tables: [table], notes };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { textGrid } = await import('./lib/table.mjs');
  const r = await run();
  for (const x of r.rows)
    console.log(
      `${x.met ? '✓' : '✗'} ${x.metric}: ${x.ours}${x.baseline ? ` (was ${x.baseline})` : ''} [target ${x.target}; ${x.verdictText}]`,
    );
  for (const t of r.tables) console.log(`\n${textGrid(t)}`);
  for (const n of r.notes) console.log(`- ${n}`);
}
