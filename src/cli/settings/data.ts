// Settings given as data, by their names (a program running the CLI in process, the GitHub Action), turned into what
// the command line's parser gives: the same values reach the same checks and messages, with no argument strings in
// between (a value starting with `-` is a value, a URL never passes through a file). The Action's inputs are the
// settings declaring one (`action`), so a new setting is one declaration.
import type { OptionValues } from '../args.js';
import { SETTINGS } from './settings.js';
import type { SettingSpec } from './spec.js';

/** A setting's name, as declared (`failOn`, `sourceMap`). */
type SettingName = keyof typeof SETTINGS;

/**
 * Settings by name: a flag's text, a list (a repeatable flag, or `urls`: the pages), or a switch's true or false.
 * @example { urls: ['https://shop.example.com/'], failOn: 'ANY_CRITICAL', setBaseline: false }
 */
export type SettingValues = { readonly [K in SettingName]?: string | boolean | readonly string[] | undefined };

/**
 * `settings` as the parser gives them: flag values by flag name, and the arguments (`urls`).
 * @throws TypeError for a setting that no flag or argument gives (the environment or a config file only)
 * @example parsedSettings({ failOn: 'NONE', urls: ['https://a.example/'] }) // { values: { 'fail-on': 'NONE' }, positionals: ['https://a.example/'] }
 */
export function parsedSettings(settings: SettingValues): { values: OptionValues; positionals: string[] } {
  const values: OptionValues = {};
  const positionals: string[] = [];
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    const spec = SETTINGS[name as SettingName] as SettingSpec<unknown>;
    if (spec?.arguments) positionals.push(...listOf(value));
    else if (spec?.flag === undefined) throw new TypeError(`setting ${name} is not given by a flag`);
    else if (spec.kind === 'switch') {
      // An explicit false is the `--no-` form (it wins over a config file as any flag does); a switch without one
      // is simply not given.
      if (value === true || value === 'true') values[spec.flag] = true;
      else if (spec.negatable) values[`no-${spec.flag}`] = true;
    } else values[spec.flag] = spec.kind === 'list' ? listOf(value) : String(value);
  }
  return { values, positionals };
}

const listOf = (value: string | boolean | readonly string[]): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? [...value] : [];

/** One setting the GitHub Action takes as an input. */
export interface ActionSetting {
  name: SettingName;
  /** Its input in action.yml. */
  input: string;
  /** The input holds one value a line (a repeatable flag, or the pages). */
  lines: boolean;
}

/**
 * The settings the GitHub Action takes, from their declarations (`action`), in the order of the help.
 * @example ACTION_SETTINGS.find((s) => s.name === 'failOn') // { name: 'failOn', input: 'fail-on', lines: false }
 */
export const ACTION_SETTINGS: readonly ActionSetting[] = Object.entries(SETTINGS).flatMap(([name, spec]) => {
  const s = spec as SettingSpec<unknown>;
  return s.action === undefined
    ? []
    : [{ name: name as SettingName, input: s.action, lines: s.kind === 'list' || s.arguments === true }];
});
