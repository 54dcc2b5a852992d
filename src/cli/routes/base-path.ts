// The base path a site is served under (`--base-path /docs`, Next.js `basePath`): removed as whole segments before
// a URL is matched. Next's config is read as text with one conservative pattern, never executed: only a single
// string literal `basePath: '/x'` counts, and only from a file inside the repository reached through no symbolic
// link (repository.ts).
import { join } from 'node:path';
import type { Repository } from './repository.js';

const NEXT_CONFIGS = ['next.config.js', 'next.config.mjs', 'next.config.ts', 'next.config.cjs', 'next.config.mts'];

/**
 * The segments of a base path, each percent-decoded; throws an Error when it does not start with `/`.
 * @example basePathSegments('/docs/v2/') // ['docs', 'v2']
 */
export function basePathSegments(text: string): string[] {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/') || /[?#\s]/.test(trimmed))
    throw new Error(`the base path must be a URL path starting with '/' (such as /docs), got ${JSON.stringify(text)}`);
  return trimmed
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/** What a Next.js config says of `basePath`. */
export interface NextBasePath {
  /** The config file read, relative to the source root. */
  file: string;
  /** The literal base path, when exactly one literal is given. */
  basePath?: string | undefined;
  /** Set when the file names `basePath` in a way this reading cannot be sure of. */
  unsure?: string | undefined;
}

/**
 * Reads `basePath` from the first `next.config.*` under `root` (a folder of `repo`): `basePath: '/docs'` gives
 * `/docs`; a computed or repeated value gives `unsure` (the caller says `--base-path` settles it); no mention, no
 * base path. A config reached through a symbolic link counts as absent.
 * @example nextBasePath(repositoryAt('/repo'), '/repo') // { file: 'next.config.mjs', basePath: '/docs' }
 */
export function nextBasePath(repo: Repository, root: string): NextBasePath | undefined {
  const file = NEXT_CONFIGS.find((name) => repo.isFile(join(root, name)));
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = repo.readText(join(root, file), 'Next.js config');
  } catch {
    return { file, unsure: 'it could not be read' };
  }
  const mentions = text.match(/\bbasePath\b/g)?.length ?? 0;
  if (mentions === 0) return { file };
  const literals = [...text.matchAll(/\bbasePath\s*:\s*(['"`])(\/[^'"`\\$\s]*)\1/g)].map((m) => m[2] ?? '');
  if (literals.length === 1 && mentions === 1) return { file, basePath: literals[0] };
  return { file, unsure: 'its basePath is not a single string literal' };
}
