#!/usr/bin/env node
// `npm test` after scripts/check-system.mjs: the checks and the test suite, side by side as far as they allow. All of
// it is bound by the CPU (compilers — tsc, TypeDoc, the build — and the suite), so what matters is that no core is
// left idle: the suite starts as soon as the build it reads is written, and the other checks run beside it, one at a
// time (on a 2-core machine, npm test took 348 s with the checks, 59 s, before the suite; 246 s with them beside it,
// the suite sharing one process per worker). The suite's output is shown as it runs; each check's output is printed
// once it is done, so outputs never interleave within a step. The first step that fails is printed and stops the
// others (by their process group); its exit code ends the run.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The steps, by priority: a step starts when the steps it comes `after` are done and a slot is free. What orders
 * them:
 * - `build` writes dist/, which the suite, typecheck, api:check and check:package read; it starts first, as it leads
 *   the longest chain (build, then the suite).
 * - `test:unit`, the suite (`live`: its output is shown as it runs): minutes long, so it starts the moment dist/ is
 *   written, and the checks fill the second slot beside it.
 * - the light checks (seconds each) run beside the build; TypeDoc, which reads none of dist/, waits for it all the
 *   same: beside the build it shared its cores and held the suite back by 5–10 s.
 * - `typecheck`: tsc's program holds dist/*.d.ts (the test helpers written in .mjs import ../../dist/index.js), and
 *   tsup empties dist/ before it writes it: tsc must not read it half written.
 * - `docs:check`: TypeDoc's validation (links, undocumented exports) without writing docs/api/ (`npm run docs`
 *   writes it; the pages cost ~2 s of CPU and nothing here reads them).
 * - the others read the sources, openapi.yaml, api/ or git, and write only dist/ (build) or temporary folders; the
 *   suite's files that build or generate do it in scratch copies.
 */
const STEPS = [
  { name: 'build' },
  { name: 'test:unit', after: ['build'], live: true },
  { name: 'changeset:check' },
  { name: 'generate:check' },
  { name: 'lint' },
  { name: 'knip' },
  { name: 'lint:spec' },
  { name: 'action:check' },
  { name: 'typecheck', after: ['build'] },
  { name: 'docs:check', after: ['build'] },
  { name: 'api:check', after: ['build'] },
  { name: 'check:package', after: ['build'] },
];
// One step per core: each compiler already keeps about one and a half busy (V8's background threads), and the suite
// its workers, so more steps at once would only share the same cores (and stretch the suite's timed tests).
const SLOTS = Math.max(2, availableParallelism());
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'node_modules', '.bin');
/** @type {Record<string, string>} package.json's scripts: each step is one of them. */
const SCRIPTS = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
for (const step of STEPS)
  if (!SCRIPTS[step.name]) throw new Error(`scripts/test.mjs: package.json has no script ${step.name}`);

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const say = (line) => process.stdout.write(`[npm test] ${line}\n`);
/** @type {Map<string, import('node:child_process').ChildProcess>} */
const running = new Map();
const done = new Set();
let stopping = false;

/** Ends every running step: each is the leader of its own process group (npm, its shell and the tool). */
function stopAll(signal = 'SIGTERM') {
  stopping = true;
  for (const child of running.values()) {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), signal);
    } catch {}
  }
}
// Ctrl-C or a CI runner's SIGTERM: the steps do not share our process group, so they are ended here, with the same
// signal (on SIGINT vitest stops its run and its global teardown stops Prism and Redis by PID).
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    stopAll(signal);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/** Runs one step; resolves with its exit code (1 when a signal ended it) once its output is printed. */
function run(step) {
  const started = Date.now();
  // The script's command as `npm run` would run it (a shell, node_modules/.bin first on PATH), without npm itself:
  // starting npm cost ~0.3 s of CPU per step. Its own process group (detached), so stopAll() reaches the tool the
  // shell started, not only the shell.
  const child = spawn('sh', ['-c', SCRIPTS[step.name]], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', step.live ? 'inherit' : 'pipe', step.live ? 'inherit' : 'pipe'],
    env: { ...process.env, PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}` },
  });
  running.set(step.name, child);
  /** @type {Buffer[]} */
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      running.delete(step.name);
      if (stopping) return resolve(code ?? 1);
      process.stdout.write(Buffer.concat(output));
      say(
        `${step.name}: ${code === 0 ? 'ok' : `FAILED (exit ${code ?? 'by a signal'})`} in ${seconds(Date.now() - started)}`,
      );
      resolve(code ?? 1);
    });
  });
}

/** Runs STEPS, at most SLOTS at a time; resolves with 0, or the first failure's exit code once the others are stopped. */
function runSteps() {
  return new Promise((resolve) => {
    const waiting = [...STEPS];
    const next = () => {
      if (stopping) return;
      if (waiting.length === 0 && running.size === 0) return resolve(0);
      while (running.size < SLOTS) {
        const at = waiting.findIndex((step) => (step.after ?? []).every((name) => done.has(name)));
        if (at === -1) return;
        const [step] = waiting.splice(at, 1);
        run(step).then((code) => {
          if (stopping) return;
          if (code !== 0) {
            const others = [...running.keys()];
            if (others.length) say(`stopping ${others.join(', ')}: ${step.name} failed`);
            stopAll();
            return resolve(code);
          }
          done.add(step.name);
          next();
        });
      }
    };
    next();
  });
}

const started = Date.now();
const code = await runSteps();
if (code === 0) say(`${STEPS.length} steps ok in ${seconds(Date.now() - started)}`);
process.exit(code);
