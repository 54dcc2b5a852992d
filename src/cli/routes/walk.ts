// The files of a routes folder, read under bounds: never following a symbolic link (so never out of the project),
// never opening anything (a FIFO is only listed, never read), skipping node_modules, .git and every dot-folder,
// and stopping at a cap on the entries visited so a huge or generated tree cannot stall a run.
import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Most directory entries one inference visits, over all its folders.
 * @default 20000
 */
export const MAX_WALK_ENTRIES = 20_000;

// Deeper than any route tree; a guard against a pathological nesting.
const MAX_DEPTH = 32;

/** What {@link walkFiles} found. */
export interface WalkResult {
  /** Regular files, relative to the folder walked, `/`-separated, in code-point order. */
  files: string[];
  /** True when the walk stopped at the cap. */
  truncated: boolean;
}

/** A shared budget of entries, so several folders of one project share one cap. */
export interface WalkBudget {
  left: number;
}

/**
 * The regular files under `folder` (none when it is not a real directory: a symbolic link to one is not followed).
 * @default budget { left: MAX_WALK_ENTRIES }
 * @example walkFiles('/repo/app').files // ['(shop)/cart/page.tsx', 'page.tsx']
 */
export function walkFiles(folder: string, budget: WalkBudget = { left: MAX_WALK_ENTRIES }): WalkResult {
  const files: string[] = [];
  let truncated = false;
  if (!isRealDirectory(folder)) return { files, truncated };
  const visit = (dir: string, prefix: string, depth: number): void => {
    if (truncated || depth > MAX_DEPTH) return;
    let entries: Dirent[];
    try {
      // Dirents carry the entry's own type (lstat's, not the link target's).
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (budget.left-- <= 0) {
        truncated = true;
        return;
      }
      const name = entry.name;
      if (entry.isDirectory()) {
        if (name.startsWith('.') || name === 'node_modules') continue;
        visit(join(dir, name), `${prefix}${name}/`, depth + 1);
      } else if (entry.isFile()) files.push(`${prefix}${name}`);
      // Symbolic links, FIFOs, sockets and devices are not routes: skipped without being opened.
    }
  };
  visit(folder, '', 0);
  return { files, truncated };
}

/**
 * Whether `path` is a directory itself (not a symbolic link to one).
 * @example isRealDirectory('/repo/app') // true
 */
export function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether `path` is a regular file itself (not a symbolic link, FIFO or device).
 * @example isRegularFile('/repo/package.json') // true
 */
export function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}
