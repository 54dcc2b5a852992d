// The `ci` config file: what a pipeline would otherwise repeat as flags (URLs, sitemaps, threshold and per-URL
// thresholds, reports, context, SARIF source map, suppressions file), read from `--config FILE` or, as Lighthouse CI
// and pa11y-ci do, from a default file in the working directory. JSON, checked key by key: a typo is an error naming
// the file, the key and the rule, never a silently ignored setting. The file may be a secrets file: no message ever
// quotes its contents. Its keys, and each key's check, are the settings' declarations (settings.ts), where its
// values are merged with the flags and the environment.
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../exit-codes.js';
import { closest } from '../suggest.js';
import { describeJsonError } from '../io/json-error.js';
import { readTextFile } from '../io/read-file.js';
import { DEFAULT_CONFIG_FILE, SETTINGS } from './settings.js';
import type { CiConfig, ConfigPlace, SettingSpec } from './spec.js';
import { isObject } from './values.js';

export { DEFAULT_CONFIG_FILE };
export type { CiConfig };

// Every config file key, from the declarations, in their order.
const KEYS = Object.values(SETTINGS as Record<string, SettingSpec<unknown>>).flatMap((spec) =>
  spec.config ? [spec.config] : [],
);

/**
 * The keys a config file may hold (besides `$schema`), in the order of the declarations.
 * @example CONFIG_KEYS.includes('failOnByUrl') // true
 */
export const CONFIG_KEYS: readonly string[] = KEYS.map((source) => source.key);

// The older names of keys, still read (see ConfigSource.alias).
const ALIASES: readonly string[] = KEYS.flatMap((source) => (source.alias ? [source.alias] : []));

/**
 * Reads the config: `explicit` (from `--config`) must exist; otherwise {@link DEFAULT_CONFIG_FILE} in `cwd`
 * is used when present. The file is read under a 1 MiB cap, without blocking (see `readTextFile`), a leading
 * byte order mark dropped; a JSON error names the line and column, never the text there.
 * @throws UsageError naming the file and what is wrong with it
 */
export function loadConfig(explicit: string | undefined, cwd: string): CiConfig | undefined {
  const file = explicit ?? join(cwd, DEFAULT_CONFIG_FILE);
  if (explicit === undefined && !isFile(file)) return undefined;
  if (explicit !== undefined && explicit.trim() === '') throw new UsageError('--config needs a file name');
  // Capped (1 MiB) and never blocking: `--config /dev/zero` or a FIFO is refused with exit 2, not read forever.
  // A leading byte order mark (editors on Windows write one) is dropped.
  const text = readTextFile(file, { what: 'config file' });
  if (text.trim() === '') throw new UsageError(`config file ${file} is empty; it must hold a JSON object`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // V8's message quotes the text around the error: only where it is, never what it says.
    throw new UsageError(`config file ${file} is not valid JSON (${describeJsonError(text)})`);
  }
  return checkConfig(data, file);
}

/**
 * Checks parsed config data key by key, each by its setting's declaration.
 * @throws UsageError naming the file, the key and the rule
 */
export function checkConfig(data: unknown, file: string): CiConfig {
  const at: ConfigPlace = {
    file,
    // Files named in the config file are relative to its folder, wherever the CLI runs.
    folder: dirname(resolve(file)),
    fail: (key, rule) => {
      throw new UsageError(`config file ${file}: ${key} ${rule}`);
    },
  };
  if (!isObject(data)) return at.fail('(top level)', 'must be a JSON object');
  for (const key of Object.keys(data)) {
    if (key === '$schema' || CONFIG_KEYS.includes(key) || ALIASES.includes(key)) continue;
    // A typo gets the closest key, as a mistyped flag does (case differences count as typos: `failon`).
    const near = closest(key, CONFIG_KEYS) ?? CONFIG_KEYS.find((k) => k.toLowerCase() === key.toLowerCase());
    at.fail(key, `is not a known key${near ? `; did you mean ${near}?` : ''} (known: ${CONFIG_KEYS.join(', ')})`);
  }
  const config: Record<string, unknown> = { file };
  for (const source of KEYS) {
    const alias = source.alias;
    if (alias !== undefined && data[alias] !== undefined) {
      if (data[source.key] !== undefined)
        at.fail(alias, `and ${source.key} are one key (${alias} is its older name): keep ${source.key}`);
      // Stored under the key's name; a message names the key as the file spells it.
      config[source.key] = source.check(data[alias], {
        ...at,
        fail: (k, rule) => at.fail(k.startsWith(source.key) ? alias + k.slice(source.key.length) : k, rule),
      });
    } else if (data[source.key] !== undefined) config[source.key] = source.check(data[source.key], at);
  }
  return config as CiConfig;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
