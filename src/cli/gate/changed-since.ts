// `--changed-since <git ref>`: check only the pages a change touched. The `--source-map` entries say which
// source file (or glob) renders the pages under a URL path prefix; a page is kept when a file mapped to any
// prefix of its path changed since the ref (`git diff --name-only`), and every page no entry maps is kept too
// (nothing says it was not touched). Git runs without a shell, the ref after `--end-of-options`.
import { execFileSync } from 'node:child_process';
import { UsageError } from '../exit-codes.js';
import type { SourceMapEntry } from '../report/index.js';
import { parseUrl } from '../io/parse-url.js';

/** Which pages a change touched. */
export interface AffectedPages {
  /** Pages to check: mapped to a changed file, or not mapped at all; in the order given. */
  kept: string[];
  /** Of `kept`, those no map entry covers. */
  unmapped: string[];
  /** Pages left out: every file mapped to them is unchanged. */
  skipped: string[];
  /** Files changed since the ref (repository-relative). */
  changedFiles: string[];
}

// Most bytes of `git diff` output read (a million changed paths is far past any real change).
const MAX_GIT_OUTPUT = 64 * 1024 * 1024;

/**
 * Files changed between `ref` and the working tree, repository-relative (`git diff --name-only --no-renames`,
 * so a renamed file counts under its old and its new name), run in `cwd`.
 * @throws UsageError (exit 2) when the ref is not a commit there, or git cannot run
 * @example changedFiles('origin/main', process.cwd()) // ['src/pages/checkout.tsx']
 */
export function changedFiles(ref: string, cwd: string): string[] {
  if (ref.trim() === '' || ref.startsWith('-'))
    throw new UsageError(`--changed-since needs a git ref (a branch, tag or commit), got ${JSON.stringify(ref)}`, 'ci');
  const git = (args: string[]) =>
    execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: MAX_GIT_OUTPUT,
      timeout: 60_000,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    });
  try {
    git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError('--changed-since needs git, which was not found on PATH', 'ci');
    throw new UsageError(
      `--changed-since: ${ref} is not a commit in the repository at ${cwd} (in CI, fetch it first: actions/checkout with fetch-depth: 0)`,
      'ci',
    );
  }
  let out: string;
  try {
    out = git([
      '-c',
      'core.quotePath=false',
      'diff',
      '--name-only',
      '--no-renames',
      '--no-relative',
      '-z',
      '--end-of-options',
      ref,
      '--',
    ]);
  } catch (error) {
    throw new UsageError(
      `--changed-since: git diff against ${ref} failed (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      'ci',
    );
  }
  return out.split('\0').filter((path) => path !== '');
}

/**
 * A glob as a regular expression over repository-relative paths: `**` any run of characters (`/` included),
 * `*` any run without `/`, `?` one character other than `/`; everything else literal. A pattern without a glob
 * character names one file, or a folder and everything in it.
 * @example globToRegExp('src/pages/**').test('src/pages/checkout/pay.tsx') // true
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` also matches no folder at all (`src/**/a.ts` matches `src/a.ts`).
      source += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(/[*?]/.test(glob) ? `^${source}$` : `^${source}(?:/.*)?$`);
}

// Every entry whose prefix covers the page's path (`/checkout` covers `/checkout` and `/checkout/pay`).
function entriesOf(url: string, map: readonly SourceMapEntry[]): SourceMapEntry[] {
  const path = parseUrl(url)?.pathname ?? '';
  return map.filter(({ prefix }) => prefix === '/' || path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * Splits pages into those a change touched (a file mapped to one of their prefixes changed), those no entry
 * maps (kept: nothing says they were not touched), and those left out.
 * @example affectedPages(urls, [{ prefix: '/checkout', file: 'src/checkout/**' }], ['src/checkout/pay.tsx'])
 */
export function affectedPages(
  urls: readonly string[],
  map: readonly SourceMapEntry[],
  changed: readonly string[],
): AffectedPages {
  const kept: string[] = [];
  const unmapped: string[] = [];
  const skipped: string[] = [];
  const patterns = new Map(map.map((e) => [e.file, globToRegExp(e.file)]));
  for (const url of urls) {
    const entries = entriesOf(url, map);
    if (entries.length === 0) {
      kept.push(url);
      unmapped.push(url);
    } else if (entries.some((e) => changed.some((file) => patterns.get(e.file)!.test(file)))) kept.push(url);
    else skipped.push(url);
  }
  return { kept, unmapped, skipped, changedFiles: [...changed] };
}
