// Supply chain, as far as it can be proved offline (the registry's advisory endpoint is unreachable here):
// runtime dependencies, lockfile integrity, licences of the runtime closure, and what `npm pack` publishes.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './support.js';

const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<
  string,
  Record<string, string> | string | undefined
>;
interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
  license?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
};

/** Where Node resolves `name` from the package at `from` (a lockfile key): the nearest node_modules up. */
function resolveFrom(from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!base) return undefined;
    const at = base.lastIndexOf('/node_modules/');
    base = at < 0 ? '' : base.slice(0, at);
  }
}

/** The runtime closure: package.json dependencies and, transitively, theirs (optional ones when installed). */
function runtimeClosure(): Set<string> {
  const seen = new Set<string>();
  const visit = (from: string, deps: Record<string, string> | undefined, optional = false) => {
    for (const name of Object.keys(deps ?? {})) {
      const key = resolveFrom(from, name);
      if (!key) {
        if (optional) continue;
        throw new Error(`${name} (needed by ${from || 'the package'}) is not in package-lock.json`);
      }
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = lock.packages[key]!;
      visit(key, entry.dependencies);
      visit(key, entry.optionalDependencies, true);
      visit(key, entry.peerDependencies, true);
    }
  };
  visit('', pkg.dependencies as Record<string, string>);
  return seen;
}

const PERMISSIVE = new Set([
  'MIT',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  '0BSD',
  'Unlicense',
  'CC0-1.0',
  'BlueOak-1.0.0',
  'Zlib',
]);
/** True when an SPDX expression allows permissive use: some OR alternative whose AND parts are all permissive. */
function permissive(spdx: string): boolean {
  return spdx
    .replace(/[()]/g, '')
    .split(/\s+OR\s+/)
    .some((alt) => alt.split(/\s+AND\s+/).every((id) => PERMISSIVE.has(id.trim())));
}

