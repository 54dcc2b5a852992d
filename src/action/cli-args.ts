// The action's inputs as the CLI's own command line: `svc-a11y ci` then parses, checks and runs them exactly as
// it does in any other pipeline (the same rules, the same messages, the same check run and reporters).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type CiConfig } from '../cli/config.js';
import type { ActionInputs } from './inputs.js';

/** The report files the action always asks for, by format. */
export interface ReportFiles {
  sarif: string;
  junit: string;
  /** The JSON report the action reads back (the check, its findings and the verdict). */
  json: string;
}

/**
 * The report paths in `dir`.
 * @example reportFiles('/tmp/a11y').sarif // '/tmp/a11y/a11y.sarif'
 */
export function reportFiles(dir: string): ReportFiles {
  return { sarif: join(dir, 'a11y.sarif'), junit: join(dir, 'a11y-junit.xml'), json: join(dir, 'a11y-report.json') };
}

/**
 * The config file the CLI will read (`config`, else `svc-a11y.config.json` in `cwd` when present), or undefined
 * when there is none or it is invalid: the CLI then refuses it with its own message, before anything is sent.
 */
export function configOf(inputs: Pick<ActionInputs, 'config'>, cwd: string): CiConfig | undefined {
  try {
    return loadConfig(inputs.config, cwd);
  } catch {
    return undefined;
  }
}

/**
 * The `svc-a11y ci` arguments for `inputs`. Every value goes as `--flag=value`, so one starting with `-` is never
 * read as a flag; the URLs go through a file (`--urls-file`) in `dir` for the same reason. The SARIF, JUnit and
 * JSON reports go to `files`; a config file's own reports are kept (the CLI's `--report` replaces them).
 */
export function ciArgs(
  inputs: ActionInputs,
  options: { dir: string; files: ReportFiles; setBaseline: boolean; config: CiConfig | undefined },
): string[] {
  const { dir, files, setBaseline, config } = options;
  const argv = ['ci'];
  const flag = (name: string, value: string | undefined) => {
    if (value !== undefined) argv.push(`--${name}=${value}`);
  };
  flag('base-url', inputs.baseUrl);
  flag('config', inputs.config);
  flag('fail-on', inputs.failOn);
  flag('timeout', inputs.timeout);
  flag('rate-limit', inputs.rateLimit);
  flag('redis-url', inputs.redisUrl);
  if (inputs.urls.length > 0) {
    const urlsFile = join(dir, 'urls.txt');
    writeFileSync(urlsFile, `${inputs.urls.join('\n')}\n`);
    flag('urls-file', urlsFile);
  }
  for (const entry of inputs.sarifMap) flag('sarif-map', entry);
  // Always said, true or false: a config file's `setBaseline` must never decide it (it may be the pull request's).
  argv.push(setBaseline ? '--set-baseline' : '--no-set-baseline');
  // The CLI fills `ci` from GITHUB_ACTIONS, which the action hides from it (it writes the annotations itself).
  if (config?.context?.ci === undefined) flag('context', 'ci=github-actions');
  for (const [kind, file] of Object.entries(config?.reports ?? {})) flag('report', `${kind}=${file}`);
  flag('report', `sarif=${files.sarif}`);
  flag('report', `junit=${files.junit}`);
  flag('report', `json=${files.json}`);
  return argv;
}
