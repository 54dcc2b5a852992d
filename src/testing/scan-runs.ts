// Full-site scan runs (endpoints 5–7) and the site trend they feed (endpoint 12).
import { randomUUID } from 'node:crypto';
import { type Finding, checkPage, countFindings, zeroCounts } from './findings.js';
import { iso, itemsDone, phaseOf } from './jobs.js';
import { drawPageEnds } from './page-durations.js';
import { fail } from './problems.js';
import { find, lookup } from './requests.js';
import type { SiteRecord } from './state.js';
import { violationView } from './scans.js';
import { type Ctx, type Reply, type World, accepted, ok } from './world.js';
import type { ScanRunJob } from './records.js';

/** Terminal outcome of a run at `now`, or undefined while QUEUED/RUNNING. */
export function runOutcome(run: ScanRunJob, now: number): 'COMPLETED' | 'FAILED' | undefined {
  if (phaseOf(run, now).stage !== 'DONE') return undefined;
  return run.rootUnreachable ? 'FAILED' : 'COMPLETED';
}

/** All findings of a run's crawled pages. */
export function runFindings(run: ScanRunJob): Finding[] {
  return run.pages.flatMap((p) => p.findings);
}

/** Stores a run of `site` (its crawl computed now: findings are a pure function of seed and URL). */
function addScanRun(
  world: World,
  site: SiteRecord,
  createdAt: number,
  durationMs: number,
  extraCriticalOnRoot = 0,
): ScanRunJob {
  const root = site.rootUrl.replace(/\/$/, '');
  const pages = crawlPaths(site, world.crawlPages).map((path, i) =>
    checkPage(world.seed, root + path, i === 0 ? extraCriticalOnRoot : 0),
  );
  const run: ScanRunJob = {
    id: randomUUID(),
    createdAt,
    durationMs,
    queuedShare: world.queuedShare,
    siteId: site.id,
    pages,
    rootUnreachable: pages.length === 0,
    delivered: false,
  };
  world.scanRuns.set(run.id, run);
  return run;
}

/** The paths a run of `site` crawls: its seeded ones, cut or extended with `/catalogue/N` to `count` (none if its root is unreachable). */
function crawlPaths(site: SiteRecord, count: number | undefined): string[] {
  if (count === undefined || site.crawlPaths.length === 0) return site.crawlPaths;
  return Array.from({ length: count }, (_, i) => site.crawlPaths[i] ?? `/catalogue/${i}`);
}

/**
 * Seeds a site's trend history: two COMPLETED runs, 14 and 7 days old, with 3 and 1 extra critical findings
 * on the root page (so the trend shows resolved findings). Returns the latest run's id.
 */
export function seedScanRunHistory(world: World, site: SiteRecord, now: number): string {
  const day = 86_400_000;
  const older = addScanRun(world, site, now - 14 * day, 95_000, 3);
  const latest = addScanRun(world, site, now - 7 * day, 90_000, 1);
  older.delivered = latest.delivered = true;
  return latest.id;
}

/** `V1ScanRunResponse` of a run at `now`: progress while RUNNING, counts of the pages done so far. */
export function scanRunView(run: ScanRunJob, now: number) {
  const phase = phaseOf(run, now);
  const base = { id: run.id, siteId: run.siteId };
  if (phase.stage === 'QUEUED')
    return { ...base, status: 'QUEUED', pagesTotal: 0, pagesDone: 0, counts: zeroCounts(), totalViolations: 0 };
  if (run.rootUnreachable) {
    const status = phase.stage === 'DONE' ? 'FAILED' : 'RUNNING';
    const failureReason =
      phase.stage === 'DONE'
        ? { failureReason: { code: 'ROOT_UNREACHABLE', reason: "The site's root URL could not be reached." } }
        : {};
    return { ...base, status, pagesTotal: 0, pagesDone: 0, counts: zeroCounts(), totalViolations: 0, ...failureReason };
  }
  const done = itemsDone(run.pages.length, phase, run.pageEnds);
  const findings = run.pages.slice(0, done).flatMap((p) => p.findings);
  return {
    ...base,
    status: phase.stage === 'DONE' ? 'COMPLETED' : 'RUNNING',
    pagesTotal: run.pages.length,
    pagesDone: done,
    counts: countFindings(findings),
    totalViolations: findings.length,
  };
}

