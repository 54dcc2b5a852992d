#!/usr/bin/env node
// The declarations of the library entries (dist/*.d.ts), after tsup has written the JavaScript: TypeScript 7's native
// compiler type-checks the entries and emits one .d.ts per source file (tsconfig.types.json), then rollup with
// rollup-plugin-dts bundles them into one file per entry and shared chunks, as tsup's declaration build did (the
// same plugin at the same version, 6.1.1: the files are byte for byte the ones tsup wrote). tsup's build ran
// TypeScript 5.9 over the sources in process for this: ~14 of the build's ~21 CPU-seconds; this takes ~2.
//   node scripts/build-types.mjs     run by `npm run build`, after tsup and before scripts/cjs-types.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const config = join(root, 'tsconfig.types.json');
// A fresh folder each time (a file of an earlier emit, of a source since removed, must not be bundled), outside
// node_modules: rollup-plugin-dts leaves a module under node_modules as an import instead of bundling it.
const emitted = mkdtempSync(join(tmpdir(), 'svc-a11y-types-'));
const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules/typescript-native/bin/tsc'), '-p', config, '--outDir', emitted, '--singleThreaded'],
  { cwd: root, stdio: 'inherit' },
);
if (tsc.status !== 0) {
  rmSync(emitted, { recursive: true, force: true });
  process.stderr.write(`build-types: tsc -p tsconfig.types.json failed (exit ${tsc.status ?? tsc.signal})\n`);
  process.exit(1);
}

/**
 * Each library entry's name in dist/ → its emitted declarations, from tsconfig.types.json's `files` (the entries'
 * sources): `index` for src/index.ts, else its folder's name, as tsup.config.ts's `library` names them.
 */
const entries = JSON.parse(readFileSync(config, 'utf8')).files.map((file) => [
  file === 'src/index.ts' ? 'index' : basename(dirname(file)),
  join(emitted, file.replace(/\.ts$/, '.d.ts')),
]);
try {
  const bundle = await rollup({
    input: Object.fromEntries(entries),
    plugins: [dts()],
    // Packages (redis, node: built-ins) stay imports, as in the JavaScript.
    external: (id) => !id.startsWith('.') && !id.startsWith('/'),
  });
  await bundle.write({
    dir: join(root, 'dist'),
    format: 'es',
    entryFileNames: '[name].d.ts',
    // A chunk is named after its first module (`redact.d` of redact.d.ts): without the `.d`, as tsup named them.
    chunkFileNames: (chunk) => `${chunk.name.replace(/\.d$/, '')}-[hash].d.ts`,
  });
  await bundle.close();
} finally {
  rmSync(emitted, { recursive: true, force: true });
}
