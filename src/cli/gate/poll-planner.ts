// When to poll each check of a run next. Each check has a bound of its own: it is looked at within BOUND_MS of the
// first moment its own progress says it could have finished, so it is never seen finished much later than that,
// whatever its siblings did. Inside that bound, a prediction decides: the check's own pace where it has shown one,
// else the run's (the checks of one run check pages of one site on one service, so a sibling's pace is a fair
// guess), and a poll aims a little past the earliest plausible finish. Sibling pace may save requests, never cost
// lateness: a check predicted by siblings alone is still looked at within its own bound. Pure: times are passed in
// (ms on the caller's clock); the schedule owns the clock, the timers and the rate.
//
// The constants were chosen on test/support/schedule-model.ts (the schedule in virtual time, 200 seeded draws of
// each kind: 1 to 25 checks of 20 pages, 15–60 s log-uniform or 5–120 s, a quarter to a half queued for a fifth to a
// third of their time, at 120 requests a minute), as test/cli/poll-bound.test.ts holds them: see docs/benchmarks.md.

/** What the planner knows of one check. */
interface Track {
  pages: number;
  /** When the request creating it was sent (it cannot have started before). */
  createdAt: number;
  /** The latest moment it was seen QUEUED. */
  queuedSeenAt?: number | undefined;
  /** The first progress seen while RUNNING, and when. */
  first?: Sighting | undefined;
  /** The latest progress seen while RUNNING, and when. */
  last?: Sighting | undefined;
  /** The latest poll's moment. */
  polledAt?: number | undefined;
}

interface Sighting {
  at: number;
  done: number;
}

/**
 * The next poll of a check: when, and why — `probe` (the run knows nothing yet to predict by: one check at a time is
 * looked at, at growing intervals), `look` (on the way to a prediction that is still uncertain: a look tells the
 * check's own pace), `finish` (at its predicted finish, a little after), `bound` (its own bound: nothing it has shown
 * rules out that it finished).
 * @example const plan: Plan = { at: Date.now() + 20_000, kind: 'finish' };
 */
export interface Plan {
  at: number;
  kind: 'probe' | 'look' | 'finish' | 'bound';
}

/**
 * A check's status as a poll reads it, with its pages finished (DONE, TIMEOUT, UNREACHABLE or ERROR).
 * @example planner.observed('a', Date.now(), { status: 'RUNNING', done: 7 } satisfies PollSighting);
 */
export interface PollSighting {
  status: 'QUEUED' | 'RUNNING' | 'TERMINAL';
  done: number;
}