/** Reads a run by path id and lets the webhook machinery see it. */
export function readRun(ctx: Ctx): ScanRunJob {
  const run = lookup(ctx.world.scanRuns, ctx.id, 'SCAN_NOT_FOUND', 'scan run');
  ctx.world.scanRunObserved(run, false);
  return run;
}

/** POST /scan-runs: 404 `SITE_NOT_FOUND`, 409 `SCAN_ALREADY_RUNNING`. */
export function createScanRun(ctx: Ctx): Reply {
  const { world, now } = ctx;
  const siteId = (ctx.body as { siteId?: unknown } | undefined)?.siteId;
  // The operation declares no 422: a body without a string siteId is a plain 400.
  if (typeof siteId !== 'string') fail(400, 'VALIDATION_FAILED', 'siteId is required and must be a string (UUID).');
  const site = find(world.org.sites, siteId, 'SITE_NOT_FOUND', 'site');
  for (const r of world.scanRuns.values()) {
    if (r.siteId === site.id && phaseOf(r, now).stage !== 'DONE') {
      fail(409, 'SCAN_ALREADY_RUNNING', `A scan run of ${site.normalizedHost} is already queued or running (${r.id}).`);
    }
  }
  const run = addScanRun(world, site, now, world.durations.scanRun);
  run.pageEnds = drawPageEnds(world.pageDurations, run.pages.length);
  world.scanRunObserved(run, true);
  return accepted(`/api/v1/scan-runs/${run.id}`, { id: run.id, status: 'QUEUED' }, ctx.world, run);
}

/** GET /scan-runs/{id}. */
export function getScanRun(ctx: Ctx): Reply {
  const run = readRun(ctx);
  return ok(scanRunView(run, ctx.now), ctx.world, run, ctx.now);
}

/** GET /scan-runs/{id}/violations: run-level findings, one per rule (its first occurrence in crawl order). */
export function listScanRunViolations(ctx: Ctx): Reply {
  const run = readRun(ctx);
  if (runOutcome(run, ctx.now) !== 'COMPLETED') return ok([]);
  const byRule = new Map<string, Finding>();
  for (const f of runFindings(run)) if (!byRule.has(f.ruleId)) byRule.set(f.ruleId, f);
  return ok([...byRule.values()].map(violationView));
}

/** GET /sites/{id}/trend: one point per COMPLETED run, oldest first; `limit` keeps the latest points. */
export function getSiteTrend(ctx: Ctx): Reply {
  const { world, now } = ctx;
  const site = find(world.org.sites, ctx.id, 'SITE_NOT_FOUND', 'site');
  const ofSite = [...world.scanRuns.values()].filter((r) => r.siteId === site.id);
  for (const r of ofSite) world.scanRunObserved(r, false);
  const runs = ofSite
    .filter((r) => runOutcome(r, now) === 'COMPLETED')
    .sort((a, b) => phaseOf(a, now).finishedAt - phaseOf(b, now).finishedAt);
  let previous = new Set<string>();
  const points = runs.map((run) => {
    const findings = runFindings(run);
    const current = new Set(findings.map((f) => f.fingerprint));
    const point = {
      scanRunId: run.id,
      finishedAt: iso(phaseOf(run, now).finishedAt),
      status: 'COMPLETED',
      pagesScanned: run.pages.length,
      truncated: false,
      totalViolations: findings.length,
      bySeverity: countFindings(findings),
      addedCount: [...current].filter((f) => !previous.has(f)).length,
      resolvedCount: [...previous].filter((f) => !current.has(f)).length,
    };
    previous = current;
    return point;
  });
  // The document shows no default or bounds for `limit`: non-positive or missing means every point.
  const limit = Number.parseInt(ctx.query.get('limit') ?? '', 10);
  const kept = Number.isFinite(limit) && limit > 0 ? points.slice(-limit) : points;
  return ok({ siteId: site.id, standard: 'WCAG 2.2 AA', points: kept });
}
