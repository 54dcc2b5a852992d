#!/usr/bin/env node
// svc-a11y: the command-line tool. It uses the SDK's public client only; no HTTP logic lives here.
import { pathToFileURL } from 'node:url';
import { realpathSync } from 'node:fs';
import {
  ApiConnectionError,
  ApiError,
  ConfigurationError,
  PollTimeoutError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
} from '../index.js';
import { findCommand, parseCommandArgs } from './args.js';
import { GLOBAL_OPTIONS } from './settings/flags.js';
import { commands } from './commands/index.js';
import { clientFrom, type CommandContext, type Embedding, version } from './context.js';
import { ExitCode, UsageError } from './exit-codes.js';
import { commandHelp, mainHelp } from './help.js';
import { type CliIO, Output } from './io/output.js';
import { Progress } from './progress-line.js';
import { safeLine } from './io/safe-text.js';
import { closest } from './suggest.js';
import { processSecrets } from './io/process-secrets.js';
import { PROXY_VARIABLES, proxySettings } from './io/proxy.js';
import { apiErrorHint, ID_SOURCES } from './api-hints.js';

/**
 * Runs the CLI with `argv` (without node and script) and returns the exit code. A program running it in its own
 * process passes `embed` (see `src/cli/index.ts`).
 */
export async function run(argv: string[], io: CliIO, embed?: Embedding): Promise<number> {
  const out = new Output(io);
  // Every secret the process holds, from the start: the key, the CI's tokens, Redis and proxy passwords.
  for (const secret of processSecrets(io.env)) out.protect(secret);
  // What commands opened and must close before the process can exit (a Redis connection).
  const cleanups: Array<() => Promise<void>> = [];
  let commandName: string | undefined;
  let idArgument: string | undefined;
  try {
    let at = findCommand(argv, GLOBAL_OPTIONS);
    // `svc-a11y help [command]` is `--help`, as git and npm users expect.
    if (at >= 0 && argv[at] === 'help') {
      const rest = [...argv.slice(0, at), ...argv.slice(at + 1)];
      // `help help` is help too.
      if (rest[at] === 'help') rest.splice(at, 1);
      argv = [...rest, '--help'];
      at = findCommand(argv, GLOBAL_OPTIONS);
    }
    if (at < 0) {
      const { values } = parseCommandArgs(argv, GLOBAL_OPTIONS);
      if (values.version) {
        out.out(`${version}\n`);
        return ExitCode.OK;
      }
      out.out(mainHelp(commands));
      return values.help ? ExitCode.OK : ExitCode.USAGE;
    }
    const command = commands.find((c) => c.name === argv[at]);
    if (!command) {
      const near = closest(
        argv[at]!,
        commands.map((c) => c.name),
      );
      throw new UsageError(
        `unknown command "${argv[at]}"${near ? `; did you mean ${near}?` : ''} (see 'svc-a11y --help')`,
      );
    }
    commandName = command.name;
    idArgument = command.args.names;
    const { values, positionals } = parseCommandArgs(
      [...argv.slice(0, at), ...argv.slice(at + 1)],
      { ...GLOBAL_OPTIONS, ...command.options },
      command.name,
    );
    for (const secret of processSecrets(
      {},
      { apiKey: values['api-key'], webhookSecrets: values.secret, redisUrl: values['redis-url'] },
    ))
      out.protect(secret);
    if (values.help || values.version) {
      out.out(values.help ? commandHelp(command) : `${version}\n`);
      return ExitCode.OK;
    }
    const { min, max, names } = command.args;
    if (positionals.length < min || positionals.length > max) {
      const note = command.args.note ? `: ${command.args.note}` : '';
      throw new UsageError(
        `${command.name} takes ${min === max ? min : `${min} to ${max}`} argument${max === 1 ? '' : 's'}${names ? ` (${names})` : ''}, got ${positionals.length}${note}`,
        command.name,
      );
    }
    const json = values.json === true;
    const ctx: CommandContext = {
      args: positionals,
      values,
      out,
      json,
      progress: new Progress(out, !values['no-progress'] && !values.quiet && !json),
      client: () => clientFrom(values, io.env, out, cleanups),
      embed,
    };
    return await command.run(ctx);
  } catch (error) {
    return printError(error, out, commandName, idArgument);
  } finally {
    await Promise.all(cleanups.map((close) => close().catch(() => undefined)));
  }
}

