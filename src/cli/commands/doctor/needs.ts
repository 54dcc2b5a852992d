// What each command needs of the key, the plan and the organization, from the API's document: the scopes and
// plan features of its endpoints (§4, §5) and, for CI checks, a verified site (§4, behaviour rule 2). A check of
// something the user does not run is reported, never failed.
import { UsageError } from '../../exit-codes.js';
import { closest } from '../../suggest.js';
import { type CheckLine, info } from './lines.js';

/** Something a command needs that doctor can check with a read. */
export type Need = 'sites:read' | 'scans:read' | 'ci:check' | 'API_ACCESS' | 'TREND_HISTORY' | 'verified site';

// scans:write, JOURNEYS, AUTHENTICATED_SCANS and remediation tracking are left out: only requests that start a job
// use them (doctor starts none). The document asks API_ACCESS of "most routes" (§5) but names it for none of the
// CI routes (16–18), so `ci` does not need it here.
const NEEDS: Readonly<Record<string, readonly Need[]>> = {
  ci: ['ci:check', 'verified site'],
  scan: ['scans:read', 'API_ACCESS'],
  'site-run': ['scans:read', 'API_ACCESS'],
  'root-causes': ['scans:read', 'API_ACCESS'],
  sites: ['sites:read', 'API_ACCESS'],
  journeys: ['sites:read', 'API_ACCESS'],
  'journey-run': ['scans:read', 'API_ACCESS'],
  fixes: ['sites:read', 'API_ACCESS'],
  'verify-fix': ['scans:read', 'API_ACCESS'],
  trend: ['scans:read', 'API_ACCESS', 'TREND_HISTORY'],
  // Its tools list sites, check pages (a CI check), scan a page, read findings and root causes, verify fixes.
  mcp: ['sites:read', 'scans:read', 'ci:check', 'API_ACCESS', 'verified site'],
  // Offline, or the webhook's signing secret only: nothing of the key.
  webhook: [],
  demo: [],
  simulator: [],
  doctor: [],
};

/** The commands the user runs (none named: all of them), and what they need. */
export interface Runs {
  /** The commands named, in the order given; empty for all. */
  commands: readonly string[];
  /** Whether a run of these commands needs `need`. */
  needs(need: Need): boolean;
  /** For messages: `needed by sites, journeys, fixes`, or `not needed by ci` when no command run needs it. */
  neededBy(need: Need): string;
}

/**
 * What `commands` need; every command when none is named.
 * @throws UsageError for a name that is not a command, with the closest one
 * @example runsOf(['ci']).needs('scans:read') // false
 */
export function runsOf(commands: readonly string[]): Runs {
  for (const name of commands) {
    if (NEEDS[name] === undefined) {
      const near = closest(name, Object.keys(NEEDS));
      throw new UsageError(
        `doctor checks what commands need: "${name}" is not one${near ? `; did you mean ${near}?` : ''}`,
        'doctor',
      );
    }
  }
  const named = commands.length ? commands : Object.keys(NEEDS);
  const users = (need: Need) => named.filter((name) => NEEDS[name]!.includes(need));
  return {
    commands,
    needs: (need) => users(need).length > 0,
    neededBy: (need) =>
      users(need).length ? `needed by ${users(need).join(', ')}` : `not needed by ${named.join(', ')}`,
  };
}

/**
 * A failed line about something none of the commands the user runs needs, reported as info; any other line as it is.
 * @example judged('ci:check', line, runsOf(['sites'])).status // 'info'
 */
export function judged(need: Need, line: CheckLine, runs: Runs): CheckLine {
  if (line.status !== 'fail' || runs.needs(need)) return line;
  return info(line.id, line.label, line.text);
}
