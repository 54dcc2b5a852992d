// Waiting that reads progress: reading progress from any job kind, the completion estimate and the wait it
// plans (pure, by table), then the poller against loopback jobs whose pages move with time.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { A11yClient, type ClientOptions } from '../../src/index.js';
import {
  type JobTrack,
  estimateCompletion,
  trackJob,
  progressWait,
  readProgress,
  remainingAtLeast,
} from '../../src/wait/progress.js';
import { type Loopback, type Seen, startLoopback } from '../support/loopback.js';

const page = (status: unknown) => ({ url: 'https://shop.example.com/', status });

describe('readProgress', () => {
  it.each([
    [
      'CI check: DONE, TIMEOUT, UNREACHABLE, ERROR are finished pages',
      { status: 'RUNNING', pages: ['DONE', 'TIMEOUT', 'UNREACHABLE', 'ERROR', 'RUNNING', 'QUEUED'].map(page) },
      { done: 4, total: 6 },
    ],
    [
      'CI check: a page without a known status is not finished',
      { pages: [page('DONE'), page(undefined), page('SOMETHING_NEW'), null, 'DONE', 7] },
      { done: 1, total: 6 },
    ],
    ['CI check of one page, under way', { pages: [page('RUNNING')] }, { done: 0, total: 1 }],
    ['scan run: pagesDone of pagesTotal', { status: 'RUNNING', pagesDone: 5, pagesTotal: 12 }, { done: 5, total: 12 }],
    [
      'fix verification: pagesScanned (+ pagesFailed) of pagesRequested',
      { pagesRequested: 4, pagesScanned: 1, pagesFailed: 2, pages: [] },
      { done: 3, total: 4 },
    ],
    ['fix verification without pagesFailed', { pagesRequested: 4, pagesScanned: 2 }, { done: 2, total: 4 }],
  ])('%s', (_name, resource, expected) => {
    expect(readProgress(resource)).toEqual(expected);
  });

  it.each([
    ['not an object', 'RUNNING'],
    ['null', null],
    ['a single-page scan (no progress fields)', { status: 'RUNNING', requestedUrl: 'https://shop.example.com/' }],
    ['a journey run (checkpoints are not progress)', { status: 'RUNNING', checkpoints: [{ status: 'COMPLETED' }] }],
    ['scan run still QUEUED (pagesTotal 0)', { pagesDone: 0, pagesTotal: 0 }],
    ['done > total', { pagesDone: 13, pagesTotal: 12 }],
    ['negative done', { pagesDone: -1, pagesTotal: 12 }],
    ['negative total', { pagesDone: 0, pagesTotal: -3 }],
    ['NaN', { pagesDone: Number.NaN, pagesTotal: 12 }],
    ['Infinity', { pagesDone: 1, pagesTotal: Number.POSITIVE_INFINITY }],
    ['fractions', { pagesDone: 1.5, pagesTotal: 12 }],
    ['strings', { pagesDone: '3', pagesTotal: '12' }],
    ['only one of the pair', { pagesDone: 3 }],
    ['pagesScanned absent', { pagesRequested: 2, pages: [page('DONE')] }],
    ['pagesFailed not a number', { pagesRequested: 2, pagesScanned: 1, pagesFailed: 'one' }],
    ['scanned + failed > requested', { pagesRequested: 2, pagesScanned: 2, pagesFailed: 1 }],
    ['an empty pages[]', { pages: [] }],
    ['pages not an array', { pages: { 0: page('DONE') } }],
  ])('none for %s', (_name, resource) => {
    expect(readProgress(resource)).toBeUndefined();
  });
});

