// CI checks (endpoints 16–18): one verified site, findings compared with the site's saved baseline by
// fingerprint, and a verdict from failOn.
import { randomUUID } from 'node:crypto';
import { zCreateCiCheckBody } from '../../generated/zod.gen.js';
import {
  type Finding,
  type PageResult,
  type SeverityCounts,
  checkPage,
  countFindings,
  normalizePageUrl,
  zeroCounts,
} from './findings.js';
import { itemStage, phaseOf } from './jobs.js';
import { drawPageEnds } from './page-durations.js';
import { fail } from './problems.js';
import { lookup, pageUrl, parseBody } from './requests.js';
import { type SiteRecord, siteForUrl } from './state.js';
import { type Ctx, type Reply, type World, accepted, ok } from './world.js';
import type { FailOn, CiCheckJob } from './records.js';

// The service's default when failOn is omitted (the document does not name it; NEW_CRITICAL is the brief's).
const DEFAULT_FAIL_ON: FailOn = 'NEW_CRITICAL';

const isDone = (p: PageResult) => p.status === 'DONE';

/** True when `job` is, at `now`, a completed check saved as its site's baseline. */
function isSavedBaseline(job: CiCheckJob, now: number): boolean {
  return job.setBaseline && phaseOf(job, now).stage === 'DONE' && job.pages.some(isDone);
}

/** A check's findings, one per fingerprint (a URL listed twice is checked once). */
function findingsOf(job: CiCheckJob): Finding[] {
  const byPrint = new Map<string, Finding>();
  for (const f of job.pages.filter(isDone).flatMap((p) => p.findings))
    if (!byPrint.has(f.fingerprint)) byPrint.set(f.fingerprint, f);
  return [...byPrint.values()];
}

/**
 * The baseline comparison: `isNew` per finding; fixed = baseline findings on pages this check reached that
 * are gone; unchanged = findings also in the baseline. Without a baseline every finding is new.
 */
function compareWithBaseline(world: World, job: CiCheckJob) {
  const baseline = job.baselineId ? world.ciChecks.get(job.baselineId) : undefined;
  const before = new Map((baseline ? findingsOf(baseline) : []).map((f) => [f.fingerprint, normalizePageUrl(f.url)]));
  const reached = new Set(job.pages.filter(isDone).map((p) => normalizePageUrl(p.url)));
  const findings = findingsOf(job);
  const current = new Set(findings.map((f) => f.fingerprint));
  const violations = findings.map(({ htmlSnippet: _html, ...f }) => ({ ...f, isNew: !before.has(f.fingerprint) }));
  return {
    violations,
    counts: countFindings(findings),
    newCounts: countFindings(findings.filter((f) => !before.has(f.fingerprint))),
    unchangedCount: findings.filter((f) => before.has(f.fingerprint)).length,
    fixedCount: [...before].filter(([print, url]) => reached.has(url) && !current.has(print)).length,
  };
}

/**
 * The verdict for `failOn`: NEW_CRITICAL fails on a new critical finding, ANY_CRITICAL on any critical,
 * SERIOUS_OR_WORSE on any critical or serious, NONE never.
 * @example verdictOf('NEW_CRITICAL', counts, { critical: 0, serious: 2, moderate: 0, minor: 0 }) // 'PASS'
 */
function verdictOf(failOn: FailOn, counts: SeverityCounts, newCounts: SeverityCounts): 'PASS' | 'FAIL' {
  const failed = {
    NEW_CRITICAL: newCounts.critical > 0,
    ANY_CRITICAL: counts.critical > 0,
    SERIOUS_OR_WORSE: counts.critical + counts.serious > 0,
    NONE: false,
  }[failOn];
  return failed ? 'FAIL' : 'PASS';
}

/** `V1CiCheckResponse` at `now`. */
function ciCheckView(world: World, job: CiCheckJob, now: number) {
  const phase = phaseOf(job, now);
  const pages = job.pages.map((p, i) => {
    const stage = itemStage(i, job.pages.length, phase, job.pageEnds);
    return stage === 'DONE'
      ? { url: p.url, status: p.status, counts: countFindings(p.findings) }
      : { url: p.url, status: stage, counts: zeroCounts() };
  });
  const base = { id: job.id, failOn: job.failOn, pages, appUrl: `${world.baseUrl}/app/ci/checks/${job.id}` };
  if (phase.stage !== 'DONE') return { ...base, status: phase.stage };
  if (!job.pages.some(isDone))
    return { ...base, status: 'FAILED', failureReason: 'No page of the check could be reached.' };
  const { counts, newCounts, fixedCount, unchangedCount } = compareWithBaseline(world, job);
  return {
    ...base,
    status: 'COMPLETED',
    verdict: verdictOf(job.failOn, counts, newCounts),
    baselineMissing: job.baselineId === undefined,
    counts,
    newCounts,
    fixedCount,
    unchangedCount,
    ...(job.baselineId ? { baselineCheckId: job.baselineId } : {}),
  };
}

