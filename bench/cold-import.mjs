// Cold import: how long a fresh process spends importing the package and constructing a client, as the
// median of per-pair differences against an empty `node -e ''` run in the same moment.
import { spawnSync } from 'node:child_process';
import { DIST } from './lib/package.mjs';
import { summary } from './lib/stats.mjs';

const RUNS = 21; // ≥ 20 fresh processes per variant
const MAX_MS = 40_000; // time cap for the whole measurement
const CHILD_TIMEOUT_MS = 10_000;

// The child reports its own in-process import time on stdout; the parent times the whole process.
const IMPORT_CLIENT = `const t=performance.now();const {A11yClient}=await import(${JSON.stringify(DIST.index.href)});new A11yClient({apiKey:'svc_bench_key',baseUrl:'https://a11y.example.com'});process.stdout.write(String(performance.now()-t));`;
const IMPORT_WEBHOOKS = `const t=performance.now();await import(${JSON.stringify(DIST.webhooks.href)});process.stdout.write(String(performance.now()-t));`;

function timeProcess(args) {
  // Others may be rebuilding dist/ meanwhile (tsup cleans it first): retry a failed child a few times.
  for (let attempt = 0; ; attempt++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: CHILD_TIMEOUT_MS });
    const ms = performance.now() - t0;
    if (r.status === 0) return { ms, inner: Number(r.stdout) };
    if (attempt >= 3) throw new Error(`child failed (${r.status}): ${r.stderr}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3_000);
  }
}

export async function measureColdImport() {
  const empty = [];
  const client = [];
  const webhooks = [];
  const inner = [];
  const end = performance.now() + MAX_MS;
  timeProcess(['-e', '']); // warm the OS file cache for node itself
  timeProcess(['--input-type=module', '-e', IMPORT_CLIENT]);
  for (let i = 0; i < RUNS && performance.now() < end; i++) {
    // Alternate the order so a slow moment hits both sides equally often.
    const e = i % 2 ? null : timeProcess(['-e', '']);
    const c = timeProcess(['--input-type=module', '-e', IMPORT_CLIENT]);
    const w = timeProcess(['--input-type=module', '-e', IMPORT_WEBHOOKS]);
    empty.push((e ?? timeProcess(['-e', ''])).ms);
    client.push(c.ms);
    inner.push(c.inner);
    webhooks.push(w.ms);
  }
  // `--input-type=module -e` runs the ESM loader, which `node -e ''` does not: that is part of importing
  // an ESM package, so it stays in the figure.
  return {
    runs: client.length,
    emptyMs: summary(empty),
    clientMs: summary(client),
    deltaMs: summary(client.map((c, i) => c - empty[i])),
    webhooksDeltaMs: summary(webhooks.map((w, i) => w - empty[i])),
    inProcessMs: summary(inner),
  };
}
