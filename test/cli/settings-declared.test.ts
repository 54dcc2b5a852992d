// Each setting is declared once (src/cli/settings/): the parser's flags of every command, the option lines of every
// help, the config file's keys and the rule that the command line's pages replace the file's are all derived from
// the declarations. These tests fail when a flag, a help line or a config key exists that no declaration gives, or
// a declaration that no command takes.
import { describe, expect, it } from 'vitest';
import { findCommand } from '../../src/cli/args.js';
import { commands } from '../../src/cli/commands/index.js';
import { UsageError } from '../../src/cli/exit-codes.js';
import { commandHelp, mainHelp } from '../../src/cli/help.js';
import { CONFIG_KEYS } from '../../src/cli/settings/config.js';
import { GLOBAL_OPTIONS, optionsOf } from '../../src/cli/settings/flags.js';
import { readSetting, SETTINGS, type SettingSpec } from '../../src/cli/settings/settings.js';

const declared = Object.entries(SETTINGS) as Array<[string, SettingSpec<unknown>]>;
const flagsOf = (options: Record<string, unknown>) => Object.keys(options).sort();

describe('the parser takes exactly the declared flags', () => {
  it.each(commands.map((c) => [c.name, c] as const))('%s', (_name, command) => {
    for (const flag of Object.keys(command.options)) {
      const spec = declared.find(
        ([, s]) => s.flag === flag || s.alias === flag || (s.negatable && `no-${s.flag}` === flag),
      );
      expect(spec, `--${flag} of ${command.name} has no declaration`).toBeDefined();
    }
    // No flag of a command is also a flag of every command (the parser would take one for the other).
    expect(flagsOf(command.options).filter((f) => f in GLOBAL_OPTIONS)).toEqual([]);
  });

  it('every declared flag is taken by some command, or by every command', () => {
    const taken = new Set([...Object.keys(GLOBAL_OPTIONS), ...commands.flatMap((c) => Object.keys(c.options))]);
    const orphans = declared.filter(([, s]) => s.flag !== undefined && !taken.has(s.flag)).map(([name]) => name);
    expect(orphans).toEqual([]);
  });

  it("a declaration's kind is the parser's: a value, a repeatable value, a switch, a short form, a --no- form", () => {
    const ci = optionsOf('ci');
    expect(ci.timeout).toEqual({ type: 'string' });
    expect(ci.report).toEqual({ type: 'string', multiple: true });
    expect(ci.quiet).toEqual({ type: 'boolean', short: 'q' });
    expect(ci['no-set-baseline']).toEqual({ type: 'boolean' });
    expect(GLOBAL_OPTIONS.help).toEqual({ type: 'boolean', short: 'h' });
    // `demo` takes the three of `ci`'s settings its declarations name, and nothing else.
    expect(flagsOf(optionsOf('demo'))).toEqual(['fail-on', 'format', 'report']);
  });

  it("finding the command skips the values of every command's value flags, and only theirs", () => {
    expect(findCommand(['--redis-url', 'redis://x', 'sites'], GLOBAL_OPTIONS)).toBe(2);
    expect(findCommand(['--rate-limit', '60', '--json', 'sites'], GLOBAL_OPTIONS)).toBe(3);
    expect(findCommand(['--json', 'sites'], GLOBAL_OPTIONS)).toBe(1);
    expect(findCommand(['--api-key=svc_x', 'sites'], GLOBAL_OPTIONS)).toBe(1);
  });
});

describe('every help shows the declared flags', () => {
  it.each(commands.map((c) => [c.name, c] as const))('%s --help names each flag it takes', (_name, command) => {
    const help = commandHelp(command);
    // `demo` shows its three flags in its usage line; the others in their option lines.
    for (const flag of Object.keys(command.options))
      expect(help, `--${flag} missing from ${command.name} --help`).toContain(`--${flag}`);
  });

  it('the global options of every help are the flags every command takes', () => {
    const help = mainHelp(commands);
    for (const flag of Object.keys(GLOBAL_OPTIONS)) expect(help).toMatch(new RegExp(`^  (-\\w, )?--${flag}\\b`, 'm'));
  });

  it("ci --help's --config line names every config file key, in the order of the declarations", () => {
    const ci = commands.find((c) => c.name === 'ci')!;
    const text = commandHelp(ci).replace(/\s+/g, ' ');
    const at = CONFIG_KEYS.map((key) => text.indexOf(` ${key}`, text.indexOf('--config <file>')));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});

describe('the config file takes exactly the declared keys', () => {
  it('its keys are the declarations with a config key, in their order', () => {
    expect(CONFIG_KEYS).toEqual(declared.flatMap(([, s]) => (s.config ? [s.config.key] : [])));
    expect(new Set(CONFIG_KEYS).size).toBe(CONFIG_KEYS.length);
  });
});

describe('the pages: the command line replaces the config file as one list', () => {
  const config = { file: '/repo/a.json', urls: ['https://b.example/'], sitemap: ['https://b.example/s.xml'] };
  const pages = (values: Record<string, string | string[]>, args: string[] = []) => {
    const inputs = { values, env: {}, config, args };
    return [readSetting(SETTINGS.urls, inputs).value, readSetting(SETTINGS.sitemap, inputs).value];
  };

  it("no page on the command line: the file's urls and sitemap", () => {
    expect(pages({})).toEqual([config.urls, config.sitemap]);
  });

  it("arguments, --sitemap or --urls-file: none of the file's pages", () => {
    expect(pages({}, ['https://a.example/'])).toEqual([['https://a.example/'], []]);
    expect(pages({ sitemap: ['https://a.example/s.xml'] })).toEqual([[], ['https://a.example/s.xml']]);
    expect(pages({ 'urls-file': 'urls.txt' })).toEqual([[], []]);
  });

  it('the arguments are the source of the urls', () => {
    expect(readSetting(SETTINGS.urls, { values: {}, env: {}, config, args: ['https://a.example/'] }).source).toEqual({
      kind: 'flag',
      flag: 'the command line',
    });
  });
});

describe('a negatable switch', () => {
  const config = { file: '/repo/a.json', setBaseline: true };
  it('--no-set-baseline is an explicit false, winning over the config file', () => {
    expect(readSetting(SETTINGS.setBaseline, { values: { 'no-set-baseline': true }, env: {}, config })).toEqual({
      value: false,
      source: { kind: 'flag', flag: '--no-set-baseline' },
    });
  });

  it('both forms at once are refused, naming both', () => {
    expect(() =>
      readSetting(SETTINGS.setBaseline, { values: { 'set-baseline': true, 'no-set-baseline': true }, env: {} }),
    ).toThrow(new UsageError('--set-baseline and --no-set-baseline contradict each other: give one', 'ci'));
  });
});
