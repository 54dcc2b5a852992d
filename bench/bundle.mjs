// Bundle sizes: what a browser app pays for the root entry, for one operation, and for the webhooks entry —
// and, beside ours, for the peers: the whole hey-api generated SDK (sdk.gen + client + zod), one operation of
// it, and ky.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { prepareHeyApi } from './lib/heyapi.mjs';
import { ROOT } from './lib/package.mjs';

const TOP = 8;

/** Entry output + the chunks it imports statically, transitively (dynamic imports are loaded later). */
function staticClosure(metafile, entryOut) {
  const seen = new Set([entryOut]);
  const stack = [entryOut];
  while (stack.length) {
    const out = metafile.outputs[stack.pop()];
    for (const imp of out.imports) {
      if (imp.kind === 'import-statement' && !imp.external && !seen.has(imp.path)) {
        seen.add(imp.path);
        stack.push(imp.path);
      }
    }
  }
  return seen;
}

async function measure(label, key, entryFile, outdir, external = []) {
  const result = await esbuild.build({
    entryPoints: [entryFile],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    outdir,
    metafile: true,
    write: false,
    logLevel: 'silent',
    external,
    absWorkingDir: ROOT,
    // Entries written into the temp folder import packages (ky, zod) from our node_modules.
    nodePaths: [join(ROOT, 'node_modules')],
  });
  const files = new Map(result.outputFiles.map((f) => [relative(ROOT, f.path), f.contents]));
  const entryOut = Object.keys(result.metafile.outputs).find((o) => result.metafile.outputs[o].entryPoint);
  const closure = staticClosure(result.metafile, entryOut);
  let minBytes = 0;
  let gzipBytes = 0;
  let dynamicGzipBytes = 0;
  const byInput = new Map();
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    const contents = files.get(out);
    if (!contents || out.endsWith('.map')) continue;
    const gz = gzipSync(contents, { level: 9 }).length;
    if (!closure.has(out)) {
      dynamicGzipBytes += gz;
      continue;
    }
    minBytes += contents.length;
    gzipBytes += gz;
    for (const [input, { bytesInOutput }] of Object.entries(meta.inputs))
      byInput.set(input, (byInput.get(input) ?? 0) + bytesInOutput);
  }
  const top = [...byInput]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([path, bytes]) => ({ path, bytes }));
  // Package-level totals (node_modules/<pkg> or src/<dir>) say what to cut more clearly than files do.
  const byPackage = new Map();
  for (const [path, bytes] of byInput) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    // Files outside the repo are the hey-api generated code (or an entry) in the temp folder.
    const group = m
      ? m[1]
      : path.startsWith('../')
        ? 'generated code (temp folder)'
        : path.split('/').slice(0, 2).join('/');
    byPackage.set(group, (byPackage.get(group) ?? 0) + bytes);
  }
  return {
    label,
    key,
    entry: relative(ROOT, entryFile),
    minBytes,
    gzipBytes,
    dynamicGzipBytes,
    files: [...closure],
    top,
    byPackage: Object.fromEntries([...byPackage].sort((a, b) => b[1] - a[1])),
    // esbuild's own view, first lines only (the top modules of each output file).
    analyze: (await esbuild.analyzeMetafile(result.metafile, { verbose: false }))
      .split('\n')
      .slice(0, TOP + 4)
      .join('\n'),
  };
}

export async function measureBundles() {
  const tmp = await mkdtemp(join(tmpdir(), 'a11y-bench-'));
  try {
    // (b) One operation, written the way an app would: import the client, call one method.
    const opEntry = join(tmp, 'one-operation.mjs');
    const indexTs = join(ROOT, 'src/index.ts');
    await writeFile(
      opEntry,
      `import { A11yClient } from ${JSON.stringify(indexTs)};\nexport function getCheck(id) {\n  return new A11yClient({ apiKey: 'svc_x', baseUrl: 'https://a11y.example.com' }).ciChecks.get(id);\n}\n`,
    );
    const entries = [
      await measure('(a) root entry src/index.ts', 'root', indexTs, join(tmp, 'root')),
      await measure('(b) one operation (A11yClient + ciChecks.get)', 'operation', opEntry, join(tmp, 'op')),
      await measure(
        '(c) webhooks entry src/webhooks/index.ts',
        'webhooks',
        join(ROOT, 'src/webhooks/index.ts'),
        join(tmp, 'webhooks'),
      ),
    ];
    // What-ifs (info): the root entry with a dependency left out says exactly what that dependency costs;
    // an entry exporting only verifyWebhook says what an app that verifies (and never signs) pays.
    const verifyOnly = join(tmp, 'verify-only.mjs');
    await writeFile(
      verifyOnly,
      `export { verifyWebhook } from ${JSON.stringify(join(ROOT, 'src/webhooks/index.ts'))};\n`,
    );
    const whatIf = [
      await measure('root without zod', 'rootNoZod', indexTs, join(tmp, 'w1'), ['zod', 'zod/*']),
      await measure('webhooks: verifyWebhook only', 'verifyOnly', verifyOnly, join(tmp, 'w4')),
    ];
    return { esbuild: esbuild.version, entries, whatIf };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The peers' bundles, built the same way as ours (benchmark 3 only: test/package/bundle-size.test.ts measures
 * ours with measureBundles() and must not generate the hey-api SDK).
 */
export async function measurePeerBundles() {
  const { srcDir, version } = await prepareHeyApi();
  const tmp = await mkdtemp(join(tmpdir(), 'a11y-bench-peers-'));
  try {
    return await measurePeers(tmp, srcDir, version);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

async function measurePeers(tmp, srcDir, version) {
  // (a) The whole generated SDK: its index (every operation of sdk.gen, the client, the zod schemas).
  // (b) One operation, written as its docs show: configure the generated client, call getCiCheck.
  const heyOp = join(tmp, 'heyapi-one-operation.mjs');
  await writeFile(
    heyOp,
    `import { getCiCheck } from ${JSON.stringify(join(srcDir, 'sdk.gen.ts'))};\nimport { client } from ${JSON.stringify(join(srcDir, 'client.gen.ts'))};\nexport function getCheck(id) {\n  client.setConfig({ baseUrl: 'https://a11y.example.com', auth: 'svc_x' });\n  return getCiCheck({ path: { id } });\n}\n`,
  );
  // ky: the library as imported by an app that writes its calls by hand (one call; ky is one class).
  const kyOp = join(tmp, 'ky-one-operation.mjs');
  await writeFile(
    kyOp,
    `import ky from 'ky';\nexport function getCheck(id) {\n  return ky.get(\`https://a11y.example.com/api/v1/ci/checks/\${id}\`, { headers: { Authorization: 'Bearer svc_x' }, timeout: 30000, retry: 2 }).json();\n}\n`,
  );
  return {
    heyapiVersion: version,
    kyVersion: JSON.parse(await readFile(join(ROOT, 'node_modules/ky/package.json'), 'utf8')).version,
    entries: [
      await measure(
        `hey-api ${version} generated SDK, whole (index: sdk.gen + client + zod)`,
        'heyapiRoot',
        join(srcDir, 'index.ts'),
        join(tmp, 'p1'),
      ),
      await measure(
        `hey-api ${version} generated SDK, one operation (client.setConfig + getCiCheck)`,
        'heyapiOperation',
        heyOp,
        join(tmp, 'p2'),
      ),
      await measure('ky, one hand-written call (ky.get(…).json())', 'kyOperation', kyOp, join(tmp, 'p3')),
    ],
  };
}
