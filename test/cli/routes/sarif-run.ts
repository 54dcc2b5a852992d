// The end-to-end check of `--sarif-map auto`, shared by the in-process run (sarif-auto.test.ts) and the built
// binary's (sarif-auto-built.test.ts, a sample of it): `svc-a11y ci` in each fixture project against the simulator,
// every SARIF result's location compared with cases.ts; then the same mapping in Code Quality, HTML and annotations,
// the manual entries that win, `none`, the config file's "auto", and an explicit auto where no project is recognised.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Log, Result } from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Framework } from '../../../src/cli/routes/index.js';
import { type Simulator, startSimulator } from '../../../src/testing/index.js';
import type { CliResult } from '../../support/cli.js';
import { validateSarif } from '../../support/sarif.js';
import { FIXTURES, FIXTURES_DIR, fixtureInRepo, SITE } from './cases.js';

/** `runCli` or `runCliLikeBinary`: the same signature, a child process or this one. */
export type Runner = (
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number },
) => Promise<CliResult>;

// Every page gets one extra critical finding (the simulator's `regress`), so each case has a result to check.
function urlOf(path: string): string {
  const url = new URL(`${SITE}${path}`);
  url.searchParams.set('regress', '1');
  return url.href;
}

// A SARIF artifact URI back to the file path: each segment was percent-encoded on its own.
const fileOfUri = (uri: string): string => uri.split('/').map(decodeURIComponent).join('/');

/**
 * Declares the suite for one runner: all of it, or (`sample`) what proves a build carries the inference — one
 * framework's project, the config file's "auto" and an "auto" with no project — the rest being the same code.
 * @default sample false
 * @example describeSarifAuto('built binary', runCli, { sample: true });
 */
