#!/usr/bin/env node
// svc-a11y: the command-line tool. It uses the SDK's public client only; no HTTP logic lives here.
import { pathToFileURL } from 'node:url';
import { realpathSync } from 'node:fs';
import { findCommand, type OptionValues, parseCommandArgs } from './args.js';
import { GLOBAL_OPTIONS } from './settings/flags.js';
import { commands } from './commands/index.js';
import { clientFrom, type Command, type CommandContext, type Embedding, version } from './context.js';
import { ExitCode, UsageError } from './exit-codes.js';
import { commandHelp, mainHelp } from './help.js';
import { type CliIO, Output } from './io/output.js';
import { Progress } from './progress-line.js';
import { describeError } from './io/describe-error.js';
import { closest } from './suggest.js';
import { processSecrets } from './io/process-secrets.js';
import { PROXY_VARIABLES, proxySettings } from './io/proxy.js';
import { apiErrorHint, ID_SOURCES } from './api-hints.js';

/**
 * Runs the CLI with `argv` (without node and script) and returns the exit code. A program running it in its own
 * process passes `embed` (see `src/cli/index.ts`).
 */
export async function run(argv: string[], io: CliIO, embed?: Embedding): Promise<number> {
  return (
    await invoke(
      io,
      (out) => {
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
            return undefined;
          }
          out.out(mainHelp(commands));
          return values.help ? undefined : ExitCode.USAGE;
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
        const { values, positionals } = parseCommandArgs(
          [...argv.slice(0, at), ...argv.slice(at + 1)],
          { ...GLOBAL_OPTIONS, ...command.options },
          command.name,
        );
        return { command, values, positionals };
      },
      embed,
    )
  ).code;
}

/**
 * Runs command `name` with values already parsed (by flag name, as the parser gives them) and its arguments: the
 * typed way in for a program (`runCiCheck`), with every check, message and exit code of the command line. Returns
 * the exit code and the error messages it printed.
 * @example await runParsed('ci', { values: { 'fail-on': 'NONE' }, positionals: ['https://a.example/'] }, io)
 */
export function runParsed(
  name: string,
  parsed: { values: OptionValues; positionals: string[] },
  io: CliIO,
  embed?: Embedding,
): Promise<{ code: number; errors: readonly string[] }> {
  return invoke(
    io,
    () => {
      const command = commands.find((c) => c.name === name);
      if (!command) throw new UsageError(`unknown command "${name}"`);
      return { command, ...parsed };
    },
    embed,
  );
}

// What a command line asks for: a command with its parsed values, or an exit code when it was answered already
// (help, version; undefined is OK).
type Invocation = { command: Command; values: OptionValues; positionals: string[] } | number | undefined;

// One run of the CLI: the output with every secret of the process protected, the command found by `find`, its
// secrets, help and argument count checked, run, its errors reported, and what it opened closed.
async function invoke(
  io: CliIO,
  find: (out: Output) => Invocation,
  embed: Embedding | undefined,
): Promise<{ code: number; errors: readonly string[] }> {
  const out = new Output(io);
  // Every secret the process holds, from the start: the key, the CI's tokens, Redis and proxy passwords.
  for (const secret of processSecrets(io.env)) out.protect(secret);
  // What commands opened and must close before the process can exit (a Redis connection).
  const cleanups: Array<() => Promise<void>> = [];
  let commandName: string | undefined;
  let idArgument: string | undefined;
  let code: number;
  try {
    const found = find(out);
    if (typeof found !== 'object') code = found ?? ExitCode.OK;
    else {
      const { command, values, positionals } = found;
      commandName = command.name;
      idArgument = command.args.names;
      code = await runCommand(command, values, positionals, { out, io, cleanups, embed });
    }
  } catch (error) {
    code = printError(error, out, commandName, idArgument);
  } finally {
    await Promise.all(cleanups.map((close) => close().catch(() => undefined)));
  }
  return { code, errors: out.errors };
}

async function runCommand(
  command: Command,
  values: OptionValues,
  positionals: string[],
  run: { out: Output; io: CliIO; cleanups: Array<() => Promise<void>>; embed: Embedding | undefined },
): Promise<number> {
  const { out, io, cleanups, embed } = run;
  // What the client's requests wait for before the first (the shared store's connection): see `ready`.
  const startups: Array<() => Promise<void>> = [];
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
    client: () => clientFrom(values, io.env, out, cleanups, startups),
    ready: async () => {
      await Promise.all(startups.splice(0).map((start) => start()));
    },
    embed,
  };
  return await command.run(ctx);
}

/** Prints an error the way its exit code documents (describe-error.ts reads it), and returns that code. Never a stack trace. */
function printError(error: unknown, out: Output, command: string | undefined, idArgument?: string): number {
  const d = describeError(error, out.secrets);
  switch (d.kind) {
    case 'usage': {
      out.error(d.message);
      const name = d.command ?? command;
      out.err(`Run 'svc-a11y ${name ? `${name} ` : ''}--help' for usage.`);
      break;
    }
    case 'input':
    case 'configuration': {
      out.error(d.message);
      const source = idArgument && ID_SOURCES[idArgument];
      if (d.kind === 'input' && /^(id|\w+Id)$/.test(d.field ?? '') && source) out.err(`${source}.`);
      break;
    }
    case 'api': {
      // Code, title, detail and traceId are the service's text, made one safe line each by describeError.
      out.error(`API answered ${d.message}`);
      if (d.traceId) out.err(`traceId: ${d.traceId} (quote it to support)`);
      const hint = d.error && apiErrorHint(d.error, idArgument);
      if (hint) out.err(`${hint}.`);
      break;
    }
    case 'connection': {
      out.error(`${d.message} [${d.request}]`);
      // Refused, unknown host or no answer: most often the address itself, or the proxy in between.
      const proxy = proxySettings(out.io.env);
      out.err(
        proxy
          ? `Check the proxy (${PROXY_VARIABLES.filter((name) => out.io.env[name]?.trim()).join(', ')}; NO_PROXY bypasses it) and SVC_BASE_URL (or --base-url): the request went through the proxy, never directly.`
          : "Check SVC_BASE_URL (or --base-url): it must be the service's address, reachable from here.",
      );
      break;
    }
    // The client refuses redirects, oversized bodies and 2xx answers that are not the API's JSON (e.g.
    // SVC_BASE_URL pointing at a web app answering HTML): each points at a base URL that is not the API.
    case 'not-the-api':
      out.error(
        `${d.message}${d.cause === 'redirect' ? " Is SVC_BASE_URL (or --base-url) the service's API address?" : d.cause === 'not-json' ? " Is SVC_BASE_URL the service's API address?" : ''}`,
      );
      break;
    case 'timeout':
      out.error(d.message);
      break;
    case 'internal':
      out.error(d.message, 'internal error');
      break;
  }
  return d.exitCode;
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
