// Benchmark 3: cold import time (fresh node processes) and bundle sizes with esbuild, ours beside the peers
// (ky with hand-written calls, the hey-api generated SDK).
import { measureBundles, measurePeerBundles } from './bundle.mjs';
import { measureColdImport } from './cold-import.mjs';
import { fmtSpread, roundAll } from './lib/stats.mjs';
import { grid, judge, row } from './lib/table.mjs';

const kB = (b) => `${(b / 1000).toFixed(2)} kB`;

export async function run() {
  const cold = await measureColdImport();
  const bundles = { ...(await measureBundles()), peers: await measurePeerBundles() };
  const b = Object.fromEntries(bundles.entries.map((e) => [e.key, e]));
  const rows = [
    row(
      'cold import + construct client, ms (median of fresh processes minus empty process)',
      fmtSpread(cold.deltaMs, 1, ' ms'),
      `empty node: ${fmtSpread(cold.emptyMs, 1, ' ms')}`,
      '',
      '≤ 15 ms',
      judge(cold.deltaMs.median, 15, false),
    ),
    row(
      'cold import + construct, ms: ours vs ky',
      fmtSpread(cold.deltaMs, 1, ' ms'),
      fmtSpread(cold.kyDeltaMs, 1, ' ms'),
      `${(cold.deltaMs.median / cold.kyDeltaMs.median).toFixed(2)}×`,
      '≤ ky (ahead)',
      judge(cold.deltaMs.median, cold.kyDeltaMs.median, false),
    ),
    row(
      'cold import + construct, ms: ours vs hey-api generated SDK',
      fmtSpread(cold.deltaMs, 1, ' ms'),
      fmtSpread(cold.heyapiDeltaMs, 1, ' ms'),
      `${(cold.deltaMs.median / cold.heyapiDeltaMs.median).toFixed(2)}×`,
      '≤ hey-api (ahead)',
      judge(cold.deltaMs.median, cold.heyapiDeltaMs.median, false),
    ),
    row(
      "cold import + construct + loading Node's fetch (undici), ms: ours vs ky / hey-api",
      fmtSpread(cold.clientFetchDeltaMs, 1, ' ms'),
      `${fmtSpread(cold.kyDeltaMs, 1, ' ms')} / ${fmtSpread(cold.heyapiDeltaMs, 1, ' ms')}`,
      `${(cold.clientFetchDeltaMs.median / cold.kyDeltaMs.median).toFixed(2)}× / ${(cold.clientFetchDeltaMs.median / cold.heyapiDeltaMs.median).toFixed(2)}×`,
      'info (like for like: both peers load it at import)',
    ),
    row(
      'in-process import() + construct, ms (measured inside the child)',
      fmtSpread(cold.inProcessMs, 1, ' ms'),
      '',
      '',
      'info',
    ),
    row(
      'cold import of @svc/a11y-sdk/webhooks, ms (minus empty process)',
      fmtSpread(cold.webhooksDeltaMs, 1, ' ms'),
      '',
      '',
      'info',
    ),
  ];
  for (const e of bundles.entries) {
    const target =
      e.key === 'root' ? 10_000 : e.key === 'webhooks' ? 1_500 : e.key === 'operation' ? 10_000 : undefined;
    rows.push(
      row(`bundle ${e.label}: minified (entry + static chunks)`, kB(e.minBytes), '', '', 'info'),
      row(
        `bundle ${e.label}: gzip -9`,
        kB(e.gzipBytes),
        '',
        '',
        target ? `≤ ${kB(target)} gzip` : 'info',
        target ? judge(e.gzipBytes, target, false) : undefined,
      ),
    );
  }
  rows.push(
    row(
      'bundle root: lazily loaded chunks (response validation), gzip',
      kB(b.root.dynamicGzipBytes),
      '',
      '',
      'info (not counted)',
    ),
  );
  // Peers, built the same way.
  const p = Object.fromEntries(bundles.peers.entries.map((e) => [e.key, e]));
  const heyWhole = p.heyapiRoot;
  rows.push(
    row(
      'bundle gzip: ours root vs hey-api generated SDK, whole (sdk.gen + client + zod)',
      kB(b.root.gzipBytes),
      kB(heyWhole.gzipBytes),
      `${(b.root.gzipBytes / heyWhole.gzipBytes).toFixed(2)}×`,
      '≤ 0.6× hey-api',
      judge(b.root.gzipBytes / heyWhole.gzipBytes, 0.6, false),
    ),
    row(
      'bundle gzip: ours one operation vs hey-api one operation',
      kB(b.operation.gzipBytes),
      kB(p.heyapiOperation.gzipBytes),
      `${(b.operation.gzipBytes / p.heyapiOperation.gzipBytes).toFixed(2)}×`,
      'info',
    ),
    row(
      'bundle gzip: ours one operation vs ky (one hand-written call)',
      kB(b.operation.gzipBytes),
      kB(p.kyOperation.gzipBytes),
      `${(b.operation.gzipBytes / p.kyOperation.gzipBytes).toFixed(2)}×`,
      'info',
    ),
  );
  // What-ifs: the same build with a dependency external, so its share of the gzip total is measured.
  for (const w of bundles.whatIf) {
    const base = w.key === 'verifyOnly' ? b.webhooks : b.root;
    rows.push(
      row(
        `what-if: ${w.label}, gzip`,
        kB(w.gzipBytes),
        kB(base.gzipBytes),
        `${(w.gzipBytes / base.gzipBytes).toFixed(2)}×`,
        'info (diagnosis)',
      ),
    );
  }
  const top = (e) => e.top.map((t) => `${t.path} ${kB(t.bytes)}`).join('; ');
  const size = (e) => `${kB(e.gzipBytes)} (${kB(e.minBytes)} min)`;
  const peers = grid(
    'Side by side (cold import: median (min–max) ms over fresh processes minus an empty one; bundles: gzip -9 (minified))',
    [
      'client',
      'cold import + construct',
      "… + loading Node's fetch (undici)",
      'in-process import + construct',
      'bundle, whole library',
      'bundle, one operation',
    ],
    [
      [
        'ours (@svc/a11y-sdk)',
        fmtSpread(cold.deltaMs, 1, ' ms'),
        fmtSpread(cold.clientFetchDeltaMs, 1, ' ms'),
        fmtSpread(cold.inProcessMs, 1, ' ms'),
        `${size(b.root)} root entry`,
        size(b.operation),
      ],
      [
        `ky ${bundles.peers.kyVersion} (hand-written calls)`,
        fmtSpread(cold.kyDeltaMs, 1, ' ms'),
        '(already loaded at import)',
        fmtSpread(cold.kyInProcessMs, 1, ' ms'),
        '= one operation (one class)',
        size(p.kyOperation),
      ],
      [
        `@hey-api/openapi-ts ${bundles.peers.heyapiVersion} SDK (client-fetch + zod, validator on)`,
        fmtSpread(cold.heyapiDeltaMs, 1, ' ms'),
        '(already loaded at import)',
        fmtSpread(cold.heyapiInProcessMs, 1, ' ms'),
        `${size(heyWhole)} index`,
        size(p.heyapiOperation),
      ],
    ],
  );
  return {
    title: '3. Cold import and bundle size: ours and the peers',
    rows,
    tables: [peers],
    notes: [
      `Cold import: ${cold.runs} interleaved rounds of fresh \`node\` processes (order rotated): one running \`node -e ''\`, and one per client importing it and constructing a client — ours: dist/index.js and \`new A11yClient({ apiKey, baseUrl })\`; ky: \`import('ky')\` and \`ky.create({ prefixUrl, headers, timeout, retry })\`; hey-api: the generated SDK bundled by esbuild into one ESM file (zod external, from node_modules) and \`client.setConfig({ baseUrl, auth })\`. Wall time per process, median (min–max) of the per-round difference from the empty process. Node 20 loads its built-in fetch (undici, ~30 ms) lazily, on the first fetch() call or read of globalThis.Request/Response/Headers: ky (its feature detection) and the hey-api SDK load it at import, ours at its first request, so the like-for-like figure for ours is "+ loading Node's fetch" (\`void globalThis.Request\` after constructing, which loads undici as the first fetch() does).`,
      'Bundles: esbuild bundle + minify, format esm, platform browser, splitting, into a temp outdir; bytes = entry output + every chunk it imports statically (transitively); dynamically imported chunks are excluded and listed separately. gzip at level 9 per file, summed.',
      `Peers' bundles: the hey-api SDK generated from openapi.yaml (plugins @hey-api/client-fetch, zod, @hey-api/sdk with validator: true), (a) its index.ts (every operation, the client, the zod schemas of the full \`zod\` package it imports) and (b) an entry configuring its client and calling getCiCheck; ky: an entry with one hand-written ky.get(…).json() call. Same esbuild settings as ours. Top modules, hey-api one operation: ${top(p.heyapiOperation)}`,
      '(b) "one operation" is a tiny entry importing A11yClient and calling ciChecks.get(): the client constructor instantiates every resource class, so nothing per operation can be tree-shaken and (b) is the root entry\'s client code — shown measured, not assumed.',
      `Top modules, root entry (bytes in minified output): ${top(b.root)}`,
      `Top modules, one operation: ${top(b.operation)}`,
      `Top modules, webhooks entry: ${top(b.webhooks)}`,
      `Per package, root entry (minified bytes): ${Object.entries(b.root.byPackage)
        .slice(0, 8)
        .map(([k, v]) => `${k} ${kB(v)}`)
        .join('; ')}`,
    ],
    raw: roundAll({ cold, bundles }),
  };
}
