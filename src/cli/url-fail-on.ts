// Per-URL thresholds (`failOnByUrl` in the config file), as Lighthouse CI's per-URL assertions: a checkout page
// judged stricter than the rest of the site. The first entry whose pattern matches a page decides its threshold;
// a page no entry matches keeps the run's `--fail-on`.
import type { FailOn } from '../index.js';

/** One per-URL threshold. */
export interface UrlFailOn {
  /** A regular expression tested against the page URL, as written in the config file. */
  url: string;
  /** The threshold of the pages it matches. */
  failOn: FailOn;
}

/**
 * The threshold of a page: the first matching entry's, else undefined (the run's threshold applies).
 * @example failOnForUrl([{ url: '/checkout', failOn: 'ANY_CRITICAL' }], 'https://a.example/checkout/pay') // 'ANY_CRITICAL'
 */
export function failOnForUrl(rules: readonly UrlFailOn[], url: string | undefined): FailOn | undefined {
  if (url === undefined) return undefined;
  return rules.find((rule) => new RegExp(rule.url).test(url))?.failOn;
}
