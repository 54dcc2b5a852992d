// One process of benchmark 7's fleet: `calls` calls at once with one key. Mode: `none` (no client-side
// budget), `local` (each process its own in-process budget at the key's rate), `redis` (one budget shared in
// Redis, as docs/fleet.md's first use writes it: no connect() call), `redis-connect` (the same, connected first).
// Prints { ok, failures, warnings, answers: [[time, status]…] } on stdout.
// Usage: node fleet-worker.mjs <mode> <baseUrl> <apiKey> <calls> <requestsPerMinute> [redisUrl]
const [mode, baseUrl, apiKey, calls, rpm, redisUrl] = process.argv.slice(2);
const { A11yClient } = await import(new URL('../../dist/index.js', import.meta.url).href);
let store;
if (mode.startsWith('redis')) {
  const { RedisRateLimitStore } = await import(new URL('../../dist/redis.js', import.meta.url).href);
  store = new RedisRateLimitStore({ url: redisUrl });
  if (mode === 'redis-connect') await store.connect();
}
const answers = [];
const warnings = [];
const client = new A11yClient({
  apiKey,
  baseUrl,
  fetch: (url, init) =>
    fetch(url, init).then((response) => {
      answers.push([Date.now(), response.status]);
      return response;
    }),
  onWarning: (w) => warnings.push(w.code),
  ...(mode === 'none' ? {} : { rateLimit: { requestsPerMinute: Number(rpm), ...(store ? { store } : {}) } }),
});
// All at once, as a CI job polling several checks (or a matrix job's parallel steps) would.
const outcomes = await Promise.allSettled(Array.from({ length: Number(calls) }, () => client.sites.list()));
const ok = outcomes.filter((o) => o.status === 'fulfilled').length;
const failures = outcomes.length - ok;
await store?.close();
process.stdout.write(JSON.stringify({ ok, failures, warnings, answers }));
