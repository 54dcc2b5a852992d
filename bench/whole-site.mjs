// Benchmark 8: whole sites. `svc-a11y ci` (the built CLI, one process per row) checks 20, 100, 200 and 500 URLs of
// one origin under one key against its own simulator limiting the key to 120 requests per sliding minute, in real
// time (the CLI cannot be told that a service's minute is shorter, so nothing is time-scaled): CI checks of 20 URLs
// take 20–60 s each (seeded), every third one waits QUEUED for 35 % of it (the others 5 %), pages finish unevenly.
// Then 60 URLs on a Free-plan key (5 URLs per check: refused creates counted), and the 500 URLs again with the
// client's own budget on (`--rate-limit 120`). The rows run side by side, each with its own simulator and key.
// Per row: wall time (spawn to exit), the ideal (the whole-site schedule's: creates spaced at the key's rate, each check polled
// once at its finish and its findings read one rate slot later: max over checks of (0.5 s × its place + its
// duration) + 1 s), wall / ideal, requests per check, 429s answered, refused creates, the CLI's peak RSS.
// Usage: node bench/run.mjs whole-site  (BENCH_CLI / BENCH_TESTING: another build of the CLI / the simulator)
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { importTesting } from './lib/package.mjs';
import { grid, judge, row } from './lib/table.mjs';

const CLI = process.env.BENCH_CLI ?? fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const MAX_RSS = fileURLToPath(new URL('./lib/max-rss.mjs', import.meta.url));
const SHOP = 'https://shop.example.com';
const RATE = 120;

// Seeded per-check timing: the same checks in every run (a check's rank is its place among the creates).
const frac = (rank, salt) => {
  const x = Math.sin((rank + 1) * 12.9898 + salt * 78.233) * 43758.5453;
  return x - Math.floor(x);
};
const durationOf = (rank) => Math.round(20_000 + 40_000 * frac(rank, 1));
const queuedShareOf = (rank) => (rank % 3 === 0 ? 0.35 : 0.05);

async function simulator() {
  if (process.env.BENCH_TESTING) return import(pathToFileURL(process.env.BENCH_TESTING).href);
  return importTesting();
}

// A proxy in front of one simulator counting what the CLI sent and what it was answered.
async function countingProxy(target) {
  const seen = { requests: 0, byStatus: {}, creates: 0, refusedCreates: 0 };
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.requests++;
      const forward = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const status = answer.statusCode ?? 502;
          seen.byStatus[status] = (seen.byStatus[status] ?? 0) + 1;
          if (req.method === 'POST' && req.url === '/api/v1/ci/checks') {
            if (status === 202) seen.creates++;
            if (status === 422) seen.refusedCreates++;
          }
          res.writeHead(status, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    seen,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function runCli(args, env) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', pathToFileURL(MAX_RSS).href, CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => {
      const rss = /BENCH_MAX_RSS_KB=(\d+)/.exec(stderr);
      resolve({ code, wallMs: performance.now() - started, peakMb: rss ? Number(rss[1]) / 1024 : Number.NaN, stderr });
    });
  });
}

async function oneRun({ name, urls, free = false, args = [] }) {
  const { startSimulator } = await simulator();
  const ranks = [];
  const sim = await startSimulator({
    seed: 1,
    rateLimit: { requestsPerMinute: RATE, windowMs: 60_000 },
    pageDurations: { spread: 0.5 },
    ciCheckTiming: ({ rank }) => {
      ranks.push(rank);
      return { durationMs: durationOf(rank), queuedShare: queuedShareOf(rank) };
    },
  });
  const proxy = await countingProxy(sim.url);
  try {
    const dir = await mkdtemp(join(tmpdir(), 'svc-a11y-bench-site-'));
    const file = join(dir, 'urls.txt');
    const pages = Array.from({ length: urls }, (_, i) => `${SHOP}/products/${String(i + 1).padStart(4, '0')}`);
    await writeFile(file, `${pages.join('\n')}\n`);
    const r = await runCli(['ci', '--urls-file', file, '--fail-on', 'NONE', '--quiet', '--timeout', '10m', ...args], {
      SVC_API_KEY: free ? sim.keys.freePlan : sim.keys.full,
      SVC_BASE_URL: proxy.url,
    });
    const checks = proxy.seen.creates;
    // The ideal of the checks the run created, in the order the service created them.
    const idealMs = Math.max(...ranks.map((rank) => 500 * rank + durationOf(rank))) + 1000;
    return {
      name,
      urls,
      code: r.code,
      checks,
      wallS: r.wallMs / 1000,
      idealS: idealMs / 1000,
      ratio: r.wallMs / idealMs,
      perCheck: proxy.seen.requests / Math.max(1, checks),
      r429: proxy.seen.byStatus[429] ?? 0,
      refused: proxy.seen.refusedCreates,
      peakMb: r.peakMb,
      error: r.code === 0 ? undefined : r.stderr.split('\n').slice(-3).join(' '),
    };
  } finally {
    await proxy.close();
    await sim.stop();
  }
}

