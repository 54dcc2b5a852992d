// The settings every command takes (the "Global options" of every help): the key, the service, the rate budget,
// output and logging, help and version.
import { LOG_LEVELS, type LogLevel } from '../../index.js';
import { UsageError } from '../exit-codes.js';
import type { HelpEntry, SettingSpec } from './spec.js';
import { isOn, trimmed, text } from './values.js';

const switchOf = (flag: string, help: string, short?: string): SettingSpec<boolean> => ({
  flag,
  kind: 'switch',
  ...(short ? { short } : {}),
  commands: 'every',
  help: { text: help },
  read: isOn,
  default: false,
});

// A text every command takes from a flag or a variable, trimmed (blank is not given).
const textOf = (flag: string, env: string, help: HelpEntry): SettingSpec<string | undefined> => ({
  flag,
  commands: 'every',
  help,
  env,
  read: trimmed,
  default: undefined,
});

/** The settings of every command, in the order of the help. */
export const EVERY_COMMAND = {
  /** The API key: `--api-key`, `SVC_API_KEY`. */
  apiKey: textOf('api-key', 'SVC_API_KEY', { value: '<key>', text: 'API key (default $SVC_API_KEY)' }),
  /** The service's address: `--base-url`, `SVC_BASE_URL`. */
  baseUrl: {
    ...textOf('base-url', 'SVC_BASE_URL', { value: '<url>', text: "the service's base URL (default $SVC_BASE_URL)" }),
    action: 'base-url',
  },
  /** Requests per minute of the client's rate budget: `--rate-limit`, `SVC_RATE_LIMIT` (off by default). */
  rateLimit: {
    action: 'rate-limit',
    flag: 'rate-limit',
    commands: 'every',
    help: { value: '<n>', text: 'space requests to n per minute (default $SVC_RATE_LIMIT; off)' },
    env: 'SVC_RATE_LIMIT',
    read: (raw, where) => {
      const value = trimmed(raw);
      if (value === undefined) return undefined;
      const perMinute = Number(value);
      if (!Number.isFinite(perMinute) || perMinute <= 0)
        throw new UsageError(`${where} must be a positive number of requests per minute, such as 120`);
      return perMinute;
    },
    default: undefined,
  } as SettingSpec<number | undefined>,
  /** The Redis that shares the rate budget: `--redis-url`, `SVC_REDIS_URL`. */
  redisUrl: {
    action: 'redis-url',
    flag: 'redis-url',
    commands: 'every',
    help: {
      value: '<url>',
      text: 'share that budget with every job using the same key and Redis (default $SVC_REDIS_URL;\nneeds the redis package: npm install redis); alone it means 120 per minute',
    },
    env: 'SVC_REDIS_URL',
    read: (raw, where) => {
      const value = trimmed(raw);
      if (value !== undefined && !/^rediss?:\/\//i.test(value))
        throw new UsageError(`${where} must be a redis:// or rediss:// URL`);
      return value;
    },
    default: undefined,
  } as SettingSpec<string | undefined>,
  /** Print the API's records as JSON: `--json`. */
  json: switchOf('json', "print the API's own records as JSON"),
  /**
   * How much the client logs on stderr: `--verbose` is `debug`; `SVC_LOG` names a level.
   * @default 'off'
   */
  logLevel: {
    flag: 'verbose',
    kind: 'switch',
    commands: 'every',
    help: {
      text: 'debug lines on stderr: each request, wait and poll, redacted (default $SVC_LOG: off, error,\nwarn, info or debug)',
    },
    env: 'SVC_LOG',
    read: (raw, where) => {
      if (raw === true) return 'debug';
      const level = text(raw).trim().toLowerCase();
      if (!(LOG_LEVELS as readonly string[]).includes(level))
        throw new UsageError(`${where} must be one of ${LOG_LEVELS.join(', ')}`);
      return level as LogLevel;
    },
    default: 'off',
  } as SettingSpec<LogLevel>,
  /** No progress line on stderr: `--no-progress`. */
  noProgress: switchOf('no-progress', 'no progress on stderr (NO_COLOR turns colours off)'),
  /** `-h`, `--help`. */
  help: switchOf('help', 'help for a command', 'h'),
  /** `-v`, `--version`. */
  version: switchOf('version', 'print the version', 'v'),
} as const;
