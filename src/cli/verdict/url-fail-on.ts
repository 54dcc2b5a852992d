// Per-URL thresholds (`failOnByUrl` in the config file), as Lighthouse CI's per-URL assertions: a checkout page
// judged stricter than the rest of the site. The first entry whose pattern matches a page decides its threshold;
// a page no entry matches keeps the run's `--fail-on`. A file loses to a flag page by page too: under an explicit
// `--fail-on` (or the Action's `fail-on`) a file's entry may make a page stricter, never more lenient, since the
// file may be the pull request's own.
import type { FailOn } from '../../index.js';

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
function failOnForUrl(rules: readonly UrlFailOn[], url: string | undefined): FailOn | undefined {
  if (url === undefined) return undefined;
  return rules.find((rule) => new RegExp(rule.url).test(url))?.failOn;
}

// How many findings each threshold counts, in order: each counts every finding the one before it counts (a new
// critical one is critical; a critical one is critical or serious), so "stricter" is this order.
const STRICTNESS: Readonly<Record<FailOn, number>> = { NONE: 0, NEW_CRITICAL: 1, ANY_CRITICAL: 2, SERIOUS_OR_WORSE: 3 };

/**
 * The stricter of two thresholds: the one that counts more findings (`NONE` < `NEW_CRITICAL` < `ANY_CRITICAL` <
 * `SERIOUS_OR_WORSE`). A value this version does not know counts as the default `NEW_CRITICAL`, as `breaksThreshold`
 * judges it.
 * @example stricterFailOn('ANY_CRITICAL', 'NONE') // 'ANY_CRITICAL'
 */
export function stricterFailOn(a: FailOn, b: FailOn): FailOn {
  return (STRICTNESS[a] ?? 1) >= (STRICTNESS[b] ?? 1) ? a : b;
}

/**
 * The threshold a page is judged by: its per-URL entry's, else the run's; when the run's threshold is a floor (an
 * explicit flag or input), never more lenient than it.
 * @example pageFailOn([{ url: '.*', failOn: 'NONE' }], 'https://a.example/', { failOn: 'ANY_CRITICAL', floor: true }) // 'ANY_CRITICAL'
 */
export function pageFailOn(
  rules: readonly UrlFailOn[],
  url: string | undefined,
  run: { failOn: FailOn; floor: boolean },
): FailOn {
  const own = failOnForUrl(rules, url);
  if (own === undefined) return run.failOn;
  return run.floor ? stricterFailOn(own, run.failOn) : own;
}
