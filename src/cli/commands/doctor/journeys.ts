// doctor's lines about the journeys the gate runs (`--journey`, `journeys` in the config file): each one looked up
// among the organization's sites' journeys (`GET /sites/{id}/journeys`). Their plan features (JOURNEYS, and
// AUTHENTICATED_SCANS for one that logs in) are checked by the service only when a run starts, and doctor starts
// none: the line says so rather than guessing.
import type { A11yClient, Journey, Site } from '../../../index.js';
import { loadConfig } from '../../settings/config.js';
import { readSetting, SETTINGS } from '../../settings/settings.js';
import { clip, ONCE, type ServiceInputs } from './answers.js';
import { type CheckLine, fail, info, ok } from './lines.js';

/** The journeys the gate is set to run (flags, environment, config file); none when the config cannot be read. */
function journeysNamed(input: ServiceInputs): string[] {
  const { values, env } = input;
  try {
    const config = loadConfig(readSetting(SETTINGS.configFile, { values, env }).value, process.cwd());
    return readSetting(SETTINGS.journeys, { values, env, config }).value;
  } catch {
    // The config file's own line says what is wrong with it.
    return [];
  }
}

/**
 * One line per journey the gate runs: found (its name, its site, whether it logs in) or not; then what doctor cannot
 * check of their plan features. No lines when no journey is named.
 * @example await journeyLines(client, input, sites) // [{ id: 'journey', status: 'ok', … }, { id: 'journeys:plan', status: 'info', … }]
 */
export async function journeyLines(client: A11yClient, input: ServiceInputs, sites: Site[]): Promise<CheckLine[]> {
  const ids = journeysNamed(input);
  if (ids.length === 0) return [];
  const known = new Map<string, { journey: Journey; site: Site }>();
  const unread: string[] = [];
  for (const site of sites.filter((s) => typeof s.id === 'string')) {
    try {
      for (const journey of await client.sites.listJourneys(site.id!, ONCE))
        if (journey.id) known.set(journey.id.toLowerCase(), { journey, site });
    } catch {
      unread.push(clip(String(site.rootUrl ?? site.id)));
    }
  }
  const lines = ids.map((id) => {
    const found = known.get(id.toLowerCase());
    if (!found)
      return fail(
        'journey',
        `journey ${id}`,
        `not among the journeys of the organization's sites${unread.length ? ` (the journeys of ${unread.join(', ')} could not be read)` : ''}: 'svc-a11y journeys <siteId>' lists them; ci --journey answers 404 JOURNEY_NOT_FOUND (exit 3)`,
        'setting',
      );
    const { journey, site } = found;
    const auth = journey.usesAuth
      ? ": logs in: needs AUTHENTICATED_SCANS and the site's saved auth profile (else 403 or 422, exit 3)"
      : '';
    return ok(
      'journey',
      `journey ${clip(String(journey.name ?? id), 80)}`,
      `${id} on ${clip(String(site.rootUrl ?? site.id))}${auth}`,
    );
  });
  return [
    ...lines,
    info(
      'journeys:plan',
      'plan feature JOURNEYS',
      "not checked: the service checks it (and AUTHENTICATED_SCANS) only when a journey run starts, and doctor starts none; 'svc-a11y journey-run <journeyId>' tries one",
    ),
  ];
}
