// Benchmark 4: polling efficiency of createAndWait against the simulator, with seeded job durations T:
// HTTP requests per completed job versus the minimum (create + one terminal GET = 2), and how late the
// client notices completion (mean, p95).
import { importIndex, importTesting } from './lib/package.mjs';
import { recordingFetch } from './lib/recording-fetch.mjs';
import { mean, median, percentile, roundAll, summary } from './lib/stats.mjs';
import { judge, row } from './lib/table.mjs';
import { withTimeout } from './lib/bounded.mjs';

const DURATIONS = [50, 200, 500, 1000, 2000];
const HINTED_DURATIONS = [500, 1000, 2000, 3000];
const JOBS = 15; // per T (≥ 8), one client each, so requests are counted per job
// Parallel batches of 5: larger batches queue the POSTs in the (in-process) simulator, which blurs when a
// job was created and so the lateness estimate.
const BATCH = 5;
const MIN_REQUESTS = 2; // create + one terminal GET
// The client's defaults (1 s first interval, ×1.5 growth, 10 s cap) are tuned for real jobs of seconds to
// minutes. These jobs last 50–2000 ms, so time is scaled by 1/10: 100 ms first interval, 1 s cap. Growth
// and jitter are ratios and stay as they are.
const SCALED = { intervalMs: 100, maxIntervalMs: 1_000, timeoutMs: 30_000 };
const DEFAULTS = { timeoutMs: 30_000 }; // the unscaled policy, only the deadline bounded
const URLS = ['https://shop.example.com/'];

async function oneJob(A11yClient, sim, T, policy) {
  const rec = recordingFetch();
  const client = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url, fetch: rec.fetch });
  const check = await client.ciChecks.createAndWait({ urls: URLS }, policy);
  const noticedAt = performance.now();
  const post = rec.log[0];
  // The simulator stamps creation between our send and its answer; using the send time makes lateness an
  // upper bound (high by at most the POST round trip), the answer time a lower bound.
  return {
    status: check.status,
    requests: rec.log.length,
    lateness: noticedAt - (post.sentAt + T),
    latenessLowerBound: noticedAt - (post.answeredAt + T),
    postRttMs: post.answeredAt - post.sentAt,
    // When each GET went out, relative to the 202: the schedule the policy produced.
    pollsAtMs: rec.log.slice(1).map((e) => e.sentAt - post.answeredAt),
  };
}

async function runJobs(A11yClient, T, policy, label, pollHints = false) {
  const { startSimulator } = await importTesting();
  // No rate limit: this measures the polling policy alone.
  const sim = await startSimulator({ durations: { ciCheck: T }, rateLimit: false, seed: 1, pollHints });
  try {
    const jobs = [];
    for (let b = 0; b < JOBS / BATCH; b++) jobs.push(...(await Promise.all(Array.from({ length: BATCH }, () => oneJob(A11yClient, sim, T, policy)))));
    const completed = jobs.filter((j) => j.status === 'COMPLETED');
    const firstInterval = policy.intervalMs ?? 1_000;
    const lat = jobs.map((j) => j.lateness);
    return {
      label,
      T,
      policy,
      jobs: jobs.length,
      completed: completed.length,
      requestsPerJob: summary(jobs.map((j) => j.requests)),
      requestsMean: mean(jobs.map((j) => j.requests)),
      latenessMeanMs: mean(lat),
      latenessP95Ms: percentile(lat, 95),
      latenessMs: summary(lat),
      latenessLowerBoundP95Ms: percentile(jobs.map((j) => j.latenessLowerBound), 95),
      latenessTargetMs: Math.max(0.1 * T, firstInterval),
      postRttMedianMs: median(jobs.map((j) => j.postRttMs)),
      simRequests: sim.requestCount(),
      exampleSchedulesMs: jobs.slice(0, 3).map((j) => j.pollsAtMs),
    };
  } finally {
    await sim.stop();
  }
}

export async function run() {
  const { A11yClient } = await importIndex();
  const results = [];
  for (const T of DURATIONS) results.push(await withTimeout(runJobs(A11yClient, T, SCALED, 'scaled (100 ms / 1 s)'), 60_000, `polling T=${T}`));
  results.push(await withTimeout(runJobs(A11yClient, 2_000, DEFAULTS, 'defaults (1 s / 10 s)'), 60_000, 'polling defaults'));
  // With hints: the simulator's opt-in Retry-After (whole seconds until done) on the 202 and on
  // QUEUED/RUNNING answers. Whole seconds cannot be time-scaled, so these run unscaled, with the defaults.
  for (const T of HINTED_DURATIONS) results.push(await withTimeout(runJobs(A11yClient, T, DEFAULTS, 'defaults + server hints', true), 60_000, `polling hints T=${T}`));
  const rows = [];
  for (const r of results) {
    const ratio = r.requestsMean / MIN_REQUESTS;
    const hinted = r.label.includes('hints');
    rows.push(
      row(`T=${r.T} ms, ${r.label}: HTTP requests per job (mean; min–max)`, `${r.requestsMean.toFixed(2)} (${r.requestsPerJob.min}–${r.requestsPerJob.max})`, `${MIN_REQUESTS} (minimum)`, `${ratio.toFixed(2)}×`, hinted ? '≤ 1.5× minimum, with hints' : '≤ 3× minimum, no hints', judge(ratio, hinted ? 1.5 : 3, false)),
      row(`T=${r.T} ms, ${r.label}: lateness mean / p95 ms (${r.completed}/${r.jobs} completed)`, `${r.latenessMeanMs.toFixed(0)} / ${r.latenessP95Ms.toFixed(0)}`, `T = ${r.T} ms`, `p95 = ${(r.latenessP95Ms / r.T * 100).toFixed(0)} % of T`, `p95 ≤ ${r.latenessTargetMs.toFixed(0)} ms`, judge(r.latenessP95Ms, r.latenessTargetMs, false)),
    );
  }
  return {
    title: '4. Polling efficiency (createAndWait vs simulator)',
    rows,
    notes: [
      `${JOBS} jobs per T in parallel batches of ${BATCH}, one client each (requests counted by a recording fetch). Scaling: the default policy (first wait 1 s, ×1.5 per poll with 80–100 % jitter, 10 s cap; first poll delayed by one interval) is for real jobs of seconds to minutes; these jobs last 50–2000 ms, so time is scaled by 1/10 (intervalMs 100, maxIntervalMs 1000). Unscaled defaults are also shown for T=2000 ms.`,
      'Lateness = moment createAndWait resolves − (moment the POST was sent + T): an upper bound, high by at most the POST round trip (postRttMedianMs and latenessLowerBoundP95Ms per T in latest.json).',
      '"With hints": the service\'s document shows no polling hint; the simulator\'s opt-in `pollHints` sends Retry-After (whole seconds until the job is done) on the 202 and on QUEUED/RUNNING answers, and the client follows it (within [intervalMs/2, maxIntervalMs]). Whole seconds cannot be time-scaled, so the hinted runs use the unscaled defaults.',
      `Lateness target = max(10 % of T, first interval).`,
    ],
    raw: roundAll(results),
  };
}
