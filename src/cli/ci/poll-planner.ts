// When to poll each check of a run next, from what the run has seen of all of them. The checks of one run check pages
// of one site on one service, so what one check shows (how long a page takes once it runs) is the best guess for the
// others until a check shows its own pace: a check is polled when it is predicted to have finished, not on a blind
// backoff; one predicted without much of its own progress is looked at once on the way (a scout), which tells its
// own pace. Pure: times are passed in (ms on the caller's clock); the schedule owns the clock and the timers.

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
  /** Scouts sent (polls on the way to a prediction made without much of its own progress) before it was seen RUNNING. */
  scouts: number;
  /** Scouts sent since it was seen RUNNING. */
  runningScouts: number;
}

interface Sighting {
  at: number;
  done: number;
}

/**
 * The next poll of a check: when, and why — `probe` (the run knows nothing yet to predict by), `scout` (on the way to
 * a prediction made without much of the check's own progress), `finish` (at its predicted finish).
 * @example const plan: Plan = { at: Date.now() + 20_000, kind: 'finish' };
 */
export interface Plan {
  at: number;
  kind: 'probe' | 'scout' | 'finish';
}

/**
 * A check's status as a poll reads it, with its pages finished (DONE, TIMEOUT, UNREACHABLE or ERROR).
 * @example planner.observed('a', Date.now(), { status: 'RUNNING', done: 7 } satisfies PollSighting);
 */
export interface PollSighting {
  status: 'QUEUED' | 'RUNNING' | 'TERMINAL';
  done: number;
}

// Before the run knows how long anything takes, one check at a time is probed at growing intervals (from the run's
// first create): enough to learn the pace without every check paying for it. 2: a probe is at most as late as the
// time already waited; never more than PROBE_MAX_GAP_MS apart, so a lone check that shows no progress (a single
// page) is not found a minute late.
const FIRST_PROBE_MS = 500;
const PROBE_GROWTH = 2;
const PROBE_MAX_GAP_MS = 10_000;
// A poll is planned a little after the predicted finish: an early poll costs a request, a late one its lateness.
const LATE_SHARE = 0.015;
const LATE_MS = 40;
// A check of at least SCOUT_PAGES pages whose own pace is known from fewer than a quarter of its pages is looked at on
// the way to its predicted finish: SCOUT_SHARE of the way until it is seen RUNNING (at most MAX_SCOUTS times), then
// once SCOUT_SHARE_RUNNING of the way; smaller checks show no progress worth a poll: polled at their predicted finish.
const SCOUT_PAGES = 3;
const SCOUT_SHARE = 0.4;
const SCOUT_SHARE_RUNNING = 0.7;
const MAX_SCOUTS = 2;
// Never two polls of one check closer than this share of its age (nor than MIN_GAP_MS): a prediction that keeps
// missing cannot turn into a storm.
const MIN_GAP_SHARE = 0.08;
const MIN_GAP_MS = 100;
// The run's pace counts as this many pages beside a check's own.
const POOLED_WEIGHT = 2;

