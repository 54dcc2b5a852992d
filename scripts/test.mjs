#!/usr/bin/env node
// `npm test` after scripts/check-system.mjs: the checks before the test suite, side by side as far as they allow, then
// the suite. They are bound by the CPU (three compilers: tsc, TypeDoc and tsup's declaration build), so side by side
// saves what one after another left idle: on a 2-core machine 64–80 s became 55–58 s (check:package, once after the
// suite, included). Each step is its npm script, run as `npm run <step>`, and its output is printed once it is done,
// so outputs never interleave. The first step that fails is printed and stops the others (by their process group);
// its exit code ends the run.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * The steps before the suite, by priority: a step starts when the steps it comes `after` are done and a slot is
 * free. What orders them:
 * - `build` writes dist/, which api:check, check:package and the suite read; it starts first, as it leads the
 *   longest chain (build, then typecheck).
 * - `typecheck`: tsc's program holds dist/*.d.ts (the test helpers written in .mjs import ../../dist/index.js), and
 *   tsup empties dist/ before it writes it: tsc must not read it half written.
 * - the others read the sources, openapi.yaml, api/ or git, and write only dist/ (build), docs/api/ (docs, read by
 *   none of them) or temporary folders. check:package, which ran after the suite, needs only dist/: a broken
 *   package now fails before the suite's minutes instead of after them.
 */
const STEPS = [
  { name: 'build' },
  { name: 'typecheck', after: ['build'] },
  { name: 'docs' },
  { name: 'api:check', after: ['build'] },
  { name: 'check:package', after: ['build'] },
  { name: 'changeset:check' },
  { name: 'generate:check' },
  { name: 'lint' },
  { name: 'lint:spec' },
  { name: 'action:check' },
];
// One step per core: each compiler already keeps about one and a half busy (V8's background threads), so more steps at
// once would only share the same cores.
const SLOTS = Math.max(2, availableParallelism());

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const say = (line) => process.stdout.write(`[npm test] ${line}\n`);
/** @type {Map<string, import('node:child_process').ChildProcess>} */
const running = new Map();
const done = new Set();
let stopping = false;
/** @type {import('node:child_process').ChildProcess | undefined} */
let suite;

/** Ends every running step: each is the leader of its own process group (npm, its shell and the tool). */
function stopAll(signal = 'SIGTERM') {
  stopping = true;
  for (const child of running.values()) {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), signal);
    } catch {}
  }
}
// Ctrl-C or a CI runner's SIGTERM: the steps do not share our process group, so they are ended here. The suite does
// share it (a terminal's Ctrl-C reaches it directly): it is left to stop itself, and its exit ends this process.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    if (suite) {
      if (signal === 'SIGTERM') suite.kill(signal);
      return;
    }
    stopAll();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/** Runs one step; resolves with its exit code (1 when a signal ended it) once its output is printed. */
function run(step) {
  const started = Date.now();
  // Its own process group (detached), so stopAll() reaches the tool npm started, not only npm.
  const child = spawn('npm', ['run', step.name], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.set(step.name, child);
  /** @type {Buffer[]} */
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
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
if (code !== 0) process.exit(code);
say(`${STEPS.length} steps ok in ${seconds(Date.now() - started)}; now the test suite`);
// The suite last (it reads dist/), on the terminal as it runs: it takes minutes and reports as it goes.
suite = spawn('npm', ['run', 'test:unit'], { stdio: 'inherit' });
suite.on('close', (suiteCode) => process.exit(suiteCode ?? 1));
