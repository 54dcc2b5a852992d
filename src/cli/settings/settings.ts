// Every setting of every command, declared once (settings/every.ts, ci-settings.ts, command-settings.ts: its flag and
// how the parser takes it, which commands take it, its help, its environment variable, its config file key and that
// key's check, how its text is read and checked, its default), and the one rule that merges them, as Lighthouse CI
// merges its flags, environment and rc file: a flag wins over the environment, which wins over the config file,
// which wins over the default. A resolved value keeps its source, so a message can say where it came from
// ("(timeout in ./svc-a11y.config.json)"). The parser's options (flags.ts), the config file's keys and checks
// (config.ts) and the option lines of every help are derived from these declarations.
import type { OptionValues } from '../args.js';
import { UsageError } from '../exit-codes.js';
import { CI_SETTINGS } from './ci-settings.js';
import { COMMAND_SETTINGS } from './command-settings.js';
import { EVERY_COMMAND } from './every.js';
import type { Env, Setting, SettingInputs, SettingSource, SettingSpec } from './spec.js';

export {
  DEFAULT_CONFIG_FILE,
  DEFAULT_MAX_URLS,
  type SourceMapItem,
} from './ci-settings.js';
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_TOLERANCE_SECONDS } from './command-settings.js';
export type { Env, Setting, SettingInputs, SettingSource, SettingSpec } from './spec.js';

/**
 * Every setting the commands read, in the order of the help: those of every command, then `ci`'s, then the other
 * commands'.
 * @example SETTINGS.timeout.flag // 'timeout'
 */
export const SETTINGS = { ...EVERY_COMMAND, ...CI_SETTINGS, ...COMMAND_SETTINGS } as const;

/**
 * Resolves one setting: the flag, else the environment variable, else the config file key, else the default (a
 * setting with `merge` joins every source that gives a value instead, the higher one last).
 * @throws UsageError from the setting's `read`, naming the flag or the variable
 * @example readSetting(SETTINGS.timeout, { values: { timeout: '90s' }, env: {} }) // { value: 90000, source: { kind: 'flag', flag: '--timeout' } }
 */
export function readSetting<T>(spec: SettingSpec<T>, inputs: SettingInputs): Setting<T> {
  const given: Array<() => Setting<T>> = [];
  const byName = spec.flag === undefined ? undefined : inputs.values[spec.flag];
  const byAlias = spec.alias === undefined ? undefined : inputs.values[spec.alias];
  if (byName !== undefined && byAlias !== undefined)
    throw new UsageError(
      `--${spec.flag} and --${spec.alias} are one setting (--${spec.alias} is its older name): give one`,
      'ci',
    );
  const raw = byName ?? byAlias;
  // A message names the flag as it was given.
  const flagName = byName === undefined && byAlias !== undefined ? spec.alias : spec.flag;
  const negated = spec.negatable === true && inputs.values[`no-${spec.flag}`] === true;
  if (negated && raw === true)
    throw new UsageError(`--${spec.flag} and --no-${spec.flag} contradict each other: give one`, 'ci');
  // `--no-set-baseline` is the flag's explicit false (the Action passes it off the default branch): like any flag
  // it wins over the config file.
  if (negated)
    given.push(() => ({
      value: spec.read(false, `--no-${spec.flag}`),
      source: { kind: 'flag', flag: `--no-${spec.flag}` },
    }));
  else if (raw !== undefined) {
    const flag = `--${flagName}`;
    given.push(() => ({ value: spec.read(raw, flag), source: { kind: 'flag', flag } }));
  }
  const args = spec.arguments ? (inputs.args ?? []) : [];
  if (args.length > 0)
    given.push(() => ({
      value: spec.read([...args], 'the arguments'),
      source: { kind: 'flag', flag: 'the command line' },
    }));
  const variable = spec.env === undefined ? undefined : inputs.env[spec.env];
  if (spec.env !== undefined && variable !== undefined && variable.trim() !== '') {
    const name = spec.env;
    given.push(() => ({ value: spec.read(variable, name), source: { kind: 'env', variable: name } }));
  }
  // Settings given together (the pages): any of them on the command line replaces the config file's as one list.
  const together = spec.together;
  const onCommandLine =
    together !== undefined &&
    (together.flags.some((flag) => inputs.values[flag] !== undefined) ||
      (together.arguments === true && (inputs.args ?? []).length > 0));
  const config = onCommandLine ? undefined : inputs.config;
  const fromConfig = spec.config && config ? spec.config.read(config) : undefined;
  if (spec.config && config && fromConfig !== undefined) {
    const source: SettingSource = { kind: 'config', key: spec.config.key, file: config.file };
    given.push(() => ({ value: fromConfig, source }));
  }
  const byDefault = (): Setting<T> => ({
    value: typeof spec.default === 'function' ? (spec.default as (env: Env) => T)(inputs.env) : spec.default,
    source: { kind: 'default' },
  });
  if (spec.merge === undefined) return (given[0] ?? byDefault)();
  // Lowest first, so each higher source's value is joined over the ones below it; the source is the highest's.
  return [...given].reverse().reduce((lower, next) => {
    const higher = next();
    return { value: spec.merge!(lower.value, higher.value), source: higher.source };
  }, byDefault());
}

/**
 * Where a setting came from, in words for a message: `--timeout`, `SVC_RATE_LIMIT`,
 * `timeout in ./svc-a11y.config.json` or `the default`.
 * @example describeSource({ kind: 'config', key: 'timeout', file: 'a11y.json' }) // 'timeout in a11y.json'
 */
export function describeSource(source: SettingSource): string {
  switch (source.kind) {
    case 'flag':
      return source.flag;
    case 'env':
      return source.variable;
    case 'config':
      return `${source.key} in ${source.file}`;
    default:
      return 'the default';
  }
}

/**
 * A setting of a command that reads no config file: its flag, else its variable, else its default.
 * @example settingOf(ctx, SETTINGS.port).value // 0 when --port is not given
 */
export function settingOf<T>(
  ctx: { values: OptionValues; out: { io: { env: Env } } },
  spec: SettingSpec<T>,
): Setting<T> {
  return readSetting(spec, { values: ctx.values, env: ctx.out.io.env });
}