describe('trackJob', () => {
  it('anchors a job this wait created a quarter into [last seen QUEUED, first seen RUNNING], with half that window as its uncertainty', () => {
    let track = trackJob({}, { atMs: 0, status: 'QUEUED' });
    expect(track).toEqual({ queuedAtMs: 0 });
    track = trackJob(track, { atMs: 1000, status: 'RUNNING', progress: { done: 1, total: 10 } });
    expect(track).toEqual({
      queuedAtMs: 0,
      runningSeenAtMs: 1000,
      anchor: { atMs: 250, pages: 0, uncertaintyMs: 500 },
      changedAtMs: 1000,
      firstLook: { atMs: 1000, done: 1, total: 10 },
      last: { atMs: 1000, done: 1, total: 10 },
    });
    // Same progress: the moment it last changed stays; a new value moves it. The first look stays.
    track = trackJob(track, { atMs: 2000, status: 'RUNNING', progress: { done: 1, total: 10 } });
    expect([track.changedAtMs, track.last?.atMs]).toEqual([1000, 2000]);
    track = trackJob(track, { atMs: 3000, status: 'RUNNING', progress: { done: 3, total: 10 } });
    expect([track.changedAtMs, track.anchor?.atMs, track.firstLook?.atMs]).toEqual([3000, 250, 1000]);
    // Back to QUEUED (requeued): nothing learnt about the run holds any longer.
    expect(trackJob(track, { atMs: 4000, status: 'QUEUED' })).toEqual({ queuedAtMs: 4000 });
  });

  it('a job already running when the wait began counts from the first look (the page under way as half)', () => {
    const track = trackJob({}, { atMs: 5000, status: 'RUNNING', progress: { done: 4, total: 10 } });
    expect(track.anchor).toEqual({ atMs: 5000, pages: 4.5, uncertaintyMs: 0 });
    expect(estimateCompletion(track)).toBeUndefined();
  });

  it('a look without progress forgets the last progress (no estimate from stale figures)', () => {
    let track = trackJob({ queuedAtMs: 0 }, { atMs: 1000, status: 'RUNNING', progress: { done: 5, total: 10 } });
    track = trackJob(track, { atMs: 2000, status: 'RUNNING' });
    expect(track.last).toBeUndefined();
    expect(estimateCompletion(track)).toBeUndefined();
  });
});

const anchored = (
  last: { atMs: number; done: number; total: number },
  anchor = { atMs: 0, pages: 0, uncertaintyMs: 0 },
  changedAtMs = last.atMs,
): JobTrack => ({ anchor, last, changedAtMs, runningSeenAtMs: 0 });

