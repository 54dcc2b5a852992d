// `--recheck N`: pages a check could not check (TIMEOUT, UNREACHABLE, ERROR; every page of a check that ended FAILED)
// are checked again in a check of their own, at most N times, inside the run's schedule (schedule.ts asks
// `recheckOf` as each check finishes, so a recheck starts while the other checks run). Afterwards each page is
// judged on its last attempt: `withAttempts` takes a rechecked page out of the check before (with its findings), so
// every check is judged over the pages it had the last word on, and records the attempts on the page for the reports.
import type { CiCheck, CiViolation } from '../../index.js';
import type { AttemptedPage, PageAttempt } from '../verdict/attempts.js';
import { safeCopy } from '../io/safe-text.js';
import type { Batch } from './batches.js';
import type { BatchResult } from './run-batches.js';
import type { BatchEnd } from './schedule.js';

/** Page statuses that send a page to a recheck (the document's page statuses that are not DONE nor progress). */
const FLAKY_PAGE_STATUSES: ReadonlySet<string> = new Set(['TIMEOUT', 'UNREACHABLE', 'ERROR']);

/**
 * The recheck a finished check calls for, or undefined: its pages that could not be checked (all of them when the
 * check FAILED), while fewer than `max` rechecks of its pages were made.
 * @example recheckOf(batch, { kind: 'finished', check, violations: [] }, 1)?.key // 'https://shop.example.com 1/1 recheck 1'
 */
export function recheckOf(batch: Batch, end: BatchEnd, max: number): Batch | undefined {
  const attempt = (batch.recheck?.attempt ?? 0) + 1;
  if (end.kind !== 'finished' || attempt > max) return undefined;
  const urls = flakyPages(batch, end.check);
  if (urls.length === 0) return undefined;
  const of = batch.recheck?.of ?? batch.key;
  return { ...batch, key: recheckKey(of, attempt), urls, recheck: { of, attempt } };
}

// A recheck's batch key, by which `withAttempts` finds the rechecks of a check again.
const recheckKey = (of: string, attempt: number) => `${of} recheck ${attempt}`;

// The pages asked for that the check could not check, once each, in the batch's order. A page the check reports
// twice or was not asked for is not rechecked: the page match (verdict/page-match.ts) names it.
function flakyPages(batch: Batch, check: CiCheck): string[] {
  if (check.status === 'FAILED') return [...batch.urls];
  if (check.status !== 'COMPLETED') return [];
  const flaky = new Set(
    (Array.isArray(check.pages) ? check.pages : [])
      .filter((p) => typeof p?.status === 'string' && FLAKY_PAGE_STATUSES.has(p.status))
      .map((p) => p.url),
  );
  return batch.urls.filter((url) => flaky.has(url));
}

/**
 * The results of a run with rechecks as the verdict reads them: a page rechecked leaves the check before (its page
 * entry and findings), so each page is judged on its last attempt; a check left with no page is dropped; a page
 * checked more than once carries its `attempts` (first to last) on its last entry. Order: each check, then its
 * rechecks. Without rechecks the results are returned as they are.
 * @example withAttempts(results).flatMap((r) => r.check.pages ?? []).find((p) => p.attempts)?.attempts?.length // 2
 */
export function withAttempts(results: readonly BatchResult[]): BatchResult[] {
  if (!results.some((r) => r.batch.recheck)) return [...results];
  const byKey = new Map(results.map((r) => [r.batch.key, r] as const));
  const out: BatchResult[] = [];
  for (const first of results.filter((r) => !r.batch.recheck)) {
    const chain = [first];
    for (let n = 1; byKey.has(recheckKey(first.batch.key, n)); n++)
      chain.push(byKey.get(recheckKey(first.batch.key, n))!);
    const attempts = new Map<string, PageAttempt[]>();
    chain.forEach((r, i) => {
      for (const url of r.batch.urls) {
        const list = attempts.get(url) ?? [];
        list.push({ status: statusIn(r.check, url), recheck: i, ...(r.check.id ? { checkId: r.check.id } : {}) });
        attempts.set(url, list);
      }
    });
    chain.forEach((r, i) => {
      const later = new Set(chain[i + 1]?.batch.urls ?? []);
      const kept = later.size ? without(r, later) : r;
      if (kept) out.push(withPageAttempts(kept, attempts));
    });
  }
  return out;
}

function statusIn(check: CiCheck, url: string): string {
  const page = (Array.isArray(check.pages) ? check.pages : []).find((p) => p?.url === url);
  if (typeof page?.status === 'string' && (page.status as string) !== '') return page.status;
  return check.status === 'FAILED' ? 'FAILED' : 'not reported';
}

// The result without the pages a recheck took over (its page entries and their findings), or undefined when none is left.
function without(r: BatchResult, rechecked: ReadonlySet<string>): BatchResult | undefined {
  const urls = r.batch.urls.filter((url) => !rechecked.has(url));
  if (urls.length === 0) return undefined;
  const keep = (url: string | undefined) => url === undefined || !rechecked.has(url);
  const pages = Array.isArray(r.check.pages) ? r.check.pages.filter((p) => keep(p?.url)) : r.check.pages;
  return {
    ...r,
    batch: { ...r.batch, urls },
    check: { ...r.check, ...(pages ? { pages } : {}) },
    violations: r.violations.filter((v: CiViolation) => keep(v?.url)),
  };
}

function withPageAttempts(r: BatchResult, attempts: ReadonlyMap<string, PageAttempt[]>): BatchResult {
  if (!Array.isArray(r.check.pages)) return r;
  const pages = r.check.pages.map((p): AttemptedPage => {
    const list = p?.url === undefined ? undefined : attempts.get(p.url);
    return list && list.length > 1 ? { ...p, attempts: list } : p;
  });
  return { ...r, check: { ...r.check, pages } };
}

/**
 * What a run that saves the baseline says when pages needed a recheck: the baseline is its first checks, without
 * them (a recheck never sets the baseline: it holds a few pages, and saved it would stand for the whole site);
 * docs/cli.md says what that means for the next runs. Undefined when no page was rechecked.
 * @example baselineRecheckNote(scheduled, [apiKey]) // 'note: the baseline saved by this run lacks 1 page …'
 */
export function baselineRecheckNote(scheduled: readonly BatchResult[], secrets: readonly string[]): string | undefined {
  const pages = new Set(scheduled.filter((r) => r.batch.recheck?.attempt === 1).flatMap((r) => r.batch.urls));
  if (pages.size === 0) return undefined;
  const named =
    safeCopy([...pages].slice(0, 3), secrets).join(', ') + (pages.size > 3 ? ` and ${pages.size - 3} more` : '');
  return `note: the baseline saved by this run lacks ${pages.size} page${pages.size === 1 ? '' : 's'} its first checks could not check (${named}): a recheck never sets the baseline, so their findings count as new (in this run's rechecks, and in later runs) until a baseline run checks them at the first attempt.`;
}