// `?flaky=N`: the page is UNREACHABLE in the first N CI checks that hold it, then checked as usual.
function checkCiPage(world: World, url: string): PageResult {
  const flaky = Number.parseInt(new URL(url).searchParams.get('flaky') ?? '0', 10);
  if (!(flaky > 0)) return checkPage(world.seed, url);
  const key = `page ${normalizePageUrl(url)}`;
  const seen = world.attempts.get(key) ?? 0;
  world.attempts.set(key, seen + 1);
  return seen < Math.min(50, flaky) ? { url, status: 'UNREACHABLE', findings: [] } : checkPage(world.seed, url);
}

/**
 * POST /ci/checks: 422 `VALIDATION_FAILED`/`INVALID_URL` (and more than the plan's URL cap, or URLs on
 * several sites), 404 `SITE_NOT_FOUND`, 409 `DOMAIN_NOT_VERIFIED`.
 */
export function createCiCheck(ctx: Ctx): Reply {
  const { world, now } = ctx;
  const body = parseBody(zCreateCiCheckBody, ctx.body, ['urls']);
  const max = ctx.key.plan.maxCiUrls;
  if (body.urls.length > max)
    fail(422, 'VALIDATION_FAILED', `urls must hold at most ${max} entries on the ${ctx.key.plan.name} plan.`);
  const urls = body.urls.map((u, i) => pageUrl(u, `urls[${i}]`));
  const sites = new Set<SiteRecord>();
  for (const url of urls) {
    sites.add(
      siteForUrl(world.org, url) ??
        fail(404, 'SITE_NOT_FOUND', `No registered site of this organization contains ${url.host}.`),
    );
  }
  if (sites.size > 1) fail(422, 'VALIDATION_FAILED', 'All urls of a CI check must belong to one site.');
  const site = [...sites][0]!;
  if (!site.verified) fail(409, 'DOMAIN_NOT_VERIFIED', `The site ${site.normalizedHost} is not verified.`);
  let baseline: CiCheckJob | undefined;
  for (const c of world.ciChecks.values()) {
    if (
      c.siteId === site.id &&
      isSavedBaseline(c, now) &&
      (!baseline || c.createdAt + c.durationMs >= baseline.createdAt + baseline.durationMs)
    ) {
      baseline = c;
    }
  }
  const timing = world.ciCheckTiming?.({ rank: world.ciChecks.size, urls: body.urls.length });
  const durationMs = timing?.durationMs ?? world.durations.ciCheck;
  const queuedShare = timing?.queuedShare ?? world.queuedShare;
  if (!(Number.isFinite(durationMs) && durationMs >= 0 && queuedShare >= 0 && queuedShare < 1))
    throw new RangeError(`ciCheckTiming gave durationMs ${durationMs} and queuedShare ${queuedShare}.`);
  const job: CiCheckJob = {
    id: randomUUID(),
    createdAt: now,
    durationMs,
    queuedShare,
    siteId: site.id,
    failOn: body.failOn ?? DEFAULT_FAIL_ON,
    setBaseline: body.setBaseline ?? false,
    pages: body.urls.map((u) => checkCiPage(world, u)),
    baselineId: baseline?.id,
    pageEnds: drawPageEnds(world.pageDurations, body.urls.length),
  };
  world.ciChecks.set(job.id, job);
  return accepted(`/api/v1/ci/checks/${job.id}`, { id: job.id }, ctx.world, job);
}

/** GET /ci/checks/{id}. */
export function getCiCheck(ctx: Ctx): Reply {
  const job = lookup(ctx.world.ciChecks, ctx.id, 'CI_CHECK_NOT_FOUND', 'CI check');
  return ok(ciCheckView(ctx.world, job, ctx.now), ctx.world, job, ctx.now);
}

/** GET /ci/checks/{id}/violations: the findings of a COMPLETED check, else an empty list. */
export function listCiViolations(ctx: Ctx): Reply {
  const job = lookup(ctx.world.ciChecks, ctx.id, 'CI_CHECK_NOT_FOUND', 'CI check');
  if (phaseOf(job, ctx.now).stage !== 'DONE') return ok([]);
  return ok(compareWithBaseline(ctx.world, job).violations);
}

/** The check's page in the "app" (`appUrl`): a minimal HTML summary, so demo links lead somewhere. */
export function ciCheckHtml(world: World, id: string, now: number): string | undefined {
  const job = world.ciChecks.get(id.toLowerCase());
  if (!job) return undefined;
  const view = ciCheckView(world, job, now) as {
    status: string;
    verdict?: string;
    pages: Array<{ url: string; status: string }>;
  };
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const rows = view.pages.map((p) => `<li>${esc(p.url)}: ${esc(p.status)}</li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CI check ${esc(job.id)}</title></head><body><h1>CI check ${esc(job.id)}</h1><p>Status: ${esc(view.status)}${view.verdict ? `, verdict: ${esc(view.verdict)}` : ''}</p><ul>${rows}</ul><p>Served by the @svc/a11y-sdk simulator.</p></body></html>`;
}
