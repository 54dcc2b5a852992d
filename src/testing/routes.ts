// The route table: the document's endpoint table (section 4) with each route's scope and plan features.
import { createCiCheck, getCiCheck, listCiViolations } from './ci.js';
import { createFixVerification, getFixVerification, listSiteFixes } from './fixes.js';
import { createJourneyRun, getJourneyRun } from './journeys.js';
import { getRootCauses } from './root-causes.js';
import { createScanRun, getScanRun, getSiteTrend, listScanRunViolations } from './scan-runs.js';
import { createScan, getScan, listScanViolations } from './scans.js';
import { listSiteJourneys, listSites } from './sites.js';
import type { Feature, Scope } from './state.js';
import type { Ctx, Reply } from './world.js';

/** One API route. */
export interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  scope: Scope;
  /** Plan features checked before the handler runs (API_ACCESS is checked on every route). */
  features: Feature[];
  /** Parse a JSON body; `'422'` when the operation declares 422 for a bad body, else a bad body is 400. */
  body?: '422' | '400';
  handle: (ctx: Ctx) => Reply;
}

const ID = '([^/]+)';
const route = (
  method: Route['method'],
  path: string,
  scope: Scope,
  handle: Route['handle'],
  extra: Partial<Route> = {},
): Route => ({
  method,
  pattern: new RegExp(`^/api/v1${path.replace('{id}', ID)}$`),
  scope,
  features: [],
  handle,
  ...extra,
});

/** Every operation of the Developer API v1. */
const ROUTES: Route[] = [
  route('GET', '/sites', 'sites:read', listSites),
  route('POST', '/scans', 'scans:write', createScan, { body: '422' }),
  route('GET', '/scans/{id}', 'scans:read', getScan),
  route('GET', '/scans/{id}/violations', 'scans:read', listScanViolations),
  route('POST', '/scan-runs', 'scans:write', createScanRun, { body: '400' }),
  route('GET', '/scan-runs/{id}', 'scans:read', getScanRun),
  route('GET', '/scan-runs/{id}/violations', 'scans:read', listScanRunViolations),
  route('GET', '/scan-runs/{id}/root-causes', 'scans:read', getRootCauses),
  route('GET', '/sites/{id}/journeys', 'sites:read', listSiteJourneys),
  // AUTHENTICATED_SCANS applies only to journeys that use auth: the handler checks it.
  route('POST', '/journeys/{id}/runs', 'scans:write', createJourneyRun, { features: ['JOURNEYS'] }),
  route('GET', '/journey-runs/{id}', 'scans:read', getJourneyRun),
  route('GET', '/sites/{id}/trend', 'scans:read', getSiteTrend, { features: ['TREND_HISTORY'] }),
  route('GET', '/sites/{id}/fixes', 'sites:read', listSiteFixes),
  route('POST', '/remediation-items/{id}/verifications', 'scans:write', createFixVerification, {
    features: ['REMEDIATION_TRACKING'],
  }),
  route('GET', '/fix-verifications/{id}', 'scans:read', getFixVerification),
  route('POST', '/ci/checks', 'ci:check', createCiCheck, { body: '422' }),
  route('GET', '/ci/checks/{id}', 'ci:check', getCiCheck),
  route('GET', '/ci/checks/{id}/violations', 'ci:check', listCiViolations),
];

/** The route and path id of a request; `{ allow }` when the path exists under other methods only. */
export function matchRoute(method: string, path: string): { route: Route; id: string } | { allow: string } | undefined {
  const onPath = ROUTES.map((r) => ({ r, m: r.pattern.exec(path) })).filter((x) => x.m);
  if (onPath.length === 0) return undefined;
  const hit = onPath.find((x) => x.r.method === method);
  if (!hit) return { allow: [...new Set(onPath.map((x) => x.r.method))].join(', ') };
  return { route: hit.r, id: safeDecode(hit.m![1] ?? '') };
}

// A malformed escape is just an id that matches nothing (404), not a crash.
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
