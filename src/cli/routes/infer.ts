// `--source-map auto`: the route table of the project at the source root, from its framework's file-system routing.
// Files are listed under the walk's bounds and only route modules are read (for their default export's line), all
// through one gate (repository.ts): nothing is read outside the repository or through a symbolic link.
import { join, relative, resolve, sep } from 'node:path';
import { basePathSegments, nextBasePath } from './base-path.js';
import { patternOf } from './brackets.js';
import { defaultExportLine, MAX_MODULE_BYTES_IN_ALL } from './default-export.js';
import { detectProject } from './detect.js';
import { linksWarning, type Repository, repositoryAt, repositoryRoot } from './repository.js';
import type { Route, RouteTable } from './types.js';
import { MAX_WALK_ENTRIES, walkFiles } from './walk.js';

/** Options of {@link inferRoutes}. */
export interface InferOptions {
  /** The project's folder (`--source-root`), absolute or relative to the working directory. */
  sourceRoot: string;
  /**
   * The base path the site is served under (`--base-path`); when not given, Next.js' literal `basePath` is used.
   * @example '/docs'
   */
  basePath?: string | undefined;
  /**
   * Most directory entries visited.
   * @default MAX_WALK_ENTRIES
   */
  maxEntries?: number;
}

/**
 * A route table and what the inference wants said about it (on stderr), or why there is none; either way, the
 * warnings to say even in a quiet run (the symbolic links refused).
 */
export type Inference = ({ table: RouteTable; notes: string[] } | { reason: string }) & { warnings: string[] };

// Modules whose default export is worth a look; other pages (.svelte, .vue, .astro, .html, .md) point at line 1.
const SCRIPT = /\.(tsx|ts|jsx|js|mjs)$/;

const slashed = (path: string): string => path.split(sep).join('/');

/**
 * The route table of the project at `options.sourceRoot`, or why it is no recognised project. Files are relative
 * to the repository root (the nearest `.git` up from the source root); only what lies inside it, reached through no
 * symbolic link below it, is looked at, and the links refused are named in `warnings`.
 * @throws Error when `options.basePath` is not a path starting with `/`
 * @example const inferred = inferRoutes({ sourceRoot: '.' }); if ('table' in inferred) matchRoute(inferred.table, url);
 */
export function inferRoutes(options: InferOptions): Inference {
  const root = resolve(options.sourceRoot);
  const explicitBase = options.basePath === undefined ? undefined : basePathSegments(options.basePath);
  const repo = repositoryAt(repositoryRoot(root));
  const found = tableOf(repo, root, options, explicitBase);
  const warning = linksWarning(repo.links);
  return { ...found, warnings: warning === undefined ? [] : [warning] };
}

// The table, once the repository's gate and the explicit base path are known.
function tableOf(
  repo: Repository,
  root: string,
  options: InferOptions,
  explicitBase: string[] | undefined,
): { table: RouteTable; notes: string[] } | { reason: string } {
  const project = detectProject(repo, root);
  if (!('framework' in project)) return project;
  const notes: string[] = [];
  let basePath = explicitBase ?? [];
  if (explicitBase === undefined && project.framework === 'next') {
    const next = nextBasePath(repo, root);
    if (next?.basePath !== undefined) {
      basePath = basePathSegments(next.basePath);
      notes.push(`base path ${next.basePath} from ${next.file}`);
    } else if (next?.unsure)
      notes.push(`${next.file}: ${next.unsure}; no base path is assumed (give --base-path if the site has one)`);
  }
  const prefix = slashed(relative(repo.root, root));
  const inRepo = (path: string) => (prefix ? `${prefix}/${path}` : path);
  const budget = { left: options.maxEntries ?? MAX_WALK_ENTRIES };
  const reads = { bytes: MAX_MODULE_BYTES_IN_ALL };
  const routes: Route[] = [];
  let truncated = false;
  for (const folder of project.folders) {
    const walked = walkFiles(repo, join(root, folder.dir), budget);
    truncated ||= walked.truncated;
    for (const file of walked.files) {
      const specs = folder.router(file);
      if (specs.length === 0) continue;
      const onDisk = folder.dir === '.' ? file : `${folder.dir}/${file}`;
      const found = SCRIPT.test(file) ? defaultExportLine(repo, join(root, onDisk), reads) : undefined;
      const exportLine = found && 'line' in found ? found.line : undefined;
      // A resource route answers with data: no page to report on (a module too large to read stays a page).
      if (project.pagesExportDefault && found && 'line' in found && found.line === undefined) continue;
      for (const spec of specs)
        routes.push({
          file: inRepo(onDisk),
          line: exportLine ?? 1,
          pattern: patternOf(spec.segments),
          segments: spec.segments,
          ...(spec.index ? { index: true } : {}),
        });
    }
  }
  if (truncated)
    notes.push(
      `stopped listing files after ${options.maxEntries ?? MAX_WALK_ENTRIES} entries: some pages may keep URL locations`,
    );
  const folders = project.folders.map((f) => inRepo(f.dir === '.' ? '' : f.dir) || '.');
  return { table: { framework: project.framework, folders, basePath, routes, truncated }, notes };
}
