// The committed bundle is self-contained and the action's dependencies stay out of what SDK users install: it
// requires Node's built-in modules only, runs from a folder with no node_modules anywhere above it, and neither
// package.json's runtime dependencies nor dist/ name @actions/* or @octokit/*.
import { builtinModules } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../support/process.js';
import { nodeForAction, parseOutputFile, root } from './run-action.js';

const bundle = readFileSync(join(root, 'action/index.cjs'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<
  string,
  Record<string, string> | undefined
>;
const ACTION_PACKAGES = ['@actions/core', '@octokit/core', '@octokit/plugin-paginate-rest'];

describe('action/index.cjs', () => {
  it('requires nothing but Node built-ins (no node_modules at run time), but for optional peers tried and caught', () => {
    // esbuild turns every import into a require in CommonJS (an `import("…")` left in the file is in a JSDoc type).
    const calls = [...bundle.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => ({
      name: m[1]!,
      at: m.index,
    }));
    const builtin = (name: string) => name.startsWith('node:') || builtinModules.includes(name);
    const others = calls.filter((c) => !builtin(c.name));
    // @redis/client's OpenTelemetry.init (never called by the CLI) tries its optional peer and reports it missing.
    expect(others.map((c) => c.name)).toEqual(['@opentelemetry/api']);
    for (const c of others) expect(bundle.slice(c.at - 40, c.at)).toMatch(/try \{\s*return $/);
    expect(calls.length).toBeGreaterThan(0);
  });

  it('runs from a plain copy of the repository files it needs, with no node_modules (if-no-key: skip)', async () => {
    const checkout = mkdtempSync(join(tmpdir(), 'svc-a11y-checkout-'));
    mkdirSync(join(checkout, 'action'));
    copyFileSync(join(root, 'action/index.cjs'), join(checkout, 'action/index.cjs'));
    copyFileSync(join(root, 'action.yml'), join(checkout, 'action.yml'));
    copyFileSync(join(root, 'package.json'), join(checkout, 'package.json'));
    expect(existsSync(join(checkout, 'node_modules'))).toBe(false);
    const output = join(checkout, 'output.txt');
    writeFileSync(output, '');
    const run = await runProcess(nodeForAction(), ['action/index.cjs'], {
      cwd: checkout,
      env: { PATH: '', 'INPUT_API-KEY': '', 'INPUT_IF-NO-KEY': 'skip', GITHUB_OUTPUT: output },
      timeoutMs: 60_000,
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('::warning title=Accessibility check skipped::');
    expect(parseOutputFile(readFileSync(output, 'utf8')).verdict).toBe('UNKNOWN');
  }, 120_000);
});

describe("the action's packages stay out of the SDK", () => {
  it('are exact-pinned devDependencies, never dependencies or peers', () => {
    for (const name of ACTION_PACKAGES) {
      expect(pkg.devDependencies?.[name], name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(pkg.dependencies?.[name], name).toBeUndefined();
      expect(pkg.peerDependencies?.[name], name).toBeUndefined();
      expect(pkg.optionalDependencies?.[name], name).toBeUndefined();
    }
    // The published files: dist/ and documents, never action/.
    expect(pkg.files).not.toContain('action');
  });

  it('are not in dist/', () => {
    const dist = join(root, 'dist');
    expect(existsSync(dist), 'dist/ is missing: run `npm run build` first (npm test does)').toBe(true);
    for (const file of readdirSync(dist).filter((f) => /\.(c|m)?js$/.test(f))) {
      const text = readFileSync(join(dist, file), 'utf8');
      expect(text, file).not.toMatch(/@actions\/|@octokit\/|ghadelimiter_/);
    }
  });
});
