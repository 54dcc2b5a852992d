// Every test file shares its worker process with the files before and after it (vitest `isolate: false`: one module
// registry per worker, which took a full run from 474 to 402 CPU-seconds). A file that leaves the process changed —
// a variable, the working directory, fake timers, a global or a method replaced, a listener on `process` — would
// change what a later file sees, and which file comes later depends on the machine's speed. So each file is
// checked as it ends: what it leaves behind fails that file, by name, every time, instead of another file sometimes.
// What vitest itself can undo (`vi.stubEnv`, `vi.stubGlobal`, `vi.spyOn`, fake timers) is undone here as the file
// ends; what it cannot (a variable or a global assigned, the directory changed, a listener added) fails the file.
import { afterAll, vi } from 'vitest';

/** Process events whose listeners outlive a file (the CLI run in process, the rate limiter's warnings, signals). */
const EVENTS = ['warning', 'exit', 'beforeExit', 'SIGINT', 'SIGTERM', 'uncaughtException', 'unhandledRejection'];
/** Globals and methods a test may replace (fetch, crypto, timers, Math.random, the console, the streams). */
const OWNED: Array<[string, () => unknown]> = [
  ['globalThis.fetch', () => globalThis.fetch],
  ['globalThis.crypto', () => globalThis.crypto],
  ['globalThis.Blob', () => globalThis.Blob],
  ['globalThis.process', () => globalThis.process],
  ['Math.random', () => Math.random],
  ['Date', () => Date],
  ['setTimeout', () => setTimeout],
  ['process.stdout.write', () => process.stdout.write],
  ['process.stderr.write', () => process.stderr.write],
  ...(['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((name): [string, () => unknown] => [
    `console.${name}`,
    () => console[name],
  ]),
];

interface State {
  env: Map<string, string | undefined>;
  cwd: string;
  exitCode: typeof process.exitCode;
  listeners: number[];
  owned: unknown[];
}

const snapshot = (): State => ({
  env: new Map(Object.entries(process.env)),
  cwd: process.cwd(),
  exitCode: process.exitCode,
  listeners: EVENTS.map((event) => process.listenerCount(event)),
  owned: OWNED.map(([, read]) => read()),
});

/** What differs between two states, in words. */
function changes(before: State, after: State): string[] {
  const found: string[] = [];
  const names = new Set([...before.env.keys(), ...after.env.keys()]);
  for (const name of names) {
    if (before.env.get(name) !== after.env.get(name)) found.push(`process.env.${name} changed`);
  }
  if (before.cwd !== after.cwd) found.push(`the working directory is ${after.cwd} (was ${before.cwd})`);
  if (before.exitCode !== after.exitCode) found.push(`process.exitCode is ${String(after.exitCode)}`);
  EVENTS.forEach((event, i) => {
    const added = after.listeners[i]! - before.listeners[i]!;
    if (added !== 0) found.push(`${added > 0 ? '+' : ''}${added} listener(s) on process '${event}'`);
  });
  OWNED.forEach(([name], i) => {
    if (before.owned[i] !== after.owned[i]) found.push(`${name} replaced`);
  });
  return found;
}

// Taken as this setup file runs, before the test file is imported: what its top level does counts too.
const before = snapshot();
afterAll(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  const found = changes(before, snapshot());
  if (found.length > 0) {
    throw new Error(
      `this file leaves the shared test process changed for the files after it: ${found.join('; ')}. Restore it in an afterEach/afterAll (see test/setup/shared-process.ts).`,
    );
  }
});
