// The line of a route module's default export (the component that renders the page), found by a line-wise look
// at its text: cheap, never executing anything; a file whose export cannot be seen this way is pointed at line 1.
import type { Repository } from './repository.js';

// Route modules are small; a larger file is not read (its page is then reported at line 1).
const MAX_MODULE_BYTES = 512 * 1024;

/**
 * Most bytes of route modules one inference reads, in all: past it, pages point at line 1.
 * @default 16 MiB
 */
export const MAX_MODULE_BYTES_IN_ALL = 16 * 1024 * 1024;

/** The bytes left to read, shared by the modules of one inference. */
export interface ReadBudget {
  bytes: number;
}

const DEFAULT_EXPORT = /^\s*export\s+default\b|^\s*export\s*\{[^}]*\bdefault\b/;

/**
 * Where `file` (a regular file of `repo`, as the walk found it) exports its default: `{ line }` (1-based) when a
 * line says `export default` or `export { … default … }`, `{ line: undefined }` when none does, and
 * `{ unread: true }` when the file cannot be read under the caps (512 KiB a module, `budget` in all) or is no
 * longer a regular file reached through no symbolic link, so a caller never takes an unread module for one without
 * a page.
 * @default budget { bytes: MAX_MODULE_BYTES_IN_ALL }
 * @example defaultExportLine(repositoryAt('/repo'), '/repo/app/page.tsx') // { line: 3 }
 */
export function defaultExportLine(
  repo: Repository,
  file: string,
  budget: ReadBudget = { bytes: MAX_MODULE_BYTES_IN_ALL },
): { line: number | undefined } | { unread: true } {
  let text: string;
  try {
    // Its size first, through the gate again: the walk listed a regular file, and a link swapped in since (for it
    // or a folder above it) is not followed.
    const size = repo.fileSize(file);
    if (size === undefined || size > MAX_MODULE_BYTES || size > budget.bytes) return { unread: true };
    budget.bytes -= size;
    text = repo.readText(file, 'route file', MAX_MODULE_BYTES);
  } catch {
    return { unread: true };
  }
  const at = text.split(/\r?\n/).findIndex((line) => DEFAULT_EXPORT.test(line));
  return { line: at < 0 ? undefined : at + 1 };
}
