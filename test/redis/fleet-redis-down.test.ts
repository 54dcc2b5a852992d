// The fleet with Redis failing mid-run: killed (SIGKILL), no call fails; frozen (SIGSTOP)
// for 4 s, no call fails and requests keep being served while it is frozen — each process falls back within
// its operation bound to its own share of the budget (the sharers Redis last reported), warns once, and checks
// Redis again in the background. No connect() call, as in the first use docs/fleet.md shows.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startRedis } from '../../scripts/redis.mjs';
import { after as delay, oneWarningPerOutage, runFleet } from './fleet.js';

// A process's state as Linux reports it (/proc/PID/stat, the field after the name): 'T' while stopped by SIGSTOP.
function stateOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!;
}

// The fleet (6 processes × 50 calls, 120 per 6 s) on a Redis of its own, which `during` may harm by PID.
async function fleetOnRedis(during: (pid: number) => Promise<void>) {
  const redis = await startRedis();
  try {
    return await runFleet({
      processes: 6,
      calls: 50,
      perWindow: 120,
      windowMs: 6000,
      redisUrl: redis.url,
      shareOfRate: 0.97,
      during: () => during(redis.pid),
    });
  } finally {
    // A frozen server is woken first, so it can be stopped; one that was killed is gone already.
    try {
      process.kill(redis.pid, 'SIGCONT');
    } catch {}
    await redis.stop();
  }
}

describe('a fleet on one key when Redis fails', () => {
  it('6 processes × 50 calls, redis-server killed (SIGKILL, by PID) after 5 s: 0 failures', {
    timeout: 90_000,
  }, async () => {
    let killedAt = 0;
    const r = await fleetOnRedis(async (pid) => {
      await delay(5000);
      process.kill(pid, 'SIGKILL');
      killedAt = Date.now();
    });
    console.log(
      `[fleet, redis killed] ${JSON.stringify({ ...r, answers: undefined, warningsByProcess: undefined, failures: r.failures.length, warnings: r.warnings.length })}`,
    );
    expect(killedAt).toBeGreaterThan(0);
    expect(r.failures).toEqual([]);
    expect(r.ok).toBe(300);
    // Every process noticed, and said so once per outage (never with the key): its last word is the outage that
    // never ended. A busy machine may add an earlier outage, when Redis answered past the 250 ms operation bound.
    expect(r.warningsByProcess.map((list) => list.at(-1))).toEqual(Array(6).fill('RATE_LIMIT_STORE_UNAVAILABLE'));
    expect(oneWarningPerOutage(r)).toBe(true);
  });

  it('6 processes × 50 calls, redis-server frozen (SIGSTOP) for 4 s mid-run: 0 failures, requests served while frozen', {
    timeout: 90_000,
  }, async () => {
    let stoppedAt = 0;
    let continuedAt = 0;
    // What happened to Redis, in the order it happened: judged as an order, not as the milliseconds between the
    // signals (Date.now() can read 3 999 across a 4 000 ms timer: timers run on the loop's whole-ms monotonic clock).
    const timeline: string[] = [];
    const r = await fleetOnRedis(async (pid) => {
      await delay(4000);
      process.kill(pid, 'SIGSTOP');
      stoppedAt = Date.now();
      timeline.push('SIGSTOP sent');
      let over = false;
      const frozenFor = delay(4000).then(() => {
        over = true;
      });
      // The kernel stops it once it is scheduled: seen stopped before its 4 s are over, and still stopped when they
      // are, it was frozen from the first to the last of them (only SIGCONT resumes a stopped process).
      while (!over && stateOf(pid) !== 'T') await delay(10);
      timeline.push(`state ${stateOf(pid)}${over ? ' once the 4 s were over' : ''}`);
      await frozenFor;
      timeline.push(`state ${stateOf(pid)} after 4 s`);
      process.kill(pid, 'SIGCONT');
      continuedAt = Date.now();
      timeline.push('SIGCONT sent');
    });
    // Served while frozen, after the first second (each process's operation bound is 250 ms): the answers' times
    // (each process's Date.now(), the same wall clock as ours) fall between the two signals.
    const whileFrozen = r.answers.filter(
      ([at, status]) => status !== 429 && at > stoppedAt + 1000 && at < continuedAt,
    ).length;
    console.log(
      `[fleet, redis frozen 4 s] ${JSON.stringify({ ...r, answers: undefined, warningsByProcess: undefined, warnings: r.warnings.length, failures: r.failures.length, whileFrozen, timeline })}`,
    );
    expect(timeline).toEqual(['SIGSTOP sent', 'state T', 'state T after 4 s', 'SIGCONT sent']);
    expect(r.failures).toEqual([]);
    expect(r.ok).toBe(300);
    // The fleet's rate is ~19 a second: a fleet stalled on the frozen store would be served none.
    expect(whileFrozen).toBeGreaterThanOrEqual(5);
    // Processes noticed, each warning once per outage (and once when Redis answered again).
    expect(r.warnings).toContain('RATE_LIMIT_STORE_UNAVAILABLE');
    expect(oneWarningPerOutage(r)).toBe(true);
  });
});
