// The whole-site schedule's two pure parts: the run's count of its requests over the key's sliding minute
// (request-pacer.ts) and the poll planner (poll-planner.ts), with times passed in: no timers, no machine speed.
import { describe, expect, it } from 'vitest';
import { PollPlanner } from '../../src/cli/ci/poll-planner.js';
import { RequestPacer } from '../../src/cli/ci/request-pacer.js';

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

  it('knowing nothing, probes one check at a time at growing intervals', () => {
    const planner = fresh(25);
    const first = planner.plan();
    expect([...first.values()]).toEqual([{ at: 500, kind: 'probe' }]);
    const [key, plan] = [...first][0]!;
    planner.sent(key, plan, 500);
    planner.observed(key, 500, { status: 'QUEUED', done: 0 });
    const second = [...planner.plan()];
    expect(second).toHaveLength(1);
    expect(second[0]![0]).not.toBe(key);
    expect(second[0]![1].at).toBeGreaterThan(500 + 500);
  });

  it('a second look at a running check gives the run its pace: every check is then planned, none blindly', () => {
    const planner = fresh(25);
    planner.observed('c3', 4_000, { status: 'RUNNING', done: 2 });
    // One sighting tells no pace, only a bound (as if c3 started when created, at 30 ms): c3 is looked at half-way
    // to the finish that bound gives; of the others, only the next probe is planned.
    const once = planner.plan();
    expect(once.size).toBe(2);
    const bound = (4_000 - 30) / 2.5;
    expect(once.get('c3')).toEqual({ at: 4_000 + 0.5 * 17.5 * bound, kind: 'scout' });
    planner.observed('c3', 9_000, { status: 'RUNNING', done: 7 }); // 1 s per page
    const plans = planner.plan();
    expect(plans.size).toBe(25);
    for (const [, plan] of plans) expect(plan.kind).not.toBe('probe');
    // c3 has its own pace from 5 pages (a quarter of its 20): it is polled at its predicted finish, a little after:
    // 13 pages to do, one under way half done → 12.5 s after the last look.
    const c3 = plans.get('c3')!;
    expect(c3.kind).toBe('finish');
    expect(c3.at).toBeGreaterThanOrEqual(9_000 + 12_500);
    expect(c3.at).toBeLessThan(9_000 + 12_500 + 1_000);
    // A check never seen is looked at on the way (40 % of its predicted 20 s), not at once and not at its end.
    const c0 = plans.get('c0')!;
    expect(c0).toEqual({ at: 0.4 * 20_000, kind: 'scout' });
  });

  it('a check seen QUEUED is not polled again before its pages could be half-way', () => {
    const planner = fresh(2);
    planner.observed('c1', 1_000, { status: 'RUNNING', done: 0 });
    planner.observed('c1', 5_000, { status: 'RUNNING', done: 4 });
    planner.observed('c0', 30_000, { status: 'QUEUED', done: 0 });
    expect(planner.plan().get('c0')!.at).toBeGreaterThanOrEqual(30_000 + 0.4 * pages * 1_000);
  });

  it('without room in the rate, plans no poll on the way: straight to the predicted finish', () => {
    const planner = fresh(2);
    planner.observed('c1', 1_000, { status: 'RUNNING', done: 0 });
    planner.observed('c1', 5_000, { status: 'RUNNING', done: 4 });
    expect(planner.plan().get('c0')!.kind).toBe('scout');
    const tight = planner.plan({ scouting: false }).get('c0')!;
    expect(tight.kind).toBe('finish');
    expect(tight.at).toBeGreaterThanOrEqual(20_000);
  });

  it('a finished check is no longer planned, and teaches the run its pace', () => {
    const planner = fresh(2);
    planner.observed('c0', 2_000, { status: 'RUNNING', done: 1 });
    planner.observed('c0', 40_000, { status: 'TERMINAL', done: 20 });
    const plans = planner.plan();
    expect(plans.has('c0')).toBe(false);
    expect(plans.get('c1')!.kind).toBe('scout');
  });
});
