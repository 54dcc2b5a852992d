// Saved journeys in the gate (`ci --journey ID`): each journey is run (`POST /journeys/{id}/runs`, no body: its login
// comes from the site's saved auth profile), waited for under the run's deadline, run again once when it fails at a
// step (`--recheck` ≥ 1), and each checkpoint's scan read (`GET /scans/{id}` and its violations). Nothing here judges:
// journey-report.ts turns an outcome into a report judged by the gate's rules. What cannot be known is said, never
// passed: a journey status this version does not know, a checkpoint whose scan did not complete, a wait cut short.
import {
  type A11yClient,
  ApiError,
  type JourneyRun,
  PollTimeoutError,
  type Scan,
  type Violation,
} from '../../index.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExplainedError } from '../exit-codes.js';

/** One checkpoint of a journey's last run, with its scan's findings when the scan completed. */
interface CheckpointOutcome {
  label: string | undefined;
  url: string | undefined;
  scanId: string | undefined;
  /** The checkpoint's scan as read (undefined: not read). */
  scan: Scan | undefined;
  /** Its findings (read only when the scan COMPLETED). */
  violations: Violation[];
}

/** A journey of the run, as it ended. */
export interface JourneyOutcome {
  journeyId: string;
  /** Its name (`GET /sites/{id}/journeys`), else its id. */
  name: string;
  /** Every run made, first to last (a failed first run is run again once under `--recheck`). */
  runs: JourneyRun[];
  /** The last run's checkpoints. */
  checkpoints: CheckpointOutcome[];
  /** Why it (or part of it) cannot be judged; empty when every checkpoint can be. */
  notJudged: string[];
}

/** Options of {@link startJourneys}. */
export interface JourneyRunOptions {
  /** The run's deadline (ms since the epoch). */
  endsAt: number;
  /** How the deadline is named in messages, e.g. `600000 ms (--timeout)`. */
  limitText: string;
  /** Run a journey that failed at a step again, once (`--recheck` ≥ 1). */
  rerun: boolean;
}

/** Journeys started, to be finished while the pages' checks run. */
export interface StartedJourneys {
  /** Waits for every journey (409s waited out, failed runs run again once) and reads its checkpoints. Never throws. */
  finish(): Promise<JourneyOutcome[]>;
}

// The checkpoints of one run the gate reads (a journey has a handful; a run listing more is judged on these, and
// says so), and how many of their scans are read at once.
const MAX_CHECKPOINTS = 200;
const READS_AT_ONCE = 4;

// A journey already running (409) is started again after this pause, doubling up to the cap, until the deadline.
const BUSY_FIRST_MS = 2_000;
const BUSY_MAX_MS = 15_000;

/**
 * Starts every journey before anything else of the run is sent, so a journey the service refuses stops the run
 * with exit 3 naming it: `404 JOURNEY_NOT_FOUND`, `422 SITE_AUTH_NOT_CONFIGURED`, `403 FEATURE_NOT_IN_PLAN` (an
 * `ExplainedError`); a `409 JOURNEY_ALREADY_RUNNING` is waited out by `finish()` within the deadline.
 * @example const journeys = await startJourneys(client, ids, { endsAt, limitText, rerun: true }); const outcomes = await journeys.finish();
 */
export async function startJourneys(
  client: A11yClient,
  ids: readonly string[],
  options: JourneyRunOptions,
): Promise<StartedJourneys> {
  const first: Array<JourneyRun | 'busy'> = [];
  for (const id of ids) first.push(await start(client, id));
  const names = new Map<string, Promise<Map<string, string>>>();
  return {
    finish: () => Promise.all(ids.map((id, i) => finishOne(client, id, first[i]!, options, names))),
  };
}

async function start(client: A11yClient, id: string): Promise<JourneyRun | 'busy'> {
  try {
    return await client.journeys.startRun(id);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 409) return 'busy';
    if (error.status === 404)
      throw new ExplainedError(
        `The journey ${id} was not found: 'svc-a11y journeys <siteId>' lists the ids of a site's journeys`,
        error,
      );
    if (error.status === 422)
      throw new ExplainedError(
        `The journey ${id} logs in, and its site needs a saved auth profile for that (credentials come only from it, never from a request): save one for the site in the app`,
        error,
      );
    if (error.status === 403 && error.code === 'FEATURE_NOT_IN_PLAN')
      throw new ExplainedError(
        `The journey ${id} needs the plan feature JOURNEYS (and AUTHENTICATED_SCANS for a journey that logs in), which this key's plan does not include`,
        error,
      );
    throw error;
  }
}

// A run failed when the service says so in any of its ways: a status other than COMPLETED (one this version does not
// know included: never a pass), a failed step or a failure code.
function failure(run: JourneyRun): string | undefined {
  const step = run.failedStepIndex;
  const code = run.failureReasonCode;
  if (run.status === 'COMPLETED' && step === undefined && code === undefined) return undefined;
  const words = [code, run.failureReasonText].filter((w) => w !== undefined && w !== '').join(': ');
  const at = step === undefined ? `ended ${run.status ?? 'with no status'}` : `failed at step ${step}`;
  return `${at}${words ? `: ${words}` : ''}`;
}

