// `--sitemap <url|file>`: the pages a sitemap (or a sitemap index, nested, gzip-compressed or not) lists, as
// pa11y-ci reads them. Every bound is explicit: bytes per document, documents per run, index nesting, and one
// deadline for all of it; a document outside them is refused with an error naming it (exit 2), within seconds.
// Page URLs are taken as listed, whatever host served the sitemap; `--sitemap-find`/`--sitemap-replace` rewrite
// them (a production sitemap pointed at a preview host) and `--sitemap-exclude` drops some.
import { UsageError } from '../exit-codes.js';
import { normalizePageUrl } from '../pages/page-urls.js';
import { fetchSitemapBytes, readSitemapFile, SitemapFetchError } from './sitemap-fetch.js';
import { parseSitemap, SitemapFormatError } from './sitemap-xml.js';
import { formatBytes } from '../io/read-file.js';

/** Bounds and rewriting of {@link readSitemaps}. */
export interface SitemapOptions {
  /** Page URLs matching any of these (as listed, before `find`/`replace`) are left out. */
  exclude?: readonly RegExp[];
  /** Replaced by `replace` in every URL listed (pages and nested sitemaps): the first match, as `String#replace`. */
  find?: RegExp | undefined;
  /**
   * The replacement of `find` (`$1` etc. refer to its groups).
   * @default ''
   */
  replace?: string | undefined;
  /**
   * Most bytes of one document, compressed or not (the protocol allows 50 MB uncompressed; a site checked in CI
   * is far smaller).
   * @default 10 MiB
   */
  maxBytes?: number;
  /**
   * Most bytes of all documents together (after gzip): with `maxDocuments`, what bounds the parsing time.
   * @default 32 MiB
   */
  maxTotalBytes?: number;
  /**
   * Most documents read in one run (indexes and sitemaps together).
   * @default 100
   */
  maxDocuments?: number;
  /**
   * Deepest nesting of sitemap indexes: 1 means an index may list sitemaps but no further index.
   * @default 3
   */
  maxDepth?: number;
  /**
   * Time for reading every sitemap, in milliseconds.
   * @default 60000
   */
  timeoutMs?: number;
  /** `User-Agent` of the requests. */
  userAgent?: string;
  /** The fetch to use (tests inject one). @default the proxy-aware fetch of `env` */
  fetch?: typeof fetch;
  /** The environment whose proxy settings apply (the command's, which may not be the process's). @default process.env */
  env?: Record<string, string | undefined> | undefined;
}

/** What the sitemaps gave. */
export interface SitemapResult {
  /** Page URLs, normalised, each once, in the order first listed. */
  urls: string[];
  /** Documents read (indexes and sitemaps). */
  documents: number;
  /** Page URLs left out by `exclude`. */
  excluded: number;
}

/** Defaults of {@link SitemapOptions}. */
const SITEMAP_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  maxTotalBytes: 32 * 1024 * 1024,
  maxDocuments: 100,
  maxDepth: 3,
  timeoutMs: 60_000,
} as const;

/** A sitemap that could not be read within its bounds, or is not a sitemap: exit 2, naming it. */
export class SitemapError extends UsageError {
  override name = 'SitemapError';
}

interface Pending {
  source: string;
  depth: number;
  /** The index that listed it (for messages), if any. */
  parent?: string;
}

/**
 * Reads sitemaps (URLs or local files) and returns the pages they list. Sitemap indexes are followed (a
 * nested sitemap must be on the origin of the index that lists it, as the protocol requires; one listed twice
 * is read once); gzip-compressed documents are read as such.
 * @throws SitemapError naming the sitemap (and the index that listed it) and the bound or rule it broke
 * @example const { urls } = await readSitemaps(['https://shop.example.com/sitemap.xml'], { exclude: [/\/admin\//] });
 */
