// A run split over a CI matrix (`--shard I/N`, `SVC_SHARD`, `shard` in the config file): each job checks a share of
// one page list, the shares of one list cover every page exactly once, and the share depends on the set of pages, not
// on the order a job read them in (two jobs reading a sitemap in different orders get the same partition). Each
// shard's JSON report records which shard it is and digests of the whole list and of the settings that judge, so that
// the reports of a matrix can be told apart from a mixed set.
import { createHash } from 'node:crypto';
import type { Shard } from '../settings/ci-settings.js';
import { type Batch, planBatches } from './batches.js';

export type { Shard };

/**
 * The checks of `shard`: the whole list is planned into checks as one run would plan it (`planBatches`, which orders
 * pages by site and in code-unit order), and the checks are dealt round-robin to the shards, so each shard's share
 * differs from another's by one check at most and the shares cover every page exactly once. A shard runs the whole
 * plan's checks as they are (their keys and labels too), so the merged reports of a matrix read as one run's.
 * @example shardBatches(hundredUrls, { index: 1, total: 2 }, 20).map((b) => b.key) // ['https://shop.example.com 1/5', '… 3/5', '… 5/5']
 */
export function shardBatches(urls: readonly string[], shard: Shard, maxPerCheck: number): Batch[] {
  return planBatches(urls, { maxPerCheck }).filter((_, i) => i % shard.total === shard.index - 1);
}

/**
 * The pages of `shard` (see {@link shardBatches}).
 * @example shardPages(hundredUrls, { index: 1, total: 2 }, 20).length // 60 (checks 1, 3 and 5 of 5)
 */
export function shardPages(urls: readonly string[], shard: Shard, maxPerCheck: number): string[] {
  return shardBatches(urls, shard, maxPerCheck).flatMap((batch) => batch.urls);
}

/**
 * A digest of a value that does not depend on how its lists were ordered where order means nothing: a page list is
 * sorted first.
 * @example digestOf([...pages].sort()) // 'sha256:…'
 */
function digestOf(value: unknown): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(value)).digest('hex')}`;
}

/** What a shard's JSON report records of it: which shard, and digests of the whole list and the judging settings. */
export interface ShardRecord extends Shard {
  /**
   * The digest of every page of the run (all shards), as the reports write them (made safe), sorted: `merge` checks
   * that the shards' pages make it up.
   */
  pages: string;
  /** The digest of the settings that judge a finding: failOn (and whether it is a floor), per-URL thresholds, suppressions. */
  settings: string;
}

/**
 * The digest of a list of pages, whatever their order.
 * @example pagesDigest(['https://b.example/', 'https://a.example/']) === pagesDigest(['https://a.example/', 'https://b.example/']) // true
 */
export function pagesDigest(pages: readonly string[]): string {
  return digestOf([...pages].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The record of `shard` for its JSON report; `safePages` are the whole list's pages as the reports write them.
 * @example shardRecord(shard, safeCopy(allPages, secrets), { failOn: 'NEW_CRITICAL', failOnIsFloor: true, failOnByUrl: [], suppressions: undefined })
 */
export function shardRecord(
  shard: Shard,
  safePages: readonly string[],
  judging: { failOn: unknown; failOnIsFloor: unknown; failOnByUrl: unknown; suppressions: unknown },
): ShardRecord {
  return {
    ...shard,
    pages: pagesDigest(safePages),
    settings: digestOf([judging.failOn, judging.failOnIsFloor, judging.failOnByUrl, judging.suppressions]),
  };
}