describe('estimateCompletion', () => {
  it.each([
    [
      '2 of 10 pages in 2.5 s (the third half done): 1 s a page, 7.5 pages left',
      anchored({ atMs: 2500, done: 2, total: 10 }),
      { remainingMs: 7500, msPerPage: 1000, spread: Math.sqrt(1 / 2.5 + 1 / 8) },
    ],
    [
      "the anchor's uncertainty widens the spread",
      anchored({ atMs: 2500, done: 2, total: 10 }, { atMs: 0, pages: 0, uncertaintyMs: 1000 }),
      { remainingMs: 7500, msPerPage: 1000, spread: Math.sqrt(1 / 2.5 + 1 / 8 + 0.16) },
    ],
    [
      'counted from a first look at 3.5 pages: 2 pages in 2 s',
      anchored({ atMs: 3000, done: 5, total: 10 }, { atMs: 1000, pages: 3.5, uncertaintyMs: 0 }),
      { remainingMs: 4500, msPerPage: 1000, spread: Math.sqrt(1 / 2 + 1 / 5) },
    ],
    [
      'every page finished but still RUNNING: nothing left',
      anchored({ atMs: 4500, done: 4, total: 4 }),
      { remainingMs: 0, msPerPage: 1000, spread: Math.sqrt(1 / 4.5) },
    ],
  ])('%s', (_name, track, expected) => {
    const e = estimateCompletion(track)!;
    expect(e.remainingMs).toBeCloseTo(expected.remainingMs, 6);
    expect(e.msPerPage).toBeCloseTo(expected.msPerPage, 6);
    expect(e.spread).toBeCloseTo(expected.spread, 6);
  });

  // A created job first seen RUNNING at 1 s with pages already done: its start is a guess in [0, 1 s].
  const guessed = { atMs: 250, pages: 0, uncertaintyMs: 500 };
  const seenAt = (first: { atMs: number; done: number; total: number }, last = first): JobTrack => ({
    anchor: guessed,
    runningSeenAtMs: first.atMs,
    firstLook: first,
    last,
    changedAtMs: last.atMs,
  });

  it('from the first look with progress when the pages since make it sharper: no guess of the start', () => {
    // 20 pages in the 2 s since the first look: 100 ms a page, 37.5 left; from the guessed start (22.5 pages in
    // 2.75 s ± 0.5 s) the spread would be √(1/22.5 + 1/38 + (500/2750)²) ≈ 0.32, from the first look 0.28.
    const e = estimateCompletion(seenAt({ atMs: 1000, done: 2, total: 60 }, { atMs: 3000, done: 22, total: 60 }))!;
    expect(e.msPerPage).toBeCloseTo(100, 6);
    expect(e.remainingMs).toBeCloseTo(3750, 6);
    expect(e.spread).toBeCloseTo(Math.sqrt(1 / 20 + 1 / 38 + (0.5 / 20) ** 2), 6);
    expect(e.ifStartedLateMs).toBeUndefined();
  });

  it('from the guessed start when the first look cannot be compared: pages to do changed, or progress went back', () => {
    // The service grew the job from 10 to 60 pages, or counted fewer done than before: the anchor's pace (22.5
    // pages in 2.75 s) stands, with the bound of a late start (pages were done at the first look).
    for (const first of [
      { atMs: 1000, done: 2, total: 10 },
      { atMs: 1000, done: 30, total: 60 },
    ]) {
      const e = estimateCompletion(seenAt(first, { atMs: 3000, done: 22, total: 60 }))!;
      expect(e.msPerPage).toBeCloseTo(2750 / 22.5, 6);
      expect(e.ifStartedLateMs).toBeCloseTo((37.5 * 2000) / 22.5, 6);
    }
  });

  it('pages done already when first seen RUNNING: also the time left had it started just before that look', () => {
    // At the first look itself: those 3 pages may have taken no time at all.
    const first = { atMs: 1000, done: 3, total: 60 };
    const now = estimateCompletion(seenAt(first))!;
    expect(now.remainingMs).toBeCloseTo((56.5 * 750) / 3.5, 6);
    expect(now.ifStartedLateMs).toBe(0);
    // 1 s later, 2 more pages (not enough to prefer the first look's rate): all 5.5 pages in ≥ 1 s.
    const later = estimateCompletion(seenAt(first, { atMs: 2000, done: 5, total: 60 }))!;
    expect(later.msPerPage).toBeCloseTo(1750 / 5.5, 6);
    expect(later.ifStartedLateMs).toBeCloseTo((54.5 * 1000) / 5.5, 6);
    // Nothing done at the first look, or a start known (a job first seen already running): no such bound.
    expect(estimateCompletion(seenAt({ atMs: 1000, done: 0, total: 60 }, { atMs: 2000, done: 1, total: 60 }))).toEqual(
      expect.not.objectContaining({ ifStartedLateMs: expect.anything() }),
    );
    const known = trackJob({}, { atMs: 1000, status: 'RUNNING', progress: { done: 3, total: 60 } });
    const knownLater = trackJob(known, { atMs: 2000, status: 'RUNNING', progress: { done: 5, total: 60 } });
    expect(estimateCompletion(knownLater)?.ifStartedLateMs).toBeUndefined();
  });

  it.each([
    ['nothing seen', {}],
    [
      'a single page under way (a job of one page tells nothing of its speed)',
      anchored({ atMs: 5000, done: 0, total: 1 }),
    ],
    ['no page finished yet', anchored({ atMs: 5000, done: 0, total: 10 })],
    [
      'no page finished since the first look',
      anchored({ atMs: 9000, done: 4, total: 10 }, { atMs: 5000, pages: 4.5, uncertaintyMs: 0 }),
    ],
    [
      'progress went backwards',
      anchored({ atMs: 9000, done: 2, total: 10 }, { atMs: 5000, pages: 4.5, uncertaintyMs: 0 }),
    ],
    ['no time elapsed since the anchor', anchored({ atMs: 0, done: 2, total: 10 })],
  ])('none: %s', (_name, track) => {
    expect(estimateCompletion(track as JobTrack)).toBeUndefined();
  });
});