// A check is looked at within this long of the first moment it could have finished (its creation, until its own
// progress says more). The bound of lateness: 200 draws of 25 checks saw none later than 11.3 s (12 s: 13.8 s; 10 s:
// more polls in the rate's first minute, so starved ones later: 12 of 200 draws saw one past 15 s).
const BOUND_MS = 13_000;
// Without room in the rate (see `plan`), the bound and the allowance stretch by this much: polls on the way give way
// to the polls at the checks' finishes and the findings reads.
const TIGHT_STRETCH = 1.5;
// How far a check's own lower bound of its finish is trusted: the gap between two looks is at most this share of the
// check's age (never less than the bound, never more than twice it). Pages vary, and a bound from a few of them can
// be wrong.
const TRUSTED_GAP_SHARE = 0.4;
// The pages not started yet take at least this share of the time the pages so far took, on the whole (as the SDK's
// single-job wait assumes); a check first seen RUNNING at its first look may have left the queue just before it, so
// its bound then reaches at most one window [last known queued, that look] further.
const SLOWER_PAGES_SHARE = 0.7;
// How late a finish may be noticed, as a share of the check's predicted duration (at least MIN_ALLOWANCE_MS, at
// most the bound), and how far into that allowance a poll aims past the earliest plausible finish. 0.25 where the
// single-job wait takes 0.1: 25 checks then fit the rate's first minute (0.15: median lateness 1.8 s where 0.25
// gives 2.7 s, but a latest of 14.2 s where it gives 11.3 s, and 0.1 more requests per check).
const ALLOWANCE_SHARE = 0.25;
const MIN_ALLOWANCE_MS = 1_000;
const AIM_INTO_ALLOWANCE = 0.65;
// A look at a check that turned out unfinished is followed by the next no sooner than this share of the allowance:
// a finish right after it is still noticed in time, and predictions that keep missing by a little cost no storm of
// polls (0.9: median lateness 4.7 s and a third of the draws past 15 s; 0: 0.1 more requests per check).
const LEAST_WAIT_SHARE = 0.5;
// The spread of a prediction (the standard deviation of its logarithm) per page of evidence: √(1/pages seen +
// 1/pages left), times this. The run's pace counts as POOLED_WEIGHT pages; a pace bound from one sighting as one.
const SPREAD_PER_PAGE = 0.6;
const POOLED_WEIGHT = 2;
const BOUND_WEIGHT = 1;
// A poll is planned a little after the predicted finish: an early poll costs a request, a late one its lateness.
const LATE_SHARE = 0.015;
const LATE_MS = 40;
// Before the run can predict anything, one check at a time is probed at growing intervals from the run's first create
// (1 s, 4 s, 13 s…, never more than PROBE_MAX_GAP_MS apart): short checks are found soon without every check paying
// for it, and the first finish or pace seen predicts the others (0.5 s, ×2: a lone check of 15–60 s took 8 requests
// where it takes 7; without probes a lone check of 2–8 s was seen 9 s late).
const FIRST_PROBE_MS = 1_000;
const PROBE_GROWTH = 3;
const PROBE_MAX_GAP_MS = 10_000;
// Never two polls of one check closer than this share of its age (nor than MIN_GAP_MS): a prediction that keeps
// missing cannot turn into a storm.
const MIN_GAP_SHARE = 0.08;
const MIN_GAP_MS = 100;

/**
 * Plans the polls of a run's checks.
 * @example
 * const planner = new PollPlanner();
 * planner.created('a', 20, Date.now());
 * const next = planner.plan().get('a'); // { at, kind: 'bound' }: when to poll check 'a', and why
 */
export class PollPlanner<K = string> {
  readonly #tracks = new Map<K, Track>();
  // Pace samples of the finished checks: ms per page, and how many pages the sample covers.
  readonly #finished: Array<{ perPageMs: number; weight: number }> = [];
  #firstCreateAt: number | undefined;
  #probes = 0;
  #lastProbeAt: number | undefined;

  /** A check was created (its create sent at `at`) with `pages` pages. */
  created(key: K, pages: number, at: number): void {
    this.#tracks.set(key, { pages: Math.max(1, pages), createdAt: at });
    this.#firstCreateAt ??= at;
  }

  /** A poll planned as `plan` was sent at `at` (a probe moves the probes' schedule on). */
  sent(plan: Plan, at: number): void {
    if (plan.kind !== 'probe') return;
    this.#probes++;
    this.#lastProbeAt = at;
  }

  /** A poll sent at `at` read `sighting`; a terminal one retires the check and teaches the run its pace. */
  observed(key: K, at: number, sighting: PollSighting): void {
    const t = this.#tracks.get(key);
    if (!t) return;
    t.polledAt = at;
    if (sighting.status === 'QUEUED') t.queuedSeenAt = at;
    else if (sighting.status === 'RUNNING') {
      const seen = { at, done: Math.min(sighting.done, t.pages) };
      t.first ??= seen;
      t.last = seen;
    } else {
      this.#learn(t, at);
      this.#tracks.delete(key);
    }
  }

  /** The check is no longer polled (it ended otherwise). */
  forget(key: K): void {
    this.#tracks.delete(key);
  }

