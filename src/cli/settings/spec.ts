// What a setting's declaration says, and what a resolved setting is: the shapes settings.ts declares every setting
// in and everything else derives from (the parser's options, the config file's keys and checks, the help lines).
// Types only, so every file of the wing can use them without an import cycle.
import type { OptionValues } from '../args.js';

/** The process environment, as the CLI reads it. */
export type Env = Record<string, string | undefined>;

/** Where a setting's value came from. */
export type SettingSource =
  | { kind: 'flag'; flag: string }
  | { kind: 'env'; variable: string }
  | { kind: 'config'; key: string; file: string }
  | { kind: 'default' };

/** A resolved setting: its value and where the value came from. */
export interface Setting<T> {
  value: T;
  source: SettingSource;
}

/** What settings are read from: the parsed flags, the environment, the config file (`ci` only) and the arguments. */
export interface SettingInputs {
  values: OptionValues;
  env: Env;
  config?: CiConfig | undefined;
  /** The command's arguments (`ci`'s URLs), for a setting that takes them. */
  args?: readonly string[] | undefined;
}

/**
 * A checked `ci` config file: where it was read from, and the checked value of each key it holds. Each key, its
 * check and its type are a setting's declaration (`config` in settings.ts); flags win over the file.
 */
export interface CiConfig {
  /** Where it was read from (for messages). */
  readonly file: string;
  readonly [key: string]: unknown;
}

/** Where a config file value is checked: the file, its folder (files it names are relative to it), and `fail`. */
export interface ConfigPlace {
  file: string;
  folder: string;
  /** Refuses the value: `config file FILE: KEY RULE`. */
  fail(key: string, rule: string): never;
}

/** A config file key of a setting: how its JSON value is checked, and how the checked value becomes the setting's. */
export interface ConfigSource<T> {
  key: string;
  /** The key's older name, still read (see {@link SettingSpec.alias}); a file holding both is refused. */
  alias?: string;
  /** Checks the key's JSON value (never quoting a value that could be a secret) and returns what the file holds. */
  check(value: unknown, at: ConfigPlace): unknown;
  read(config: CiConfig): T | undefined;
  /** How `--config`'s help names the key's shape after it (`{format: file}`), if it is not a plain value. */
  shape?: string;
}

/** One help line (and its continuation lines) of a flag. */
export interface HelpEntry {
  /** What follows the flag: `<duration>`, `PREFIX=FILE`. */
  value?: string;
  /** The description; `\n` starts a continuation line. A function of every declaration when it is made of them. */
  text: string | ((settings: ReadonlyArray<SettingSpec<unknown>>) => string);
  /** Only in this command's help (a flag several commands take may say different things in each). */
  for?: string;
  /** The line of the flag's `--no-` form. */
  negated?: boolean;
}

/**
 * One setting's declaration: where its value may come from (flag, environment variable, config file key, the
 * command's arguments), how the parser takes its flag, which commands take it, its help, how a value is read and
 * checked, and its default. `read` takes a flag's value (text, `true` for a switch, a list for a repeatable flag or
 * the arguments) or a variable's text, and `where` names that source for its messages (`--timeout`, `SVC_RATE_LIMIT`).
 */
export interface SettingSpec<T> {
  /** The flag without its dashes (the key of the parsed values), if it has one. */
  flag?: string;
  /**
   * How the parser takes the flag: `value` (`--timeout 10m`, the last one given), `list` (repeatable), `switch`
   * (no value).
   * @default 'value'
   */
  kind?: 'value' | 'list' | 'switch';
  /** A one-letter form (`-q`). */
  short?: string;
  /** Words a switch also takes (`--set-baseline auto`, `--set-baseline=auto`): `read` then gets the word. */
  words?: readonly string[];
  /**
   * The flag's older name, still read (a flag renamed because its name said less than it does); giving both is an
   * error. Its config file key's older name is `config.alias`.
   */
  alias?: string;
  /** A switch that also has a `--no-` form, an explicit false winning over the config file like any flag. */
  negatable?: boolean;
  /** The commands that take the flag (`jobs`: the commands that start and wait for one job), or `every` command. */
  commands: 'every' | readonly string[];
  /** Its lines in the commands' help, in the order of the declarations. */
  help?: HelpEntry | readonly HelpEntry[];
  /** The environment variable, if it has one. A variable set to blanks counts as unset. */
  env?: string;
  /** The config file key, if it has one. */
  config?: ConfigSource<T>;
  /**
   * The GitHub Action's input (its name in action.yml), when the Action takes the setting: the input's text is
   * passed on as the flag's value (for a list or the arguments, one value a line; blank lines and `#` comments
   * skipped), so the CLI checks it with the same rule and message.
   */
  action?: string;
  /** The setting is the command's arguments (as a flag: given when there is at least one). */
  arguments?: boolean;
  /**
   * Settings given together: when any of these flags (or the arguments) is on the command line, the config file's
   * value of this setting is not read (the command line's pages replace the file's as one list).
   */
  together?: { flags: readonly string[]; arguments?: boolean };
  read(raw: string | boolean | string[], where: string): T;
  /** The value when no source gives one; a function of the environment when it is read from it (`context`). */
  default: T | ((env: Env) => T);
  /**
   * For a setting every source adds to (`context`, `sourceMap`): how a higher source's value joins a lower one's.
   * Without it, the first source that gives a value is the setting's.
   */
  merge?(lower: T, higher: T): T;
}