async function finishOne(
  client: A11yClient,
  id: string,
  first: JourneyRun | 'busy',
  options: JourneyRunOptions,
  names: Map<string, Promise<Map<string, string>>>,
): Promise<JourneyOutcome> {
  const runs: JourneyRun[] = [];
  let name = id;
  const outcome = (notJudged: string[], checkpoints: CheckpointOutcome[] = []): JourneyOutcome => ({
    journeyId: id,
    name,
    runs,
    checkpoints,
    notJudged,
  });
  try {
    let started: JourneyRun | 'busy' = first;
    for (let attempt = 0; ; attempt++) {
      const run = started === 'busy' ? await whenFree(client, id, options) : started;
      if (run === undefined)
        return outcome([
          `journey ${name} was already running (409 JOURNEY_ALREADY_RUNNING) until the run's limit of ${options.limitText}`,
        ]);
      if (attempt === 0) name = await nameOf(client, id, run.siteId, names);
      const last = await waitFor(client, run, options);
      runs.push(last.run);
      if (last.ended) return outcome([`journey ${name}: ${last.ended}`]);
      const failed = failure(last.run);
      if (failed && options.rerun && attempt === 0 && Date.now() < options.endsAt) {
        started = await start(client, id);
        continue;
      }
      const checkpoints = await readCheckpoints(client, last.run);
      const notJudged = whyNotJudged(name, runs, checkpoints);
      return outcome(notJudged, checkpoints);
    }
  } catch (error) {
    // Any other error of the service while waiting or reading: this journey cannot be judged; the rest of the run can.
    const what = error instanceof Error ? error.message : String(error);
    return outcome([`journey ${name} could not be read: ${what}`]);
  }
}

// Everything that keeps a journey's last run, or a checkpoint of it, from being judged.
function whyNotJudged(name: string, runs: readonly JourneyRun[], checkpoints: readonly CheckpointOutcome[]): string[] {
  const last = runs.at(-1)!;
  const failed = failure(last);
  const reasons: string[] = [];
  if (failed)
    reasons.push(`journey ${name} ${failed}${runs.length > 1 ? ` (and on its first run: ${failure(runs[0]!)})` : ''}`);
  else if (checkpoints.length === 0)
    reasons.push(`journey ${name}'s run lists no checkpoint, so no page of it was checked`);
  const listed = last.checkpoints?.length ?? 0;
  if (listed > MAX_CHECKPOINTS)
    reasons.push(
      `journey ${name}'s run lists ${listed} checkpoints: the first ${MAX_CHECKPOINTS} were read, the rest not judged`,
    );
  for (const c of checkpoints)
    if (c.scan?.status !== 'COMPLETED')
      reasons.push(
        `journey ${name}, checkpoint ${c.label ?? '(no label)'} (${c.url ?? 'no URL'}): its scan ${c.scanId ? `${c.scanId} ` : ''}did not complete (status ${c.scan?.status ?? 'unknown'})`,
      );
  return reasons;
}

// Starts the journey again while it is already running (409), until the deadline; undefined when it never got free.
async function whenFree(client: A11yClient, id: string, options: JourneyRunOptions): Promise<JourneyRun | undefined> {
  for (let pause = BUSY_FIRST_MS; ; pause = Math.min(BUSY_MAX_MS, pause * 2)) {
    if (Date.now() + pause >= options.endsAt) return undefined;
    await sleep(pause);
    const run = await start(client, id);
    if (run !== 'busy') return run;
  }
}

async function waitFor(
  client: A11yClient,
  run: JourneyRun,
  options: JourneyRunOptions,
): Promise<{ run: JourneyRun; ended?: string | undefined }> {
  const left = options.endsAt - Date.now();
  if (left <= 0)
    return { run, ended: `the run's limit of ${options.limitText} came before its run ${run.id} finished` };
  try {
    return { run: await client.journeyRuns.waitForCompletion(run.id, { timeoutMs: left }) };
  } catch (error) {
    if (!(error instanceof PollTimeoutError)) throw error;
    return {
      run,
      ended: `its run ${run.id} did not finish within ${options.limitText} (it was ${error.lastStatus ?? 'not seen'} when last seen)`,
    };
  }
}

async function readCheckpoints(client: A11yClient, run: JourneyRun): Promise<CheckpointOutcome[]> {
  const checkpoints = (Array.isArray(run.checkpoints) ? run.checkpoints : []).slice(0, MAX_CHECKPOINTS);
  const out: CheckpointOutcome[] = [];
  // A few at a time: a run listing hundreds must not open hundreds of requests at once.
  for (let i = 0; i < checkpoints.length; i += READS_AT_ONCE)
    out.push(
      ...(await Promise.all(
        checkpoints.slice(i, i + READS_AT_ONCE).map(async (c): Promise<CheckpointOutcome> => {
          const base = { label: c?.label, url: c?.url, scanId: c?.scanId };
          if (!c?.scanId) return { ...base, scan: undefined, violations: [] };
          const scan = await client.scans.get(c.scanId);
          const violations = scan.status === 'COMPLETED' ? await client.scans.listViolations(c.scanId) : [];
          return { ...base, scan, violations };
        }),
      )),
    );
  return out;
}

// The journey's name from its site's list (read once per site), else its id: a name is for people, never required.
async function nameOf(
  client: A11yClient,
  id: string,
  siteId: string | undefined,
  names: Map<string, Promise<Map<string, string>>>,
): Promise<string> {
  if (!siteId) return id;
  let list = names.get(siteId);
  if (!list) {
    list = client.sites
      .listJourneys(siteId)
      .then((journeys) => new Map(journeys.flatMap((j) => (j.id && j.name ? [[j.id, j.name] as const] : []))))
      .catch(() => new Map<string, string>());
    names.set(siteId, list);
  }
  return (await list).get(id) ?? id;
}