describe('remainingAtLeast', () => {
  it.each([
    // Still on the first of 10 pages after 1 s: each page takes ≥ 1 s, the 9 not started ≥ 70 % of that.
    ['a created job still on its first page', anchored({ atMs: 1000, done: 0, total: 10 }), 6300],
    // It may have left the queue just before that look: the time before it tells nothing of its pages.
    [
      'counted from the look that first saw it RUNNING, not from the anchor',
      { ...anchored({ atMs: 1000, done: 0, total: 10 }), runningSeenAtMs: 200 },
      0.7 * 9 * 800,
    ],
    [
      '3 pages (2 done, 1 under way) in 3 s, 7 not started',
      anchored({ atMs: 3000, done: 2, total: 10 }),
      0.7 * 7 * 1000,
    ],
    // First seen at 4.5 pages: 4 s span the rest of that page and the one under way now (2 pages).
    [
      'a job first seen already running',
      {
        ...anchored({ atMs: 9000, done: 5, total: 10 }, { atMs: 5000, pages: 4.5, uncertaintyMs: 0 }),
        runningSeenAtMs: 5000,
      },
      (0.7 * 4 * 4000) / 2,
    ],
  ])('%s', (_name, track, expected) => {
    expect(remainingAtLeast(track)).toBeCloseTo(expected, 6);
  });

  // At the first look that sees a job RUNNING with no page done, the first page has been under way since
  // the guessed start (the anchor); had it left the queue just before the look, nothing is known of its pace, so the
  // bound is at most 3 times the window [last known queued, first seen RUNNING]. Before, nothing was bounded until
  // a second look one interval later (~0.35 requests of a CI check of 5–20 pages, bench/polling-model.mjs).
  it('the first look, no page done: counted from the guessed start, at most 3 windows since it was last known queued', () => {
    const firstLook = (total: number) =>
      trackJob(trackJob({}, { atMs: 0, status: 'QUEUED' }), {
        atMs: 900,
        status: 'RUNNING',
        progress: { done: 0, total },
      });
    // Anchored a quarter into [0, 900]: the first page has taken 675 ms, the 4 not started ≥ 70 % of that each.
    expect(remainingAtLeast(firstLook(5))).toBeCloseTo(0.7 * 4 * 675, 6);
    // 19 not started would say 8978 ms: at most 3 × 900.
    expect(remainingAtLeast(firstLook(20))).toBeCloseTo(2700, 6);
    // Pages done at that look: the job may have started just before it and run them in no time (no bound yet).
    const withPages = trackJob(trackJob({}, { atMs: 0, status: 'QUEUED' }), {
      atMs: 900,
      status: 'RUNNING',
      progress: { done: 2, total: 20 },
    });
    expect(remainingAtLeast(withPages)).toBeUndefined();
    // A job already running when the wait began (never seen queued): no window, no guess, no bound at that look.
    expect(remainingAtLeast(trackJob({}, { atMs: 900, status: 'RUNNING', progress: { done: 0, total: 20 } }))).toBe(
      undefined,
    );
  });

  it.each([
    ['nothing seen', {}],
    ['the last page under way (nothing not started)', anchored({ atMs: 5000, done: 9, total: 10 })],
    ['a single page', anchored({ atMs: 5000, done: 0, total: 1 })],
    [
      'no time since it was first seen RUNNING',
      { ...anchored({ atMs: 500, done: 0, total: 10 }), runningSeenAtMs: 500 },
    ],
  ])('none: %s', (_name, track) => {
    expect(remainingAtLeast(track as JobTrack)).toBeUndefined();
  });
});

