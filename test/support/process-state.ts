// What a test file can leave changed in the process it shares with the files after it (vitest `isolate: false`):
// the environment, the working directory, the exit code, listeners on `process`, and the globals and methods tests
// replace. test/setup/shared-process.ts compares a snapshot taken before each file with one taken after it.

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

/** The parts of the process a file could leave changed. */
export interface ProcessState {
  env: Map<string, string | undefined>;
  cwd: string;
  exitCode: typeof process.exitCode;
  listeners: number[];
  owned: unknown[];
}

/**
 * Reads the process's state now.
 * @example const before = snapshotProcess();
 */
export const snapshotProcess = (): ProcessState => ({
  env: new Map(Object.entries(process.env)),
  cwd: process.cwd(),
  exitCode: process.exitCode,
  listeners: EVENTS.map((event) => process.listenerCount(event)),
  owned: OWNED.map(([, read]) => read()),
});

/**
 * What differs between two states, in words (empty when nothing does).
 * @example expect(processChanges(before, snapshotProcess())).toEqual([]);
 */
export function processChanges(before: ProcessState, after: ProcessState): string[] {
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
