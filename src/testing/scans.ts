// Single-page scans (endpoints 2–4). Journey checkpoints are scans too, so their `scanId` can be read.
import { randomUUID } from 'node:crypto';
import { zCreateScanBody } from '../../generated/zod.gen.js';
import { type Finding, checkPage, countFindings, zeroCounts } from './findings.js';
import { phaseOf } from './jobs.js';
import { fail } from './problems.js';
import { lookup, pageUrl, parseBody } from './requests.js';
import { siteForUrl } from './state.js';
import { type Ctx, type Reply, type World, accepted, ok } from './world.js';
import type { ScanJob } from './records.js';

// Terminal failure of a page that could not be checked, by page outcome.
const PAGE_FAILURES: Record<string, { code: string; reason: string }> = {
  UNREACHABLE: { code: 'PAGE_UNREACHABLE', reason: 'The page could not be reached.' },
  TIMEOUT: { code: 'PAGE_TIMEOUT', reason: 'The page did not finish loading within the time limit.' },
  ERROR: { code: 'SCAN_ERROR', reason: 'The scanner failed on this page.' },
};

/** Stores a scan of `url` (also used for journey checkpoints). */
export function addScan(
  world: World,
  siteId: string,
  url: string,
  createdAt: number,
  durationMs: number,
  fromJourney: boolean,
): ScanJob {
  const scan: ScanJob = {
    id: randomUUID(),
    createdAt,
    durationMs,
    queuedShare: world.queuedShare,
    siteId,
    page: checkPage(world.seed, url),
    fromJourney,
  };
  world.scans.set(scan.id, scan);
  return scan;
}

/** `V1ScanResponse` of a scan at `now`. */
export function scanView(scan: ScanJob, now: number) {
  const phase = phaseOf(scan, now);
  const base = { id: scan.id, siteId: scan.siteId, requestedUrl: scan.page.url };
  if (phase.stage !== 'DONE') return { ...base, status: phase.stage, counts: zeroCounts(), totalViolations: 0 };
  const failure = PAGE_FAILURES[scan.page.status];
  if (failure) return { ...base, status: 'FAILED', counts: zeroCounts(), totalViolations: 0, failureReason: failure };
  return {
    ...base,
    status: 'COMPLETED',
    counts: countFindings(scan.page.findings),
    totalViolations: scan.page.findings.length,
  };
}

/** `V1ViolationResponse` of a finding (the flat record, without fingerprint). */
export function violationView(f: Finding) {
  const { ruleId, impact, wcagSc, url, helpUrl, target, htmlSnippet, failureSummary } = f;
  return { ruleId, impact, wcagSc, url, helpUrl, target, htmlSnippet, failureSummary };
}

/** POST /scans: 422 `INVALID_URL`/`VALIDATION_FAILED`, 404 `SITE_NOT_FOUND`, 409 `SCAN_ALREADY_RUNNING`. */
export function createScan(ctx: Ctx): Reply {
  const { world, now } = ctx;
  const body = parseBody(zCreateScanBody, ctx.body, ['url']);
  const url = pageUrl(body.url, 'url');
  const site =
    siteForUrl(world.org, url) ??
    fail(404, 'SITE_NOT_FOUND', `No registered site of this organization contains ${url.host}.`);
  // "A scan of this target is already running": the same page, queued or running.
  for (const s of world.scans.values()) {
    if (!s.fromJourney && new URL(s.page.url).href === url.href && phaseOf(s, now).stage !== 'DONE') {
      fail(409, 'SCAN_ALREADY_RUNNING', `A scan of ${url.href} is already queued or running (${s.id}).`);
    }
  }
  // The page keeps the URL as requested; conflicts compare the parsed form.
  const scan = addScan(world, site.id, body.url, now, world.durations.scan, false);
  return accepted(`/api/v1/scans/${scan.id}`, { id: scan.id, status: 'QUEUED' }, ctx.world, scan);
}

/** GET /scans/{id}. */
export function getScan(ctx: Ctx): Reply {
  const scan = lookup(ctx.world.scans, ctx.id, 'SCAN_NOT_FOUND', 'scan');
  return ok(scanView(scan, ctx.now), ctx.world, scan, ctx.now);
}

/** GET /scans/{id}/violations: the scan's findings once COMPLETED, else an empty list. */
export function listScanViolations(ctx: Ctx): Reply {
  const scan = lookup(ctx.world.scans, ctx.id, 'SCAN_NOT_FOUND', 'scan');
  const done = phaseOf(scan, ctx.now).stage === 'DONE';
  return ok(done ? scan.page.findings.map(violationView) : []);
}