export async function readSitemaps(sources: readonly string[], options: SitemapOptions = {}): Promise<SitemapResult> {
  const maxBytes = options.maxBytes ?? SITEMAP_LIMITS.maxBytes;
  const maxDocuments = options.maxDocuments ?? SITEMAP_LIMITS.maxDocuments;
  const maxTotalBytes = options.maxTotalBytes ?? SITEMAP_LIMITS.maxTotalBytes;
  let totalBytes = 0;
  const maxDepth = options.maxDepth ?? SITEMAP_LIMITS.maxDepth;
  const timeoutMs = options.timeoutMs ?? SITEMAP_LIMITS.timeoutMs;
  const rewrite = (loc: string) => (options.find ? loc.replace(options.find, options.replace ?? '') : loc);
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new SitemapFetchError(`was not read within the ${timeoutMs / 1000} s given to sitemaps`)),
    timeoutMs,
  );
  const urls = new Set<string>();
  const seen = new Set<string>();
  let documents = 0;
  let excluded = 0;
  const queue: Pending[] = sources.map((source) => ({ source, depth: 0 }));
  try {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const name = item.parent ? `${item.source} (listed in ${item.parent})` : item.source;
      const fail = (rule: string): never => {
        throw new SitemapError(`sitemap ${name} ${rule}`, 'ci');
      };
      const remote = /^https?:\/\//i.test(item.source);
      const key = remote ? (normalizePageUrl(item.source) ?? item.source) : `file:${item.source}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (++documents > maxDocuments) fail(`is one document more than the ${maxDocuments} sitemaps a run reads`);
      if (totalBytes >= maxTotalBytes)
        fail(`is one document past the ${formatBytes(maxTotalBytes)} the sitemaps of a run may hold in all`);
      // Each document gets what is left of the run's total, at most its own cap.
      const cap = Math.min(maxBytes, maxTotalBytes - totalBytes);
      let text: string;
      try {
        const bytes = remote
          ? await fetchSitemapBytes(new URL(item.source), {
              maxBytes: cap,
              signal: deadline.signal,
              userAgent: options.userAgent,
              fetch: options.fetch,
              env: options.env,
            })
          : readSitemapFile(item.source, cap);
        totalBytes += bytes.length;
        text = bytes.toString('utf8').replace(/^\uFEFF/, '');
      } catch (error) {
        if (
          error instanceof SitemapFetchError &&
          cap < maxBytes &&
          /^(is larger than|decompresses to more than)/.test(error.message)
        ) {
          fail(
            `takes the sitemaps of the run past the ${formatBytes(maxTotalBytes)} they may hold in all; stopped reading`,
          );
        }
        if (error instanceof SitemapFetchError) fail(error.message);
        throw error;
      }
      let doc: ReturnType<typeof parseSitemap>;
      try {
        doc = parseSitemap(text);
      } catch (error) {
        if (error instanceof SitemapFormatError) fail(error.message);
        throw error;
      }
      // Parsing is synchronous: the deadline is checked again once it is done.
      if (deadline.signal.aborted) fail((deadline.signal.reason as Error).message);
      if (doc.kind === 'sitemapindex') {
        if (item.depth >= maxDepth)
          fail(`is a sitemap index nested ${item.depth} levels deep; at most ${maxDepth} are followed`);
        for (const loc of doc.locs) {
          const child = rewrite(loc);
          const url = normalizePageUrl(child);
          if (url === undefined)
            fail(`lists ${JSON.stringify(child.slice(0, 200))}, which is not an absolute http(s) URL`);
          // The protocol: "A Sitemap index file can only specify Sitemaps that are found on the same site".
          if (remote && new URL(url!).origin !== new URL(item.source).origin) {
            fail(`lists ${url} on another origin; a sitemap index may only list sitemaps of its own site`);
          }
          queue.push({ source: url!, depth: item.depth + 1, parent: item.source });
        }
        continue;
      }
      for (const loc of doc.locs) {
        if (options.exclude?.some((pattern) => pattern.test(loc))) {
          excluded++;
          continue;
        }
        const page = rewrite(loc);
        const url = normalizePageUrl(page);
        if (url === undefined)
          fail(`lists ${JSON.stringify(page.slice(0, 200))}, which is not an absolute http(s) URL`);
        urls.add(url!);
      }
    }
  } finally {
    clearTimeout(timer);
  }
  return { urls: [...urls], documents, excluded };
}
