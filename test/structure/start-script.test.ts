// `npm start` on a first run: the build is one line on stderr, never tsup's log on stdout, so what
// stdout carries is the demo's report. Run on a scratch copy whose dist/ is missing, with tsup stood in by a script
// that prints as tsup does, so the test costs no build.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'svc-a11y-start-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function project(tsup: string): string {
  const dir = mkdtempSync(join(scratch, 'p-'));
  cpSync(join(ROOT, 'scripts/start.mjs'), join(dir, 'scripts/start.mjs'));
  for (const folder of ['src', 'generated']) mkdirSync(join(dir, folder));
  writeFileSync(join(dir, 'src/a.ts'), '');
  mkdirSync(join(dir, 'node_modules/tsup/dist'), { recursive: true });
  writeFileSync(join(dir, 'node_modules/tsup/dist/cli-default.js'), tsup);
  return dir;
}

describe('npm start builds quietly', () => {
  it('a first run: one line on stderr, no build log on stdout, then the demo', () => {
    // The stand-in prints 60 lines as tsup does, then writes a dist/cli.js that prints the demo's report.
    const dir = project(`
      for (let i = 0; i < 60; i++) console.log('ESM dist/chunk-' + i + '.js 1.2 KB');
      require('node:fs').mkdirSync('dist', { recursive: true });
      require('node:fs').writeFileSync('dist/cli.js', "console.log('Accessibility check: PASS ' + process.argv[2]);");
    `);
    const r = spawnSync(process.execPath, ['scripts/start.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('Accessibility check: PASS demo\n');
    expect(r.stderr).toMatch(/^Building dist\/ for the first run \(about 30–40 s\)… built in \d+\.\d s\.\n\n$/);
  });

  it('a failed build shows its log and exits with its code', () => {
    const dir = project(`console.log('ERROR src/a.ts: bad'); process.exit(3);`);
    const r = spawnSync(process.execPath, ['scripts/start.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('failed:\nERROR src/a.ts: bad');
  });
});