const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');

export async function run() {
  const cases = [
    { name: '20 URLs', urls: 20 },
    { name: '100 URLs', urls: 100 },
    { name: '200 URLs', urls: 200 },
    { name: '500 URLs', urls: 500 },
    { name: '500 URLs, --rate-limit 120', urls: 500, args: ['--rate-limit', String(RATE)] },
    { name: 'Free plan, 60 URLs', urls: 60, free: true },
  ];
  // Side by side: each row has its own simulator (its own key's window) and its own CLI process.
  const results = await Promise.all(cases.map(oneRun));
  const at500 = results.find((r) => r.name === '500 URLs');
  const free = results.find((r) => r.free || r.name.startsWith('Free'));
  const all = results;
  const rows = [
    row('wall / ideal, 500 URLs', f2(at500.ratio), '', '', '≤ 1.3', judge(at500.ratio, 1.3, false)),
    row(
      'requests per check (create, polls, findings), 500 URLs',
      f2(at500.perCheck),
      '',
      '',
      '≤ 6',
      judge(at500.perCheck, 6, false),
    ),
    row(
      '429s answered, every row',
      String(all.reduce((n, r) => n + r.r429, 0)),
      '',
      '',
      '0',
      judge(
        all.reduce((n, r) => n + r.r429, 0),
        0,
        false,
      ),
    ),
    row(
      'peak memory of the CLI, largest row (MB)',
      f1(Math.max(...all.map((r) => r.peakMb))),
      '',
      '',
      '≤ 200',
      judge(Math.max(...all.map((r) => r.peakMb)), 200, false),
    ),
    row(
      'Free plan, 60 URLs: refused creates (every page judged: exit 0)',
      `${free.refused} (exit ${free.code})`,
      '',
      '',
      '≤ 2, exit 0',
      judge(free.code === 0 ? free.refused : Number.POSITIVE_INFINITY, 2, false),
    ),
  ];
  const table = grid(
    'Whole sites: one key at 120 requests per minute, checks of 20 URLs taking 20–60 s (real time)',
    [
      'run',
      'checks',
      'wall s',
      'ideal s',
      'wall / ideal',
      'requests / check',
      '429s',
      'refused creates',
      'peak MB',
      'exit',
    ],
    all.map((r) => [
      r.name,
      r.checks,
      f1(r.wallS),
      f1(r.idealS),
      f2(r.ratio),
      f2(r.perCheck),
      r.r429,
      r.refused,
      f1(r.peakMb),
      r.code,
    ]),
  );
  const notes = [
    'Real time, not scaled: the CLI counts the key’s window in real minutes, so a time-scaled simulator would let it send ten times the rate. The rows run side by side (one simulator, key and CLI process each), so the whole benchmark takes about as long as its longest row.',
    'Ideal (the whole-site schedule): max over checks of (0.5 s × its place among the creates + its duration) + 1 s; checks created faster than 0.5 s apart (a burst within the window) can beat it.',
    ...all.filter((r) => r.error).map((r) => `${r.name}: exit ${r.code}: ${r.error}`),
  ];
  return { title: '8. Whole sites: one schedule for every check of a run', rows, tables: [table], notes, raw: all };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { textGrid } = await import('./lib/table.mjs');
  const r = await run();
  for (const x of r.rows)
    console.log(`${x.met ? '✓' : '✗'} ${x.metric}: ${x.ours} [target ${x.target}; ${x.verdictText}]`);
  for (const t of r.tables) console.log(`\n${textGrid(t)}`);
  for (const n of r.notes) console.log(`- ${n}`);
}
