// Argument parsing with Node's built-in util.parseArgs (no dependency): global options are accepted before
// or after the command, and every parse error becomes a UsageError (exit 2), never a stack trace.
import { parseArgs } from 'node:util';
import { UsageError } from './exit-codes.js';
import { closest } from './suggest.js';

/**
 * An option of a command, in util.parseArgs' form; a switch may also take one of a few `words` (`--set-baseline
 * auto`, `--set-baseline=auto`), its value then being the word.
 */
export type OptionSpec = { type: 'string' | 'boolean'; multiple?: boolean; short?: string; words?: readonly string[] };
/** Parsed option values. */
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/**
 * Parses `argv` against `options`: the flags every command takes plus the command's own (settings/flags.ts derives
 * both from the settings' declarations).
 */
export function parseCommandArgs(
  argv: string[],
  options: Record<string, OptionSpec>,
  command?: string,
): { values: OptionValues; positionals: string[] } {
  try {
    // A switch's word (`--set-baseline auto` or `=auto`) is taken out before util.parseArgs, which knows no optional
    // values, and set as the switch's value after it.
    const words: Record<string, string> = {};
    const args: string[] = [];
    for (let i = 0; i < argv.length; i++) {
      const token = argv[i]!;
      if (token === '--') {
        args.push(...argv.slice(i));
        break;
      }
      const [flag, attached] = token.startsWith('--') ? splitAt(token.slice(2), '=') : [undefined, undefined];
      const accepted = flag === undefined ? undefined : options[flag]?.words;
      if (accepted && attached !== undefined && accepted.includes(attached)) words[flag!] = attached;
      else if (accepted && attached === undefined && accepted.includes(argv[i + 1] ?? '')) words[flag!] = argv[++i]!;
      else {
        args.push(token);
        continue;
      }
      args.push(`--${flag}`);
    }
    const { values, positionals } = parseArgs({
      args,
      options: Object.fromEntries(Object.entries(options).map(([name, { words: _, ...spec }]) => [name, spec])),
      strict: true,
      allowPositionals: true,
    });
    return { values: { ...(values as OptionValues), ...words }, positionals };
  } catch (error) {
    // util.parseArgs' messages name the option but never echo a value (so never a key).
    const message = error instanceof Error ? error.message : 'invalid arguments';
    // `--limit -1`: parseArgs takes a value starting with "-" for an option; say how to pass it.
    const ambiguous = /^Option '(--[\w-]+)' argument is ambiguous/.exec(message);
    if (ambiguous)
      throw new UsageError(
        `${ambiguous[1]} needs a value; one starting with "-" is given as ${ambiguous[1]}=VALUE`,
        command,
      );
    // A typo gets the closest flag this command takes.
    const unknown = /^Unknown option '--([^'=]+)'/.exec(message);
    const near = unknown ? closest(unknown[1]!, Object.keys(options)) : undefined;
    throw new UsageError(`${message.split('. To specify')[0]!}${near ? `; did you mean --${near}?` : ''}`, command);
  }
}

// `name=value` at its first `=`, or `[name, undefined]`.
function splitAt(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/**
 * Index of the command name: the first positional that is not the value of one of `globals`' string options.
 * @example findCommand(['--api-key', 'k', 'sites'], GLOBAL_OPTIONS) // 2
 */
export function findCommand(argv: string[], globals: Readonly<Record<string, OptionSpec>>): number {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') return i + 1 < argv.length ? i + 1 : -1;
    if (!token.startsWith('-')) return i;
    // `--api-key VALUE`: skip the value (own keys only: `--constructor` names no option).
    const name = token.slice(2);
    if (token.startsWith('--') && Object.hasOwn(globals, name) && globals[name]!.type === 'string') i++;
  }
  return -1;
}

/**
 * A duration: `90` (seconds), `90s`, `1500ms`, `10m`, `1h`.
 * @example parseDuration('10m', '--timeout') // 600000
 */
export function parseDuration(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new UsageError(`${flag} must be a duration like 90, 90s, 1500ms, 10m or 1h`);
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  const ms = Math.round(Number(match[1]) * factor);
  if (ms < 1) throw new UsageError(`${flag} must be at least 1 ms, got ${text.trim()}`);
  return ms;
}

/**
 * One `key=value` (the key ends at the first `=`), kept as a pair: a repeatable flag may name one key twice.
 * @example parsePair('junit=a.xml', '--report') // ['junit', 'a.xml']
 */
export function parsePair(pair: string, flag: string): [string, string] {
  const at = pair.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} takes key=value, got "${pair}"`);
  return [pair.slice(0, at), pair.slice(at + 1)];
}

/** Checks a value against a list of choices. */
export function oneOf<T extends string>(value: string, choices: readonly T[], flag: string): T {
  if (!(choices as readonly string[]).includes(value))
    throw new UsageError(`${flag} must be one of ${choices.join(', ')}, got "${value}"`);
  return value as T;
}
