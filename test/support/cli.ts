// Runs the built CLI binary (dist/cli.js) as a child process and captures everything it prints.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ProcessResult, runProcess } from './process.js';

export const cliPath = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** What the CLI printed, and its exit code. */
export type CliResult = ProcessResult;

/** Spawns `node dist/cli.js ...args` with a clean environment plus `env`, optional stdin. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string | Buffer; timeoutMs?: number; cwd?: string } = {},
): Promise<CliResult> {
  if (!existsSync(cliPath)) throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does).');
  // Only PATH and HOME from the parent: CI variables of the machine running the tests must not leak in.
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env };
  return runProcess(process.execPath, [cliPath, ...args], {
    env,
    cwd: options.cwd,
    stdin: options.stdin ?? '',
    timeoutMs: options.timeoutMs ?? 30_000,
  });
}

/**
 * The lines of `stderr` that warn of anything but the shared rate-limit store: on a busy machine a Redis answer can
 * take longer than the store's deadline, and the CLI then says so and spaces its requests alone (by design).
 * @example expect(warningsBesidesStore(run.stderr)).toEqual([]);
 */
export function warningsBesidesStore(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => /warning/i.test(line) && !/^warning: The shared rate-limit store /.test(line));
}
