// What `npm pack` would publish: built code, types, README and licence; no tests, sources or secrets.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;

describe('npm pack', () => {
  const [pack] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as [{ files: Array<{ path: string; size: number }> }];
  const files = pack.files.map((f) => f.path).sort();

  it('holds the built entries with ESM, CJS and types for each export', () => {
    for (const entry of ['index', 'webhooks']) {
      for (const ext of ['js', 'cjs', 'd.ts', 'd.cts']) expect(files).toContain(`dist/${entry}.${ext}`);
    }
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'LICENSE', 'CHANGELOG.md', 'THIRD-PARTY-NOTICES.md', 'package.json']),
    );
  });

  it('holds nothing but dist/, README, LICENSE, CHANGELOG, third-party notices and package.json', () => {
    const stray = files.filter(
      (f) =>
        !f.startsWith('dist/') &&
        !['README.md', 'LICENSE', 'CHANGELOG.md', 'THIRD-PARTY-NOTICES.md', 'package.json'].includes(f),
    );
    expect(stray).toEqual([]);
  });

  it('prepack builds dist/, so `npm pack` or `npm publish` from a fresh clone never ships without it', async () => {
    const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as {
      scripts: Record<string, string>;
      files: string[];
    };
    expect(pkg.scripts.prepack).toBe('npm run build');
    expect(pkg.scripts.build).toBe('tsup && node scripts/build-types.mjs && node scripts/cjs-types.mjs');
    expect(pkg.files).toContain('dist');
    // The checks that pack the package for inspection skip the lifecycle scripts (no second build in npm test).
    expect(pkg.scripts['check:package']).toBe('node scripts/check-package.mjs');
  });

  it('ships no empty file and no declarations for the bin', () => {
    // An entry imported by another entry of one split build once left a 1-byte chunk that every importer loaded
    // (see tsup.config.ts); the bin's declarations are a type file nothing imports.
    expect(pack.files.filter((f) => f.path.startsWith('dist/') && f.size <= 1).map((f) => f.path)).toEqual([]);
    expect(files.filter((f) => /^dist\/cli[.-].*d\.c?ts$|^dist\/cli\.d\./.test(f))).toEqual([]);
  });

  it('ships no tests, sources, spec, source maps or env files', () => {
    expect(files.filter((f) => /(^|\/)(test|src|generated|scripts)\//.test(f))).toEqual([]);
    expect(files.filter((f) => /\.map$|\.env|openapi\.yaml$|\.test\./.test(f))).toEqual([]);
  });
});