/**
 * Plans the polls of a run's checks.
 * @example
 * const planner = new PollPlanner();
 * planner.created('a', 20, Date.now());
 * const next = planner.plan().get('a'); // { at, kind: 'probe' }: when to poll check 'a', and why
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
    this.#tracks.set(key, { pages: Math.max(1, pages), createdAt: at, scouts: 0, runningScouts: 0 });
    this.#firstCreateAt ??= at;
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

  /** A poll planned as `plan` was sent for `key` at `at`. */
  sent(key: K, plan: Plan, at: number): void {
    if (plan.kind === 'probe') {
      this.#probes++;
      this.#lastProbeAt = at;
    }
    const t = this.#tracks.get(key);
    if (t && plan.kind === 'scout') {
      if (t.first) t.runningScouts++;
      else t.scouts++;
    }
  }

  /**
   * When to poll each check next (ms), and why: on the way to a prediction made without much of its own progress,
   * else at its predicted finish, a little after; of the checks the run knows nothing yet to plan by, only the one
   * probed next. Without `scouting` (the rate has no room to spare for them), no poll is planned on the way.
   * @default scouting true
   * @example planner.plan().get('a') // e.g. { at: 1764285000000, kind: 'finish' }
   */
  plan({ scouting = true } = {}): Map<K, Plan> {
    const pooled = this.#pooledPerPageMs();
    const plans = new Map<K, Plan>();
    let probe: [K, Track] | undefined;
    for (const entry of this.#tracks) {
      const [key, t] = entry;
      const own = ownPace(t);
      const known = blend(own, pooled);
      // Nothing known but this check seen RUNNING with pages done: its pace is at most what it would be had it
      // started right after it was last seen QUEUED; a look half-way to that finish tells it.
      const bound = known === undefined ? paceBound(t) : undefined;
      const perPage = known ?? bound;
      if (perPage === undefined) {
        if (!probe || probeFirst(t, probe[1])) probe = entry;
        continue;
      }
      const finish = predictedFinish(t, perPage);
      const since = t.polledAt ?? t.createdAt;
      const gap = Math.max(MIN_GAP_MS, MIN_GAP_SHARE * (since - t.createdAt));
      if (bound !== undefined && t.runningScouts < MAX_SCOUTS) {
        plans.set(key, { at: Math.max(since + 0.5 * (finish - since), since + gap), kind: 'scout' });
        continue;
      }
      if (scouting && t.pages >= SCOUT_PAGES && (own?.weight ?? 0) < t.pages / 4) {
        // Not seen RUNNING yet: early on the way, so a check faster than the run's pace is not found late. Seen
        // RUNNING once with most of its pages to do: most of the way, where a second look tells its pace for the
        // short rest (with half done or more, the run's pace is close enough for the rest).
        const share = t.first ? SCOUT_SHARE_RUNNING : SCOUT_SHARE;
        if (t.first ? t.runningScouts < 1 && t.first.done < t.pages / 2 : t.scouts < MAX_SCOUTS) {
          plans.set(key, { at: Math.max(since + share * (finish - since), since + gap), kind: 'scout' });
          continue;
        }
      }
      const late = LATE_MS + LATE_SHARE * Math.max(0, finish - t.createdAt);
      plans.set(key, { at: Math.max(finish + late, since + gap), kind: 'finish' });
    }
    if (probe) plans.set(probe[0], { at: this.#probeAt(), kind: 'probe' });
    return plans;
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

  // Probes at growing intervals from the run's first create: 0.5 s, 1.5 s, 3.5 s, 7.5 s, …
  #probeAt(): number {
    const from = this.#firstCreateAt ?? 0;
    const offset = (FIRST_PROBE_MS * (PROBE_GROWTH ** (this.#probes + 1) - 1)) / (PROBE_GROWTH - 1);
    const last = this.#lastProbeAt ?? from;
    return Math.max(Math.min(from + offset, last + PROBE_MAX_GAP_MS), last + MIN_GAP_MS);
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

// When the check should finish: from its latest RUNNING sighting, the pages still to do (the one under way half
// done); not yet seen RUNNING, from its latest QUEUED sighting (or its creation), all of its pages.
function predictedFinish(t: Track, perPage: number): number {
  if (t.last) return t.last.at + Math.max(0.5, t.pages - t.last.done - 0.5) * perPage;
  return (t.queuedSeenAt ?? t.createdAt) + t.pages * perPage;
}

// The check probed next: one seen RUNNING first (a second look at it tells its pace), then the one polled longest
// ago (never polled first), the oldest first.
function probeFirst(a: Track, b: Track): boolean {
  if ((a.first === undefined) !== (b.first === undefined)) return a.first !== undefined;
  const at = a.polledAt ?? Number.NEGATIVE_INFINITY;
  const bt = b.polledAt ?? Number.NEGATIVE_INFINITY;
  return at < bt || (at === bt && a.createdAt < b.createdAt);
}
