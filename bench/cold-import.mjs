// Cold import: how long a fresh process spends importing a client and constructing it — ours, ky and the
// hey-api generated SDK — as the median of per-pair differences against an empty `node -e ''` run in the same
// moment.
import { spawnSync } from 'node:child_process';
import { QUICK } from './lib/env.mjs';
import { prepareHeyApi } from './lib/heyapi.mjs';
import { DIST, ROOT } from './lib/package.mjs';
import { summary } from './lib/stats.mjs';

const RUNS = QUICK ? 7 : 21; // ≥ 20 fresh processes per variant
const MAX_MS = 55_000; // time cap for the whole measurement
const CHILD_TIMEOUT_MS = 10_000;

// The child reports its own in-process import time on stdout; the parent times the whole process. Each child
// imports one client and constructs it as an app would (base URL, key, and for ky its timeout and retry).
const timed = (body) => `const t=performance.now();${body}process.stdout.write(String(performance.now()-t));`;
const IMPORT_CLIENT = timed(
  `const {A11yClient}=await import(${JSON.stringify(DIST.index.href)});new A11yClient({apiKey:'svc_bench_key',baseUrl:'https://a11y.example.com'});`,
);
// Node 20 loads its built-in fetch (undici, ~30 ms) lazily: on the first fetch() call or the first read of
// globalThis.Request/Response/Headers. ky (feature detection) and the hey-api SDK load it at import, ours at its
// first request. The same import + construct followed by reading globalThis.Request (which loads undici as the
// first fetch() does) says what ours costs once it has sent something.
const IMPORT_CLIENT_FETCH = timed(
  `const {A11yClient}=await import(${JSON.stringify(DIST.index.href)});new A11yClient({apiKey:'svc_bench_key',baseUrl:'https://a11y.example.com'});void globalThis.Request;`,
);
const IMPORT_WEBHOOKS = timed(`await import(${JSON.stringify(DIST.webhooks.href)});`);
// A bare specifier, resolved from our node_modules (the children run in the repo root), as an app imports it.
const IMPORT_KY = timed(
  `const {default:ky}=await import('ky');ky.create({prefixUrl:'https://a11y.example.com',headers:{Authorization:'Bearer svc_bench_key'},timeout:30000,retry:2});`,
);
const importHeyApi = (sdkUrl) =>
  timed(
    `const m=await import(${JSON.stringify(sdkUrl)});m.client.setConfig({baseUrl:'https://a11y.example.com',auth:'svc_bench_key'});`,
  );

function timeProcess(args) {
  // Others may be rebuilding dist/ meanwhile (tsup cleans it first): retry a failed child a few times.
  for (let attempt = 0; ; attempt++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: CHILD_TIMEOUT_MS, cwd: ROOT });
    const ms = performance.now() - t0;
    if (r.status === 0) return { ms, inner: Number(r.stdout) };
    if (attempt >= 3) throw new Error(`child failed (${r.status}): ${r.stderr}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3_000);
  }
}

export async function measureColdImport() {
  const { sdkUrl } = await prepareHeyApi();
  const scripts = {
    client: IMPORT_CLIENT,
    clientFetch: IMPORT_CLIENT_FETCH,
    webhooks: IMPORT_WEBHOOKS,
    ky: IMPORT_KY,
    heyapi: importHeyApi(sdkUrl),
  };
  const names = Object.keys(scripts);
  const ms = Object.fromEntries(names.map((n) => [n, []]));
  const inner = Object.fromEntries(names.map((n) => [n, []]));
  const empty = [];
  const end = performance.now() + MAX_MS;
  timeProcess(['-e', '']); // warm the OS file cache for node itself
  for (const n of names) timeProcess(['--input-type=module', '-e', scripts[n]]); // and for each client
  for (let i = 0; i < RUNS && performance.now() < end; i++) {
    // Rotate the order so a slow moment hits every side equally often; the empty process goes first or last.
    const e = i % 2 ? null : timeProcess(['-e', '']);
    for (let k = 0; k < names.length; k++) {
      const n = names[(k + i) % names.length];
      const r = timeProcess(['--input-type=module', '-e', scripts[n]]);
      ms[n].push(r.ms);
      inner[n].push(r.inner);
    }
    empty.push((e ?? timeProcess(['-e', ''])).ms);
  }
  // `--input-type=module -e` runs the ESM loader, which `node -e ''` does not: that is part of importing
  // an ESM package, so it stays in the figure.
  const delta = (n) => summary(ms[n].map((c, i) => c - empty[i]));
  return {
    runs: empty.length,
    emptyMs: summary(empty),
    clientMs: summary(ms.client),
    deltaMs: delta('client'),
    webhooksDeltaMs: delta('webhooks'),
    inProcessMs: summary(inner.client),
    clientFetchDeltaMs: delta('clientFetch'),
    clientFetchInProcessMs: summary(inner.clientFetch),
    // Peers, same method.
    kyDeltaMs: delta('ky'),
    kyInProcessMs: summary(inner.ky),
    heyapiDeltaMs: delta('heyapi'),
    heyapiInProcessMs: summary(inner.heyapi),
  };
}
