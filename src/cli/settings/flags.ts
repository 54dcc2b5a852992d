// What the parser and the help take from the declarations: a command's flags in util.parseArgs' form, and the
// option lines of its help. Neither is written anywhere else, so a new setting is one declaration in settings.ts.
import type { OptionSpec } from '../args.js';
import { SETTINGS } from './settings.js';
import type { HelpEntry, SettingSpec } from './spec.js';

const ALL = Object.values(SETTINGS) as ReadonlyArray<SettingSpec<unknown>>;

const takes = (spec: SettingSpec<unknown>, command: string): boolean =>
  command === 'every' ? spec.commands === 'every' : spec.commands !== 'every' && spec.commands.includes(command);

/**
 * The flags `command` takes besides those of every command (`every`: those), in util.parseArgs' form.
 * @example optionsOf('simulator') // { port: { type: 'string' } }
 */
export function optionsOf(command: string): Record<string, OptionSpec> {
  const options: Record<string, OptionSpec> = {};
  for (const spec of ALL) {
    if (spec.flag === undefined || !takes(spec, command)) continue;
    const kind = spec.kind ?? 'value';
    options[spec.flag] = {
      type: kind === 'switch' ? 'boolean' : 'string',
      ...(kind === 'list' ? { multiple: true } : {}),
      ...(spec.short ? { short: spec.short } : {}),
      ...(spec.words ? { words: spec.words } : {}),
    };
    if (spec.negatable) options[`no-${spec.flag}`] = { type: 'boolean' };
    if (spec.alias) options[spec.alias] = options[spec.flag]!;
  }
  return options;
}

/**
 * The flags every command takes (`--api-key`, `--json`, `--help`, …).
 * @example GLOBAL_OPTIONS['api-key'] // { type: 'string' }
 */
export const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = optionsOf('every');

/**
 * The option lines of `command`'s help (`every`: the global options), in the order of the declarations: the flag
 * and its value padded to `width` (at least two spaces after it), the description's continuation lines under it.
 * @example optionsHelp('simulator', 13) // '  --port <n>   TCP port on 127.0.0.1 (default: a free one)'
 */
export function optionsHelp(command: string, width: number): string {
  const lines: string[] = [];
  for (const spec of ALL) {
    if (spec.flag === undefined || spec.help === undefined || !takes(spec, command)) continue;
    const entries: readonly HelpEntry[] = Array.isArray(spec.help) ? spec.help : [spec.help as HelpEntry];
    for (const entry of entries) {
      if (entry.for !== undefined && entry.for !== command) continue;
      const name = `${spec.short ? `-${spec.short}, ` : ''}--${entry.negated ? 'no-' : ''}${spec.flag}`;
      const heading = entry.value ? `${name} ${entry.value}` : name;
      const text = typeof entry.text === 'function' ? entry.text(ALL) : entry.text;
      const [first, ...rest] = text.split('\n');
      lines.push(`  ${heading.length + 2 > width ? `${heading}  ` : heading.padEnd(width)}${first}`);
      for (const line of rest) lines.push(`${' '.repeat(width + 2)}${line}`);
    }
  }
  return lines.join('\n');
}
