// The whole-site schedule's two pure parts: the run's count of its requests over the key's sliding minute
// (request-pacer.ts) and the poll planner (poll-planner.ts), with times passed in: no timers, no machine speed. The
// planner's bounds over whole runs are held in test/cli/poll-bound.test.ts.
import { describe, expect, it } from 'vitest';
import { PollPlanner } from '../../src/cli/gate/poll-planner.js';
import { RequestPacer } from '../../src/cli/gate/request-pacer.js';

describe('RequestPacer', () => {
  it('allows a burst within the window, keeps two slots spare, and frees a slot when its request leaves', () => {
    const pacer = new RequestPacer({ requestsPerMinute: 120 });
    expect(pacer.free(0)).toBe(118);
    for (let i = 0; i < 118; i++) pacer.take(i * 10);
    expect(pacer.free(2_000)).toBe(0);
    // The first request leaves a window a second longer than the service's (arrival times jitter).
    expect(pacer.nextSlotAt(2_000)).toBe(61_000);
    expect(pacer.free(61_000)).toBe(1);
  });

  it('holds its share of the rate in a window of another length', () => {
    const pacer = new RequestPacer({ requestsPerMinute: 1200, windowMs: 6_000 });
    expect(pacer.free(0)).toBe(118);
  });
});

describe('PollPlanner', () => {
  const pages = 20;
  const fresh = (checks: number) => {
    const planner = new PollPlanner<string>();
    for (let i = 0; i < checks; i++) planner.created(`c${i}`, pages, i * 10);
    return planner;
  };

  it('knowing nothing, probes one check at a time (1 s, 4 s, 13 s…) and looks at every other within its bound (13 s)', () => {
    const planner = fresh(25);
    const plans = planner.plan();
    expect(plans.size).toBe(25);
    expect(plans.get('c0')).toEqual({ at: 1_000, kind: 'probe' });
    for (const [key, plan] of plans)
      if (key !== 'c0') expect(plan).toEqual({ at: Number(key.slice(1)) * 10 + 13_000, kind: 'bound' });
    // The probe was sent and saw c0 QUEUED: the next probe is another check's, 4 s after the first create.
    planner.sent(plans.get('c0')!, 1_000);
    planner.observed('c0', 1_000, { status: 'QUEUED', done: 0 });
    const next = [...planner.plan()].find(([, plan]) => plan.kind === 'probe')!;
    expect(next[0]).not.toBe('c0');
    expect(next[1].at).toBe(4_000);
  });

  it("a sibling's pace never postpones a check past its own bound: a check seen by nobody is looked at by 13 s", () => {
    const planner = fresh(2);
    // c1 is slow (3 s a page): alone it predicts c0 at a minute. c0 is still looked at within its bound.
    planner.observed('c1', 3_000, { status: 'RUNNING', done: 1 });
    planner.observed('c1', 12_000, { status: 'RUNNING', done: 4 });
    expect(planner.plan().get('c0')!.at).toBeLessThanOrEqual(13_000);
  });

  it("a sibling's pace may save requests: a check that shows the same pace is looked at on the way, not at every bound", () => {
    const planner = fresh(2);
    planner.observed('c1', 3_000, { status: 'RUNNING', done: 2 });
    planner.observed('c1', 12_000, { status: 'RUNNING', done: 11 }); // 1 s a page
    planner.observed('c0', 12_000, { status: 'RUNNING', done: 11 });
    // c0's own first sighting: 11 of 20 done at 12 s. Its own bound says it cannot finish before ~18 s; the run's
    // pace predicts ~20.5 s: c0 is looked at just after that, not 13 s after its earliest.
    const c0 = planner.plan().get('c0')!;
    expect(c0.kind).toBe('finish');
    expect(c0.at).toBeGreaterThan(20_000);
    expect(c0.at).toBeLessThan(22_000);
  });

  it("a check's own progress moves its bound: seen far from done, it is not looked at again before it could be", () => {
    const planner = fresh(1);
    planner.observed('c0', 5_000, { status: 'RUNNING', done: 1 });
    planner.observed('c0', 40_000, { status: 'RUNNING', done: 8 });
    // 5 s a page since it was surely running: 11 pages not started take at least 0.7 × 11 × 35 s / 8 ≈ 34 s more.
    const plan = planner.plan().get('c0')!;
    expect(plan.kind).toBe('bound');
    expect(plan.at).toBeGreaterThan(40_000 + 13_000);
    // …but a bound from a few pages is trusted only so far: 40 % of the check's age (16 s) after the last look.
    expect(plan.at).toBe(40_000 + 16_000);
  });

  it('a check predicted to finish soon is looked at a little into its allowance, and a miss is not followed at once', () => {
    const planner = fresh(1);
    planner.observed('c0', 2_000, { status: 'RUNNING', done: 2 });
    planner.observed('c0', 20_000, { status: 'RUNNING', done: 19 }); // ~1.06 s a page, one page left
    const first = planner.plan().get('c0')!;
    // Its allowance is a quarter of its ~20.5 s; a look half of it after the last one (~22.6 s) at the latest.
    expect(first.at).toBeGreaterThan(20_000);
    expect(first.at).toBeLessThan(23_000);
    // Still RUNNING at that look: the next comes at least half its allowance (a quarter of ~21 s) later.
    planner.observed('c0', first.at, { status: 'RUNNING', done: 19 });
    expect(planner.plan().get('c0')!.at - first.at).toBeGreaterThanOrEqual(0.5 * 0.25 * 20_000);
  });

  it('with the rate tight, bounds stretch by half: the polls at finishes come first', () => {
    // c0 is probed; c1, never seen, has its bound, which stretches.
    const planner = fresh(2);
    expect(planner.plan().get('c1')).toEqual({ at: 10 + 13_000, kind: 'bound' });
    expect(planner.plan({ tight: true }).get('c1')).toEqual({ at: 10 + 19_500, kind: 'bound' });
  });

  it('a finished check is no longer planned, and teaches the run its pace', () => {
    const planner = fresh(2);
    planner.observed('c0', 2_000, { status: 'RUNNING', done: 1 });
    planner.observed('c0', 40_000, { status: 'TERMINAL', done: 20 });
    const plans = planner.plan();
    expect(plans.has('c0')).toBe(false);
    // c1, never seen, is predicted by c0's pace (~2 s a page: ~40 s) but looked at within its own bound.
    expect(plans.get('c1')!.at).toBeLessThanOrEqual(10 + 13_000);
  });
});