describe('dependencies', () => {
  // zod is bundled into dist/ (tree-shaken, for a faster cold import), and the transport sends with fetch itself
  // (openapi-fetch's `paths` typing is used at compile time only): nothing is installed from the registry at
  // run time. zod's licence ships in THIRD-PARTY-NOTICES.md.
  it('no runtime dependencies; zod is bundled; openapi-fetch is neither imported nor bundled; one optional peer (redis); no optional or bundled ones', () => {
    expect(Object.keys((pkg.dependencies ?? {}) as Record<string, string>)).toEqual([]);
    expect((pkg.devDependencies as Record<string, string>).zod).toMatch(/^\d+\.\d+\.\d+$/);
    expect((pkg.devDependencies as Record<string, string>)['openapi-fetch']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(readFileSync(join(root, 'THIRD-PARTY-NOTICES.md'), 'utf8')).toContain(
      readFileSync(join(root, 'node_modules/zod/LICENSE'), 'utf8').trim(),
    );
    for (const field of ['optionalDependencies', 'bundleDependencies', 'bundledDependencies'])
      expect(pkg[field]).toBeUndefined();
    // The Redis client of the ./redis entry, optional so it installs nothing. TypeScript is no peer: npm would refuse to
    // install next to an older one even where nothing compiles against the types (docs/runtimes.md states the minimum).
    expect(pkg.peerDependencies).toEqual({ redis: '>=4.6.0' });
    expect(pkg.peerDependenciesMeta).toEqual({ redis: { optional: true } });
    ensureBuilt();
    for (const file of readdirSync(join(root, 'dist')).filter((f) => /\.(c?js)$/.test(f))) {
      const code = readFileSync(join(root, 'dist', file), 'utf8');
      expect(code, file).not.toMatch(/from ["']openapi-fetch["']|require\(["']openapi-fetch["']\)/);
      // openapi-fetch's own runtime (its default querySerializer) is not bundled either.
      expect(code, file).not.toContain('allowReserved');
    }
  });

  it('package-lock.json (v3): every entry but the root and links carries an integrity hash (sha512)', () => {
    expect(lock.lockfileVersion).toBe(3);
    const entries = Object.entries(lock.packages).filter(([key, e]) => key !== '' && !e.link);
    expect(entries.length).toBeGreaterThan(0);
    const missing = entries
      .filter(([, e]) => !/^sha(256|384|512)-[A-Za-z0-9+/]+=*$/.test(e.integrity ?? ''))
      .map(([k]) => k);
    expect(missing).toEqual([]);
    const weak = entries
      .filter(([, e]) => !e.integrity!.startsWith('sha512-'))
      .map(([k, e]) => `${k} ${e.integrity!.split('-')[0]}`);
    expect(weak).toEqual([]);
    // `resolved` URLs are omitted by this lockfile (npm's omit-lockfile-registry-resolved): where present, https only.
    const insecure = entries
      .filter(([, e]) => e.resolved !== undefined && !e.resolved.startsWith('https://'))
      .map(([k, e]) => `${k} ${e.resolved}`);
    expect(insecure).toEqual([]);
  });

  it('the runtime closure in the lockfile is exactly the non-dev entries, and each is installed at its locked version', () => {
    const closure = runtimeClosure();
    const nonDev = Object.entries(lock.packages)
      .filter(([key, e]) => key !== '' && !e.dev && !e.devOptional && !e.link)
      .map(([key]) => key);
    expect([...closure].sort()).toEqual(nonDev.sort());
    for (const key of closure) {
      const installed = JSON.parse(readFileSync(join(root, key, 'package.json'), 'utf8')) as { version: string };
      expect(installed.version, key).toBe(lock.packages[key]!.version);
    }
  });

  it('every runtime package (and its transitive runtime deps) has a permissive licence, read from node_modules', () => {
    const licences: Record<string, string> = {};
    for (const key of runtimeClosure()) {
      const manifest = JSON.parse(readFileSync(join(root, key, 'package.json'), 'utf8')) as {
        license?: string | { type?: string };
        licenses?: Array<{ type?: string }>;
      };
      const spdx =
        typeof manifest.license === 'string'
          ? manifest.license
          : (manifest.license?.type ?? manifest.licenses?.map((l) => l.type).join(' OR ') ?? 'UNKNOWN');
      licences[key.replace(/^.*node_modules\//, '')] = spdx;
    }
    const bad = Object.entries(licences).filter(([, spdx]) => !permissive(spdx));
    expect(bad).toEqual([]);
    // The bundled zod too.
    expect(
      permissive(
        (JSON.parse(readFileSync(join(root, 'node_modules/zod/package.json'), 'utf8')) as { license: string }).license,
      ),
    ).toBe(true);
    // Our own licence too.
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/MIT License|Permission is hereby granted/);
  });
});

describe('npm pack', () => {
  let dir: string;
  let files: string[];
  let packed: Array<{ path: string }>;

  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'svc-pack-'));
    const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [info] = JSON.parse(out) as [{ filename: string; files: Array<{ path: string }> }];
    packed = info.files;
    execFileSync('tar', ['-xzf', join(dir, info.filename), '-C', dir]);
    const walk = (d: string): string[] =>
      readdirSync(d).flatMap((f) =>
        statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [relative(join(dir, 'package'), join(d, f))],
      );
    files = walk(join(dir, 'package')).sort();
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // npm always packs a top-level CHANGELOG (whatever `files` says); the project ships its changesets CHANGELOG.md.
  it('the tarball holds dist/, README.md, LICENSE, package.json, CHANGELOG.md and THIRD-PARTY-NOTICES.md only, as npm pack --json lists', () => {
    expect(
      files.filter(
        (f) =>
          !f.startsWith('dist/') &&
          !['README.md', 'LICENSE', 'package.json', 'CHANGELOG.md', 'THIRD-PARTY-NOTICES.md'].includes(f),
      ),
    ).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'LICENSE', 'package.json', 'dist/index.js', 'dist/cli.js']),
    );
    expect(packed.map((f) => f.path).sort()).toEqual(files);
  });

  it('no source maps, no tests, no TypeScript sources, no .env files', () => {
    expect(files.filter((f) => /\.map$/.test(f))).toEqual([]);
    expect(
      files.filter((f) => /(^|\/)(test|tests|__tests__|src|fixtures)\//.test(f) || /\.(test|spec)\./.test(f)),
    ).toEqual([]);
    expect(files.filter((f) => /\.ts$/.test(f) && !/\.d\.c?ts$/.test(f))).toEqual([]);
    expect(files.filter((f) => /(^|\/)\.env(\.|$)|\.npmrc$|\.pem$|\.key$/.test(f))).toEqual([]);
  });

  it('no file carries a source-map reference or an absolute path of the build machine', () => {
    const home = process.env.HOME && process.env.HOME.length > 1 ? process.env.HOME : undefined;
    const offenders: string[] = [];
    for (const f of files) {
      const text = readFileSync(join(dir, 'package', f), 'utf8');
      if (/sourceMappingURL=/.test(text)) offenders.push(`${f}: sourceMappingURL`);
      if (text.includes(root)) offenders.push(`${f}: ${root}`);
      if (home && text.includes(`${home}/`)) offenders.push(`${f}: ${home}`);
      if (/file:\/\/\/(home|Users|work|tmp)\//.test(text)) offenders.push(`${f}: file:// path`);
    }
    expect(offenders).toEqual([]);
  });

  it('the packed package.json keeps the runtime dependencies and declares no install scripts', () => {
    const packedPkg = JSON.parse(readFileSync(join(dir, 'package', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      scripts?: Record<string, string>;
    };
    expect(packedPkg.dependencies).toEqual(pkg.dependencies);
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(packedPkg.scripts?.[hook]).toBeUndefined();
    expect(existsSync(join(dir, 'package', 'node_modules'))).toBe(false);
  });
});
