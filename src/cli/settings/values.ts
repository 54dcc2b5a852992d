// How the declarations read a value: from a flag's or a variable's text (`read`: the message names the flag or the
// variable), and from a config file's JSON (`check`: the message names the file and the key, never the value).
import { resolve } from 'node:path';
import { UsageError } from '../exit-codes.js';
import { urlPattern } from '../pages/page-urls.js';
import type { ConfigPlace, ConfigSource } from './spec.js';

/** A flag's or a variable's value as text (`true` for a switch). */
export const text = (raw: string | boolean | string[]): string => (typeof raw === 'string' ? raw : String(raw));

/** A value read from the flag or the environment, trimmed; blank counts as not given. */
export const trimmed = (raw: string | boolean | string[]): string | undefined => text(raw).trim() || undefined;

/** A repeatable flag's values (a variable's one value as a list of one). */
export const list = (raw: string | boolean | string[]): string[] => (Array.isArray(raw) ? raw : [text(raw)]);

/** A switch: given is true. */
export const isOn = (raw: string | boolean | string[]): boolean => raw === true;

/**
 * A whole number from `min` to `max` (blanks around it allowed), or a usage error naming `where` and the rule.
 * @example wholeNumber('5', '--max-checks', { min: 1 }) // 5
 */
export function wholeNumber(
  raw: string | boolean | string[],
  where: string,
  { min, max, rule, command = 'ci' }: { min: number; max?: number; rule?: string; command?: string },
): number {
  const value = text(raw);
  const n = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || n < min || (max !== undefined && n > max))
    throw new UsageError(
      `${where} must be ${rule ?? (max === undefined ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`)}, got "${value}"`,
      command,
    );
  return n;
}

/**
 * A config file key: `check` checks its JSON value and gives what the file holds; `as` turns that into the
 * setting's value when the two differ (a map of report files → a list of pairs); `shape` is how `--config`'s help
 * names a value that is not plain (`{format: file}`).
 * @example config: key('maxUrls', (value, at) => count(value, 'maxUrls', at))
 */
export function key<Stored, T = Stored>(
  name: string,
  check: (value: unknown, at: ConfigPlace) => Stored,
  options: { shape?: string; as?: (stored: Stored) => T; alias?: string } = {},
): ConfigSource<T> {
  const { shape, as = (stored: Stored) => stored as unknown as T, alias } = options;
  return {
    key: name,
    ...(alias ? { alias } : {}),
    check,
    // `checkConfig` stored what `check` returned under this key.
    read: (config) => (config[name] === undefined ? undefined : as(config[name] as Stored)),
    ...(shape ? { shape } : {}),
  };
}

/** A JSON value that is one of `choices`. */
export function choice<T extends string>(value: unknown, choices: readonly T[], key: string, at: ConfigPlace): T {
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value))
    at.fail(key, `must be one of ${choices.join(', ')}`);
  return value as T;
}

/** A JSON object of non-empty strings. */
export function stringMap(value: unknown, key: string, at: ConfigPlace): Record<string, string> {
  if (!isObject(value)) return at.fail(key, 'must be an object of strings');
  for (const [k, v] of Object.entries(value))
    if (typeof v !== 'string' || v === '') at.fail(`${key}.${k}`, 'must be a non-empty string');
  return { ...(value as Record<string, string>) };
}

/** A JSON whole number from `min` to `max`. */
export function count(
  value: unknown,
  key: string,
  at: ConfigPlace,
  { min = 1, max = Infinity, rule = '' } = {},
): number {
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max)
    at.fail(key, rule || `must be a whole number of at least ${min}`);
  return value as number;
}

/** A JSON string naming a file or folder, resolved against the config file's folder. */
export function pathIn(value: unknown, key: string, at: ConfigPlace, rule: string): string {
  if (typeof value !== 'string' || value.trim() === '') at.fail(key, rule);
  return resolve(at.folder, (value as string).trim());
}

/** A JSON string that is a regular expression over URLs. */
export function pattern(value: unknown, key: string, at: ConfigPlace): string {
  if (typeof value !== 'string' || value === '') at.fail(key, 'must be a non-empty regular expression string');
  urlPattern(value as string, `config file ${at.file}: ${key}`);
  return value as string;
}

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A SARIF category as a flag or the config file gives it: non-empty, printable, at most 200 characters (a path-like
 * name such as `a11y/shop/checkout`).
 * @throws through `fail`, naming the key (or flag) and the rule
 * @example sarifCategory('a11y/shop', '--sarif-category', fail) // 'a11y/shop'
 */
export function sarifCategory(value: unknown, key: string, fail: (key: string, rule: string) => never): string {
  const category = typeof value === 'string' ? value.trim() : '';
  if (category === '' || category.length > 200 || /[\u0000-\u001F\u007F]/.test(category))
    return fail(key, 'must be a non-empty category of at most 200 printable characters, such as a11y/shop/checkout');
  return category;
}
