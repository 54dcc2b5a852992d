// `svc-a11y ci` over a whole site runs every check on one schedule (src/cli/gate/schedule.ts), in process against the
// simulator behind a proxy that records what the service saw, in order: no fixed number of checks at a time (more
// than five created before any finishes), a 429 on a create waited out (Retry-After) without failing the run, the
// findings of each check read as soon as it finished and never for a check whose counts are all zero, and
// `--max-checks` capping the checks in flight. Assertions are on order and counts, never on how fast a machine is:
// where an order is the point, the service is held so that only that order can finish the run.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Simulator, type SimulatorOptions, startSimulator } from '../../src/testing/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { raceTimer } from '../support/timer.js';
import { type Exchange, type OwnReply, type ScheduleProxy, startScheduleProxy } from '../support/schedule-proxy.js';

const SHOP = 'https://shop.example.com';
// 20 pages without findings (a whole batch: they sort first), then product pages with findings.
const site = (products: number) => [
  ...Array.from({ length: 20 }, (_, i) => `${SHOP}/clean/${String(i + 1).padStart(2, '0')}`),
  ...Array.from({ length: products }, (_, i) => `${SHOP}/p/${String(i + 1).padStart(3, '0')}`),
];

let sim: Simulator | undefined;
let proxy: ScheduleProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await sim?.stop();
  proxy = sim = undefined;
});

async function start(
  options: SimulatorOptions,
  reply?: (x: Exchange, log: Exchange[]) => OwnReply | undefined,
  hold?: (x: Exchange, log: Exchange[]) => Promise<void> | undefined,
) {
  sim = await startSimulator(options);
  proxy = await startScheduleProxy(sim.url, reply, hold);
  return { sim, proxy };
}

async function urlsFile(urls: string[]): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'svc-a11y-schedule-')), 'urls.txt');
  await writeFile(file, `${urls.join('\n')}\n`);
  return file;
}

const isPost = (x: Exchange) => x.method === 'POST' && x.path === '/api/v1/ci/checks';
const finishedPoll = (x: Exchange) => x.check !== undefined && !['QUEUED', 'RUNNING'].includes(x.check.status);
const violationsOf = (log: Exchange[], id: string) =>
  log.filter((x) => x.path === `/api/v1/ci/checks/${id}/violations`);

// The proxy's answer to a create the service refuses for its rate (or its limit on checks at a time).
const rateLimited = (retryAfterSeconds: number) => ({
  status: 429,
  headers: { 'retry-after': String(retryAfterSeconds) },
  body: { type: 'about:blank', title: 'Too Many Requests', status: 429, code: 'RATE_LIMITED' },
});

