// What a command receives, and the shape every command has.
import { createRequire } from 'node:module';
import { A11yClient } from '../index.js';
import type { OptionSpec, OptionValues } from './args.js';
import type { Output } from './io.js';
import type { Progress } from './progress.js';

/** The package version (read from package.json next to dist/). */
export const version: string = (() => {
  try {
    return (createRequire(import.meta.url)('../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();

/** What a command runs with. */
export interface CommandContext {
  /** Positional arguments after the command name. */
  args: string[];
  values: OptionValues;
  out: Output;
  progress: Progress;
  /** `--json`: print the API's own records. */
  json: boolean;
  /** The client, built on first use from `--api-key`/`SVC_API_KEY` and `--base-url`/`SVC_BASE_URL`. */
  client(): A11yClient;
}

/** A `svc-a11y` command. */
export interface Command {
  name: string;
  summary: string;
  /** Usage line and option descriptions shown by `--help`. */
  usage: string;
  options: Record<string, OptionSpec>;
  /** How many positional arguments it takes. */
  args: { min: number; max: number; names: string };
  run(ctx: CommandContext): Promise<number>;
}

/** Builds the client from flags and environment (the API key is registered for redaction first). */
export function clientFrom(values: OptionValues, env: Record<string, string | undefined>, out: Output): A11yClient {
  const apiKey = (values['api-key'] as string | undefined) ?? env.SVC_API_KEY;
  out.protect(apiKey);
  return new A11yClient({
    apiKey: apiKey || undefined,
    baseUrl: (values['base-url'] as string | undefined) ?? env.SVC_BASE_URL,
    headers: { 'User-Agent': `svc-a11y/${version}` },
  });
}

/** Prints a value as JSON on stdout. */
export function printJson(ctx: CommandContext, value: unknown): void {
  ctx.out.out(`${JSON.stringify(value, null, 2)}\n`);
}
