// Where a SARIF result points: a repository-relative path derived from the page's host and path, or the source
// file a URL-path-prefix map assigns to the page (`--source-map`, `sourceMap` in the config file).
import { createHash } from 'node:crypto';
import type { PhysicalLocation } from 'sarif';
import { matchRoute, type RouteTable, type SourceLocation } from '../routes/index.js';
import { parseUrl } from '../io/parse-url.js';

/** `uriBaseId` of locations mapped to source files: the repository root, as CodeQL and GitHub name it. */
export const SOURCE_ROOT = '%SRCROOT%';

/** Artifact location of a finding or page that carries no URL (GitHub drops a result that has no location). */
export const UNKNOWN_PAGE_URI = 'unknown-page';

/** One entry of a source map: pages whose URL path starts with `prefix` are reported in `file`. */
export interface SourceMapEntry {
  /** URL path prefix, matched on whole path segments (`/checkout` matches `/checkout/pay`, not `/checkouts`). */
  prefix: string;
  /** Repository-relative file that renders those pages, e.g. `src/pages/checkout.tsx`. */
  file: string;
}

// Path segments are clipped like file names (with a hash, so they stay distinct and stable).
const MAX_SEGMENT_CHARS = 120;
const MAX_SEGMENTS = 24;

/** The first `hexChars` hex digits of the SHA-256 of `value`. */
export const hashOf = (value: string, hexChars: number): string =>
  createHash('sha256').update(value).digest('hex').slice(0, hexChars);

/**
 * `value` with every lone UTF-16 surrogate as U+FFFD: one cannot be written as UTF-8 (JSON.stringify would emit
 * `\ud800`, which strict readers reject, and encodeURIComponent throws on it).
 */
export const wellFormedText = (value: string): string =>
  value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

// One path segment as RFC 3986 `segment-nz-nc` (§3.3): unreserved and sub-delims stay, every other character is
// percent-encoded as UTF-8, `:` included so that no segment can read as a scheme.
function encodeSegment(segment: string): string {
  return Array.from(wellFormedText(segment), (c) =>
    /^[A-Za-z0-9\-._~!$&'()*+,;=@]$/.test(c) ? c : encodeURIComponent(c),
  ).join('');
}

function clipSegment(segment: string): string {
  const encoded = encodeSegment(segment);
  if (encoded.length <= MAX_SEGMENT_CHARS) return encoded;
  let kept = '';
  for (const c of segment) {
    const next = kept + encodeSegment(c);
    if (next.length > MAX_SEGMENT_CHARS - 9) break;
    kept = next;
  }
  return `${kept}~${hashOf(segment, 8)}`;
}

// Repository-relative location of a page (GitHub's upload tooling takes relative paths and `file:` URIs only):
// `host[:port]/path` with the query and fragment dropped, e.g. `https://shop.example.com/checkout?x=1` →
// `shop.example.com/checkout`, `http://localhost:3000/` → `localhost%3A3000/`. Each path segment is decoded, then
// stripped of what could climb or split a path once a consumer decodes it again (`/`, `\`, controls become `_`;
// `.` and `..` segments, which WHATWG already resolves, and empty ones are dropped) and re-encoded; a trailing `/`
// is kept. A value that is not a URL with a host becomes one such segment. The mapping ignores the fingerprint.
function pagePath(url: string): string {
  const parsed = parseUrl(url);
  const raw = parsed?.host ? [parsed.host, ...parsed.pathname.split('/').slice(1)] : [url];
  const segments = raw
    .map((s) =>
      s.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
        try {
          return decodeURIComponent(run);
        } catch {
          return run;
        }
      }),
    )
    .map((s) => wellFormedText(s).replace(/[/\\\u0000-\u001F\u007F-\u009F]/g, '_'))
    .filter((s, i, all) => (s !== '' || i === all.length - 1) && s !== '.' && s !== '..')
    .map(clipSegment);
  const head = segments.slice(0, MAX_SEGMENTS);
  if (segments.length > MAX_SEGMENTS) head.push(`~${hashOf(segments.slice(MAX_SEGMENTS).join('/'), 8)}`);
  return head.join('/') || UNKNOWN_PAGE_URI;
}

