// Runs the five benchmarks of the SDK in sequence (1–3 with the peers users would pick instead, side by side),
// prints a summary and writes bench/results/latest.json (raw figures + environment) and bench/results/latest.md
// (a table per benchmark). BENCH_QUICK=1 shortens benchmarks 1–3 and writes to bench/results/tmp/ instead.
// Usage: npm run bench  (builds first)  |  node bench/run.mjs [overhead webhook size polling rate-limit fleet whole-site
// whole-site-model]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { mkdir, writeFile } from 'node:fs/promises';
import { withTimeout } from './lib/bounded.mjs';
import { QUICK, envInfo } from './lib/env.mjs';
import { ROOT, assertBuilt, importIndex, importTesting, importWebhooks } from './lib/package.mjs';
import { markdownGrid, markdownTable, textGrid } from './lib/table.mjs';
import { ABOUT_PEERS, WHY_MISSED } from './lib/why.mjs';

// Each benchmark's time limit (normal runs take well under half of it). Overhead: 150 s (was 90 s) since it
// measures the peers too (7 variants instead of 5, the peers 2–5× slower per call): it took 87–97 s at a load
// of 2–4 on the 2 shared cores, where the five old variants took ~52 s.
const BENCHES = [
  { key: 'overhead', budgetMs: 150_000 },
  { key: 'webhook', budgetMs: 45_000 },
  { key: 'size', budgetMs: 75_000 },
  // Polling: 210 s (was 150 s) since it also runs multi-page jobs (item 7, up to 30 s unscaled, then the long
  // crawls for another ~35 s): 86–92 s at a load of 3–5 before the long crawls.
  { key: 'polling', budgetMs: 210_000 },
  { key: 'rate-limit', budgetMs: 90_000 },
  // Seven fleets of ~16 s each (one with a 3 s pause), plus process and redis-server start-up.
  { key: 'fleet', budgetMs: 240_000 },
  // Whole sites in real time, the rows side by side: the longest (500 URLs, checks up to 60 s) takes about 70 s.
  { key: 'whole-site', budgetMs: 240_000 },
  // Whole sites in virtual time, 500 draws of each of nine kinds: ~10 s.
  { key: 'whole-site-model', budgetMs: 60_000 },
];

function gitRevision() {
  try {
    const rev = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--', 'src', 'generated'], {
        cwd: ROOT,
        encoding: 'utf8',
      }).trim() !== '';
    return dirty ? `${rev}+uncommitted src changes` : rev;
  } catch {
    return 'unknown';
  }
}

// Others edit src/ while benchmarks run: a digest of the measured sources says exactly which code a result
// belongs to (dist/ is built from them by `npm run bench` just before).
function sourceDigest() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else hash.update(rel).update(readFileSync(join(ROOT, rel)));
    }
  };
  try {
    walk('src');
    walk('generated');
    return hash.digest('hex').slice(0, 12);
  } catch {
    return 'unknown';
  }
}

// The peers measured beside ours (docs/benchmarks.md item 6), with the installed versions.
function peerVersions() {
  const version = (pkg) => {
    try {
      return JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
    } catch {
      return 'not installed';
    }
  };
  return Object.fromEntries(
    ['openapi-fetch', 'ky', '@hey-api/openapi-ts', 'zod', 'standardwebhooks', 'esbuild'].map((p) => [p, version(p)]),
  );
}

