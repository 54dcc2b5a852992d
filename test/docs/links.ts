// Where a link of a page leads, and what is wrong with it: a relative link must name a file or folder of the
// repository, a `#anchor` a heading of its page (GitHub's anchors), and a README link — npmjs.com renders the README
// from the package, where relative links 404 — must be absolute, its links to this repository naming files that exist.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { anchorsOf, type Link, type Page, ROOT, repositoryUrl } from './pages.js';

/** `https://github.com/owner/name`, from package.json. */
export const REPOSITORY = repositoryUrl();

/** What is wrong with a link, or undefined when it resolves. `read` gives the page a repository path holds. */
export function linkProblem(link: Link, read: (path: string) => Page): string | undefined {
  const { target } = link;
  if (/^mailto:/.test(target)) return undefined;
  const readme = link.page === 'README.md';
  if (/^https?:\/\//.test(target)) {
    if (!target.startsWith(`${REPOSITORY}/`)) return undefined; // another site: not fetched (the tests run offline)
    const inRepository = /^(blob|tree)\/main\/([^#?]*)(?:#(.*))?$/.exec(target.slice(REPOSITORY.length + 1));
    if (!inRepository) return `links into ${REPOSITORY} other than blob/main/<file> or tree/main/<folder>`;
    const [, kind, path, anchor] = inRepository;
    return fileProblem(decodeURIComponent(path!), anchor, kind === 'tree' ? 'folder' : 'file', read);
  }
  if (readme)
    return `is relative: npmjs.com renders the README from the package, where it 404s (use ${REPOSITORY}/blob/main/…)`;
  if (/^[a-z][a-z+.-]*:/i.test(target)) return 'uses a scheme other than https or mailto';
  const [path, anchor] = target.split('#') as [string, string | undefined];
  if (path === '') return anchorProblem(link.page, anchor!, read);
  const resolved = normalize(join(dirname(link.page), decodeURIComponent(path.split('?')[0]!)));
  if (resolved.startsWith('..')) return 'leaves the repository';
  return fileProblem(resolved.replace(/\/$/, ''), anchor, 'any', read);
}

function fileProblem(
  path: string,
  anchor: string | undefined,
  kind: 'file' | 'folder' | 'any',
  read: (path: string) => Page,
): string | undefined {
  const full = join(ROOT, path);
  if (!existsSync(full)) return `names ${path}, which does not exist`;
  const isFolder = statSync(full).isDirectory();
  if (kind === 'file' && isFolder) return `names the folder ${path} as a file (blob/ instead of tree/)`;
  if (kind === 'folder' && !isFolder) return `names the file ${path} as a folder (tree/ instead of blob/)`;
  if (anchor === undefined) return undefined;
  if (path.endsWith('.md')) return anchorProblem(path, anchor, read);
  return /^L\d+(-L\d+)?$/.test(anchor) ? undefined : `has an anchor #${anchor} in a file that is not a page`;
}

function anchorProblem(path: string, anchor: string, read: (path: string) => Page): string | undefined {
  const anchors = anchorsOf(read(path));
  return anchors.has(decodeURIComponent(anchor)) ? undefined : `#${anchor} is no heading of ${path}`;
}

/** Reference-style links (`[text][label]`) whose label the page never defines: GitHub shows them as plain text. */
export function undefinedReferences(page: Page): string[] {
  const text = page.prose.replace(/(`+)[\s\S]*?\1/g, '');
  const defined = new Set([...text.matchAll(/^ {0,3}\[([^\]]+)\]:/gm)].map((m) => m[1]!.toLowerCase()));
  return [...text.matchAll(/\]\[([^\]]+)\]/g)]
    .map((m) => m[1]!.toLowerCase())
    .filter((label) => !defined.has(label))
    .map((label) => `${page.path}: [${label}] is used but never defined`);
}
