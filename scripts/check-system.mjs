#!/usr/bin/env node
// The first step of `npm test`: the programs the suite needs from the system (npm cannot install them), checked in
// milliseconds before anything runs, so a fresh machine learns what is missing, and the one command that installs
// it, at once instead of from failed tests ten minutes later. Silent, exit 0, when all is there; otherwise each
// missing program with why the suite needs it, the install command (apt-get on Linux, Homebrew on macOS), exit 1.
// No dependencies: it runs before anything else, `npm ci` or not. test/structure/check-system.test.ts tests it.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the browser tests (test/browser/*.test.ts) look for Chromium when CHROMIUM_PATH is not set. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
/** Where `brew install --cask chromium` puts it. */
export const MAC_CHROMIUM = '/Applications/Chromium.app/Contents/MacOS/Chromium';

/**
 * What the suite runs that npm does not install: the name, why, and the Debian/Ubuntu and Homebrew packages. Node
 * and npm run this script, and the POSIX basics the tests also call (sh, bash, tar, mkfifo, rm, sleep) are part of
 * every Debian and macOS install.
 */
export const TOOLS = [
  {
    name: 'chromium',
    why: 'the real-browser tests (test/browser/) open the HTML report and run the browser bundles in it',
    apt: 'chromium',
    brew: '--cask chromium',
  },
  {
    name: 'redis-server',
    why: "the shared rate budget's tests (test/redis/, and vitest's global setup) start their own servers",
    apt: 'redis-server',
    brew: 'redis',
  },
  {
    name: 'git',
    why: 'the --changed-since, spec-diff and changeset tests make scratch repositories; the docs tests list files',
    apt: 'git',
    brew: 'git',
  },
  {
    name: 'openssl',
    why: 'the proxy tests make a throwaway TLS certificate for their HTTPS servers',
    apt: 'openssl',
    brew: 'openssl',
  },
];

function isExecutable(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name, env) {
  return (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => isExecutable(join(dir, name)));
}

/**
 * The missing tools, each with what was looked for.
 * @param {NodeJS.ProcessEnv} env
 * @returns {Array<(typeof TOOLS)[number] & { looked: string }>}
 */
export function missingTools(env = process.env) {
  return TOOLS.flatMap((tool) => {
    if (tool.name === 'chromium') {
      // As the browser tests do: CHROMIUM_PATH if set, else /usr/bin/chromium.
      const path = env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM;
      if (isExecutable(path)) return [];
      const looked =
        env.CHROMIUM_PATH === undefined
          ? `no Chromium at ${DEFAULT_CHROMIUM} (CHROMIUM_PATH is not set)`
          : `no Chromium at CHROMIUM_PATH=${JSON.stringify(path)}`;
      return [{ ...tool, looked }];
    }
    return onPath(tool.name, env) ? [] : [{ ...tool, looked: 'not on PATH' }];
  });
}

/**
 * The message for the missing tools: each with why, then the one command that installs them.
 * @param {ReturnType<typeof missingTools>} missing
 * @param {{ platform?: string, root?: boolean, macChromium?: boolean }} [options] the system (defaults: this one);
 *   macChromium: Chromium is installed where Homebrew puts it, only CHROMIUM_PATH is missing
 */
export function report(missing, options = {}) {
  const platform = options.platform ?? process.platform;
  const mac = platform === 'darwin';
  const lines = ['npm test needs these programs, which npm does not install:'];
  const width = Math.max(...missing.map((t) => t.name.length));
  for (const tool of missing) lines.push(`  ${tool.name.padEnd(width)}  ${tool.looked}: ${tool.why}`);
  const chromium = missing.some((t) => t.name === 'chromium');
  const install = mac && options.macChromium ? missing.filter((t) => t.name !== 'chromium') : missing;
  if (install.length > 0) {
    lines.push('', mac ? 'Install them (macOS, Homebrew):' : 'Install them (Debian/Ubuntu):');
    if (mac) {
      const formulae = install.filter((t) => !t.brew.startsWith('--cask')).map((t) => t.brew);
      const casks = install.filter((t) => t.brew.startsWith('--cask')).map((t) => t.brew.slice('--cask '.length));
      const commands = [];
      if (formulae.length > 0) commands.push(`brew install ${formulae.join(' ')}`);
      if (casks.length > 0) commands.push(`brew install --cask ${casks.join(' ')}`);
      lines.push(`  ${commands.join(' && ')}`);
    } else {
      const sudo = (options.root ?? process.getuid?.() === 0) ? '' : 'sudo ';
      lines.push(`  ${sudo}apt-get install -y ${install.map((t) => t.apt).join(' ')}`);
    }
  }
  if (chromium) {
    lines.push(
      '',
      mac
        ? `Then point CHROMIUM_PATH at it: export CHROMIUM_PATH=${MAC_CHROMIUM}` +
            (options.macChromium ? ' (it is installed there already)' : '')
        : 'Or point CHROMIUM_PATH at another Chromium or Chrome binary: export CHROMIUM_PATH=/path/to/chromium',
    );
  }
  return `${lines.join('\n')}\n`;
}

function isMain() {
  // Real paths on both sides, as the ESM loader resolves import.meta.url (a symlinked checkout).
  try {
    return realpathSync(process.argv[1] ?? '') === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

// Run as a script, not imported by its test.
if (isMain()) {
  const missing = missingTools();
  if (missing.length > 0) {
    process.stderr.write(report(missing, { macChromium: isExecutable(MAC_CHROMIUM) }));
    // exitCode, not exit(): stderr to a pipe is written asynchronously on macOS.
    process.exitCode = 1;
  }
}
