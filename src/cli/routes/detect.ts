// Which framework a project is built with, and where its routes live: read from package.json's dependencies (and
// devDependencies, where Astro and SvelteKit usually sit), never by running anything. A folder with no package.json
// whose site folder holds HTML files is a static site. Every look at the disk goes through the repository's gate
// (repository.ts): a file or folder reached through a symbolic link counts as absent.
import { join } from 'node:path';
import { astroRouter } from './astro.js';
import { nextAppRouter } from './next-app.js';
import { nextPagesRouter } from './next-pages.js';
import { nuxtRouter } from './nuxt.js';
import { remixRouter } from './remix.js';
import type { Repository } from './repository.js';
import { staticSiteRouter } from './static-site.js';
import { svelteKitRouter } from './sveltekit.js';
import type { FileRouter, Framework } from './types.js';

/** A routes folder and how its files are read. */
interface RoutesFolder {
  /** Relative to the source root, `/`-separated (`.` for the root itself). */
  dir: string;
  router: FileRouter;
}

/** A recognised project. */
export interface Project {
  framework: Framework;
  folders: RoutesFolder[];
  /**
   * Whether a route module without a default export is no page (Remix and React Router: a resource route, which
   * answers with data, not a rendered page).
   */
  pagesExportDefault: boolean;
}

/** Why a folder is no recognised project, for messages. */
export interface Unrecognised {
  reason: string;
}

const DEPENDENCY_KEYS = ['dependencies', 'devDependencies'] as const;

// The dependency names of package.json, or undefined when there is none (a static site may be there).
function dependenciesOf(repo: Repository, root: string): Set<string> | undefined | Unrecognised {
  const file = join(root, 'package.json');
  if (!repo.isFile(file)) return undefined;
  try {
    const data: unknown = JSON.parse(repo.readText(file, 'package.json'));
    const names = new Set<string>();
    for (const key of DEPENDENCY_KEYS) {
      const deps = (data as Record<string, unknown> | null)?.[key];
      if (deps && typeof deps === 'object') for (const name of Object.keys(deps)) names.add(name);
    }
    return names;
  } catch (error) {
    return { reason: `package.json could not be read (${(error as Error).message})` };
  }
}

// What detection reads: the project's folder, through the repository's gate.
interface At {
  repo: Repository;
  root: string;
}

const real = (at: At, dir: string) => at.repo.isDirectory(join(at.root, dir));

function nextFolders(at: At): RoutesFolder[] {
  // "src/app or src/pages will be ignored if app or pages are present in the root directory" (Next.js docs,
  // Project structure: src folder).
  const base = real(at, 'app') || real(at, 'pages') ? '' : 'src/';
  return [
    { dir: `${base}app`, router: nextAppRouter },
    { dir: `${base}pages`, router: nextPagesRouter },
  ].filter((f) => real(at, f.dir));
}

// React Router 7 declares its routes in app/routes.ts: only one that calls flatRoutes() reads app/routes/.
function usesFlatRoutes(at: At): boolean {
  const config = ['app/routes.ts', 'app/routes.js'].find((f) => at.repo.isFile(join(at.root, f)));
  if (config === undefined) return true;
  try {
    return /\bflatRoutes\s*\(/.test(at.repo.readText(join(at.root, config), config));
  } catch {
    return false;
  }
}

// The site folder of a static site: the first of public/, dist/, out/ that exists, else the root.
function staticFolder(at: At): string {
  return ['public', 'dist', 'out'].find((dir) => real(at, dir)) ?? '.';
}

function hasHtmlFiles(at: At, dir: string): boolean {
  const entries = at.repo.list(join(at.root, dir)) ?? [];
  return entries.some((e) => e.isFile() && /\.html$/i.test(e.name));
}

/**
 * The project at `root` (absolute, inside `repo`): its framework and routes folders, or why none is recognised.
 * The first of Next.js, Astro, SvelteKit, Nuxt, Remix/React Router found in the dependencies decides; its routes
 * folder must exist. Files and folders reached through a symbolic link count as absent (and `repo` records them).
 * @example detectProject(repositoryAt('/repo'), '/repo') // { framework: 'next', folders: [{ dir: 'app', … }], … }
 */
export function detectProject(repo: Repository, root: string): Project | Unrecognised {
  const at: At = { repo, root };
  const deps = dependenciesOf(repo, root);
  if (deps === undefined) {
    const dir = staticFolder(at);
    if (!hasHtmlFiles(at, dir))
      return { reason: `there is no package.json, and ${dir === '.' ? 'the folder' : `${dir}/`} holds no .html file` };
    return { framework: 'static', folders: [{ dir, router: staticSiteRouter }], pagesExportDefault: false };
  }
  if (!(deps instanceof Set)) return deps;
  const has = (name: string) => deps.has(name);
  const candidates: Array<[Framework, () => RoutesFolder[], string]> = [
    ['next', () => nextFolders(at), 'app/, pages/, src/app/ or src/pages/'],
    ['astro', () => (real(at, 'src/pages') ? [{ dir: 'src/pages', router: astroRouter }] : []), 'src/pages/'],
    [
      'sveltekit',
      () => (real(at, 'src/routes') ? [{ dir: 'src/routes', router: svelteKitRouter }] : []),
      'src/routes/',
    ],
    [
      'nuxt',
      () =>
        ['app/pages', 'pages']
          .filter((dir) => real(at, dir))
          .slice(0, 1)
          .map((dir) => ({ dir, router: nuxtRouter })),
      'app/pages/ or pages/',
    ],
    [
      'remix',
      () => (real(at, 'app/routes') && usesFlatRoutes(at) ? [{ dir: 'app/routes', router: remixRouter }] : []),
      'app/routes/ (flat routes)',
    ],
  ];
  const present: Record<Framework, boolean> = {
    next: has('next'),
    astro: has('astro'),
    sveltekit: has('@sveltejs/kit'),
    nuxt: has('nuxt'),
    remix: [...deps].some((d) => d.startsWith('@remix-run/') || d === 'react-router' || d === '@react-router/dev'),
    static: false,
  };
  const found = candidates.find(([framework]) => present[framework]);
  if (!found)
    return { reason: 'package.json names none of next, astro, @sveltejs/kit, nuxt, @remix-run/*, react-router' };
  const [framework, foldersOf, expected] = found;
  const folders = foldersOf();
  if (folders.length === 0) return { reason: `it depends on ${framework} but has no ${expected}` };
  return { framework, folders, pagesExportDefault: framework === 'remix' };
}
