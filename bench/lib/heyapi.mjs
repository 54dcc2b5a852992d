// The @hey-api/openapi-ts peer: a full SDK generated from our openapi.yaml (client-fetch + zod, with the
// SDK's validator on for requests and responses), as a user of that generator would have it. It is generated
// into a temp folder (never into the repo), in a child process (the generator and TypeScript stay out of the
// benchmark's heap), then bundled with esbuild into one ESM file that plain node imports, its packages (zod)
// left external and resolved from our node_modules, as a library's dist/ would be.
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { ROOT } from './package.mjs';

// hey-api 0.95.0: `validator: true` picks the zod plugin for both the request and the response
// (`{ request, response }` would choose them separately).
const HEYAPI_PLUGINS = ['@hey-api/client-fetch', 'zod', { name: '@hey-api/sdk', validator: true }];
const GENERATE_TIMEOUT_MS = 60_000;

let prepared;

/**
 * Generates and bundles the SDK once per process; the temp folder is removed when the process exits.
 * Resolves `{ dir, srcDir, sdkUrl, version }`: `srcDir` holds the generated TypeScript (index.ts, sdk.gen.ts,
 * client.gen.ts, zod.gen.ts, client/, core/), `sdkUrl` the bundled module, which exports the generated
 * operations (listSites, getCiCheck, …) plus `client`, `createClient` and `createConfig`.
 */
export function prepareHeyApi() {
  prepared ??= generate();
  return prepared;
}

/** The bundled generated SDK's module namespace. */
export async function importHeyApi() {
  const { sdkUrl } = await prepareHeyApi();
  return import(sdkUrl);
}

async function generate() {
  const dir = await mkdtemp(join(tmpdir(), 'a11y-bench-heyapi-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  // Bare imports of the generated code (zod) resolve from our node_modules, for node and for esbuild.
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const srcDir = join(dir, 'src');
  await new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [fileURLToPath(import.meta.url), '--generate', srcDir],
      { cwd: ROOT, timeout: GENERATE_TIMEOUT_MS },
      (error, _stdout, stderr) =>
        error ? reject(new Error(`hey-api generation failed: ${error.message}\n${stderr}`)) : resolve(),
    );
  });
  // What the benchmark imports: every generated export, plus the client factory a user configures.
  const entry = join(dir, 'entry.ts');
  await writeFile(
    entry,
    `export * from './src/index.ts';\nexport { client } from './src/client.gen.ts';\nexport { createClient, createConfig } from './src/client/index.ts';\n`,
  );
  const sdkFile = join(dir, 'sdk.mjs');
  await esbuild.build({
    entryPoints: [entry],
    outfile: sdkFile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  const version = JSON.parse(readFileSync(join(ROOT, 'node_modules/@hey-api/openapi-ts/package.json'), 'utf8')).version;
  return { dir, srcDir, sdkUrl: pathToFileURL(sdkFile).href, version };
}

// Child: node bench/lib/heyapi.mjs --generate <outDir>
if (process.argv[2] === '--generate') {
  const { createClient } = await import('@hey-api/openapi-ts');
  await createClient({
    input: join(ROOT, 'openapi.yaml'),
    output: { path: process.argv[3], clean: true },
    plugins: HEYAPI_PLUGINS,
    logs: { level: 'silent' },
  });
}
