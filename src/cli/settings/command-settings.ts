// The settings of the other commands: `webhook verify`, `simulator`, `trend` and `mcp`.
import { UsageError } from '../exit-codes.js';
import { formatBytes } from '../io/read-file.js';
import type { SettingSpec } from './spec.js';
import { isOn, list, text } from './values.js';

/**
 * Default cap on a webhook delivery's body read from stdin: 25 MiB.
 * Deliveries are small JSON events (spec §6: terminal scan outcomes, regressions, remediation status changes;
 * findings are read from the API, not pushed), a few kB in practice. The spec states no body limit (§8), so the
 * cap is set far above any genuine event, at the ceiling webhook senders commonly use (GitHub caps its payloads at
 * 25 MB), while a runaway pipe (a 600 MB file, `cat /dev/urandom`) fails fast in bounded memory instead of
 * aborting Node.
 */
export const DEFAULT_MAX_BODY_BYTES = 25 * 1024 * 1024;

/**
 * The accepted age of a webhook's `X-Svc-Timestamp`, in seconds, either way.
 * @default 300
 */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The settings of `webhook`, `simulator`, `trend` and `mcp`. */
export const COMMAND_SETTINGS = {
  /** Webhook signing secrets: `--secret` (repeatable), `SVC_WEBHOOK_SECRET`. */
  webhookSecrets: {
    flag: 'secret',
    kind: 'list',
    commands: ['webhook'],
    help: { value: '<secret>', text: 'signing secret (repeatable, for rotation); default $SVC_WEBHOOK_SECRET' },
    env: 'SVC_WEBHOOK_SECRET',
    read: list,
    default: [],
  } as SettingSpec<string[]>,
  /** Accepted age of a delivery's timestamp: `--tolerance`. */
  toleranceSeconds: {
    flag: 'tolerance',
    commands: ['webhook'],
    help: {
      value: '<secs>',
      text: `accepted age of X-Svc-Timestamp in either direction (default ${DEFAULT_TOLERANCE_SECONDS}); a saved\ndelivery is older, so give a larger value when checking an old one`,
    },
    read: (raw, where) => {
      const seconds = Number(text(raw));
      if (!Number.isInteger(seconds) || seconds < 0)
        throw new UsageError(`${where} must be a whole number of seconds`, 'webhook');
      return seconds;
    },
    default: DEFAULT_TOLERANCE_SECONDS,
  } as SettingSpec<number>,
  /** Largest delivery body read from stdin: `--max-body-bytes`. */
  maxBodyBytes: {
    flag: 'max-body-bytes',
    commands: ['webhook'],
    help: {
      value: '<bytes>',
      text: `largest body read from stdin (default ${DEFAULT_MAX_BODY_BYTES} = ${formatBytes(DEFAULT_MAX_BODY_BYTES)}); reading\nstops as soon as the body is larger, with exit 2`,
    },
    read: (raw, where) => {
      const value = text(raw);
      const bytes = Number(value);
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(bytes) || bytes < 1)
        throw new UsageError(`${where} must be a positive whole number of bytes`, 'webhook');
      return bytes;
    },
    default: DEFAULT_MAX_BODY_BYTES,
  } as SettingSpec<number>,
  /** The simulator's port: `--port` (0: a free one). */
  port: {
    flag: 'port',
    commands: ['simulator'],
    help: { value: '<n>', text: 'TCP port on 127.0.0.1 (default: a free one)' },
    read: (raw, where) => {
      const port = Number(text(raw));
      if (!Number.isInteger(port) || port < 0 || port > 65_535)
        throw new UsageError(`${where} must be a whole number from 0 to 65535`, 'simulator');
      return port;
    },
    default: 0,
  } as SettingSpec<number>,
  /** How many trend points: `--limit` (the service's default when not given). */
  trendLimit: {
    flag: 'limit',
    commands: ['trend'],
    help: { value: 'N', text: 'how many points (the service default applies when omitted)' },
    read: (raw, where) => {
      const value = text(raw);
      if (!/^\d+$/.test(value)) throw new UsageError(`${where} must be a non-negative whole number`, 'trend');
      return Number(value);
    },
    default: undefined,
  } as SettingSpec<number | undefined>,
  /** Serve only the MCP tools that start nothing: `--read-only`. */
  readOnly: {
    flag: 'read-only',
    kind: 'switch',
    commands: ['mcp'],
    help: { text: 'list only the tools that start nothing: list_sites, get_findings, explain_root_causes, list_fixes' },
    read: isOn,
    default: false,
  } as SettingSpec<boolean>,
} as const;