// The error for a bad source-map entry, the same from the parser and from toSarif's `sourceMap` option.
function badEntry(entry: string, reason: string): Error {
  return new Error(
    `Invalid SARIF map entry ${JSON.stringify(entry)}: ${reason} (expected URL_PATH_PREFIX=FILE, e.g. /checkout=src/pages/checkout.tsx)`,
  );
}

// Validates and normalises one entry: the prefix as WHATWG serialises a path (so it compares with page URLs
// byte for byte) without a trailing `/`; the file repository-relative, `/`-separated, never climbing out (`..`).
function checkEntry(prefix: string, file: string, entry: string): SourceMapEntry {
  if (!prefix.startsWith('/')) throw badEntry(entry, "the URL path prefix must start with '/'");
  if (/[?#\u0000-\u001F\u007F]/.test(prefix))
    throw badEntry(entry, 'the URL path prefix must be a path only (no query, fragment or control character)');
  if (/[\u0000-\u001F\u007F]/.test(file)) throw badEntry(entry, 'the file contains a control character');
  if (file.includes('\\')) throw badEntry(entry, "the file must use '/' as separator");
  if (/^(\/|[A-Za-z][A-Za-z0-9+.-]*:)/.test(file))
    throw badEntry(entry, 'the file must be relative to the repository root (no leading /, drive letter or scheme)');
  const segments = file.split('/').filter((s) => s !== '.');
  if (segments.includes('..')) throw badEntry(entry, "the file must not contain '..'");
  if (segments.length === 0 || segments.includes(''))
    throw badEntry(entry, 'the file must name a file (no empty path segment or trailing /)');
  const path = new URL(prefix, 'http://prefix.invalid').pathname;
  return { prefix: path.length > 1 ? path.replace(/\/+$/, '') || '/' : path, file: segments.join('/') };
}

/**
 * Checks and normalises source-map entries (from a config file's `{ prefix: file }` object, say): prefixes start
 * with `/` and hold a path only (stored as WHATWG serialises them, without a trailing `/`), files are
 * repository-relative with `/` separators and no `..`. Throws an Error naming the first bad entry as `PREFIX=FILE`.
 * @example checkSourceMap([{ prefix: '/checkout/', file: './src/pages/checkout.tsx' }]) // [{ prefix: '/checkout', file: 'src/pages/checkout.tsx' }]
 */
export function checkSourceMap(entries: readonly SourceMapEntry[]): SourceMapEntry[] {
  return entries.map((e) => checkEntry(e.prefix, e.file, `${e.prefix}=${e.file}`));
}

/**
 * Parses a source map written as `PREFIX=FILE` entries separated by commas or line breaks (blank entries are
 * ignored; the prefix ends at the first `=`): the syntax of `--source-map`. Throws an Error naming the first bad
 * entry, or an entry whose prefix the same text already mapped.
 * @example parseSourceMap('/checkout=src/pages/checkout.tsx, /=src/pages/home.tsx')
 */
export function parseSourceMap(text: string): SourceMapEntry[] {
  const entries: SourceMapEntry[] = [];
  for (const entry of text
    .split(/[,\r\n]/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('=');
    if (eq < 0) throw badEntry(entry, "'=' is missing");
    const checked = checkEntry(entry.slice(0, eq).trim(), entry.slice(eq + 1).trim(), entry);
    if (entries.some((e) => e.prefix === checked.prefix))
      throw badEntry(entry, `the prefix ${checked.prefix} is mapped twice`);
    entries.push(checked);
  }
  return entries;
}

/**
 * The source file a map assigns to a page URL: the longest prefix that equals the URL's path or ends at one of its
 * `/`; undefined when none does (or the URL is not absolute).
 * @example mappedFile('https://shop.example.com/checkout/pay', [{ prefix: '/checkout', file: 'src/checkout.tsx' }]) // 'src/checkout.tsx'
 */
function mappedFile(url: string | undefined, map: readonly SourceMapEntry[]): string | undefined {
  const parsed = url ? parseUrl(url) : undefined;
  if (!parsed || map.length === 0) return undefined;
  const path = parsed.pathname;
  const hits = map.filter(({ prefix }) => prefix === '/' || path === prefix || path.startsWith(`${prefix}/`));
  return hits.reduce<SourceMapEntry | undefined>(
    (best, e) => (best && best.prefix.length > e.prefix.length ? best : e),
    undefined,
  )?.file;
}

/**
 * The source file (and line) that renders a page: a manual map entry's file at line 1 where one covers the page
 * (a manual entry wins for the pages it covers), else the route of `routes` that matches the URL (`--source-map
 * auto`), at its default export's line; undefined when neither does.
 * @example sourceOf('https://shop.example.com/blog/hi', [], table) // { file: 'app/blog/[slug]/page.tsx', line: 3, route: '/blog/[slug]' }
 */
export function sourceOf(
  url: string | undefined,
  map: readonly SourceMapEntry[],
  routes?: RouteTable | undefined,
): SourceLocation | undefined {
  const file = mappedFile(url, map);
  if (file !== undefined) return { file, line: 1 };
  const route = url && routes ? matchRoute(routes, url) : undefined;
  return route && { file: route.file, line: route.line, route: route.pattern };
}

/** {@link sourceOf} with its map and routes bound: where a page URL's findings go. */
export type SourceLocator = (url: string | undefined) => SourceLocation | undefined;

/**
 * {@link sourceOf} for one report, remembered per URL: a report repeats its pages' URLs on every finding, and
 * matching a URL against a large route table is worth doing once.
 * @default routes undefined (manual entries only)
 * @example const locate = sourceLocator(map, table); locate('https://shop.example.com/blog/hi')?.line // 3
 */
export function sourceLocator(map: readonly SourceMapEntry[], routes?: RouteTable | undefined): SourceLocator {
  const known = new Map<string, SourceLocation | undefined>();
  return (url) => {
    if (!url) return undefined;
    if (!known.has(url)) known.set(url, sourceOf(url, map, routes));
    return known.get(url);
  };
}

/**
 * A finding's place as a repository-relative path: the source file that renders its page (`locate`), else the
 * page as `host[:port]/path` (no scheme, query or fragment; each segment made safe as for SARIF).
 * @example relativePathOf('https://shop.example.com/checkout?x=1', sourceLocator([])) // 'shop.example.com/checkout'
 */
export function relativePathOf(url: string | undefined, locate: SourceLocator): string {
  return locate(url)?.file ?? (url ? pagePath(url) : UNKNOWN_PAGE_URI);
}

/**
 * A SARIF physical location of a page: its source file relative to `%SRCROOT%` at the line `locate` gives, else
 * the page's host and path at line 1. GitHub needs `region.startLine` (its rule GH1003); the API reports elements
 * of rendered pages, not source lines, so a location is the file (or the page) as a whole, at the line where a
 * route module exports its page where that is known.
 * @example physicalLocationOf('https://shop.example.com/', sourceLocator([])) // { artifactLocation: { uri: 'shop.example.com/' }, region: { startLine: 1 } }
 */
export function physicalLocationOf(url: string | undefined, locate: SourceLocator): PhysicalLocation {
  const source = locate(url);
  return {
    artifactLocation: source
      ? { uri: source.file.split('/').map(encodeSegment).join('/'), uriBaseId: SOURCE_ROOT }
      : { uri: url ? pagePath(url) : UNKNOWN_PAGE_URI },
    region: { startLine: source?.line ?? 1 },
  };
}