describe('progressWait', () => {
  const bounds = { intervalMs: 1000, maxIntervalMs: 10_000 };
  it.each([
    // 50 of 100 pages in 2 s: 1960 ms left, its earliest plausible completion 1960 · e^−0.1995 = 1605 (the page
    // under way says only ≥ 0.7 · 49 · 2000 / 51 = 1345), + 0.65 · 1000 (allowance: max(interval, 10 % of 3.96 s)).
    [
      'aims at the earliest plausible completion plus 65 % of the allowance',
      anchored({ atMs: 2000, done: 50, total: 100 }),
      2000,
      2000,
      49.5 * (2000 / 50.5) * Math.exp(-Math.sqrt(1 / 50.5 + 1 / 50)) + 650,
    ],
    // The estimate says 7500 · e^−0.7246 = 3634; the page under way says ≥ 0.7 · 7 · 2500 / 3 = 4083.
    [
      'never before the least time the page under way implies',
      anchored({ atMs: 2500, done: 2, total: 10 }),
      2500,
      2500,
      4083.3 + 650,
    ],
    // No page finished 1 s after it was seen running (no estimate): ≥ 0.7 · 9 · 1000 ms.
    [
      'without a finished page, from the page under way alone',
      anchored({ atMs: 1000, done: 0, total: 10 }),
      1000,
      1000,
      6300 + 650,
    ],
    [
      'capped at maxIntervalMs when completion is far',
      anchored({ atMs: 10_000, done: 2, total: 100 }),
      10_000,
      10_000,
      10_000,
    ],
    ['at least intervalMs when completion is near', anchored({ atMs: 9500, done: 9, total: 10 }), 9500, 9500, 1000],
    // The last of 10 pages of ~2 s under way at 19 s: 1 s left, earliest 1055 · e^−1.03 = 377, + 0.65 · 2000 = 1677;
    // but a job finishing right after this look is noticed one wait later, so the wait is never below 90 % of the
    // allowance (a tenth of 19 s + 1 s left), which is never too late.
    [
      'at least 90 % of the allowance: a poll that soon could only spend a request',
      anchored({ atMs: 19_000, done: 9, total: 10 }),
      19_000,
      19_000,
      0.9 * 0.1 * (19_000 + 0.5 * (19_000 / 9.5)),
    ],
    // Still at 9 of 10 for 11 s (> 2 pages of 2.1 s + 1 interval): half the time since it moved.
    [
      'a stall: waits grow with the time since progress last moved (×1.5 per poll)',
      anchored({ atMs: 20_000, done: 9, total: 10 }, undefined, 9000),
      20_000,
      20_000,
      5500,
    ],
  ])('%s', (_name, track, nowMs, waitedMs, expected) => {
    expect(progressWait(track, nowMs, { ...bounds, waitedMs })).toBeCloseTo(expected, 0);
  });

  it('a job of many pages first seen RUNNING with pages done looks again within two windows: it may have just started', () => {
    // 3 of 60 pages at the first look, 0.9 s after the create. Counted from a quarter into [0, 0.9 s] they took
    // 675 ms, ~10.9 s to go, and the next look would come ~5 s later; had it started just before the look, it
    // could be done in 2–3 s. It is given two windows [create, first look] (issue 35: one interval before), plus
    // 65 % of the allowance (a tenth of 0.9 s and the 10.9 s estimated), and no least wait (the allowance hangs
    // on the guessed start).
    const track = trackJob(trackJob({}, { atMs: 0, status: 'QUEUED' }), {
      atMs: 900,
      status: 'RUNNING',
      progress: { done: 3, total: 60 },
    });
    const left = (56.5 * 675) / 3.5;
    expect(progressWait(track, 900, { ...bounds, waitedMs: 900 })).toBeCloseTo(2 * 900 + 0.65 * 0.1 * (900 + left), 6);
    // The same look of a job first seen already running (its start unknown, not guessed) plans from its rate.
    const running = trackJob({}, { atMs: 900, status: 'RUNNING', progress: { done: 3, total: 60 } });
    const later = trackJob(running, { atMs: 1900, status: 'RUNNING', progress: { done: 5, total: 60 } });
    expect(progressWait(later, 1900, { ...bounds, waitedMs: 1000 })).toBeGreaterThan(5000);
  });

  it('no jitter: the same progress plans the same wait (the look lands where it aims)', () => {
    const track = anchored({ atMs: 2500, done: 2, total: 10 });
    const waits = Array.from({ length: 5 }, () => progressWait(track, 2500, { ...bounds, waitedMs: 2500 }));
    expect(new Set(waits).size).toBe(1);
  });

  it('a look that would fall after the deadline comes half an interval before it', () => {
    const far = anchored({ atMs: 10_000, done: 2, total: 100 });
    expect(progressWait(far, 10_000, { ...bounds, waitedMs: 10_000, untilDeadlineMs: 4000 })).toBe(3500);
    expect(progressWait(far, 10_000, { ...bounds, waitedMs: 10_000, untilDeadlineMs: 60_000 })).toBe(10_000);
  });

  it('near the deadline, never sooner than one interval; when no look fits before it, the wait is the time left', () => {
    // Half an interval before the deadline would be 700 ms away: one interval, still 200 ms before the deadline.
    const far = anchored({ atMs: 10_000, done: 2, total: 100 });
    const until = (untilDeadlineMs: number) =>
      progressWait(far, 10_000, { ...bounds, waitedMs: 10_000, untilDeadlineMs });
    expect(until(1600)).toBe(1100);
    expect(until(1200)).toBe(1000);
    // No look fits: the wait runs to the deadline (it was 0 ms, a storm of looks in the last half interval).
    expect(until(1000)).toBe(1000);
    expect(until(300)).toBe(300);
    expect(until(0)).toBe(0);
    expect(until(-20)).toBe(0);
  });

  it('undefined when progress tells nothing (the caller backs off as before)', () => {
    expect(
      progressWait(anchored({ atMs: 5000, done: 0, total: 1 }), 5000, { ...bounds, waitedMs: 5000 }),
    ).toBeUndefined();
    expect(progressWait({}, 5000, { ...bounds, waitedMs: 5000 })).toBeUndefined();
  });
});

