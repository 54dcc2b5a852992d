// The one gate of every file-system access of the route inference: a path is looked at, listed or read only when
// every component from the repository root down to it is no symbolic link, and its real path lies under the root's.
// Checking only the last component let a pull request make `src/` (or `app/`, a sub-folder) a link to a folder
// outside the repository, and route files were read from there and named in SARIF locations. The root itself may
// be reached through a link (`/tmp` on macOS): real paths are compared, never the names.
import { type Dirent, lstatSync, readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { readTextFile } from '../io/read-file.js';

/** Where the route inference may look: under one repository root, through no symbolic link. */
export interface Repository {
  /** The repository root, absolute, as named (it may be reached through a symbolic link). */
  readonly root: string;
  /** The symbolic links refused so far, relative to the root and `/`-separated, each once, in the order met. */
  readonly links: readonly string[];
  /**
   * Whether `path` is a directory inside the repository, reached through no link.
   * @example repo.isDirectory('/repo/app') // true
   */
  isDirectory(path: string): boolean;
  /**
   * Whether `path` is a regular file inside the repository, reached through no link (a FIFO or device is not).
   * @example repo.isFile('/repo/package.json') // true
   */
  isFile(path: string): boolean;
  /**
   * The size of the regular file `path` in bytes, or undefined when it is no such file inside the repository.
   * @example repo.fileSize('/repo/app/page.tsx') // 412
   */
  fileSize(path: string): number | undefined;
  /**
   * The entries of the directory `path` (their own types: a link is listed as a link, never followed), or undefined
   * when it is no directory inside the repository or cannot be read.
   * @example repo.list('/repo/app')?.map((e) => e.name) // ['blog', 'page.tsx']
   */
  list(path: string): Dirent[] | undefined;
  /**
   * The text of the regular file `path` inside the repository (see `readTextFile`; never waiting for a writer).
   * @default maxBytes 1 MiB
   * @throws Error when it is no regular file inside the repository, or cannot be read under the cap
   * @example repo.readText('/repo/package.json', 'package.json')
   */
  readText(path: string, what: string, maxBytes?: number): string;
  /**
   * Records `path` as a symbolic link that is not followed (the walk meets links as directory entries).
   * @example repo.refuse('/repo/app/alias.tsx')
   */
  refuse(path: string): void;
}

/**
 * The repository root of the source root `root` (absolute): the nearest folder up from it holding `.git` (a folder,
 * or a worktree's file); `root` itself when there is none, so paths stay relative to what the user named.
 * @example repositoryRoot('/repo/web') // '/repo'
 */
export function repositoryRoot(root: string): string {
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

/**
 * The gate for the repository at `root` (absolute).
 * @example const repo = repositoryAt('/repo'); repo.isDirectory('/repo/src/app')
 */
export function repositoryAt(root: string): Repository {
  const links = new Set<string>();
  const named = (path: string) => relative(root, path).split(sep).join('/');
  const refuse = (path: string) => {
    links.add(named(path));
  };
  const realRoot = realPathOf(root);
  const stat = (path: string): Stats | undefined => {
    const found = statBelow(root, path, refuse);
    if (found === undefined || realRoot === undefined) return undefined;
    // With no link below the root, the real path is outside it only if the tree changed meanwhile: checked, not
    // assumed.
    const real = realPathOf(path);
    if (real === undefined) return undefined;
    if (!isInside(real, realRoot)) {
      refuse(path);
      return undefined;
    }
    return found;
  };

  return {
    root,
    get links() {
      return [...links];
    },
    isDirectory: (path) => stat(path)?.isDirectory() ?? false,
    isFile: (path) => stat(path)?.isFile() ?? false,
    fileSize: (path) => {
      const found = stat(path);
      return found?.isFile() ? found.size : undefined;
    },
    list: (path) => {
      if (!stat(path)?.isDirectory()) return undefined;
      try {
        return readdirSync(path, { withFileTypes: true });
      } catch {
        return undefined;
      }
    },
    readText: (path, what, maxBytes) => {
      if (!stat(path)?.isFile()) throw new Error(`${named(path)} is no regular file inside the repository`);
      // O_NOFOLLOW: a link swapped in for the file between the check above and the read is refused, not followed.
      return readTextFile(path, {
        what,
        writerWaitMs: 0,
        idleMs: 0,
        noFollow: true,
        ...(maxBytes === undefined ? {} : { maxBytes }),
      });
    },
    refuse,
  };
}

// The real path of `path`, or undefined when it does not resolve.
function realPathOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

const isInside = (real: string, base: string): boolean =>
  real === base || real.startsWith(base.endsWith(sep) ? base : `${base}${sep}`);

// The stats of `path` itself (lstat), when it is `root` or below it and no component after the root is a symbolic
// link; a link met on the way is handed to `refuse` and refuses the path. The root may be a link itself.
function statBelow(root: string, path: string, refuse: (link: string) => void): Stats | undefined {
  const rel = relative(root, path);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  try {
    let found = statSync(root);
    let at = root;
    for (const part of rel.split(sep).filter(Boolean)) {
      at = join(at, part);
      found = lstatSync(at);
      if (found.isSymbolicLink()) {
        refuse(at);
        return undefined;
      }
    }
    return found;
  } catch {
    return undefined;
  }
}

// At most this many links are named in the warning; the rest are counted.
const NAMED_LINKS = 5;

/**
 * The one warning line for the symbolic links a route inference refused, or undefined when there was none.
 * @example linksWarning(['src']) // 'warning: sarif map: the symbolic link src is not followed (…)'
 */
export function linksWarning(links: readonly string[]): string | undefined {
  if (links.length === 0) return undefined;
  const shown = links.slice(0, NAMED_LINKS).join(', ');
  const more = links.length > NAMED_LINKS ? ` and ${links.length - NAMED_LINKS} more` : '';
  const what = links.length === 1 ? `the symbolic link ${shown} is` : `the symbolic links ${shown}${more} are`;
  return `warning: sarif map: ${what} not followed (route files are read only inside the repository, reached through no symbolic link)`;
}