async function main() {
  assertBuilt();
  // Load the built package once up front, so a concurrent rebuild of dist/ cannot break a run midway.
  await Promise.all([importIndex(), importWebhooks(), importTesting()]);
  const only = process.argv.slice(2);
  const selected = BENCHES.filter((b) => only.length === 0 || only.includes(b.key));
  const env = { ...envInfo(), revision: gitRevision(), sourceDigest: sourceDigest(), peers: peerVersions() };
  const started = performance.now();
  const results = {};
  for (const { key, budgetMs } of selected) {
    const t0 = performance.now();
    process.stdout.write(`▶ ${key} … `);
    try {
      const mod = await import(`./${key}.mjs`);
      results[key] = { ...(await withTimeout(mod.run(), budgetMs, key)), seconds: (performance.now() - t0) / 1000 };
      console.log(`${results[key].seconds.toFixed(1)} s`);
    } catch (error) {
      results[key] = {
        title: key,
        error: String(error?.stack ?? error),
        rows: [],
        notes: [],
        seconds: (performance.now() - t0) / 1000,
      };
      console.log(`FAILED: ${error?.message ?? error}`);
    }
  }
  const totalSeconds = (performance.now() - started) / 1000;
  // A run of a subset must not replace the full results, nor a quick run (BENCH_QUICK=1) any published ones.
  const name = QUICK ? `tmp/quick-${only.length ? 'partial' : 'latest'}` : only.length ? 'partial' : 'latest';
  if (QUICK) env.quick = true;
  await mkdir(new URL('./results/tmp/', import.meta.url), { recursive: true });
  await writeFile(
    new URL(`./results/${name}.json`, import.meta.url),
    `${JSON.stringify({ env, totalSeconds, benchmarks: results }, null, 2)}\n`,
  );
  await writeFile(new URL(`./results/${name}.md`, import.meta.url), markdown(env, totalSeconds, results));
  printSummary(env, totalSeconds, results, name);
}

function markdown(env, totalSeconds, results) {
  let md = '# @svc/a11y-sdk benchmarks\n\n';
  if (env.quick)
    md += '**Quick run (BENCH_QUICK=1): fewer rounds, for checking that the benchmarks run; not for publishing.**\n\n';
  md += `${env.date} · node ${env.node} · undici ${env.undici} · ${env.cpuModel} × ${env.cpuCount} · ${env.platform} · load ${env.loadAvg.join(' ')} · revision ${env.revision} (src digest ${env.sourceDigest}) · ${totalSeconds.toFixed(0)} s\n\n`;
  md += `Peers: ${Object.entries(env.peers)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}.\n\n`;
  md +=
    'Ratios are measured side by side in one run; figures are medians with (min–max). "met by / MISSED by" is relative to the target. Benchmarks 1–3 measure the peers in the same runs: their targets tables compare ours with each peer, and a side-by-side table shows every client\'s figures.\n\n';
  for (const [key, r] of Object.entries(results)) {
    md += `## ${r.title}\n\n`;
    if (r.error) md += `**Benchmark failed:** \`${r.error.split('\n')[0]}\`\n\n`;
    if (r.rows.length) md += `${markdownTable(r.rows)}\n`;
    for (const t of r.tables ?? []) md += `${markdownGrid(t)}\n`;
    for (const n of r.notes) md += `- ${n}\n`;
    if (r.tables?.length && ABOUT_PEERS[key]) {
      md += '\n**About the peers:**\n\n';
      for (const n of ABOUT_PEERS[key]) md += `- ${n}\n`;
    }
    if (r.rows.some((x) => x.met === false) && WHY_MISSED[key]) {
      md += '\n**Why the missed targets are missed:**\n\n';
      for (const n of WHY_MISSED[key]) md += `- ${n}\n`;
    }
    md += '\n';
  }
  return md;
}

function printSummary(env, totalSeconds, results, name) {
  console.log(
    `\nnode ${env.node}, undici ${env.undici}, ${env.cpuModel} × ${env.cpuCount}, ${env.date}, ${totalSeconds.toFixed(0)} s total`,
  );
  for (const r of Object.values(results)) {
    console.log(`\n${r.title}`);
    if (r.error) console.log(`  FAILED: ${r.error.split('\n')[0]}`);
    for (const x of r.rows) {
      if (x.met === null) continue;
      console.log(
        `  ${x.met ? '✓' : '✗'} ${x.metric}: ${x.ours}${x.ratio ? ` → ${x.ratio}` : ''} [target ${x.target}; ${x.verdictText}]`,
      );
    }
    for (const t of r.tables ?? []) console.log(`\n${textGrid(t)}`);
  }
  console.log(`\nWrote bench/results/${name}.json and bench/results/${name}.md`);
}

await main();
