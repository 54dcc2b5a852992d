// Runs `svc-a11y ci` in this process, exactly as the bin does (src/cli/main.ts `run`): the same option checks,
// client, check run, reporters and exit codes. Its stdout (the text report) and stderr (progress, warnings,
// errors) go to the step's log; the error lines are kept for the step's failure message.
import { readFileSync } from 'node:fs';
import { run } from '../cli/main.js';
import { prepareReport, type PreparedReport } from '../cli/reporters/index.js';
import type { GateVerdict } from '../cli/verdict.js';
import type { CiCheck, CiViolation, FailOn } from '../index.js';

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
export async function runCli(argv: string[], env: Record<string, string | undefined>, streams: CliStreams = { stdout: process.stdout, stderr: process.stderr }): Promise<CliRun> {
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
 * The report the CLI judged, read back from its JSON report (`{ check, violations, verdict }`, made safe by the CLI):
 * prepared again for the findings' order and threshold classes, with the CLI's verdict kept as it decided it.
 * Undefined when there is none (the run ended before a check existed).
 * @param failOn - the threshold the CLI applied (`fail-on`, else the config file's); the check's own otherwise
 */
export function readPreparedReport(file: string, secrets: readonly string[], failOn: FailOn | undefined): PreparedReport | undefined {
  let data: { check?: CiCheck; violations?: CiViolation[]; verdict?: GateVerdict };
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as typeof data;
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null || typeof data.check !== 'object' || data.check === null) return undefined;
  const prepared = prepareReport({ check: data.check, violations: Array.isArray(data.violations) ? data.violations : [] }, { secrets, failOn });
  // The verdict is the CLI's (its exit code says the same): a wait that ended early, say, is not in the records.
  const verdict = data.verdict;
  const known = verdict && ['PASS', 'FAIL', 'UNKNOWN'].includes(verdict.outcome) && Array.isArray(verdict.reasons);
  return known ? { ...prepared, verdict } : prepared;
}
