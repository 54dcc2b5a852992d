// Runs the CLI in this process (`run(argv, io)` of src/cli/main.ts), as the bin does, with captured streams and
// exactly the environment given: no child process, so a test of the CLI's logic costs what the logic costs.
import { run } from '../../src/cli/main.js';
import type { CliResult } from './cli.js';

/**
 * Runs `svc-a11y …argv` in process with `env` (nothing of the test process's environment leaks in).
 * @example const r = await runCliInProcess(['ci', url], { SVC_API_KEY: key, SVC_BASE_URL: api.url });
 */
export async function runCliInProcess(argv: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runIn(argv, { ...env }, undefined);
}

// One run at a time may change the working directory (a test file's runs are sequential; this keeps them so).
let cwdQueue: Promise<unknown> = Promise.resolve();

/**
 * `runCli`'s signature, in process: the environment given plus PATH and HOME (as the spawned binary gets), stdin
 * as one chunk, and `cwd` for the run's duration (vitest's forks pool lets a test process change directory). For
 * the tests of the CLI's logic; the binary's own behaviour (signals, pipes, a crash's exit) keeps `runCli`.
 * @example const r = await runCliLikeBinary(['ci', url], { env: { SVC_API_KEY: key, SVC_BASE_URL: api.url } });
 */
export async function runCliLikeBinary(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string | Buffer; timeoutMs?: number; cwd?: string } = {},
): Promise<CliResult> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env };
  const stdin = options.stdin === undefined ? undefined : toChunks(options.stdin);
  if (options.cwd === undefined) return runIn(args, env, stdin);
  const cwd = options.cwd;
  const turn = cwdQueue.then(async () => {
    const before = process.cwd();
    process.chdir(cwd);
    try {
      return await runIn(args, env, stdin);
    } finally {
      process.chdir(before);
    }
  });
  cwdQueue = turn.catch(() => undefined);
  return turn;
}

async function* toChunks(input: string | Buffer): AsyncIterable<Uint8Array | string> {
  yield input;
}

async function runIn(
  args: string[],
  env: Record<string, string>,
  stdin: AsyncIterable<Uint8Array | string> | undefined,
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(args, {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    env,
    ...(stdin && { stdin }),
  });
  return { code, stdout, stderr };
}
