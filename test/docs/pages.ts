// The repository's markdown pages as the documentation tests read them: their fenced code blocks, their links and
// the anchors their headings get on GitHub. A small reader of the CommonMark subset the pages use (fences at the
// margin or in a list, inline links, reference definitions, autolinks), so a test needs no markdown dependency.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Markdown files that are not pages someone wrote, and what checks them instead. */
const NOT_PAGES: ReadonlyArray<[RegExp, string]> = [
  [/^api\/.*\.api\.md$/, 'API Extractor reports, written by `npm run api:update` and compared by `npm run api:check`'],
  [/^CHANGELOG\.md$/, 'written by `changeset version` from the changesets'],
  [/^\.changeset\/(?!README\.md$).*\.md$/, 'changeset entries: release notes in waiting, not pages'],
  [/^bench\/results\//, 'written by `npm run bench`'],
];

/** Every markdown page of the repository (committed or about to be), by path from the root. */
export function pagePaths(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.md'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return [...new Set(listed.split('\n').filter(Boolean))]
    .filter((path) => !NOT_PAGES.some(([pattern]) => pattern.test(path)))
    .sort();
}

/** A fenced code block of a page. */
export interface CodeBlock {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word, lower-case ('' when none). */
  lang: string;
  text: string;
}

/** A link of a page: its destination as written. */
export interface Link {
  page: string;
  line: number;
  target: string;
}

/** A page split into its code blocks and its prose (the code blocks blanked out, line numbers kept). */
export interface Page {
  path: string;
  source: string;
  blocks: CodeBlock[];
  prose: string;
}

const FENCE = /^( {0,3}(?:[-*+] |\d+\. )?)(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;

/** Reads a page (path from the root, or `source` given directly, as the tests' own samples are). */
export function readPage(path: string, source = readFileSync(join(ROOT, path), 'utf8')): Page {
  const lines = source.split('\n');
  const blocks: CodeBlock[] = [];
  const prose: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) {
      prose.push(lines[i]!);
      continue;
    }
    const indent = open[1]!.length;
    const fence = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (new RegExp(`^ {0,${indent + 3}}${fence[0]}{${fence.length},}\\s*$`).test(line)) break;
      body.push(line.slice(Math.min(indent, line.length - line.trimStart().length)));
    }
    blocks.push({ page: path, line: i + 1, lang: (open[3] ?? '').toLowerCase(), text: `${body.join('\n')}\n` });
    for (let k = i; k <= j && k < lines.length; k++) prose.push('');
    i = j;
  }
  return { path, source, blocks, prose: prose.join('\n') };
}

/** Every link of a page's prose: inline links and images, reference definitions, autolinks and HTML hrefs. */
export function linksOf(page: Page): Link[] {
  // Code spans hold examples, not links (`https://[redacted]@host/`); blanked with their length kept.
  const text = page.prose.replace(/(`+)[\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, ' '));
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const links: Link[] = [];
  const patterns = [
    /!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
    /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm,
    /<(https?:\/\/[^>\s]+)>/g,
    /\bhref="([^"]+)"/g,
  ];
  for (const pattern of patterns)
    for (const match of text.matchAll(pattern))
      links.push({ page: page.path, line: lineAt(match.index), target: match[1]! });
  return links.sort((a, b) => a.line - b.line);
}

/** The anchors GitHub gives a page's headings (github-slugger's rule: lower-case, punctuation dropped, `-1` on repeats). */
export function anchorsOf(page: Page): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of page.prose.split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text only
      .replace(/<[^>]+>/g, '') // HTML tags
      .replace(/[`*]|(?<!\w)_|_(?!\w)/g, ''); // code and emphasis marks
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of page.prose.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

/** `https://github.com/owner/name` from package.json's `repository` (where npmjs.com's README links must point). */
export function repositoryUrl(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { repository: { url: string } };
  return pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
}
