// Tracked fixes and fix verifications (endpoints 13–15). The document shows no problem codes for these
// endpoints, so their 404/409/422 problems carry no `code` (type about:blank), as openapi.yaml's examples.
import { randomUUID } from 'node:crypto';
import { checkPage, countFindings, selectorSignature, zeroCounts } from './findings.js';
import { iso, itemStage, phaseOf } from './jobs.js';
import { drawPageEnds } from './page-durations.js';
import { fail } from './problems.js';
import { find, lookup } from './requests.js';
import type { FixRecord } from './state.js';
import { type Ctx, type Reply, type World, accepted, ok } from './world.js';
import type { FixVerificationJob } from './records.js';

/** Terminal result of a verification (independent of time once it is DONE). */
function result(job: FixVerificationJob) {
  const done = job.pages.filter((p) => p.status === 'DONE');
  const findings = done.flatMap((p) => p.findings);
  const ruleNodes = findings.filter((f) => f.ruleId === job.fix.ruleId);
  const causeNodes = ruleNodes.filter((f) => `${f.ruleId}:${selectorSignature(f.target)}` === job.fix.rootCauseKey);
  return {
    scanned: done.length,
    failed: job.pages.length - done.length,
    nodesFound: causeNodes.length,
    ruleNodesFound: ruleNodes.length,
  };
}

/** `V1FixVerificationResponse` at `now`. Outcome `FIXED` when no node of the root cause remains, else `NOT_FIXED`. */
function verificationView(job: FixVerificationJob, now: number) {
  const phase = phaseOf(job, now);
  const pages = job.pages.map((p, i) => {
    const stage = itemStage(i, job.pages.length, phase, job.pageEnds);
    if (stage !== 'DONE') return { url: p.url, status: stage, counts: zeroCounts() };
    return { url: p.url, status: p.status, counts: countFindings(p.findings) };
  });
  const base = {
    id: job.id,
    remediationItemId: job.fix.id,
    siteId: job.fix.siteId,
    source: 'API',
    scopeGranularity: 'ROOT_CAUSE',
    rootCauseKey: job.fix.rootCauseKey,
    pagesRequested: job.pages.length,
    pages,
  };
  if (phase.stage !== 'DONE') {
    const scanned = pages.filter((p) => p.status === 'DONE').length;
    const failed = pages.filter((p) => p.status !== 'DONE' && p.status !== 'QUEUED' && p.status !== 'RUNNING').length;
    return {
      ...base,
      status: phase.stage,
      pagesScanned: scanned,
      pagesFailed: failed,
      ...(phase.stage === 'RUNNING' ? { startedAt: iso(phase.startedAt) } : {}),
    };
  }
  const r = result(job);
  const times = { startedAt: iso(phase.startedAt), finishedAt: iso(phase.finishedAt) };
  if (r.scanned === 0)
    return {
      ...base,
      status: 'FAILED',
      pagesScanned: 0,
      pagesFailed: r.failed,
      failureReasonCode: 'ALL_PAGES_FAILED',
      ...times,
    };
  return {
    ...base,
    status: 'COMPLETED',
    outcome: r.nodesFound === 0 ? 'FIXED' : 'NOT_FIXED',
    pagesScanned: r.scanned,
    pagesFailed: r.failed,
    nodesFound: r.nodesFound,
    ruleNodesFound: r.ruleNodesFound,
    ...times,
  };
}

/** `V1FixResponse` at `now`: a fix whose latest completed verification found it FIXED shows as VERIFIED. */
function fixView(world: World, fix: FixRecord, now: number) {
  const {
    id,
    siteId,
    ruleId,
    impact,
    rootCauseKey,
    componentLabel,
    status,
    verifiedScope,
    verifiedAt,
    verifiedPagesCount,
  } = fix;
  const record = {
    id,
    siteId,
    ruleId,
    impact,
    rootCauseKey,
    componentLabel,
    status,
    verifiedScope,
    verifiedAt,
    verifiedPagesCount,
  };
  const tail = {
    nodesCountAtTracking: fix.nodesCountAtTracking,
    pagesCountAtTracking: fix.pagesCountAtTracking,
    verifiable: fix.verifiable,
  };
  let latest: { at: number; scanned: number; fixed: boolean } | undefined;
  for (const job of world.fixVerifications.values()) {
    const phase = phaseOf(job, now);
    if (job.fix.id !== fix.id || phase.stage !== 'DONE') continue;
    const r = result(job);
    if (r.scanned > 0 && (!latest || phase.finishedAt >= latest.at))
      latest = { at: phase.finishedAt, scanned: r.scanned, fixed: r.nodesFound === 0 };
  }
  // Undefined fields vanish in JSON, which keeps an OPEN fix free of stale verification fields.
  if (!latest) return { ...record, ...tail };
  if (!latest.fixed)
    return {
      ...record,
      status: 'OPEN',
      verifiedScope: undefined,
      verifiedAt: undefined,
      verifiedPagesCount: undefined,
      ...tail,
    };
  return {
    ...record,
    status: 'VERIFIED',
    verifiedScope: 'ROOT_CAUSE',
    verifiedAt: iso(latest.at),
    verifiedPagesCount: latest.scanned,
    ...tail,
  };
}

/** GET /sites/{id}/fixes (404 without code). */
export function listSiteFixes(ctx: Ctx): Reply {
  const site = find(ctx.world.org.sites, ctx.id, undefined, 'site');
  return ok(ctx.world.org.fixes.filter((f) => f.siteId === site.id).map((f) => fixView(ctx.world, f, ctx.now)));
}

/** POST /remediation-items/{id}/verifications: 404, 422 (not verifiable), 409 (one already running), all without code. */
export function createFixVerification(ctx: Ctx): Reply {
  const { world, now } = ctx;
  const fix = find(world.org.fixes, ctx.id, undefined, 'remediation item');
  if (!fix.verifiable)
    fail(422, undefined, 'This remediation item cannot be verified automatically; it needs a manual review.');
  for (const job of world.fixVerifications.values()) {
    if (job.fix.id === fix.id && phaseOf(job, now).stage !== 'DONE')
      fail(409, undefined, `A verification of this item is already queued or running (${job.id}).`);
  }
  const job: FixVerificationJob = {
    id: randomUUID(),
    createdAt: now,
    durationMs: world.durations.fixVerification,
    queuedShare: world.queuedShare,
    fix,
    pages: fix.pages.map((url) => checkPage(world.seed, url)),
    pageEnds: drawPageEnds(world.pageDurations, fix.pages.length),
  };
  world.fixVerifications.set(job.id, job);
  return accepted(`/api/v1/fix-verifications/${job.id}`, { id: job.id, status: 'QUEUED' }, ctx.world, job);
}

/** GET /fix-verifications/{id} (404 without code). */
export function getFixVerification(ctx: Ctx): Reply {
  const job = lookup(ctx.world.fixVerifications, ctx.id, undefined, 'fix verification');
  return ok(verificationView(job, ctx.now), ctx.world, job, ctx.now);
}
