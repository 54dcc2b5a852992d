// Whether a check reported exactly the pages it was created with. The service's document (§2, CI check) lists
// `pages` without saying how it spells their URLs, so two URLs are the same page when they differ only as URL
// parsers and servers treat as one address: scheme and host case, a default port, dot segments, the fragment, and
// trailing slashes on the path (see docs/cli.md, "What counts as the same page").
import { pageKey } from '../pages/page-urls.js';

/** How the pages a check reported differ from the pages it asked for; every list empty when they match. */
export interface PageMismatch {
  /** Pages asked for that the check does not list. */
  missing: string[];
  /** Pages asked for that the check lists more than once. */
  repeated: string[];
  /** Pages the check lists that it was not asked for (a page without a URL is `(a page with no URL)`). */
  unasked: string[];
}

/**
 * Compares the pages a check reported with the URLs it was created with, page by page under {@link pageKey}.
 * @example comparePages(['https://a.example/', 'https://a.example/b'], [{ url: 'https://a.example' }]).missing // ['https://a.example/b']
 */
export function comparePages(
  requested: readonly string[],
  reported: readonly ({ url?: unknown } | null | undefined)[],
): PageMismatch {
  const counts = new Map<string, number>();
  const unasked: string[] = [];
  // Each URL asked for keyed once, in order: the same keys serve the lookup and the walk below.
  const askedKeys = requested.map((url) => [pageKey(url), url] as const);
  const asked = new Set(askedKeys.map(([key]) => key));
  for (const page of reported) {
    const url = typeof page?.url === 'string' ? page.url : undefined;
    const key = url === undefined ? undefined : pageKey(url);
    if (key === undefined || !asked.has(key)) unasked.push(url ?? '(a page with no URL)');
    else counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const missing: string[] = [];
  const repeated: string[] = [];
  const seen = new Set<string>();
  for (const [key, url] of askedKeys) {
    if (seen.has(key)) continue;
    seen.add(key);
    const n = counts.get(key) ?? 0;
    if (n === 0) missing.push(url);
    else if (n > 1) repeated.push(url);
  }
  return { missing, repeated, unasked };
}
