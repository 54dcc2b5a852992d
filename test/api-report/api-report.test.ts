// `npm run api:check` fails when what users import differs from the checked-in report (npm test runs the check
// itself on dist/; this pins that a changed surface is caught and explained).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('api:check', () => {
  it('reports are checked in for the five entries', () => {
    expect(readdirSync(join(root, 'api')).sort()).toEqual([
      'index.api.md',
      'redact.api.md',
      'redis.api.md',
      'testing.api.md',
      'webhooks.api.md',
    ]);
    const index = readFileSync(join(root, 'api/index.api.md'), 'utf8');
    // Named return types, and the generated fields behind them, are in the reviewed text.
    expect(index).toContain(
      'createAndWait(body: CreateCiCheckRequest, options?: WaitOptions<CiCheck>): APIPromise<CiCheck>;',
    );
    expect(index).toMatch(/V1CiCheckResponse: \{[^}]*verdict\?: "PASS" \| "FAIL";/);
    // Nothing machine- or build-specific (absolute paths, chunk hashes, line numbers).
    expect(index).not.toMatch(/\/work\/|\/tmp\/|store-[A-Za-z0-9]{6,}|\.d\.ts:\d+/);
  });

  it('fails on a changed surface, shows the diff and says what to run', () => {
    if (!existsSync(join(root, 'dist/index.d.ts')))
      throw new Error('dist/ missing: run `npm run build` first (npm test does).');
    const dist = mkdtempSync(join(tmpdir(), 'svc-a11y-dist-'));
    try {
      for (const f of readdirSync(join(root, 'dist')).filter((f) => f.endsWith('.d.ts')))
        cpSync(join(root, 'dist', f), join(dist, f));
      const index = readFileSync(join(dist, 'index.d.ts'), 'utf8');
      const removed = '    listFixes(siteId: string, options?: RequestOptions): APIPromise<Fix[]>;\n';
      expect(index).toContain(removed);
      writeFileSync(join(dist, 'index.d.ts'), index.replace(removed, ''));
      let result = { status: 0, stdout: '', stderr: '' };
      try {
        execFileSync(process.execPath, [join(root, 'scripts/api-report.mjs'), '--dist', dist], {
          cwd: root,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (e) {
        result = e as typeof result;
      }
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(
        /^-\s+listFixes\(siteId: string, options\?: RequestOptions\): APIPromise<Fix\[\]>;$/m,
      );
      expect(result.stderr).toMatch(/the public surface changed \(index\) and the report was not updated/);
      expect(result.stderr).toMatch(/npm run build && npm run api:update/);
      // The checked-in report is left as it was.
      expect(readFileSync(join(root, 'api/index.api.md'), 'utf8')).toContain('listFixes(siteId: string');
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  }, 90_000);
});