export function describeSarifAuto(label: string, run: Runner, { sample = false }: { sample?: boolean } = {}): void {
  let sim: Simulator;
  let dir: string;
  const env = () => ({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url });
  beforeAll(async () => {
    sim = await startSimulator({ durations: { ciCheck: 50 }, rateLimit: false });
    dir = mkdtempSync(join(tmpdir(), 'svc-a11y-sarif-auto-'));
  });
  afterAll(async () => {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function ciIn(framework: Framework, extra: string[], paths = FIXTURES[framework].cases.map(([p]) => p)) {
    const sarif = join(dir, `${framework}-${Math.random().toString(36).slice(2)}.sarif`);
    const r = await run(
      ['ci', ...paths.map(urlOf), '--fail-on', 'ANY_CRITICAL', '--report', `sarif=${sarif}`, ...extra],
      { env: env(), cwd: join(FIXTURES_DIR, framework), timeoutMs: 60_000 },
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code, r.stderr).toBe(1);
    const log = JSON.parse(readFileSync(sarif, 'utf8')) as Log;
    expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
    return { r, results: log.runs[0]?.results ?? [] };
  }

  const pathOf = (result: Result) => new URL(String(result.properties?.pageUrl)).pathname;

  describe(`--sarif-map auto through the ${label}`, () => {
    for (const framework of sample ? (['next'] as const) : (Object.keys(FIXTURES) as Framework[])) {
      it(`${framework}: the default in a recognised project; every SARIF location is the route file or the URL`, async () => {
        const { cases, args, scriptLine } = FIXTURES[framework];
        const { r, results } = await ciIn(framework, args);
        expect(r.stderr).toMatch(/sarif map: \d+ routes inferred from test\/fixtures\/routes\//);
        const seen = new Set<string>();
        const wrong: unknown[] = [];
        for (const result of results) {
          const path = pathOf(result);
          const c = cases.find(([p]) => new URL(`${SITE}${p}`).pathname === path);
          expect(c, path).toBeDefined();
          seen.add(path);
          const location = result.locations?.[0]?.physicalLocation;
          const file = c?.[1];
          const got = {
            file: location?.artifactLocation?.uriBaseId ? fileOfUri(location.artifactLocation.uri ?? '') : undefined,
            line: location?.region?.startLine,
            route: result.properties?.route !== undefined,
          };
          const want = file
            ? { file: `${fixtureInRepo(framework)}/${file}`, line: file.endsWith('.tsx') ? scriptLine : 1, route: true }
            : { file: undefined, line: 1, route: false };
          if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push({ path, got, want });
          if (!file) expect(location?.artifactLocation?.uri).toBe(`shop.example.com${path.replace(/\/$/, '') || '/'}`);
        }
        expect(wrong).toEqual([]);
        // Every page was reported, so every case was checked (the CLI checks `/x` and `/x/` once: one page).
        const page = (path: string) => path.replace(/(.)\/$/, '$1');
        expect([...new Set([...seen].map(page))].sort()).toEqual(
          [...new Set(cases.map(([p]) => page(new URL(`${SITE}${p}`).pathname)))].sort(),
        );
      });
    }

    // Not declared for a sample: the same mapping, by the same code, as the reports above.
    if (!sample) {
      it('Code Quality, HTML and annotations use the same mapping; a manual PREFIX=FILE wins for its pages', async () => {
        const cq = join(dir, 'next.codequality.json');
        const html = join(dir, 'next.html');
        const r = await run(
          [
            'ci',
            urlOf('/shop/blog/hello'),
            urlOf('/shop/about'),
            urlOf('/elsewhere'),
            '--fail-on',
            'ANY_CRITICAL',
            '--sarif-map',
            '/shop/about=src/about.tsx',
            '--report',
            `codequality=${cq}`,
            '--report',
            `html=${html}`,
          ],
          { env: { ...env(), GITHUB_ACTIONS: 'true' }, cwd: join(FIXTURES_DIR, 'next'), timeoutMs: 60_000 },
        );
        expect(r.code, r.stderr).toBe(1);
        const slug = `${fixtureInRepo('next')}/app/blog/[slug]/page.tsx`;
        const issues = JSON.parse(readFileSync(cq, 'utf8')) as Array<{
          location: { path: string; lines: { begin: number } };
        }>;
        const places = new Set(issues.map((i) => `${i.location.path}:${i.location.lines.begin}`));
        expect([...places].sort()).toEqual(['shop.example.com/elsewhere:1', 'src/about.tsx:1', `${slug}:3`].sort());
        expect(readFileSync(html, 'utf8')).toContain(
          `rendered by <code>${slug}:3</code> (route <code>/blog/[slug]</code>)`,
        );
        expect(r.stderr).toContain(`::error file=${slug},line=3,`);
        expect(r.stderr).toContain('::error file=src/about.tsx,line=1,');
      });

      it('--sarif-map none turns inference off: URL-derived locations, no note', async () => {
        const { r, results } = await ciIn('next', ['--sarif-map', 'none'], ['/shop/blog/hello']);
        expect(r.stderr).not.toContain('sarif map:');
        expect(results[0]?.locations?.[0]?.physicalLocation?.artifactLocation).toEqual({
          uri: 'shop.example.com/shop/blog/hello',
        });
      });
    }

    it('"sourceMap": "auto" in the config file; an explicit auto where no project is recognised is a usage error', async () => {
      const config = join(dir, 'auto.config.json');
      writeFileSync(config, JSON.stringify({ sourceMap: 'auto', basePath: '/app' }));
      const { results } = await ciIn('nuxt', ['--config', config], ['/app/users/42']);
      expect(results[0]?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe(
        `${fixtureInRepo('nuxt')}/pages/users/%5Bid%5D.vue`,
      );
      const empty = mkdtempSync(join(tmpdir(), 'svc-a11y-no-project-'));
      try {
        const bad = await run(['ci', urlOf('/'), '--sarif-map', 'auto'], { env: env(), cwd: empty });
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain('--source-map auto: no routes can be inferred in');
        expect(bad.stderr).toContain('--source-map none');
        expect(bad.stderr).not.toMatch(/\n\s+at /);
        // Without the flag the same folder keeps today's locations, silently.
        const quiet = await run(['ci', urlOf('/'), '--fail-on', 'NONE'], { env: env(), cwd: empty });
        expect(quiet.code, quiet.stderr).toBe(0);
        expect(quiet.stderr).not.toContain('sarif map');
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
    });
  });
}
