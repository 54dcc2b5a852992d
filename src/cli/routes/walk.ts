// The files of a routes folder, read under bounds: through the repository's gate (repository.ts: no symbolic link
// anywhere from the repository root down, so never out of it; a link met is named in the run's warning), never
// opening anything (a FIFO is only listed, never read), skipping node_modules, .git and every dot-folder, and
// stopping at a cap on the entries visited so a huge or generated tree cannot stall a run.
import { join } from 'node:path';
import type { Repository } from './repository.js';

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

// Folders no route lives in: skipped by name, a link of that name too (and then not warned about).
const skipped = (name: string) => name.startsWith('.') || name === 'node_modules';

/**
 * The regular files under `folder` (none when it is no directory of `repo` reached through no symbolic link); every
 * link met inside is refused through `repo`, never followed.
 * @default budget { left: MAX_WALK_ENTRIES }
 * @example walkFiles(repositoryAt('/repo'), '/repo/app').files // ['(shop)/cart/page.tsx', 'page.tsx']
 */
export function walkFiles(
  repo: Repository,
  folder: string,
  budget: WalkBudget = { left: MAX_WALK_ENTRIES },
): WalkResult {
  const files: string[] = [];
  let truncated = false;
  const visit = (dir: string, prefix: string, depth: number): void => {
    if (truncated || depth > MAX_DEPTH) return;
    // Dirents carry the entry's own type (lstat's, not the link target's).
    const entries = repo.list(dir);
    if (entries === undefined) return;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (budget.left-- <= 0) {
        truncated = true;
        return;
      }
      const name = entry.name;
      if (entry.isDirectory()) {
        if (!skipped(name)) visit(join(dir, name), `${prefix}${name}/`, depth + 1);
      } else if (entry.isFile()) files.push(`${prefix}${name}`);
      else if (entry.isSymbolicLink() && !skipped(name)) repo.refuse(join(dir, name));
      // FIFOs, sockets and devices are not routes: skipped without being opened.
    }
  };
  visit(folder, '', 0);
  return { files, truncated };
}
