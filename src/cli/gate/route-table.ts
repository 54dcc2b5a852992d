// The route table of a `ci` run (`--source-map auto`): inferred once, before anything is sent, from the project at
// `--source-root` (the working directory by default). In a recognised project it is the default; `--source-map
// none` turns it off; an explicit `auto` (or `--source-root`) where no project is recognised is a usage error,
// since the user asked for locations the run cannot give. A symbolic link the inference refused is warned about
// whatever the outcome, even in a quiet run: it may be why no route was found.
import { UsageError } from '../exit-codes.js';
import { inferRoutes, type RouteTable } from '../routes/index.js';
import type { Setting, SourceMapItem } from '../settings/settings.js';

/** What {@link routeTableOf} reads. */
export interface RouteTableInputs {
  /** The `--source-map` items (config file's first, then the flags'). */
  items: readonly SourceMapItem[];
  sourceRoot: Setting<string | undefined>;
  basePath: Setting<string | undefined>;
  /** The working directory (the source root's default). */
  cwd: string;
  /** Where a one-line note on the inferred table goes (stderr), unless the run is quiet. */
  note?: ((line: string) => void) | undefined;
  /** Where a warning line goes (stderr, quiet or not): the symbolic links the inference refused to follow. */
  warn?: ((line: string) => void) | undefined;
}

const NAMES = {
  next: 'Next.js',
  astro: 'Astro',
  sveltekit: 'SvelteKit',
  nuxt: 'Nuxt',
  remix: 'Remix / React Router',
  static: 'static site',
} as const;

/**
 * The route table for `--source-map auto`, or undefined when inference is off (`none`) or, by default, finds no
 * recognised project. The last `auto` or `none` item decides; with neither, inference is on where a project is
 * recognised.
 * @throws UsageError when `auto` (or `--source-root`) was asked for and no project with page routes is found, or the
 * base path is not a path
 * @example routeTableOf({ items: ['auto'], sourceRoot, basePath, cwd: process.cwd() })?.routes.length // 12
 */
export function routeTableOf(inputs: RouteTableInputs): RouteTable | undefined {
  const mode = [...inputs.items].reverse().find((item) => typeof item === 'string');
  if (mode === 'none') return undefined;
  const explicit = mode === 'auto' || inputs.sourceRoot.source.kind !== 'default';
  const sourceRoot = inputs.sourceRoot.value ?? inputs.cwd;
  let inferred: ReturnType<typeof inferRoutes>;
  try {
    inferred = inferRoutes({ sourceRoot, basePath: inputs.basePath.value });
  } catch (error) {
    throw new UsageError(`--base-path / basePath: ${(error as Error).message}`, 'ci');
  }
  for (const line of inferred.warnings) inputs.warn?.(line);
  const unusable =
    'reason' in inferred
      ? inferred.reason
      : inferred.table.routes.length === 0
        ? `no page route was found under ${inferred.table.folders.join(', ')}`
        : undefined;
  if (unusable !== undefined || !('table' in inferred)) {
    if (!explicit) return undefined;
    throw new UsageError(
      `--source-map auto: no routes can be inferred in ${sourceRoot}: ${unusable}. Recognised: a package.json depending on next, astro, @sveltejs/kit, nuxt, @remix-run/* or react-router, or HTML files without a package.json. Point --source-root at the project, give PREFIX=FILE entries, or turn inference off with --source-map none`,
      'ci',
    );
  }
  const { table, notes } = inferred;
  inputs.note?.(
    `sarif map: ${table.routes.length} routes inferred from ${table.folders.join(', ')} (${NAMES[table.framework]})${notes.length ? `; ${notes.join('; ')}` : ''}`,
  );
  return table;
}
