// Rechecks inside the run's one schedule (src/cli/gate/schedule.ts asking rechecks.ts' `recheckOf`), in virtual time
// against a model service (the clock jumps from timer to timer, so nothing here depends on the machine's speed): a
// recheck is created as soon as its check is seen finished, while the run's other checks still run; it never sends
// setBaseline: true; while a page keeps failing there are exactly N rechecks; and past the deadline none is created
// (the creates are counted).
import { describe, expect, it } from 'vitest';
import type { Batch } from '../../src/cli/gate/batches.js';
import { recheckOf } from '../../src/cli/gate/rechecks.js';
import { runSchedule } from '../../src/cli/gate/schedule.js';
import type { A11yClient } from '../../src/index.js';
import { VirtualClock } from '../support/schedule-model.js';

const START = Date.UTC(2026, 11, 6);
const SHOP = 'https://shop.example.com';

interface Created {
  id: string;
  at: number;
  urls: string[];
  setBaseline: boolean | undefined;
  durationMs: number;
}

/**
 * A model service: a check lasts `durationMs(urls)`; a page in `failing` is UNREACHABLE the first `failing.get(url)`
 * times it is checked, then DONE.
 */
function model(durationMs: (urls: string[]) => number, failing: Map<string, number>) {
  const clock = new VirtualClock(START);
  const created: Created[] = [];
  const outcomes = new Map<string, string[]>();
  const serve = <T>(answer: () => T): Promise<T> =>
    new Promise((resolve) => clock.setTimeout(() => resolve(answer()), 10));
  const client = {
    ciChecks: {
      create: (body: { urls: string[]; setBaseline?: boolean }) =>
        serve(() => {
          const id = `c${created.length}`;
          created.push({
            id,
            at: clock.now(),
            urls: body.urls,
            setBaseline: body.setBaseline,
            durationMs: durationMs(body.urls),
          });
          outcomes.set(
            id,
            body.urls.map((url) => {
              const left = failing.get(url) ?? 0;
              if (left > 0) failing.set(url, left - 1);
              return left > 0 ? 'UNREACHABLE' : 'DONE';
            }),
          );
          return { id, status: 'QUEUED' };
        }),
      get: (id: string) =>
        serve(() => {
          const c = created.find((x) => x.id === id)!;
          const done = clock.now() - c.at >= c.durationMs;
          return {
            id,
            status: done ? 'COMPLETED' : 'RUNNING',
            verdict: done ? 'PASS' : undefined,
            counts: { critical: 0, serious: 0, moderate: 0, minor: 0 },
            pages: c.urls.map((url, i) => ({ url, status: done ? outcomes.get(id)![i] : 'RUNNING' })),
          };
        }),
      listViolations: () => serve(() => []),
    },
  } as unknown as A11yClient;
  return { clock, client, created };
}

async function run(
  m: ReturnType<typeof model>,
  batches: Batch[],
  options: { endsAfterMs: number; recheck: number; setBaseline?: boolean },
) {
  const done = runSchedule(m.client, batches, {
    endsAt: START + options.endsAfterMs,
    clock: m.clock,
    setBaseline: options.setBaseline,
    recheck: (batch, end) => recheckOf(batch, end, options.recheck),
  });
  let ended = false;
  void done.finally(() => {
    ended = true;
  });
  for (;;) {
    await new Promise((resolve) => setImmediate(resolve));
    if (ended) break;
    if (!m.clock.advance()) throw new Error('the schedule waits on nothing');
  }
  return done;
}

const batch = (n: number, of: number, urls: string[]): Batch => ({
  key: `${SHOP} ${n}/${of}`,
  origin: SHOP,
  index: n,
  of,
  urls,
});

describe('rechecks in the schedule', () => {
  it("a flaky page's recheck is created once its check is seen finished, while the other check runs, without setBaseline", async () => {
    const flaky = `${SHOP}/a/flaky`;
    const m = model((urls) => (urls.includes(`${SHOP}/b/slow`) ? 120_000 : 10_000), new Map([[flaky, 1]]));
    const ended = await run(m, [batch(1, 2, [`${SHOP}/a`, flaky]), batch(2, 2, [`${SHOP}/b/slow`])], {
      endsAfterMs: 600_000,
      recheck: 1,
      setBaseline: true,
    });
    expect(m.created.map((c) => c.urls)).toEqual([[`${SHOP}/a`, flaky], [`${SHOP}/b/slow`], [flaky]]);
    expect(m.created.map((c) => c.setBaseline)).toEqual([true, true, false]);
    const recheck = m.created[2]!;
    // Created after its check finished (10 s) and long before the slow one did (120 s).
    expect(recheck.at - START).toBeGreaterThanOrEqual(10_000);
    expect(recheck.at - START).toBeLessThan(120_000);
    expect(ended.map((e) => e.batch.key)).toEqual([`${SHOP} 1/2`, `${SHOP} 2/2`, `${SHOP} 1/2 recheck 1`]);
  });

  it('a page that keeps failing: one check and exactly N rechecks, each holding only it', async () => {
    const bad = `${SHOP}/down`;
    const m = model(() => 5_000, new Map([[bad, 99]]));
    await run(m, [batch(1, 1, [`${SHOP}/`, bad])], { endsAfterMs: 600_000, recheck: 3 });
    expect(m.created.map((c) => c.urls)).toEqual([[`${SHOP}/`, bad], [bad], [bad], [bad]]);
  });

  it('past the deadline no recheck is created: the first check seen finished after it gives none', async () => {
    const flaky = `${SHOP}/late`;
    const m = model(() => 30_000, new Map([[flaky, 1]]));
    const ended = await run(m, [batch(1, 1, [flaky])], { endsAfterMs: 20_000, recheck: 2 });
    expect(m.created).toHaveLength(1);
    expect(ended.map((e) => e.end.kind)).toEqual(['ended']);
  });
});
