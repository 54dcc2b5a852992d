// The action's inputs (action.yml), read and checked before anything runs. Values the CLI checks itself (fail-on,
// timeout, rate-limit, urls-per-check, redis-url, sarif-map, base-url, config) are passed on as its flags, so both refuse the
// same values with the same rule; only what the CLI has no flag for is checked here.

/** Reads one input as the runner passes it (`@actions/core`'s `getInput`: trimmed, '' when unset). */
export type InputReader = (name: string) => string;

/** What `if-no-key` allows. */
export const IF_NO_KEY = ['fail', 'skip'] as const;
/** What `set-baseline` allows. */
export const SET_BASELINE = ['auto', 'true', 'false'] as const;

/** The checked inputs of one run of the action. */
export interface ActionInputs {
  /** `api-key`; undefined when empty (a fork's pull request gets no secrets). */
  apiKey: string | undefined;
  /** `base-url`; undefined falls back to `SVC_BASE_URL` as in the CLI. */
  baseUrl: string | undefined;
  /** `urls`: one a line, blank lines and `#` comments skipped. */
  urls: string[];
  /** `config`: a config file as the CLI reads it (`--config`). */
  config: string | undefined;
  /** `fail-on` (the CLI's `--fail-on`). */
  failOn: string | undefined;
  /** `sarif-map`: one `prefix=file` a line (the CLI's `--sarif-map`). */
  sarifMap: string[];
  /** `source-root`: the project `--sarif-map auto` reads (the CLI's `--source-root`). */
  sourceRoot: string | undefined;
  /** `base-path`: the URL path the site is served under (the CLI's `--base-path`). */
  basePath: string | undefined;
  redisUrl: string | undefined;
  rateLimit: string | undefined;
  /** `urls-per-check` (the CLI's `--urls-per-check`, which checks it: 1 to 20). */
  urlsPerCheck: string | undefined;
  /** `shard` (the CLI's `--shard I/N`, which checks it). */
  shard: string | undefined;
  /** `merge`: the shards' JSON reports, files or folders, one a line; non-empty means merge mode. */
  merge: string[];
  timeout: string | undefined;
  /** `github-token`, for the pull request comment; undefined when empty. */
  githubToken: string | undefined;
  /** `comment`: write the pull request comment (pull requests only). @default true */
  comment: boolean;
  /** `comment-key`: tells apart the comments of several jobs on one pull request (a CI matrix). @default '' */
  commentKey: string;
  /** `set-baseline`: `auto` is true on a push to the default branch only. @default 'auto' */
  setBaseline: (typeof SET_BASELINE)[number];
  /** `if-no-key`: what an empty `api-key` does. @default 'fail' */
  ifNoKey: (typeof IF_NO_KEY)[number];
  /** `reports-dir`: where the SARIF and JUnit reports go; undefined: a new folder under `$RUNNER_TEMP`. */
  reportsDir: string | undefined;
}

/** An input with a value the action does not accept; the message names the input and the rule. */
export class InputError extends Error {
  override name = 'InputError';
}

const lines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

const optional = (text: string): string | undefined => (text === '' ? undefined : text);

function choice<T extends string>(read: InputReader, name: string, choices: readonly T[], fallback: T): T {
  const value = read(name).toLowerCase();
  if (value === '') return fallback;
  if (!(choices as readonly string[]).includes(value))
    throw new InputError(`input ${name} must be one of ${choices.join(', ')}, got "${read(name)}"`);
  return value as T;
}

// The YAML 1.2 core schema's booleans, as @actions/core's getBooleanInput reads them.
function bool(read: InputReader, name: string, fallback: boolean): boolean {
  const value = read(name);
  if (value === '') return fallback;
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  throw new InputError(`input ${name} must be true or false, got "${value}"`);
}

/**
 * Reads and checks every input.
 * @throws InputError naming the input and the rule
 * @example readInputs((name) => core.getInput(name))
 */
export function readInputs(read: InputReader): ActionInputs {
  const commentKey = read('comment-key');
  // The key goes into an HTML comment used as the marker: nothing that could end the comment or hide in it.
  if (!/^[\w.-]{0,64}$/.test(commentKey))
    throw new InputError('input comment-key must be at most 64 letters, digits, "_", "-" or "."');
  return {
    apiKey: optional(read('api-key')),
    baseUrl: optional(read('base-url')),
    urls: lines(read('urls')),
    config: optional(read('config')),
    failOn: optional(read('fail-on')),
    sarifMap: lines(read('sarif-map')),
    sourceRoot: optional(read('source-root')),
    basePath: optional(read('base-path')),
    redisUrl: optional(read('redis-url')),
    rateLimit: optional(read('rate-limit')),
    urlsPerCheck: optional(read('urls-per-check')),
    shard: optional(read('shard')),
    merge: lines(read('merge')),
    timeout: optional(read('timeout')),
    githubToken: optional(read('github-token')),
    comment: bool(read, 'comment', true),
    commentKey,
    setBaseline: choice(read, 'set-baseline', SET_BASELINE, 'auto'),
    ifNoKey: choice(read, 'if-no-key', IF_NO_KEY, 'fail'),
    reportsDir: optional(read('reports-dir')),
  };
}
