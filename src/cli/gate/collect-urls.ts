// Where a run's pages come from, in order: the URLs given (arguments, --urls-file, the config file), every
// sitemap's pages (read under bounds, see sitemap.ts), narrowed to the pages a change touched (--changed-since),
// then bounded by --max-urls. What was read or left out is said on stderr.
import type { SourceMapEntry } from '../report/index.js';
import { affectedPages, changedFiles } from './changed-since.js';
import { DEFAULT_CONFIG_FILE } from '../settings/config.js';
import { UsageError } from '../exit-codes.js';
import { readSitemaps } from './sitemap.js';
import { distinctPages } from '../pages/page-urls.js';

/** What {@link collectUrls} reads (the `ci` command's parsed options have these fields). */
export interface UrlSources {
  /** URLs given, normalised, each once. */
  urls: string[];
  /** Sitemaps to read (URLs or files). */
  sitemaps: string[];
  /** Saved journeys of the run: with any, a run may have no page of its own. */
  journeys?: readonly string[] | undefined;
  /** How sitemap pages are filtered and rewritten. */
  sitemapRules: { exclude: RegExp[]; find?: RegExp | undefined; replace?: string | undefined };
  /** Most URLs a run checks. */
  maxUrls: number;
  /** `--changed-since`: the git ref, if given. */
  changedSince: string | undefined;
  /** URL path prefix → source file or glob (what --changed-since reads). */
  sourceMap: SourceMapEntry[];
}

/**
 * The refusal of a run of more URLs than `--max-urls`, naming the count and the flag.
 * @param from - where the bound came from, e.g. ` (the default)` or ` (from svc-a11y.config.json)`
 */
export const tooManyUrls = (count: number, max: number, from: string): UsageError =>
  new UsageError(
    `${count} URLs to check, more than --max-urls ${max}${from}; raise --max-urls (or maxUrls in the config file), or narrow the list (--sitemap-exclude, --changed-since)`,
    'ci',
  );

/**
 * The pages of a run: the given URLs plus every sitemap's (normalised, each once), narrowed by `--changed-since`,
 * within `--max-urls`. Messages about what was read or left out go to stderr.
 * @throws UsageError (exit 2) for a sitemap outside its bounds, no URL at all, or more than `maxUrls`
 * @example const urls = await collectUrls(options, { err: (line) => process.stderr.write(`${line}\n`) }); // [] when --changed-since found nothing
 */
export async function collectUrls(
  options: UrlSources,
  io: { err(line: string): void; quiet?: boolean; userAgent?: string; env?: Record<string, string | undefined> },
): Promise<string[]> {
  let urls = options.urls;
  // What was read or planned is news, not a result: --quiet leaves it out (refusals and warnings stay).
  const info = (line: string) => (io.quiet ? undefined : io.err(line));
  if (options.sitemaps.length) {
    const read = await readSitemaps(options.sitemaps, {
      ...options.sitemapRules,
      userAgent: io.userAgent,
      env: io.env,
    });
    const before = urls.length;
    urls = distinctPages([...urls, ...read.urls]);
    info(
      `Sitemaps: ${read.urls.length} page${read.urls.length === 1 ? '' : 's'} from ${read.documents} document${read.documents === 1 ? '' : 's'}` +
        `${read.excluded ? `, ${read.excluded} left out by --sitemap-exclude` : ''}; ${urls.length - before} added to the ${before} given.`,
    );
  }
  if (urls.length === 0) {
    // A run of journeys alone has no page of its own to check.
    if (options.journeys?.length) return [];
    throw new UsageError(
      `no URLs to check: pass them as arguments, with --urls-file, --sitemap or --journey, or as "urls", "sitemap" or "journeys" in ${DEFAULT_CONFIG_FILE}`,
      'ci',
    );
  }
  if (options.changedSince !== undefined) {
    const changed = changedFiles(options.changedSince, process.cwd());
    if (changed.length === 0) {
      io.err(`--changed-since ${options.changedSince}: no file changed, so no page was affected; nothing to check.`);
      return [];
    }
    const affected = affectedPages(urls, options.sourceMap, changed);
    info(
      `--changed-since ${options.changedSince}: ${changed.length} file${changed.length === 1 ? '' : 's'} changed; checking ${affected.kept.length} of ${urls.length} pages ` +
        `(${affected.kept.length - affected.unmapped.length} mapped to a changed file, ${affected.unmapped.length} with no --source-map entry, kept), skipping ${affected.skipped.length}.`,
    );
    if (affected.kept.length === 0)
      io.err(`No page was affected by the changes since ${options.changedSince}; nothing to check.`);
    urls = affected.kept;
  }
  if (urls.length > options.maxUrls) throw tooManyUrls(urls.length, options.maxUrls, '');
  return urls;
}
