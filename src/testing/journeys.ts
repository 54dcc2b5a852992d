// Journey runs (endpoints 10–11). Each checkpoint is a single-page scan of the step's page; the checkpoints
// share the run's RUNNING span in order, so a checkpoint's status is its scan's status.
import { randomUUID } from 'node:crypto';
import { iso, phaseOf } from './jobs.js';
import { fail } from './problems.js';
import { find, lookup } from './requests.js';
import { addScan, scanView } from './scans.js';
import { type Ctx, type Reply, type World, accepted, ok } from './world.js';
import type { JourneyRunJob } from './records.js';

/** `V1JourneyRunResponse` of a run at `now`. */
function journeyRunView(world: World, run: JourneyRunJob, now: number) {
  const phase = phaseOf(run, now);
  const checkpoints = run.checkpoints
    .map((c) => ({ c, scan: world.scans.get(c.scanId)! }))
    .filter(({ scan }) => now >= scan.createdAt)
    .map(({ c, scan }) => ({ scanId: c.scanId, label: c.label, url: c.url, status: scanView(scan, now).status }));
  const view = {
    id: run.id,
    journeyId: run.journeyId,
    siteId: run.siteId,
    status: phase.stage === 'DONE' ? (run.failedStepIndex === undefined ? 'COMPLETED' : 'FAILED') : phase.stage,
    checkpoints: phase.stage === 'QUEUED' ? [] : checkpoints,
    createdAt: iso(run.createdAt),
    ...(phase.stage === 'QUEUED' ? {} : { startedAt: iso(phase.startedAt) }),
    ...(phase.stage === 'DONE' ? { finishedAt: iso(phase.finishedAt) } : {}),
  };
  if (phase.stage !== 'DONE' || run.failedStepIndex === undefined) return view;
  return {
    ...view,
    failedStepIndex: run.failedStepIndex,
    failureReasonCode: 'STEP_SELECTOR_NOT_FOUND',
    failureReasonText: `Step ${run.failedStepIndex + 1} (${run.failedStepLabel}): the selector #continue matched no element.`,
  };
}

/**
 * POST /journeys/{id}/runs: 404 `JOURNEY_NOT_FOUND`, 403 `FEATURE_NOT_IN_PLAN` (AUTHENTICATED_SCANS for an
 * auth journey), 422 `SITE_AUTH_NOT_CONFIGURED`, 409 `JOURNEY_ALREADY_RUNNING`.
 */
export function createJourneyRun(ctx: Ctx): Reply {
  const { world, now } = ctx;
  const journey = find(world.org.journeys, ctx.id, 'JOURNEY_NOT_FOUND', 'journey');
  const site = world.org.sites.find((s) => s.id === journey.siteId)!;
  if (journey.usesAuth && !ctx.key.plan.features.has('AUTHENTICATED_SCANS')) {
    fail(403, 'FEATURE_NOT_IN_PLAN', `The ${ctx.key.plan.name} plan does not include authenticated scans.`);
  }
  // Credentials come only from the site's saved auth profile, never from the request.
  if (journey.usesAuth && !site.hasAuthProfile) {
    fail(
      422,
      'SITE_AUTH_NOT_CONFIGURED',
      `This journey uses auth, and ${site.normalizedHost} has no saved auth profile.`,
    );
  }
  for (const r of world.journeyRuns.values()) {
    if (r.journeyId === journey.id && phaseOf(r, now).stage !== 'DONE') {
      fail(409, 'JOURNEY_ALREADY_RUNNING', `A run of this journey is already queued or running (${r.id}).`);
    }
  }
  const run: JourneyRunJob = {
    id: randomUUID(),
    createdAt: now,
    durationMs: world.durations.journeyRun,
    queuedShare: world.queuedShare,
    journeyId: journey.id,
    siteId: site.id,
    checkpoints: [],
  };
  const phase = phaseOf(run, now);
  // A broken journey runs its steps up to and including the failing one; only the steps before it scan a page.
  const runs = world.attempts.get(`journey ${journey.id}`) ?? 0;
  world.attempts.set(`journey ${journey.id}`, runs + 1);
  const failing = runs < (journey.failingRuns ?? Number.POSITIVE_INFINITY) ? journey.failingStep : undefined;
  const slots = failing === undefined ? journey.steps.length : failing + 1;
  const slot = (phase.finishedAt - phase.startedAt) / slots;
  const root = site.rootUrl.replace(/\/$/, '');
  journey.steps.slice(0, failing ?? journey.steps.length).forEach((step, k) => {
    const start = phase.startedAt + Math.round(k * slot);
    const end = phase.startedAt + Math.round((k + 1) * slot);
    const scan = addScan(world, site.id, root + step.path, start, end - start, true);
    run.checkpoints.push({ label: step.label, url: scan.page.url, scanId: scan.id });
  });
  if (failing !== undefined) {
    run.failedStepIndex = failing;
    run.failedStepLabel = journey.steps[failing]?.label ?? `step ${failing + 1}`;
  }
  world.journeyRuns.set(run.id, run);
  return accepted(`/api/v1/journey-runs/${run.id}`, journeyRunView(world, run, now), world, run);
}

/** GET /journey-runs/{id} (404 `JOURNEY_NOT_FOUND`, although openapi.yaml declares no 404 here). */
export function getJourneyRun(ctx: Ctx): Reply {
  const run = lookup(ctx.world.journeyRuns, ctx.id, 'JOURNEY_NOT_FOUND', 'journey run');
  return ok(journeyRunView(ctx.world, run, ctx.now), ctx.world, run, ctx.now);
}
