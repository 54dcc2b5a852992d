// Benchmark 3: cold import time (fresh node processes) and bundle sizes with esbuild.
import { measureBundles } from './bundle.mjs';
import { measureColdImport } from './cold-import.mjs';
import { fmtSpread, roundAll } from './lib/stats.mjs';
import { judge, row } from './lib/table.mjs';

const kB = (b) => `${(b / 1000).toFixed(2)} kB`;

export async function run() {
  const cold = await measureColdImport();
  const bundles = await measureBundles();
  const b = Object.fromEntries(bundles.entries.map((e) => [e.key, e]));
  const rows = [
    row('cold import + construct client, ms (median of fresh processes minus empty process)', fmtSpread(cold.deltaMs, 1, ' ms'), `empty node: ${fmtSpread(cold.emptyMs, 1, ' ms')}`, '', '≤ 15 ms', judge(cold.deltaMs.median, 15, false)),
    row('in-process import() + construct, ms (measured inside the child)', fmtSpread(cold.inProcessMs, 1, ' ms'), '', '', 'info'),
    row('cold import of @svc/a11y-sdk/webhooks, ms (minus empty process)', fmtSpread(cold.webhooksDeltaMs, 1, ' ms'), '', '', 'info'),
  ];
  for (const e of bundles.entries) {
    const target = e.key === 'root' ? 10_000 : e.key === 'webhooks' ? 1_500 : e.key === 'operation' ? 10_000 : undefined;
    rows.push(
      row(`bundle ${e.label}: minified (entry + static chunks)`, kB(e.minBytes), '', '', 'info'),
      row(`bundle ${e.label}: gzip -9`, kB(e.gzipBytes), '', '', target ? `≤ ${kB(target)} gzip` : 'info', target ? judge(e.gzipBytes, target, false) : undefined),
    );
  }
  rows.push(row('bundle root: lazily loaded chunks (response validation), gzip', kB(b.root.dynamicGzipBytes), '', '', 'info (not counted)'));
  // What-ifs: the same build with a dependency external, so its share of the gzip total is measured.
  for (const w of bundles.whatIf) {
    const base = w.key === 'verifyOnly' ? b.webhooks : b.root;
    rows.push(row(`what-if: ${w.label}, gzip`, kB(w.gzipBytes), kB(base.gzipBytes), `${(w.gzipBytes / base.gzipBytes).toFixed(2)}×`, 'info (diagnosis)'));
  }
  const top = (e) => e.top.map((t) => `${t.path} ${kB(t.bytes)}`).join('; ');
  return {
    title: '3. Cold import and bundle size',
    rows,
    notes: [
      `Cold import: ${cold.runs} interleaved pairs of fresh \`node\` processes: one importing dist/index.js and constructing an A11yClient, one running \`node -e ''\`; wall time per process, median (min–max) of the per-pair difference.`,
      'Bundles: esbuild bundle + minify, format esm, platform browser, splitting, into a temp outdir; bytes = entry output + every chunk it imports statically (transitively); dynamically imported chunks are excluded and listed separately. gzip at level 9 per file, summed.',
      '(b) "one operation" is a tiny entry importing A11yClient and calling ciChecks.get(): the client constructor instantiates every resource class, so nothing per operation can be tree-shaken and (b) is the root entry\'s client code — shown measured, not assumed.',
      `Top modules, root entry (bytes in minified output): ${top(b.root)}`,
      `Top modules, one operation: ${top(b.operation)}`,
      `Top modules, webhooks entry: ${top(b.webhooks)}`,
      `Per package, root entry (minified bytes): ${Object.entries(b.root.byPackage).slice(0, 8).map(([k, v]) => `${k} ${kB(v)}`).join('; ')}`,
    ],
    raw: roundAll({ cold, bundles }),
  };
}
