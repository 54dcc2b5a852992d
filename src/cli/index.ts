// The CLI's one entry for programs that run it in their own process (the GitHub Action): `runCiCheck` runs
// `svc-a11y ci` exactly as the bin does (the same option checks, client, check run, reporters and exit codes) and
// hands back the judged report and the options it ran with, in memory. With it, what such a program formats itself
// (annotations, a comment, a summary) comes from the same modules the CLI's reports do.
import { type Undici, useBundledUndici } from './io/proxy.js';
import type { EmbeddedOptions, Embedding } from './context.js';
import type { CliIO } from './io/output.js';
import { runParsed } from './main.js';
import type { OptionValues } from './args.js';
import { parsedSettings, type SettingValues } from './settings/data.js';
import type { PreparedReport } from './report/index.js';

export { version } from './context.js';
export { processSecrets, urlPassword } from './io/process-secrets.js';
export { annotationsOf, type PreparedReport } from './report/index.js';
export { mdCell, toMarkdown } from './report/markdown.js';
export { commentBody, commentMarker } from './report/comment.js';
export { redactText } from './io/safe-text.js';
export { requestFetch } from './io/proxy.js';

/**
 * undici, for a program that bundles the CLI into one file (the Action): the bin loads its own copy from
 * `dist/cli-undici.cjs`, which such a bundle does not have beside it.
 */
export const bundledUndici = (): Promise<Undici> => import('./io/undici-entry.js');
// Loaded only when a proxy is set; a program importing this entry carries undici itself.
useBundledUndici(bundledUndici);
export type { SettingValues };
export { ACTION_SETTINGS } from './settings/data.js';
export { EXIT_MEANINGS } from './exit-codes.js';

/** What one in-process `svc-a11y ci` run (or `merge`) gave. */
export interface CiRun {
  /** The CLI's exit code (0 PASS, 1 FAIL, 2 usage, 3 API error, 4 not judged, 70 internal error). */
  code: number;
  /** The report as the CLI judged it (made safe, the verdict decided); undefined when no check ran. */
  report: PreparedReport | undefined;
  /** The options the run was checked with; undefined when it ended before a report (the CLI said why). */
  options: EmbeddedOptions | undefined;
  /**
   * The error messages it printed on stderr, without their `error: ` label (an internal error keeps its own), as
   * printed: redacted and command-guarded by the CLI's output.
   */
  errors: readonly string[];
}

/**
 * Runs `svc-a11y ci` in this process with `settings` by name (the pages in `urls`; each value checked by the same
 * rule, with the same message, as its flag) and `io` (its streams and environment: the API key travels in
 * `SVC_API_KEY`), adding `embed`'s report files and context to what the settings and the config file say.
 * @example const { code, report } = await runCiCheck({ urls: ['https://shop.example.com/'], failOn: 'NONE' }, { stdout, stderr, env });
 */
export function runCiCheck(
  settings: SettingValues,
  io: CliIO,
  embed: Omit<Embedding, 'onResult'> = {},
): Promise<CiRun> {
  return runEmbedded('ci', parsedSettings(settings), io, embed);
}

/**
 * Runs `svc-a11y merge` in this process on the shards' JSON reports `files`, with `settings` by name (the source
 * locations': `sourceMap`, `sourceRoot`, `basePath`) and `embed`'s report files; nothing is sent, so no key is needed.
 * @example const { code, report } = await runMerge(['shards/1.json', 'shards/2.json'], {}, { stdout, stderr, env });
 */
export function runMerge(
  files: readonly string[],
  settings: SettingValues,
  io: CliIO,
  embed: Omit<Embedding, 'onResult' | 'context'> = {},
): Promise<CiRun> {
  const { values } = parsedSettings(settings);
  return runEmbedded('merge', { values, positionals: [...files] }, io, embed);
}

async function runEmbedded(
  command: 'ci' | 'merge',
  parsed: { values: OptionValues; positionals: string[] },
  io: CliIO,
  embed: Omit<Embedding, 'onResult'>,
): Promise<CiRun> {
  let result: { report: PreparedReport | undefined; options: EmbeddedOptions } | undefined;
  const { code, errors } = await runParsed(command, parsed, io, { ...embed, onResult: (r) => (result = r) });
  return { code, report: result?.report, options: result?.options, errors };
}
