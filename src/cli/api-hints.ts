// The next step after an API error a user can fix, shared by the error printer of every command (main.ts) and
// `svc-a11y doctor`, so both say the same thing about the same answer.
import type { ApiError } from '../index.js';

/** Where the ids a command takes can be listed, by the command's argument name: a bad id points there. */
export const ID_SOURCES: Record<string, string> = {
  '<siteId>': "'svc-a11y sites' lists the site ids",
  '<journeyId>': "'svc-a11y journeys <siteId>' lists a site's journey ids",
  '<remediationItemId>': "'svc-a11y fixes <siteId>' lists a site's tracked fix ids",
  '<scanRunId>': "'svc-a11y site-run <siteId> --json' prints a run's id",
};

/**
 * Whether an error answer comes from another HTTP server than the API: a 404, 405 or 501 without a problem
 * document carrying a code (a static server's 501 to a POST, a web app's JSON 404).
 * @example answerIsNotTheApi(error) // true for an nginx 404 page
 */
export function answerIsNotTheApi(error: ApiError): boolean {
  return error.problem?.code === undefined && [404, 405, 501].includes(error.status);
}

/**
 * The next step after an API error, without a final period, or undefined when there is none to give:
 * where ids are listed (a 404 for a command taking `idArgument`), what `SITE_NOT_FOUND` and `DOMAIN_NOT_VERIFIED`
 * mean, and `SVC_BASE_URL` when the answer is not the API's.
 * @example apiErrorHint(error, '<siteId>') // "'svc-a11y sites' lists the site ids"
 */
export function apiErrorHint(error: ApiError, idArgument: string | undefined): string | undefined {
  const ids = error.status === 404 && idArgument ? ID_SOURCES[idArgument] : undefined;
  if (ids) return ids;
  if (error.code === 'SITE_NOT_FOUND')
    return "Pages must be on a site registered (and, for CI checks, verified) in your organisation, at an address the service can reach: it checks pages from its own network, so never localhost or a runner's private preview. 'svc-a11y sites' lists the sites";
  if (error.code === 'DOMAIN_NOT_VERIFIED')
    return "CI checks need a verified site: 'svc-a11y sites' shows which are (VERIFIED)";
  if (answerIsNotTheApi(error))
    return "The answer is not the API's (no problem document with a code): is SVC_BASE_URL (or --base-url) the service's API address";
  return undefined;
}