  /**
   * When to poll each check next (ms), and why: at the earliest of its own bound and its prediction (a little into
   * the allowance past its earliest plausible finish, or its predicted finish when that comes first). With `tight`
   * (the rate has no room to spare), the bound and the allowance stretch by half: the polls at finishes come first.
   * @default tight false
   * @example planner.plan().get('a') // e.g. { at: 1764285000000, kind: 'finish' }
   */
  plan({ tight = false } = {}): Map<K, Plan> {
    const pooled = this.#pooledPerPageMs();
    const stretch = tight ? TIGHT_STRETCH : 1;
    const plans = new Map<K, Plan>();
    let probe: [K, Track, number] | undefined;
    for (const [key, t] of this.#tracks) {
      const since = t.polledAt ?? t.createdAt;
      const age = since - t.createdAt;
      const bound = BOUND_MS * stretch;
      // The check's own bound: within `bound` of the earliest moment its own progress says it could finish, but
      // never further off than a trusted gap.
      const trusted = Math.min(2 * bound, Math.max(bound, TRUSTED_GAP_SHARE * age));
      const boundAt = since + Math.min(Math.max(0, (lowerFinish(t) ?? since) - since) + bound, trusted);
      const predicted = this.#predict(t, pooled);
      let at = boundAt;
      let kind: Plan['kind'] = 'bound';
      if (!predicted && (!probe || probeFirst(t, probe[1]))) probe = [key, t, boundAt];
      if (predicted) {
        const duration = Math.max(0, predicted.finish - t.createdAt);
        const allowance = Math.min(bound, Math.max(MIN_ALLOWANCE_MS, ALLOWANCE_SHARE * duration)) * stretch;
        const earliest = since + Math.max(0, predicted.finish - since) * Math.exp(-predicted.spread);
        const atFinish = predicted.finish + LATE_MS + LATE_SHARE * duration;
        const aimed = Math.max(
          Math.min(earliest + AIM_INTO_ALLOWANCE * allowance, atFinish),
          since + LEAST_WAIT_SHARE * allowance,
        );
        if (aimed < boundAt) {
          at = aimed;
          kind = aimed < atFinish ? 'look' : 'finish';
        }
      }
      plans.set(key, { at: Math.max(at, since + Math.max(MIN_GAP_MS, MIN_GAP_SHARE * age)), kind });
    }
    // Of the checks the run knows nothing yet to predict by, the one probed next, when its probe comes first.
    if (probe && this.#probeAt() < probe[2]) plans.set(probe[0], { at: this.#probeAt(), kind: 'probe' });
    return plans;
  }

  // Probes at growing intervals from the run's first create: 1 s, 4 s, 13 s, …
  #probeAt(): number {
    const from = this.#firstCreateAt ?? 0;
    const offset = (FIRST_PROBE_MS * (PROBE_GROWTH ** (this.#probes + 1) - 1)) / (PROBE_GROWTH - 1);
    const last = this.#lastProbeAt ?? from;
    return Math.max(Math.min(from + offset, last + PROBE_MAX_GAP_MS), last + MIN_GAP_MS);
  }

  // The predicted finish and its spread: the check's own pace (or a bound of it, from one sighting) blended with the
  // run's; none before anything is known.
  #predict(t: Track, pooled: number | undefined): { finish: number; spread: number } | undefined {
    const own = ownPace(t);
    const bound = own === undefined ? paceBound(t) : undefined;
    const mine = own ?? (bound === undefined ? undefined : { perPageMs: bound, weight: BOUND_WEIGHT });
    const perPage = blend(mine, pooled);
    if (perPage === undefined) return undefined;
    const left = Math.max(0.5, t.pages - (t.last?.done ?? 0) - 0.5);
    const weight = (mine?.weight ?? 0) + (pooled === undefined ? 0 : POOLED_WEIGHT);
    return {
      finish: predictedFinish(t, perPage),
      spread: SPREAD_PER_PAGE * Math.sqrt(1 / Math.max(0.25, weight) + 1 / left),
    };
  }

  // A finished check's pace: from its first RUNNING sighting to its finish (the middle of the last two polls:
  // polls are planned near the finish, so the window is short), or, never seen RUNNING, an upper bound from its
  // latest QUEUED sighting, counted for little.
  #learn(t: Track, at: number): void {
    const before = t.last?.at ?? t.queuedSeenAt ?? t.createdAt;
    const finishedAt = (before + at) / 2;
    if (t.first && t.pages - t.first.done >= 1) {
      const pages = t.pages - t.first.done - 0.5;
      this.#finished.push({ perPageMs: Math.max(1, finishedAt - t.first.at) / pages, weight: pages });
    } else if (!t.first) {
      const from = t.queuedSeenAt ?? t.createdAt;
      this.#finished.push({ perPageMs: Math.max(1, finishedAt - from) / t.pages, weight: t.pages / 4 });
    }
  }

  // The run's pace: ms per page, from the finished checks and the running checks' own progress.
  #pooledPerPageMs(): number | undefined {
    let sum = 0;
    let weight = 0;
    for (const f of this.#finished) {
      sum += f.perPageMs * f.weight;
      weight += f.weight;
    }
    for (const t of this.#tracks.values()) {
      const own = ownPace(t);
      if (!own) continue;
      sum += own.perPageMs * own.weight;
      weight += own.weight;
    }
    return weight > 0 ? sum / weight : undefined;
  }
}

