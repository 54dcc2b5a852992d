// The options of `svc-a11y merge`: the shards' report files (the arguments) and where the merged reports go, read
// and checked before any file is written. The flags are `ci`'s own (`--format`, `--report`, `--source-map`,
// `--source-root`, `--base-path`, `--sarif-category`, `--quiet`), declared once in settings/; no config file is read:
// the merge job writes what its own command line names.
import { readSetting, SETTINGS, type SettingSpec } from '../settings/settings.js';
import type { CiOptions, OptionsContext } from './options.js';
import { checkReportPaths, sourceMapOf } from './options.js';
import { routeTableOf } from './route-table.js';

/** The parsed options of a merge. */
export type MergeOptions = Pick<
  CiOptions,
  'format' | 'reports' | 'sourceMap' | 'routes' | 'sarifCategory' | 'createdFolders' | 'comment'
> & {
  /** The shards' JSON reports, as named. */
  files: string[];
};

/**
 * Parses and checks `merge`'s options; report paths must be writable (their missing folders are created).
 * @throws UsageError naming the flag or the variable at fault
 * @example mergeOptions(ctx).files // ['shard-1.json', 'shard-2.json']
 */
export function mergeOptions(ctx: OptionsContext): MergeOptions {
  const inputs = { values: ctx.values, env: ctx.out.io.env };
  const setting = <T>(spec: SettingSpec<T>) => readSetting(spec, inputs);
  const items = setting(SETTINGS.sourceMap).value;
  const given = setting(SETTINGS.reports);
  const reports = { ...given, value: [...given.value, ...(ctx.embed?.reports ?? [])] };
  const options = {
    files: ctx.args,
    format: ctx.json ? ('json' as const) : setting(SETTINGS.format).value,
    reports: reports.value,
    sourceMap: sourceMapOf(items),
    routes: routeTableOf({
      items,
      sourceRoot: setting(SETTINGS.sourceRoot),
      basePath: setting(SETTINGS.basePath),
      cwd: process.cwd(),
      note: setting(SETTINGS.quiet).value ? undefined : (line) => ctx.out.err(line),
      warn: (line) => ctx.out.err(line),
    }),
    sarifCategory: setting(SETTINGS.sarifCategory).value,
    comment: setting(SETTINGS.comment).value,
  };
  return { ...options, createdFolders: checkReportPaths(reports) };
}
