// doctor's lines about the organization's sites (each one, verified or not) and the rate limit the service reports.
import type { Site } from '../../../index.js';
import { UsageError } from '../../exit-codes.js';
import { describeSource, readSetting, SETTINGS } from '../../settings/settings.js';
import { clip, type ServiceInputs, SITES } from './answers.js';
import { type CheckLine, fail, info, ok } from './lines.js';
import { judged, type Runs } from './needs.js';

// Sites listed one line each; the rest are counted ('svc-a11y sites' lists them all).
const MAX_SITE_LINES = 25;

/** A line for the sites (how many, how many verified), then one per site. */
export function siteLines(sites: Site[], runs: Runs): CheckLine[] {
  const verified = sites.filter((site) => site.verified === true).length;
  // Neither how a site is registered nor how its domain is verified is part of the API (the document shows neither).
  const summary =
    sites.length === 0
      ? fail(
          'sites',
          'sites',
          "none registered: pages are checked only on sites registered in the organization (how a site is registered is not shown in the API's document)",
          'service',
        )
      : verified === 0
        ? fail(
            'sites',
            'sites',
            `${sites.length} listed, none verified: CI checks need a verified site, else 409 DOMAIN_NOT_VERIFIED (${runs.neededBy('verified site')}; how a domain is verified is not shown in the API's document)`,
            'service',
          )
        : ok('sites', 'sites', `${sites.length} listed, ${verified} verified`);
  const each = sites.slice(0, MAX_SITE_LINES).map((site) => {
    const label = `site ${clip(String(site.name ?? ''), 80) || '(no name)'}`;
    const where = `${clip(String(site.rootUrl ?? ''))} (id ${clip(String(site.id))})`;
    return site.verified === true
      ? ok('site', label, `${where}: verified`)
      : info(
          'site',
          label,
          `${where}: not verified: CI checks of its pages answer 409 DOMAIN_NOT_VERIFIED until its domain is verified`,
        );
  });
  const more =
    sites.length > MAX_SITE_LINES
      ? [info('sites-more', 'sites', `${sites.length - MAX_SITE_LINES} more: 'svc-a11y sites' lists them all`)]
      : [];
  return [judged('verified site', summary, runs), ...each, ...more];
}

/** The rate-limit headers of an answer (RateLimit-*, X-RateLimit-*, Retry-After), and the CLI's own budget. */
export function rateLimitLine(headers: Headers, input: ServiceInputs): CheckLine {
  const found = [...headers.entries()]
    .filter(([name]) => /^(x-)?ratelimit(-|$)/i.test(name) || name === 'retry-after')
    .slice(0, 8)
    .map(([name, value]) => `${name}: ${clip(value, 80)}`);
  let own: string;
  try {
    const rate = readSetting(SETTINGS.rateLimit, { values: input.values, env: input.env });
    own =
      rate.value === undefined
        ? 'this CLI sets no budget of its own (--rate-limit / SVC_RATE_LIMIT)'
        : `this CLI spaces its requests to ${rate.value} per minute (${describeSource(rate.source)})`;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    own = error.message;
  }
  if (found.length) return ok('rate-limit', 'rate limit', `${found.join(', ')} (the answer to ${SITES}); ${own}`);
  return info(
    'rate-limit',
    'rate limit',
    `the service sent no rate-limit headers with the answer to ${SITES} (the API's document shows none: it states 120 requests per minute per key by default, then 429 RATE_LIMITED with Retry-After); ${own}`,
  );
}
