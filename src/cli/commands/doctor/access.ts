// doctor's checks of the scopes and plan features the commands need. The API's document lists no endpoint that tells
// a key's scopes or a plan's features (§5: "not shown"), so each is told by a read that changes nothing: a scope is
// held when a read that needs it answers 404 for an id nothing has rather than 403, a feature when a read that
// needs it answers 200; a 403 names the scope (API_KEY_SCOPE_MISSING) or the feature (FEATURE_NOT_IN_PLAN).
import { type A11yClient, ApiError, type Site } from '../../../index.js';
import { answerText, clip, failureText, ONCE, type ServiceInputs } from './answers.js';
import { type CheckLine, fail, info, ok } from './lines.js';
import { judged, type Need } from './needs.js';

// An id no resource has (any 8-4-4-4-12 hex is a valid id): its read answers 404 when the key may read, 403 when not.
const NO_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The lines of the reads that tell the scopes and features besides the sites': scans:read and ci:check by an id
 * nothing has, TREND_HISTORY by one point of a site's trend (a verified one first, when the sites were listed), and
 * one line for what no read tells.
 */
export async function accessLines(
  client: A11yClient,
  input: ServiceInputs,
  sites: Site[] | undefined,
): Promise<CheckLine[]> {
  const scans = await probe(() => client.scans.get(NO_ID, ONCE), 'GET /api/v1/scans/{id}', 'scans:read', input);
  const ci = await probe(() => client.ciChecks.get(NO_ID, ONCE), 'GET /api/v1/ci/checks/{id}', 'ci:check', input);
  return [scans, ci, await trendLine(client, input, sites), notShownLine()];
}

async function probe(
  read: () => Promise<unknown>,
  route: string,
  scope: 'scans:read' | 'ci:check',
  input: ServiceInputs,
): Promise<CheckLine> {
  const id = `scope:${scope}`;
  const label = `scope ${scope}`;
  try {
    await read();
    return ok(id, label, `held: ${route} answered 200 (${input.runs.neededBy(scope)})`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.problem?.code !== undefined)
      return ok(
        id,
        label,
        `held: ${route} for an id nothing has answered 404 ${clip(error.problem.code)}, not 403 (${input.runs.neededBy(scope)})`,
      );
    if (error instanceof ApiError && error.status === 403)
      return refusal(error, route, label, id, input, { scope, feature: 'API_ACCESS' });
    return info(id, label, `could not tell: ${route} ${failureText(error)}`);
  }
}

async function trendLine(client: A11yClient, input: ServiceInputs, sites: Site[] | undefined): Promise<CheckLine> {
  const id = 'feature:TREND_HISTORY';
  const label = 'plan feature TREND_HISTORY';
  const site = sites?.find((s) => s.verified === true) ?? sites?.[0];
  if (!site)
    return info(
      id,
      label,
      `not checked: it is asked with a site's trend, and ${sites ? 'no site is listed' : 'the sites could not be listed'}`,
    );
  const route = 'GET /api/v1/sites/{id}/trend';
  try {
    await client.sites.getTrend(site.id, { ...ONCE, limit: 1 });
    return ok(id, label, `in the plan: ${route} answered 200 (${input.runs.neededBy('TREND_HISTORY')})`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 403 && error.code === 'API_KEY_SCOPE_MISSING')
      return info(id, label, `not checked: ${route} needs the scope scans:read too (see its line)`);
    if (error instanceof ApiError && error.status === 403)
      return refusal(error, route, label, id, input, { scope: 'scans:read', feature: 'TREND_HISTORY' });
    return info(id, label, `could not tell: ${route} ${failureText(error)}`);
  }
}

// Only requests that start a job need these, and doctor starts none.
const notShownLine = (): CheckLine =>
  info(
    'not-shown',
    'scope scans:write; plan features JOURNEYS, AUTHENTICATED_SCANS, remediation tracking',
    "not shown: only requests that start a job use them, and doctor starts none; no endpoint of the API lists a key's scopes or a plan's features",
  );

/**
 * The line of a 403: the scope (API_KEY_SCOPE_MISSING) or the plan feature (FEATURE_NOT_IN_PLAN) it names, for the
 * commands that need it; reported as info, not failed, when none of the commands the user runs does.
 */
export function refusal(
  error: ApiError,
  route: string,
  label: string,
  id: string,
  input: ServiceInputs,
  needs: { scope: Need; feature: Need },
): CheckLine {
  const answer = answerText(error);
  let need: Need;
  let text: string;
  if (error.code === 'FEATURE_NOT_IN_PLAN') {
    need = needs.feature;
    text = `the plan lacks the feature ${need} (${input.runs.neededBy(need)}): ${route} answered ${answer}. Features come with the organization's plan${need === 'TREND_HISTORY' ? ' (TREND_HISTORY: Pro and above)' : ''}`;
  } else if (error.code === 'API_KEY_SCOPE_MISSING') {
    need = needs.scope;
    text = `the key lacks the scope ${need} (${input.runs.neededBy(need)}): ${route} answered ${answer}. A key's scopes are chosen when it is created: create one with ${need} in the organization's settings, under Developer API, and set SVC_API_KEY to it`;
  } else {
    need = needs.scope;
    text = `refused (${input.runs.neededBy(need)}): ${route} answered ${answer}`;
  }
  return judged(need, fail(id, label, text, 'service'), input.runs);
}
