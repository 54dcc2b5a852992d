// The list of pages a run checks, whatever their source (arguments, --urls-file, the config file, sitemaps):
// each URL checked as an absolute http(s) URL, normalised so that two spellings of one page are checked once.
import { UsageError } from '../exit-codes.js';
import { parseUrl } from '../io/parse-url.js';

/**
 * A page URL in the one spelling the CLI compares: WHATWG serialisation (lower-case scheme and host, default
 * port dropped, `https://a.example` → `https://a.example/`, dot segments resolved) without its fragment, which
 * names a place in the page, not another page. The query is kept: it may select another page.
 * @returns undefined when `url` is not an absolute http(s) URL
 * @example normalizePageUrl('HTTPS://Shop.Example.com:443/a/../b#top') // 'https://shop.example.com/b'
 */
export function normalizePageUrl(url: string): string | undefined {
  const text = url.trim();
  const parsed = parseUrl(text);
  if (!parsed) return undefined;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  parsed.hash = '';
  return parsed.href;
}

/**
 * The key under which two spellings of one page compare equal: {@link normalizePageUrl}'s spelling with the
 * path's trailing slashes removed (`https://a.example/docs/` and `https://A.example:443/docs` give one key). The
 * query is kept as is. A value that is not an absolute http(s) URL keys as itself (it then matches nothing asked).
 * @example pageKey('HTTPS://Shop.Example.com:443/docs/#top') // 'https://shop.example.com/docs'
 */
export function pageKey(url: string): string {
  const normal = normalizePageUrl(url);
  if (normal === undefined) return `\u0000${url}`;
  const parsed = new URL(normal);
  const beforeQuery = normal.slice(0, normal.length - parsed.search.length);
  return beforeQuery.replace(/\/+$/, '') + parsed.search;
}

/**
 * The URLs normalised, each page once (see {@link distinctPages}), in the order first seen. A value that is not an
 * absolute http(s) URL is an error naming where it came from (`what(index)`).
 * @throws UsageError (exit 2) naming the source of the first bad URL
 * @example uniquePageUrls(['https://a.example', 'https://a.example/#x'], (i) => `URL ${i + 1}`) // ['https://a.example/']
 */
export function uniquePageUrls(urls: readonly string[], what: (index: number) => string): string[] {
  return distinctPages(
    urls.map((url, i) => {
      const normal = normalizePageUrl(url);
      if (normal === undefined)
        throw new UsageError(
          `${what(i)} must be an absolute http(s) URL, got ${JSON.stringify(url.slice(0, 200))}`,
          'ci',
        );
      return normal;
    }),
  );
}

/**
 * Each page once, under {@link pageKey} (`/docs` and `/docs/` are one page, kept in the spelling first seen), in
 * the order first seen: the service is asked for a page once, so that its answer can be held against the list.
 * @example distinctPages(['https://a.example/docs', 'https://a.example/docs/']) // ['https://a.example/docs']
 */
export function distinctPages(urls: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const url of urls) {
    const key = pageKey(url);
    if (!seen.has(key)) seen.set(key, url);
  }
  return [...seen.values()];
}

/**
 * Compiles a user's regular expression (a flag or a config key), so a bad one is an error naming where it came
 * from rather than a SyntaxError at run time.
 * @throws UsageError naming `what` and the engine's reason
 * @example urlPattern('/checkout', '--sitemap-exclude').test('https://a.example/checkout/pay') // true
 */
export function urlPattern(source: string, what: string): RegExp {
  if (source === '') throw new UsageError(`${what} must not be empty`);
  try {
    return new RegExp(source);
  } catch (error) {
    throw new UsageError(
      `${what} is not a valid regular expression (${(error as Error).message.replace(/^Invalid regular expression: /, '')})`,
    );
  }
}
