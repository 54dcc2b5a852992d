// Benchmark 4's multi-page jobs (docs/benchmarks.md item 7): seeded job plans (duration T and page count),
// one simulator per job with uneven pages, QUEUED for the first quarter of T or reporting progress from the
// start, run once with the job's progress visible and once with it hidden (the client then falls back to
// plain backoff), plus the floor no client can beat.
import { recordingFetch } from './recording-fetch.mjs';

/** Mulberry32 over a 32-bit seed: the same plans on every run. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` job plans: T uniform in [minMs, maxMs] (whole ms), pages uniform in [minPages, maxPages], and the
 * seed of each job's page durations.
 */
export function plans(seed, count, { minMs, maxMs, minPages = 5, maxPages = 20 }) {
  const next = seeded(seed);
  return Array.from({ length: count }, (_, i) => ({
    T: Math.round(minMs + (maxMs - minMs) * next()),
    pages: minPages + Math.floor((maxPages - minPages + 1) * next()),
    pageSeed: seed * 1000 + i,
  }));
}

// Every progress field of every job kind: removing them shows the client a job that reports nothing.
const PROGRESS_FIELDS = ['pages', 'pagesDone', 'pagesTotal', 'pagesScanned', 'pagesRequested', 'pagesFailed'];

/** A fetch whose GET answers carry no progress (the "before" side: the client then backs off as today). */
function hidingProgress(inner = globalThis.fetch) {
  return async (input, init) => {
    const response = await inner(input, init);
    const method = input?.method ?? init?.method ?? 'GET';
    if (method !== 'GET' || !response.ok || !response.headers.get('content-type')?.includes('json')) return response;
    const body = await response.json();
    for (const field of PROGRESS_FIELDS) delete body[field];
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(body), { status: response.status, statusText: response.statusText, headers });
  };
}

/**
 * Runs one job (a CI check of `plan.pages` pages, or a scan run of the seeded site's 8 pages, or of
 * `plan.pages` pages with `crawl`) on its own simulator, after `delayMs`, and measures it: requests, lateness,
 * and the floor. `queuedShare` is the simulator's (0: the job runs and reports progress from creation;
 * default: QUEUED for the first quarter). Lateness counts from the
 * moment the simulator created the job (its clock's first reading once started, i.e. when the POST
 * arrived): the POSTs of many jobs run concurrently in one process queue for up to a few hundred ms (a
 * 20-page check costs the simulator ~5–25 ms), which the POST's send time would count as lateness.
 */
export async function oneProgressJob(
  { A11yClient, startSimulator },
  plan,
  { kind, policy, showProgress, spread, queuedShare, crawl = false, delayMs = 0 },
) {
  const durations = kind === 'scanRun' ? { scanRun: plan.T } : { ciCheck: plan.T };
  let armed = false;
  let createdAt;
  const clock = () => {
    if (armed && createdAt === undefined) createdAt = performance.now();
    return Date.now();
  };
  // A scan run crawls the seeded site's 8 pages, or the plan's page count when the case asks for long crawls.
  const crawlPages = kind === 'scanRun' && crawl ? plan.pages : undefined;
  const sim = await startSimulator({
    durations,
    rateLimit: false,
    seed: 1,
    pageDurations: { seed: plan.pageSeed, spread },
    clock,
    ...(queuedShare === undefined ? {} : { queuedShare }),
    ...(crawlPages === undefined ? {} : { crawlPages }),
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    armed = true;
    const rec = recordingFetch(showProgress ? globalThis.fetch : hidingProgress());
    const client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url, fetch: rec.fetch });
    const seen = [];
    const onProgress = (r) => seen.push({ at: performance.now(), status: r.status });
    const options = { ...policy, onProgress };
    const job =
      kind === 'scanRun'
        ? await client.scanRuns.createAndWait({ siteId: sim.ids.verifiedSite }, options)
        : await client.ciChecks.createAndWait(
            { urls: Array.from({ length: plan.pages }, (_, i) => `https://shop.example.com/page-${i}`) },
            options,
          );
    const noticedAt = performance.now();
    const post = rec.log[0];
    const lateness = noticedAt - (createdAt + plan.T);
    return {
      postQueuedMs: createdAt - post.sentAt,
      status: job.status,
      T: plan.T,
      pages: kind === 'scanRun' ? (crawlPages ?? 8) : plan.pages,
      requests: rec.log.length,
      lateness,
      latenessTarget: Math.max(0.1 * plan.T, policy.intervalMs ?? 1_000),
      floor: floorOf(seen, post.sentAt, plan.T, policy.maxIntervalMs ?? 10_000),
    };
  } finally {
    await sim.stop();
  }
}

/**
 * The fewest requests a client polling as today until it first sees the job RUNNING could need, if it then
 * knew T exactly: the create, the polls so far, then one poll per `maxIntervalMs` up to T. (A job that reports
 * progress from the start is RUNNING at the first poll: its floor is the create, that poll and the cap's.)
 */
function floorOf(seen, createdAt, T, maxIntervalMs) {
  const i = seen.findIndex((s) => s.status !== 'QUEUED');
  if (i < 0 || seen[i].status !== 'RUNNING') return 1 + seen.length;
  return 1 + (i + 1) + Math.max(1, Math.ceil((createdAt + T - seen[i].at) / maxIntervalMs));
}
