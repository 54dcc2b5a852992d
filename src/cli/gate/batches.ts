// Splitting a site's pages into CI checks: the service takes one to twenty URLs of one site per check (document
// §4, CI check creation request), so a run of more pages is several checks. The split is a pure function of the
// *set* of URLs: the same pages give the same batches and batch keys whatever order they were listed in, so a
// batch's `context` names the same pages from one run to the next (for a service that keys anything on it).
import { compareText } from '../verdict/fields.js';
import { MAX_URLS_PER_CHECK } from '../../vocabulary/index.js';
import { parseUrl } from '../io/parse-url.js';

/** The `context` key that carries a check's batch key. */
export const BATCH_CONTEXT_KEY = 'svcA11yBatch';

/** One CI check of a run: up to {@link MAX_URLS_PER_CHECK} pages of one site (origin). */
export interface Batch {
  /** Stable identity of the batch: `<origin> <n>/<of>`, e.g. `https://shop.example.com 2/3`. Sent as context. */
  key: string;
  /** The site: scheme, host and port of every URL in the batch. */
  origin: string;
  /** 1-based position among the site's batches. */
  index: number;
  /** How many batches the site has. */
  of: number;
  /** The pages, in code-unit order. */
  urls: string[];
  /**
   * Set on a recheck (`--recheck`): the key of the batch whose pages it checks again, and which recheck it is (1 for
   * the first). Its own key is `<of> recheck <attempt>`.
   */
  recheck?: { of: string; attempt: number } | undefined;
}

/**
 * Groups URLs by origin and splits each group into as few checks as the limit allows (`ceil(n / max)`), of
 * even sizes (45 pages → 15, 15, 15, not 20, 20, 5: the checks end at about the same time). Sites and pages are
 * taken in code-unit order, so the result depends only on the set of URLs. Expects normalised, unique URLs
 * (see `uniquePageUrls`); a repeated URL would be checked twice.
 * @default maxPerCheck MAX_URLS_PER_CHECK (20)
 * @example planBatches(fortyFiveShopUrls).map((b) => b.urls.length) // [15, 15, 15]
 */
export function planBatches(urls: readonly string[], { maxPerCheck = MAX_URLS_PER_CHECK } = {}): Batch[] {
  const max = Math.max(1, Math.floor(maxPerCheck));
  const bySite = new Map<string, string[]>();
  for (const url of urls) {
    const origin = new URL(url).origin;
    bySite.get(origin)?.push(url) ?? bySite.set(origin, [url]);
  }
  const batches: Batch[] = [];
  for (const origin of [...bySite.keys()].sort(compareText)) {
    const pages = [...bySite.get(origin)!].sort(compareText);
    const of = Math.ceil(pages.length / max);
    const small = Math.floor(pages.length / of);
    const larger = pages.length % of; // the first `larger` batches take one page more
    let at = 0;
    for (let i = 0; i < of; i++) {
      const size = small + (i < larger ? 1 : 0);
      batches.push({ key: `${origin} ${i + 1}/${of}`, origin, index: i + 1, of, urls: pages.slice(at, at + size) });
      at += size;
    }
  }
  return batches;
}

/**
 * A batch's short name for reports: `shop.example.com 2/3`, or the host alone when the site has one batch; a recheck
 * adds `recheck N`.
 * @example batchLabel({ origin: 'https://shop.example.com', index: 2, of: 3 }) // 'shop.example.com 2/3'
 */
export function batchLabel(batch: Pick<Batch, 'origin' | 'index' | 'of' | 'recheck'>): string {
  const host = parseUrl(batch.origin)?.host ?? batch.origin;
  const label = batch.of > 1 ? `${host} ${batch.index}/${batch.of}` : host;
  return batch.recheck ? `${label} recheck ${batch.recheck.attempt}` : label;
}
