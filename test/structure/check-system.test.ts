// scripts/check-system.mjs, the first step of `npm test`: with the system's programs missing it names each one,
// why the suite needs it and the command that installs it, and exits 1; with all of them there it is silent and
// exits 0. Its list is kept honest: every program the tests and scripts run by name is on it, or is one of the
// POSIX basics every Debian and macOS install has.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MAC_CHROMIUM, missingTools, report, TOOLS } from '../../scripts/check-system.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = join(ROOT, 'scripts/check-system.mjs');
const NAMES = TOOLS.map((t) => t.name);

const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-check-system-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A folder of stand-in executables (the check only looks for them, it never runs them). */
function binDir(name: string, tools: string[]): string {
  const bin = join(dir, name);
  mkdirSync(bin, { recursive: true });
  for (const tool of tools) {
    writeFileSync(join(bin, tool), '#!/bin/sh\nexit 0\n');
    chmodSync(join(bin, tool), 0o755);
  }
  return bin;
}

/** The script as `npm test` runs it, with only PATH and CHROMIUM_PATH in its environment. */
function check(env: { PATH: string; CHROMIUM_PATH?: string }) {
  return spawnSync(process.execPath, [SCRIPT], { env, encoding: 'utf8', timeout: 30_000 });
}

const installCommand = (packages: string[]) =>
  process.platform === 'darwin'
    ? expect.stringContaining('brew install')
    : expect.stringMatching(new RegExp(`^  (sudo )?apt-get install -y ${packages.join(' ')}$`, 'm'));

describe('scripts/check-system.mjs', () => {
  it('is the first step of npm test', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.test).toMatch(/^node scripts\/check-system\.mjs && /);
  });

  it('with nothing installed: names every program, why it is needed and the command, and exits 1', () => {
    const run = check({ PATH: binDir('empty', []), CHROMIUM_PATH: join(dir, 'nowhere', 'chromium') });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    for (const name of ['chromium', 'redis-server', 'git', 'openssl'])
      expect(run.stderr).toMatch(new RegExp(`^  ${name} +(not on PATH|no Chromium at .+): \\w`, 'm'));
    expect(run.stderr).toContain(`CHROMIUM_PATH="${join(dir, 'nowhere', 'chromium')}"`);
    expect(run.stderr).toEqual(installCommand(['chromium', 'redis-server', 'git', 'openssl']));
    expect(run.stderr).toMatch(/CHROMIUM_PATH/);
  });

  it('names only what is missing, in the command too', () => {
    const chromium = join(binDir('chromium', ['chromium']), 'chromium');
    const run = check({ PATH: binDir('no-redis', ['git', 'openssl']), CHROMIUM_PATH: chromium });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^ {2}redis-server +not on PATH: /m);
    for (const name of ['chromium', 'git', 'openssl']) expect(run.stderr).not.toMatch(new RegExp(`^  ${name} `, 'm'));
    expect(run.stderr).toEqual(installCommand(['redis-server']));
    expect(run.stderr).not.toContain('CHROMIUM_PATH');
  });

  it('looks for Chromium where the browser tests do: CHROMIUM_PATH, else /usr/bin/chromium; it must be executable', () => {
    const bin = binDir('all', ['redis-server', 'git', 'openssl']);
    const notExecutable = join(dir, 'chromium.txt');
    writeFileSync(notExecutable, '');
    for (const path of [notExecutable, dir, '']) expect(check({ PATH: bin, CHROMIUM_PATH: path }).status).toBe(1);
    const unset = missingTools({ PATH: bin });
    const usr = statSync('/usr/bin/chromium', { throwIfNoEntry: false });
    if (usr) expect(unset).toEqual([]);
    else expect(unset.map((t) => t.looked)).toEqual([expect.stringContaining('/usr/bin/chromium')]);
  });

  it('with everything there: silent, exit 0', () => {
    const bin = binDir('present', ['redis-server', 'git', 'openssl']);
    const chromium = join(binDir('chromium', ['chromium']), 'chromium');
    const run = check({ PATH: `${join(dir, 'missing-dir')}:${bin}`, CHROMIUM_PATH: chromium });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('gives the Homebrew command on macOS, sudo only when not root, and CHROMIUM_PATH for the cask', () => {
    const all = TOOLS.map((t) => ({ ...t, looked: 'not on PATH' }));
    const mac = report(all, { platform: 'darwin' });
    expect(mac).toContain(
      'Install them (macOS, Homebrew):\n  brew install redis git openssl && brew install --cask chromium\n',
    );
    expect(mac).toContain(`export CHROMIUM_PATH=${MAC_CHROMIUM}`);
    // Chromium installed by the cask already: only CHROMIUM_PATH is missing for it.
    const macChromium = report(all, { platform: 'darwin', macChromium: true });
    expect(macChromium).toContain('  brew install redis git openssl\n');
    expect(macChromium).not.toContain('--cask');
    expect(macChromium).toContain(`export CHROMIUM_PATH=${MAC_CHROMIUM} (it is installed there already)`);
    expect(report(all.slice(1, 2), { platform: 'darwin' })).toContain('  brew install redis\n');
    expect(report(all, { platform: 'linux', root: false })).toContain(
      'Install them (Debian/Ubuntu):\n  sudo apt-get install -y chromium redis-server git openssl\n',
    );
    expect(report(all, { platform: 'linux', root: true })).toContain('\n  apt-get install -y chromium');
  });

  it('lists every program the tests and scripts run by name (besides Node, npm and the POSIX basics)', () => {
    const BASICS = ['node', 'npm', 'sh', 'bash', '/bin/bash', 'tar', 'mkfifo', 'rm', 'sleep', 'test'];
    const files = (sub: string): string[] =>
      readdirSync(join(ROOT, sub), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory()
          ? e.name === 'fixtures' || e.name === 'node_modules'
            ? []
            : files(join(sub, e.name))
          : /\.(ts|mjs|cjs|js)$/.test(e.name)
            ? [join(sub, e.name)]
            : [],
      );
    const run = new Map<string, string>();
    for (const file of [...files('test'), ...files('scripts')]) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const m of text.matchAll(
        /\b(?:spawn|spawnSync|execFile|execFileSync|execSync|runProcess|exec)\(\s*'([^']+)'/g,
      ))
        run.set(m[1]!, file);
    }
    // The scan finds what it should: the two that need installing as well as the basics.
    expect([...run.keys()]).toEqual(expect.arrayContaining(['redis-server', 'git', 'openssl', 'mkfifo']));
    const unlisted = [...run].filter(([name]) => !NAMES.includes(name) && !BASICS.includes(name));
    expect(unlisted, 'run by these files but not checked by scripts/check-system.mjs').toEqual([]);
  });
});
