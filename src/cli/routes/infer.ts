// `--sarif-map auto`: the route table of the project at the source root, from its framework's file-system routing.
// Files are listed under the walk's bounds and only route modules are read (for their default export's line).
import { lstatSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { basePathSegments, nextBasePath } from './base-path.js';
import { patternOf } from './brackets.js';
import { defaultExportLine, MAX_MODULE_BYTES_IN_ALL } from './default-export.js';
import { detectProject } from './detect.js';
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

/** A route table and what the inference wants said about it (on stderr), or why there is none. */
export type Inference = { table: RouteTable; notes: string[] } | { reason: string };

// Modules whose default export is worth a look; other pages (.svelte, .vue, .astro, .html, .md) point at line 1.
const SCRIPT = /\.(tsx|ts|jsx|js|mjs)$/;

// The repository root: the nearest folder up from `root` holding `.git` (a folder, or a worktree's file); the
// source root itself when there is none, so paths stay relative to what the user named.
function repositoryRoot(root: string): string {
  for (let dir = root; ; ) {
    try {
      lstatSync(join(dir, '.git'));
      return dir;
    } catch {
      const up = resolve(dir, '..');
      if (up === dir) return root;
      dir = up;
    }
  }
}

const slashed = (path: string): string => path.split(sep).join('/');

/**
 * The route table of the project at `options.sourceRoot`, or why it is no recognised project. Files are relative
 * to the repository root (the nearest `.git` up from the source root).
 * @throws Error when `options.basePath` is not a path starting with `/`
 * @example const inferred = inferRoutes({ sourceRoot: '.' }); if ('table' in inferred) matchRoute(inferred.table, url);
 */
export function inferRoutes(options: InferOptions): Inference {
  const root = resolve(options.sourceRoot);
  const explicitBase = options.basePath === undefined ? undefined : basePathSegments(options.basePath);
  const project = detectProject(root);
  if (!('framework' in project)) return project;
  const notes: string[] = [];
  let basePath = explicitBase ?? [];
  if (explicitBase === undefined && project.framework === 'next') {
    const next = nextBasePath(root);
    if (next?.basePath !== undefined) {
      basePath = basePathSegments(next.basePath);
      notes.push(`base path ${next.basePath} from ${next.file}`);
    } else if (next?.unsure)
      notes.push(`${next.file}: ${next.unsure}; no base path is assumed (give --base-path if the site has one)`);
  }
  const prefix = slashed(relative(repositoryRoot(root), root));
  const inRepo = (path: string) => (prefix ? `${prefix}/${path}` : path);
  const budget = { left: options.maxEntries ?? MAX_WALK_ENTRIES };
  const reads = { bytes: MAX_MODULE_BYTES_IN_ALL };
  const routes: Route[] = [];
  let truncated = false;
  for (const folder of project.folders) {
    const walked = walkFiles(join(root, folder.dir), budget);
    truncated ||= walked.truncated;
    for (const file of walked.files) {
      const specs = folder.router(file);
      if (specs.length === 0) continue;
      const onDisk = folder.dir === '.' ? file : `${folder.dir}/${file}`;
      const found = SCRIPT.test(file) ? defaultExportLine(join(root, onDisk), reads) : undefined;
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
