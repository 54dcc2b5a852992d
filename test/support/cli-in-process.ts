// Runs the CLI in this process (`run(argv, io)` of src/cli/main.ts), as the bin does, with captured streams and
// exactly the environment given: no child process, so a test of the CLI's logic costs what the logic costs.
import { run } from '../../src/cli/main.js';
import type { CliResult } from './cli.js';

/**
 * Runs `svc-a11y …argv` in process with `env` (nothing of the test process's environment leaks in).
 * @example const r = await runCliInProcess(['ci', url], { SVC_API_KEY: key, SVC_BASE_URL: api.url });
 */
export async function runCliInProcess(argv: string[], env: Record<string, string> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    env: { ...env },
  });
  return { code, stdout, stderr };
}