describe('one schedule for every check of a run', () => {
  it('creates all 8 checks before any finishes, reads each one’s findings as it finishes, none for a clean check', {
    timeout: 60_000,
  }, async () => {
    // The service's clock stands still until it has seen all 8 creates: no check can finish before, so a run that
    // waited for a check to finish before creating the sixth (a fixed limit of five) would never get there.
    const t0 = Date.now();
    let released: number | undefined;
    // And the service answers no poll of the last check created until it has seen the findings of the six other
    // checks with findings read: a run that read findings only once every check had finished would never get there.
    let othersRead: () => void = () => undefined;
    const othersReadBefore = new Promise<void>((resolve) => {
      othersRead = resolve;
    });
    const { sim, proxy } = await start(
      {
        clock: () => (released === undefined ? t0 : t0 + (Date.now() - released)),
        // The last check created is the longest.
        ciCheckTiming: ({ rank }) => ({ durationMs: 800 + rank * 400 }),
      },
      (x, log) => {
        if (isPost(x) && log.filter(isPost).length === 8) released ??= Date.now();
        return undefined;
      },
      (x, log) => {
        if (log.filter((r) => r.path.endsWith('/violations')).length >= 6) othersRead();
        const last = log.filter(isPost)[7]?.created;
        return last !== undefined && x.path === `/api/v1/ci/checks/${last}` ? othersReadBefore : undefined;
      },
    );
    const urls = site(140);
    const r = await runCliInProcess(
      ['ci', '--urls-file', await urlsFile(urls), '--fail-on', 'NONE', '--format', 'json', '--timeout', '50s'],
      { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: proxy.url },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('160 pages on 1 site: 8 CI checks of at most 20 pages each.');
    const log = proxy.log;
    const creates = proxy.creates();
    expect(creates).toHaveLength(8);
    expect(log.filter(isPost)).toHaveLength(8);
    // Every page once, in checks of 20; all 8 created before the service answered any poll with a finished check.
    const sent = creates.flatMap((c) => (c.body as { urls: string[] }).urls);
    expect(new Set(sent).size).toBe(160);
    expect([...sent].sort()).toEqual([...urls].sort());
    const firstFinished = Math.min(...log.filter(finishedPoll).map((x) => x.answeredAs!));
    expect(Math.max(...creates.map((c) => c.n))).toBeLessThan(firstFinished);

    // Findings: read once for each check with findings, after the poll that saw it finished; never for the clean one.
    const clean = creates.find((c) => (c.body as { urls: string[] }).urls.every((u) => u.includes('/clean/')))!;
    expect(violationsOf(log, clean.created!)).toEqual([]);
    expect(log.find((x) => x.check?.id === clean.created && finishedPoll(x))?.check?.clean).toBe(true);
    const withFindings = creates.filter((c) => c !== clean);
    const reads = withFindings.map((c) => {
      const read = violationsOf(log, c.created!);
      expect(read).toHaveLength(1);
      const seenFinished = log.find((x) => x.check?.id === c.created && finishedPoll(x))!;
      expect(read[0]!.n).toBeGreaterThan(seenFinished.answeredAs!);
      return read[0]!.n;
    });
    // As each check finishes, not all at the end: the other reads all came before the last check was seen finished.
    const last = log.filter(isPost)[7]!.created!;
    const lastSeenFinished = log.find((x) => x.check?.id === last && finishedPoll(x))!;
    const othersReads = reads.filter((_, i) => withFindings[i]!.created !== last);
    expect(othersReads).toHaveLength(6);
    for (const n of othersReads) expect(n).toBeLessThan(lastSeenFinished.answeredAs!);
    // One poll answer per check says it finished: no check is polled again after that.
    for (const c of creates) expect(log.filter((x) => x.check?.id === c.created && finishedPoll(x))).toHaveLength(1);

    const json = JSON.parse(r.stdout);
    expect(json.batches).toHaveLength(8);
    expect(json.verdict.outcome).toBe('PASS');
  });

  it('a 429 on a create is waited out (Retry-After) and sent again; the run passes', { timeout: 60_000 }, async () => {
    let refused = 0;
    const { sim, proxy } = await start({ durations: { ciCheck: 600 } }, (x, log) => {
      // The second create is refused once, as a service limiting its checks at a time (or its rate) does.
      if (isPost(x) && log.filter(isPost).length === 2 && refused++ === 0) return rateLimited(1);
      return undefined;
    });
    const urls = site(40);
    const r = await runCliInProcess(['ci', '--urls-file', await urlsFile(urls), '--fail-on', 'NONE', '--json'], {
      SVC_API_KEY: sim.keys.full,
      SVC_BASE_URL: proxy.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/error|429/i);
    const posts = proxy.log.filter(isPost);
    expect(posts.map((x) => x.status)).toEqual([202, 429, 202, 202]);
    // Every page judged: the refused batch was sent again, whole.
    expect(new Set(proxy.creates().flatMap((c) => (c.body as { urls: string[] }).urls)).size).toBe(60);
    // No create went out before the Retry-After had passed (a lower bound, counted from before the CLI's timer).
    const pause = posts[1]!;
    const again = posts.filter((x) => x !== pause && JSON.stringify(x.body) === JSON.stringify(pause.body));
    expect(again).toHaveLength(1);
    expect(again[0]!.at - pause.answeredAt!).toBeGreaterThanOrEqual(1000);
  });

  it('a 429 on a create asking for a pause past the deadline: the checks still waiting end at once (exit 4), the others finish', {
    timeout: 60_000,
  }, async () => {
    const { sim, proxy } = await start({ durations: { ciCheck: 300 } }, (x, log) => {
      // Every create after the first is refused with a pause of an hour, far past the run's 10 minutes.
      if (isPost(x) && log.filter(isPost).length >= 2) return rateLimited(3600);
      return undefined;
    });
    // Ended before a timer of a minute: a run that slept to its deadline would take the whole 10 minutes.
    const timer = raceTimer(60_000);
    const r = await runCliInProcess(
      ['ci', '--urls-file', await urlsFile(site(40)), '--fail-on', 'NONE', '--timeout', '10m', '--json'],
      { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: proxy.url },
    );
    expect(timer.fired()).toBe(false);
    timer.clear();
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/refused it \(429\) and asked for a pause of 3600 s, past the run's limit/);
    // The first check was created and judged; the two others (60 pages: 3 checks) were refused once each, never
    // sent again.
    expect(proxy.log.filter(isPost).map((x) => x.status)).toEqual([202, 429, 429]);
    expect(new Set(proxy.log.filter(isPost).map((x) => JSON.stringify(x.body))).size).toBe(3);
  });

  it('a 429 with Retry-After: 0 on every create: the run ends naming its deadline, not a pause past it (exit 4)', {
    timeout: 60_000,
  }, async () => {
    const { sim, proxy } = await start({ durations: { ciCheck: 300 } }, (x) =>
      isPost(x) ? rateLimited(0) : undefined,
    );
    // The service asks for no pause; the run's own back-off between refusals in a row (1 s, 2 s, then 4 s) is what
    // meets the deadline of 5 s (on a loaded machine, after fewer refusals: the wording allows "once").
    const r = await runCliInProcess(
      ['ci', '--urls-file', await urlsFile(site(0)), '--fail-on', 'NONE', '--timeout', '5s', '--json'],
      { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: proxy.url },
    );
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(
      /the run's deadline \(5000 ms \(--timeout\)\) ran out while the service kept answering 429 Too Many Requests \((\d+ times; it asked for a pause of 0 s each time|once; it asked for a pause of 0 s)\)/,
    );
    expect(r.stderr).not.toMatch(/past the run's limit/);
    expect(proxy.log.filter(isPost).map((x) => x.status)).toContain(429);
  });

  it('--max-checks 2: never more than two checks created and not yet finished', { timeout: 60_000 }, async () => {
    const { sim, proxy } = await start({ durations: { ciCheck: 400 } });
    const urls = site(100); // 6 checks of 20
    const r = await runCliInProcess(
      ['ci', '--urls-file', await urlsFile(urls), '--fail-on', 'NONE', '--max-checks', '2', '--json'],
      { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: proxy.url },
    );
    expect(r.code, r.stderr).toBe(0);
    const log = proxy.log;
    const creates = proxy.creates();
    expect(creates).toHaveLength(6);
    // When each create arrived, the checks created before it that the service had not yet answered as finished
    // (the CLI learns of a finish only after the service answers it): at most one, so with it at most two.
    for (const c of creates) {
      const before = creates.filter((o) => o.n < c.n).length;
      const finishedBefore = log.filter((x) => finishedPoll(x) && x.answeredAs! < c.n).length;
      expect(before - finishedBefore).toBeLessThanOrEqual(1);
    }
  });

  it('--max-checks and its environment variable refuse what is not a whole number of at least 1', async () => {
    const flag = await runCliInProcess(['ci', `${SHOP}/`, '--max-checks', '0'], {
      SVC_API_KEY: 'svc_unused',
      SVC_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--max-checks must be a whole number of at least 1, got "0"');
    const env = await runCliInProcess(['ci', `${SHOP}/`], {
      SVC_API_KEY: 'svc_unused',
      SVC_BASE_URL: 'http://127.0.0.1:9',
      SVC_MAX_CHECKS: 'many',
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('SVC_MAX_CHECKS must be a whole number of at least 1, got "many"');
  });
});
