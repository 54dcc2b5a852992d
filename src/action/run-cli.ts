// Runs `svc-a11y ci` in this process, exactly as the bin does (src/cli/main.ts `run`): the same option checks,
// client, check run, reporters and exit codes. Its stdout (the text report) and stderr (progress, warnings,
// errors) go to the step's log; the error lines are kept for the step's failure message.
import { readFileSync } from 'node:fs';
import { parseCommandArgs } from '../cli/args.js';
import { type CiOptions, ciOptions } from '../cli/ci-options.js';
import { ciCommand } from '../cli/commands/ci.js';
import type { CommandContext } from '../cli/context.js';
import { Output } from '../cli/io.js';
import { run } from '../cli/main.js';
import { Progress } from '../cli/progress.js';
import { prepareReport, type PreparedReport } from '../cli/reporters/index.js';
import type { GateVerdict } from '../cli/verdict.js';
import type { CiCheck, CiViolation } from '../index.js';

/** What one in-process run of the CLI gave. */
export interface CliRun {
  /** The CLI's exit code (0 PASS, 1 FAIL, 2 usage, 3 API error, 4 not judged, 70 internal error). */
  code: number;
  /** The `error: …` lines it printed (already redacted and command-guarded by the CLI's output). */
  errors: string[];
}

/** Where the CLI's output goes: the step's log, by default. */
export interface CliStreams {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/**
 * Runs the CLI with `argv` and `env` (the API key travels in `SVC_API_KEY`, never on a command line).
 * @example const { code } = await runCli(['ci', '--urls-file=urls.txt'], { ...process.env, SVC_API_KEY: key });
 */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined>,
  streams: CliStreams = { stdout: process.stdout, stderr: process.stderr },
): Promise<CliRun> {
  let stderrText = '';
  const code = await run(argv, {
    stdout: { write: (text: string) => streams.stdout.write(text) },
    stderr: {
      write: (text: string) => {
        stderrText += text;
        return streams.stderr.write(text);
      },
    },
    env,
  });
  const errors = stderrText
    .split(/\r?\n/)
    .filter((line) => /^(?:internal )?error: /.test(line))
    .map((line) => line.replace(/^error: /, ''));
  return { code, errors };
}

/**
 * The options the CLI ran with, parsed from `argv` by the CLI's own `ciOptions` (the config file, the
 * suppressions file, per-URL thresholds, the SARIF map, as the run read them); undefined when the CLI refuses them
 * (it then said why and wrote no report). Read after the run: its report files exist, so nothing is created.
 */
export function cliOptions(argv: string[], env: Record<string, string | undefined>): CiOptions | undefined {
  try {
    const { values, positionals } = parseCommandArgs(argv.slice(1), ciCommand.options, 'ci');
    const out = new Output({ stdout: { write: () => true }, stderr: { write: () => true }, env });
    const ctx: CommandContext = {
      args: positionals,
      values,
      out,
      json: false,
      progress: new Progress(out, false),
      client: () => {
        throw new Error('the options are only read');
      },
    };
    return ciOptions(ctx);
  } catch {
    return undefined;
  }
}

/**
 * The report the CLI judged, read back from its JSON report (`{ check, violations, verdict, batches?, suppressed? }`,
 * made safe by the CLI): prepared again with the options the CLI applied (threshold, per-URL thresholds, reviewed
 * suppressions) for the findings' order and classes, with the CLI's verdict and batches kept as it decided them.
 * Undefined when there is none (the run ended before a check existed).
 */
export function readPreparedReport(
  file: string,
  secrets: readonly string[],
  options: Pick<CiOptions, 'failOn' | 'failOnByUrl' | 'failOnIsFloor' | 'suppressions'> | undefined,
): PreparedReport | undefined {
  let data: { check?: CiCheck; violations?: CiViolation[]; verdict?: GateVerdict; batches?: PreparedReport['batches'] };
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as typeof data;
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null || typeof data.check !== 'object' || data.check === null)
    return undefined;
  const prepared = prepareReport(
    { check: data.check, violations: Array.isArray(data.violations) ? data.violations : [] },
    {
      secrets,
      failOn: options?.failOn,
      failOnByUrl: options?.failOnByUrl,
      failOnIsFloor: options?.failOnIsFloor,
      suppressions: options?.suppressions?.active,
    },
  );
  // The verdict is the CLI's (its exit code says the same): a wait that ended early, or several checks
  // aggregated, is not in the records themselves.
  const verdict = data.verdict;
  const known = verdict && ['PASS', 'FAIL', 'UNKNOWN'].includes(verdict.outcome) && Array.isArray(verdict.reasons);
  return {
    ...prepared,
    ...(known ? { verdict } : {}),
    ...(Array.isArray(data.batches) && data.batches.length > 1 ? { batches: data.batches } : {}),
  };
}