/** Prints an error the way its exit code documents, and returns that code. Never a stack trace. */
function printError(error: unknown, out: Output, command: string | undefined, idArgument?: string): number {
  if (error instanceof UsageError) {
    out.err(`error: ${error.message}`);
    const name = error.command ?? command;
    out.err(`Run 'svc-a11y ${name ? `${name} ` : ''}--help' for usage.`);
    return ExitCode.USAGE;
  }
  if (error instanceof ConfigurationError || error instanceof RequestValidationError) {
    out.err(`error: ${error.message}`);
    const source = idArgument && ID_SOURCES[idArgument];
    if (error instanceof RequestValidationError && /^(id|\w+Id)$/.test(error.field) && source) out.err(`${source}.`);
    return ExitCode.USAGE;
  }
  if (error instanceof ApiError) {
    // Code, title, detail and traceId are the service's text: one line each, nothing a terminal or a log acts on.
    const line = (text: string) => safeLine(text, out.secrets);
    out.err(
      `error: API answered ${error.status}${error.code ? ` ${line(error.code)}` : ''}${error.title ? ` — ${line(error.title)}` : ''}${error.detail ? `: ${line(error.detail)}` : ''}`,
    );
    if (error.traceId) out.err(`traceId: ${line(error.traceId)} (quote it to support)`);
    const hint = apiErrorHint(error, idArgument);
    if (hint) out.err(`${hint}.`);
    return ExitCode.API_ERROR;
  }
  if (error instanceof ApiConnectionError) {
    out.err(`error: ${safeLine(error.message, out.secrets)} [${error.method} ${safeLine(error.url, out.secrets)}]`);
    // Refused, unknown host or no answer: most often the address itself, or the proxy in between.
    const proxy = proxySettings(out.io.env);
    out.err(
      proxy
        ? `Check the proxy (${PROXY_VARIABLES.filter((name) => out.io.env[name]?.trim()).join(', ')}; NO_PROXY bypasses it) and SVC_BASE_URL (or --base-url): the request went through the proxy, never directly.`
        : "Check SVC_BASE_URL (or --base-url): it must be the service's address, reachable from here.",
    );
    return ExitCode.API_ERROR;
  }
  // The client refuses redirects and oversized bodies: both point at a base URL that is not the API.
  if (error instanceof RedirectError || error instanceof ResponseTooLargeError) {
    out.err(
      `error: ${safeLine(error.message, out.secrets)}${error instanceof RedirectError ? " Is SVC_BASE_URL (or --base-url) the service's API address?" : ''}`,
    );
    return ExitCode.API_ERROR;
  }
  // A 2xx that is not the API's JSON (e.g. SVC_BASE_URL pointing at a web app answering HTML).
  if (error instanceof ResponseValidationError) {
    out.err(`error: ${safeLine(error.message, out.secrets)} Is SVC_BASE_URL the service's API address?`);
    return ExitCode.API_ERROR;
  }
  if (error instanceof PollTimeoutError) {
    out.err(`error: ${error.message}`);
    return ExitCode.INCOMPLETE;
  }
  out.err(`internal error: ${safeLine(error instanceof Error ? error.message : String(error), out.secrets)}`);
  return ExitCode.INTERNAL;
}

// Run when executed as the bin (also through npm's symlink), not when imported by tests.
const invoked = process.argv[1] && pathToFileURL(realpathSync(process.argv[1])).href === import.meta.url;
if (invoked) {
  run(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    stdin: process.stdin,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // run() reports every error itself; reaching here is a bug. The message is not printed: it could hold
      // text that no Output redacted or guarded.
      process.stderr.write(
        `internal error: ${error instanceof Error ? error.name : 'unknown'} (a bug: please report it)\n`,
      );
      process.exitCode = ExitCode.INTERNAL;
    },
  );
}
