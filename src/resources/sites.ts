import type { APIPromise } from '../core/api-promise.js';
import { ops } from '../core/operations.js';
import type { RequestOptions } from '../core/options.js';
import type { Fix, Journey, Site, SiteTrend } from '../core/types.js';
import { Resource } from './resource.js';

/**
 * Options of `client.sites.getTrend`: the per-call options and how many points.
 * @example const options: TrendOptions = { limit: 30 };
 */
export interface TrendOptions extends RequestOptions {
  /**
   * How many points.
   * @default the service's default
   */
  limit?: number | undefined;
}

/** The organization's sites, their journeys, trend and tracked fixes (`client.sites`). */
export class Sites extends Resource {
  /**
   * Lists the organization's sites. Scope `sites:read`.
   * @example const sites = await client.sites.list();
   */
  list(options?: RequestOptions): APIPromise<Site[]> {
    return this.transport.request(ops.listSites, {}, options);
  }

  /** Lists a site's saved journeys. Scope `sites:read`. */
  listJourneys(siteId: string, options?: RequestOptions): APIPromise<Journey[]> {
    return this.transport.request(ops.listSiteJourneys, { path: { id: siteId } }, options);
  }

  /**
   * A site's violation-count trend, oldest point first. Scope `scans:read`; plan feature `TREND_HISTORY`.
   * @example const trend = await client.sites.getTrend(siteId, { limit: 30 });
   */
  getTrend(siteId: string, options?: TrendOptions): APIPromise<SiteTrend> {
    return this.transport.request(
      ops.getSiteTrend,
      { path: { id: siteId }, query: { limit: options?.limit } },
      options,
    );
  }

  /** Lists a site's tracked fixes (remediation items). Scope `sites:read`. */
  listFixes(siteId: string, options?: RequestOptions): APIPromise<Fix[]> {
    return this.transport.request(ops.listSiteFixes, { path: { id: siteId } }, options);
  }
}
