// The action's inputs as the CLI's own command line: `svc-a11y ci` then parses, checks and runs them exactly as
// it does in any other pipeline (the same rules, the same messages, the same check run and reporters).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ActionInputs } from './inputs.js';

/** The report files the action always writes (its `sarif-file` and `junit-file` outputs), by format. */
export interface ReportFiles {
  sarif: string;
  junit: string;
}

/**
 * The report paths in `dir`.
 * @example reportFiles('/tmp/a11y').sarif // '/tmp/a11y/a11y.sarif'
 */
export function reportFiles(dir: string): ReportFiles {
  return { sarif: join(dir, 'a11y.sarif'), junit: join(dir, 'a11y-junit.xml') };
}

/**
 * The `svc-a11y ci` arguments for `inputs` (without the command name). Every value goes as `--flag=value`, so one
 * starting with `-` is never read as a flag; the URLs go through a file (`--urls-file`) in `dir` for the same
 * reason. `setBaseline` undefined leaves the decision to the CLI (on a pull request it ignores a config file's).
 */
export function ciArgs(inputs: ActionInputs, options: { dir: string; setBaseline: boolean | undefined }): string[] {
  const { dir, setBaseline } = options;
  const argv: string[] = [];
  const flag = (name: string, value: string | undefined) => {
    if (value !== undefined) argv.push(`--${name}=${value}`);
  };
  flag('base-url', inputs.baseUrl);
  flag('config', inputs.config);
  flag('fail-on', inputs.failOn);
  flag('timeout', inputs.timeout);
  flag('rate-limit', inputs.rateLimit);
  flag('urls-per-check', inputs.urlsPerCheck);
  flag('shard', inputs.shard);
  flag('redis-url', inputs.redisUrl);
  if (inputs.urls.length > 0) {
    const urlsFile = join(dir, 'urls.txt');
    writeFileSync(urlsFile, `${inputs.urls.join('\n')}\n`);
    flag('urls-file', urlsFile);
  }
  for (const entry of inputs.sarifMap) flag('sarif-map', entry);
  flag('source-root', inputs.sourceRoot);
  flag('base-path', inputs.basePath);
  // Said explicitly either way, so a config file's `setBaseline` never decides it.
  if (setBaseline !== undefined) argv.push(setBaseline ? '--set-baseline' : '--no-set-baseline');
  return argv;
}

/**
 * The `svc-a11y merge` flags for `inputs` (the shards' files come first): the source locations' inputs, as `ci`'s.
 * @example mergeArgs({ ...inputs, sourceRoot: 'web' }) // ['--source-root=web']
 */
export function mergeArgs(inputs: ActionInputs): string[] {
  return [
    ...inputs.sarifMap.map((entry) => `--sarif-map=${entry}`),
    ...(inputs.sourceRoot !== undefined ? [`--source-root=${inputs.sourceRoot}`] : []),
    ...(inputs.basePath !== undefined ? [`--base-path=${inputs.basePath}`] : []),
  ];
}
