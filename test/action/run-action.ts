// Runs the committed action bundle the way the runner does: `node <runs.main>` (Node 24, as `runs.using: node24`
// says) from the repository root, with INPUT_* variables for the inputs and the runner's files and variables.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ensureRuntimes } from '../../scripts/runtimes.mjs';
import { runProcess } from '../support/process.js';

export const root = fileURLToPath(new URL('../../', import.meta.url));
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as {
  runs: { using: string; main: string };
  inputs: Record<string, { default?: string }>;
};

let node24: string | undefined;
/** Node 24 from the runtimes cache (installed once per machine, as the ecosystem suite does). */
export function nodeForAction(): string {
  if (action.runs.using !== 'node24')
    throw new Error(`action.yml runs.using is ${action.runs.using}; the tests run node24`);
  node24 ??= ensureRuntimes().bins.node24;
  return node24;
}

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Outputs parsed from $GITHUB_OUTPUT. */
  outputs: Record<string, string>;
  /** What the step appended to $GITHUB_STEP_SUMMARY. */
  summary: string;
  /** $RUNNER_TEMP of the run. */
  temp: string;
  /** $GITHUB_WORKSPACE of the run (its working directory). */
  workspace: string;
}

/**
 * Parses a $GITHUB_OUTPUT file as the runner does: `name<<DELIMITER` … `DELIMITER` blocks and `name=value` lines.
 */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end < 0) throw new Error(`GITHUB_OUTPUT: no closing delimiter for ${heredoc[1]}`);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`GITHUB_OUTPUT: a line that is neither name=value nor name<<DELIMITER: ${line}`);
    outputs[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return outputs;
}

/**
 * Runs the action with `inputs` (by their action.yml names; the defaults of action.yml are applied as the runner
 * applies them, `${{ github.token }}` becoming `token`) for `event` (a payload file in test/action/fixtures/).
 */
export async function runAction(options: {
  inputs: Record<string, string>;
  eventName: string;
  eventFile: string;
  /** Patches the payload before it is written (e.g. another ref). */
  payload?: (payload: Record<string, unknown>) => void;
  apiUrl: string;
  token: string;
  env?: Record<string, string>;
  /** Files put in the workspace first (a config file), by name. */
  files?: Record<string, string>;
}): Promise<ActionRun> {
  const temp = mkdtempSync(join(tmpdir(), 'svc-a11y-action-'));
  const outputFile = join(temp, 'output.txt');
  const summaryFile = join(temp, 'summary.md');
  const eventPath = join(temp, 'event.json');
  // The working directory, as the runner's is the checkout: files the inputs name are relative to it.
  const workspace = join(temp, 'workspace');
  mkdirSync(workspace);
  for (const [name, text] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(workspace, name)), { recursive: true });
    writeFileSync(join(workspace, name), text);
  }
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const payload = JSON.parse(readFileSync(join(root, 'test/action/fixtures', options.eventFile), 'utf8')) as Record<
    string,
    unknown
  >;
  options.payload?.(payload);
  writeFileSync(eventPath, JSON.stringify(payload));
  const inputEnv: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    const value =
      name in options.inputs
        ? options.inputs[name]!
        : (spec.default ?? '').replace('${{ github.token }}', options.token);
    // The runner's naming: INPUT_ + the name upper-cased, spaces as _ (hyphens stay).
    inputEnv[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  for (const name of Object.keys(options.inputs))
    if (!(name in action.inputs)) throw new Error(`action.yml has no input ${name}`);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_EVENT_NAME: options.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_REPOSITORY_OWNER: 'acme',
    GITHUB_API_URL: options.apiUrl,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '19876543210',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SHA: '8d2f1c0e5b7a4f6e9c3d2b1a0f9e8d7c6b5a4f3e',
    GITHUB_REF:
      options.eventName === 'push'
        ? String(payload.ref)
        : `refs/pull/${String((payload.pull_request as { number?: number } | undefined)?.number)}/merge`,
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: temp,
    ...inputEnv,
    ...options.env,
  };
  // A bound on a hang only (stopped by its PID); nothing asserts how long a run takes.
  const { code, stdout, stderr } = await runProcess(nodeForAction(), [join(root, action.runs.main)], {
    cwd: workspace,
    env,
    timeoutMs: 120_000,
  });
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
    summary: readFileSync(summaryFile, 'utf8'),
    temp,
    workspace,
  };
}