// Loopback jobs whose progress is a function of the time since the create, like the simulator's.
const id = '396154c7-55f5-43ad-bac0-2dd077d2efcb';
const servers: Loopback[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface Script {
  /** Progress at `t` ms after the create: pages done (of `pages`), or 'QUEUED', or 'COMPLETED'. */
  at(t: number): number | 'QUEUED' | 'COMPLETED';
  pages: number;
  /** Headers of the answers about the job while it is not terminal. */
  headers?: Record<string, string>;
}

/** A CI-check service playing `script`; `hide` drops the pages from the answers (a job without progress). */
async function serveJob(script: Script, hide = false) {
  let createdAt = 0;
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const server = await startLoopback((req: Seen, res: ServerResponse) => {
    if (req.method === 'POST') {
      createdAt = req.at;
      return send(res, 202, { id }, { location: `/api/v1/ci/checks/${id}` });
    }
    const state = script.at(req.at - createdAt);
    const done = state === 'QUEUED' ? 0 : state === 'COMPLETED' ? script.pages : state;
    const pages = Array.from({ length: script.pages }, (_, i) =>
      page(i < done ? 'DONE' : i === done ? 'RUNNING' : 'QUEUED'),
    );
    const status = typeof state === 'number' ? 'RUNNING' : state;
    send(
      res,
      200,
      { id, status, failOn: 'NEW_CRITICAL', ...(hide ? {} : { pages }) },
      status === 'COMPLETED' ? {} : script.headers,
    );
  });
  servers.push(server);
  return { server, createdAt: () => createdAt };
}

const createAndWait = (
  url: string,
  options: { intervalMs: number; maxIntervalMs: number },
  client: Partial<ClientOptions> = {},
) =>
  new A11yClient({ apiKey: 'svc_poll_test_key', baseUrl: url, ...client }).ciChecks.createAndWait(
    { urls: ['https://shop.example.com/'] },
    { ...options, timeoutMs: 10_000 },
  );

describe('polling a job that reports progress (loopback)', () => {
  it('notices a 10-page job within max(10 % of T, intervalMs) with few requests; with progress hidden, the backoff misses that', async () => {
    // T = 1.1 s: QUEUED 100 ms, then one page every 100 ms. The defaults scaled ÷20 (50 ms / 500 ms).
    const T = 1100;
    const script: Script = {
      pages: 10,
      at: (t) => (t >= T ? 'COMPLETED' : t < 100 ? 'QUEUED' : Math.floor((t - 100) / 100)),
    };
    const run = async (hide: boolean) => {
      const { server: s, createdAt } = await serveJob(script, hide);
      // The wait each poll planned, from the debug log ("… at poll 3; next poll in 180 ms (planned from progress)").
      const planned = new Map<number, number>();
      const debug = (line: string) => {
        const match = /at poll (\d+); next poll in (\d+) ms/.exec(line);
        if (match) planned.set(Number(match[1]), Number(match[2]));
      };
      const logger = { debug, info: () => {}, warn: () => {}, error: () => {} };
      await createAndWait(s.url, { intervalMs: 50, maxIntervalMs: 500 }, { logLevel: 'debug', logger });
      // Gaps between the requests' arrivals: create → 1st poll, 1st → 2nd poll, …
      const gaps = s.requests.slice(1).map((r, i) => r.at - s.requests[i]!.at);
      const arrivals = s.requests.map((r) => r.at - createdAt());
      return { requests: s.requests.length, gaps, arrivals, planned };
    };
    const [withProgress, without] = await Promise.all([run(false), run(true)]);
    // Where the poller aimed the look that found the job finished: the arrival of the last poll that saw it running
    // (poll n is request n; the create is request 0) plus the wait it planned then. Judged on the plan, not on when
    // the look came: a busy machine delays the sleep and the request after it (CI once saw +88 ms), never the aim.
    // Target max(110, 50) ms after completion; +40 ms for progress seen late on a busy machine.
    const lastRunning = withProgress.requests - 2;
    expect(withProgress.planned.has(lastRunning)).toBe(true);
    expect(withProgress.arrivals[lastRunning]! + withProgress.planned.get(lastRunning)! - T).toBeLessThanOrEqual(150);
    expect(withProgress.requests).toBeLessThanOrEqual(9);
    // With progress hidden the waits are the backoff's whatever the job does: 50, 50, 75, 112, 169, 253, 380,
    // 500 … ms, −0–20 % jitter each (a busy machine only lengthens a gap). On a quiet machine the poll that finds
    // the job finished is the 7th or a later one, ≥ 304 ms after the one before: completion can go unseen for ~3×
    // the target. How many polls fit before completion depends on the machine's speed (at load 25 only 3 did),
    // so what is asserted is the plan: every wait planned is the backoff's for its poll, never one planned from
    // progress, and no gap is shorter than that.
    const backoff = (i: number) => Math.min(500, 50 * 1.5 ** Math.max(0, i - 1));
    for (const [i, gap] of without.gaps.entries()) expect(gap, `gap ${i}`).toBeGreaterThanOrEqual(0.8 * backoff(i) - 2);
    expect(without.planned.size).toBeGreaterThan(0);
    for (const [poll, wait] of without.planned) {
      expect(wait, `wait planned at poll ${poll}`).toBeGreaterThanOrEqual(Math.floor(0.8 * backoff(poll)) - 1);
      expect(wait, `wait planned at poll ${poll}`).toBeLessThanOrEqual(Math.ceil(backoff(poll)) + 1);
    }
  });

  it('progress that stalls: waits grow ×1.5 instead of hammering at intervalMs', async () => {
    // 9 of 10 pages in 270 ms, then nothing for 1.2 s.
    const T = 1500;
    const script: Script = { pages: 10, at: (t) => (t >= T ? 'COMPLETED' : Math.min(9, Math.floor(t / 30))) };
    const { server: s, createdAt } = await serveJob(script);
    await createAndWait(s.url, { intervalMs: 20, maxIntervalMs: 400 });
    const polls = s.requests.slice(1).map((r) => r.at - createdAt());
    const inStall = polls.filter((t) => t > 400 && t < T);
    // At intervalMs that would be ~55 polls; the estimate alone (the last page's remaining half, growing
    // slowly with elapsed time) ~20; half the time since progress moved gives ~6.
    expect(inStall.length).toBeLessThanOrEqual(10);
    const gaps = polls.slice(1).map((t, i) => t - polls[i]!);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(200);
  });

  it('a Retry-After hint wins over progress', async () => {
    // 9 of 10 pages in 20 ms: progress alone would look again after ~intervalMs; the server says 1 s.
    const script: Script = {
      pages: 10,
      headers: { 'retry-after': '1' },
      at: (t) => (t >= 600 ? 'COMPLETED' : Math.min(9, Math.floor(t / 2))),
    };
    const { server: s } = await serveJob(script);
    await createAndWait(s.url, { intervalMs: 20, maxIntervalMs: 2000 });
    const [, first, second] = s.requests;
    expect(s.requests).toHaveLength(3);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900); // the RUNNING answer's hint, not progress's ~20 ms
  });
});
