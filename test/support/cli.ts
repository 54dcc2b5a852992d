// Runs the built CLI binary (dist/cli.js) as a child process and captures everything it prints.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const cliPath = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns `node dist/cli.js ...args` with a clean environment plus `env`, optional stdin. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string | Buffer; timeoutMs?: number; cwd?: string } = {},
): Promise<CliResult> {
  if (!existsSync(cliPath)) throw new Error('dist/cli.js is missing: run `npm run build` first (npm test does).');
  return new Promise((resolve, reject) => {
    // Only PATH and HOME from the parent: CI variables of the machine running the tests must not leak in.
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env };
    const child = spawn(process.execPath, [cliPath, ...args], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd: options.cwd,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}
