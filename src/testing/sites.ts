// Read-only organisation views (endpoints 1 and 9).
import { find } from './requests.js';
import { type Ctx, type Reply, ok } from './world.js';

/** GET /sites. */
export function listSites(ctx: Ctx): Reply {
  return ok(
    ctx.world.org.sites.map(({ id, name, rootUrl, normalizedHost, verified }) => ({
      id,
      name,
      rootUrl,
      normalizedHost,
      verified,
    })),
  );
}

/** GET /sites/{id}/journeys: 404 `SITE_NOT_FOUND`. */
export function listSiteJourneys(ctx: Ctx): Reply {
  const site = find(ctx.world.org.sites, ctx.id, 'SITE_NOT_FOUND', 'site');
  return ok(
    ctx.world.org.journeys
      .filter((j) => j.siteId === site.id)
      .map(({ id, siteId, name, usesAuth, createdAt }) => ({ id, siteId, name, usesAuth, createdAt })),
  );
}