// A check's own pace: between two RUNNING sightings that saw pages finish. One sighting does not tell it: when the
// check started within the window since it was last seen QUEUED (or created) is a guess, and a guess makes a check
// that waited QUEUED look several times slower, or one seen after its first page several times faster.
function ownPace(t: Track): { perPageMs: number; weight: number } | undefined {
  const { first, last } = t;
  if (!first || !last || last.done <= first.done) return undefined;
  return { perPageMs: (last.at - first.at) / (last.done - first.done), weight: last.done - first.done };
}

// The earliest a check can have finished, by its own progress: each page not started yet takes at least
// SLOWER_PAGES_SHARE of the time the pages since its first RUNNING sighting took (the page then under way counting
// whole). At that first sighting, from the moment it was last known queued (or created), but at most one such window
// further. Undefined when its progress tells nothing (never seen RUNNING, or on its last page).
function lowerFinish(t: Track): number | undefined {
  const { first, last } = t;
  if (!first || !last) return undefined;
  const notStarted = t.pages - last.done - 1;
  if (notStarted < 1) return undefined;
  if (last.at > first.at)
    return last.at + (SLOWER_PAGES_SHARE * notStarted * (last.at - first.at)) / (last.done - first.done + 1);
  const window = last.at - (t.queuedSeenAt ?? t.createdAt);
  if (window <= 0) return undefined;
  return last.at + Math.min((SLOWER_PAGES_SHARE * notStarted * window) / (last.done + 1), window);
}

// An upper bound of a check's pace from one RUNNING sighting with pages done: as if it had started when it was
// last seen QUEUED (or created).
function paceBound(t: Track): number | undefined {
  if (!t.last || t.last.done === 0) return undefined;
  return (t.last.at - (t.queuedSeenAt ?? t.createdAt)) / (t.last.done + 0.5);
}

function blend(own: { perPageMs: number; weight: number } | undefined, pooled: number | undefined): number | undefined {
  if (!own) return pooled;
  if (pooled === undefined) return own.perPageMs;
  return (own.perPageMs * own.weight + pooled * POOLED_WEIGHT) / (own.weight + POOLED_WEIGHT);
}

// The check probed next: one seen RUNNING first (a second look at it tells its pace), then the one polled longest
// ago (never polled first), the oldest first.
function probeFirst(a: Track, b: Track): boolean {
  if ((a.first === undefined) !== (b.first === undefined)) return a.first !== undefined;
  const at = a.polledAt ?? Number.NEGATIVE_INFINITY;
  const bt = b.polledAt ?? Number.NEGATIVE_INFINITY;
  return at < bt || (at === bt && a.createdAt < b.createdAt);
}

// When the check should finish: from its latest RUNNING sighting, the pages still to do (the one under way half
// done); not yet seen RUNNING, from its latest QUEUED sighting (or its creation), all of its pages.
function predictedFinish(t: Track, perPage: number): number {
  if (t.last) return t.last.at + Math.max(0.5, t.pages - t.last.done - 0.5) * perPage;
  return (t.queuedSeenAt ?? t.createdAt) + t.pages * perPage;
}
