// Help texts.
import type { Command } from './context.js';
import { optionsHelp } from './settings/flags.js';

const GLOBAL = `Global options:\n${optionsHelp('every', 20)}`;

const EXIT = `Exit codes:
  0  success; verdict PASS
  1  verdict FAIL (webhook verify: the delivery failed verification)
  2  usage or configuration error
  3  API error (its problem code, title and traceId are printed), the service could not be reached, or it
     answered something that is not the API (e.g. an HTML page)
  4  the job ended FAILED, a page was UNREACHABLE/ERROR/TIMEOUT, or the wait timed out
  70 internal error (a bug: please report it)`;

/** `svc-a11y --help`. */
export function mainHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return `svc-a11y — accessibility checks from the command line and CI

Usage: svc-a11y <command> [arguments] [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

${GLOBAL}

${EXIT}

Run 'svc-a11y <command> --help' for a command's options.
`;
}

/** `svc-a11y <command> --help`. */
export function commandHelp(command: Command): string {
  return `${command.summary}

Usage: ${command.usage}

${GLOBAL}

${EXIT}
`;
}
