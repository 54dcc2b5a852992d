// The action's inputs (action.yml), read and checked before anything runs. The inputs of the CLI's settings (fail-on,
// timeout, urls, sarif-map… every setting declaring an `action` input) are read from those declarations and handed to
// the CLI by name, so both refuse the same values with the same rule and a new setting is one declaration; only the
// action's own inputs (the key, the comment, the baseline's `auto`, merge mode, where reports go) are checked here.
import { ACTION_SETTINGS, type SettingValues } from '../cli/index.js';

/** Reads one input as the runner passes it (`@actions/core`'s `getInput`: trimmed, '' when unset). */
export type InputReader = (name: string) => string;

/** What `if-no-key` allows. */
const IF_NO_KEY = ['fail', 'skip'] as const;
/** What `set-baseline` allows. */
const SET_BASELINE = ['auto', 'true', 'false'] as const;

/**
 * The action's own inputs: every other input is a CLI setting's (see {@link ACTION_SETTINGS}).
 * @example ACTION_OWN_INPUTS.includes('github-token') // true
 */
export const ACTION_OWN_INPUTS = [
  'api-key',
  'merge',
  'github-token',
  'comment',
  'comment-key',
  'set-baseline',
  'if-no-key',
  'reports-dir',
] as const;

/** The checked inputs of one run of the action. */
export interface ActionInputs {
  /** `api-key`; undefined when empty (a fork's pull request gets no secrets). */
  apiKey: string | undefined;
  /**
   * The CLI's settings by name, from their inputs (`fail-on` → `failOn`; `urls` and `sarif-map` one a line): the CLI
   * checks each. An empty input is not given.
   */
  settings: SettingValues;
  /** `merge`: the shards' JSON reports, files or folders, one a line; non-empty means merge mode. */
  merge: string[];
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
  const settings: Record<string, string | string[]> = {};
  for (const { name, input, lines: many } of ACTION_SETTINGS) {
    const value = many ? lines(read(input)) : optional(read(input));
    if (value !== undefined && value.length > 0) settings[name] = value;
  }
  return {
    apiKey: optional(read('api-key')),
    settings,
    merge: lines(read('merge')),
    githubToken: optional(read('github-token')),
    comment: bool(read, 'comment', true),
    commentKey,
    setBaseline: choice(read, 'set-baseline', SET_BASELINE, 'auto'),
    ifNoKey: choice(read, 'if-no-key', IF_NO_KEY, 'fail'),
    reportsDir: optional(read('reports-dir')),
  };
}
