// Runs a command to its end and captures what it prints: the one way the tests run a child process whose output
// they read once it has finished (the CLI, the action bundle, a workflow's bash step).
import { spawn } from 'node:child_process';

/** What a finished child process printed, and its exit code (null when a signal ended it). */
export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command args` with exactly `env` (nothing of the test process leaks in). `stdin` is written and closed
 * when given; without it the child has none. Killed (SIGKILL, by its PID) after `timeoutMs`: a bound on a hang
 * only, nothing asserts how long a run takes.
 * @example const { code, stdout } = await runProcess('bash', ['-c', 'echo hi'], { env: { PATH: process.env.PATH! } });
 */
export function runProcess(
  command: string,
  args: string[],
  options: { env: Record<string, string>; cwd?: string | undefined; stdin?: string | Buffer; timeoutMs?: number },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // Both are pipes (stdio above); the types cannot tell from a stdio array built at run time.
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  });
}
