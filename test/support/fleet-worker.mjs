// One process of a fleet: `calls` sequential calls with one API key, its rate budget in a shared Redis store.
// Prints a JSON summary on stdout, with every answer's time and status. Usage: node fleet-worker.mjs <baseUrl> <apiKey> <redisUrl> <calls> <requestsPerMinute>
import { A11yClient } from '../../dist/index.js';
import { RedisRateLimitStore } from '../../dist/redis.js';

const [baseUrl, apiKey, redisUrl, calls, rpm] = process.argv.slice(2);
const store = new RedisRateLimitStore({ url: redisUrl });
// Connected up front, as the README advises: the first request's store operation then is one round trip.
await store.connect();
const warnings = [];
// Every answer the service gave (time and status), 429s included, which the client retries unseen.
const answers = [];
const client = new A11yClient({
  apiKey,
  baseUrl,
  fetch: (url, init) => fetch(url, init).then((response) => (answers.push([Date.now(), response.status]), response)),
  rateLimit: { requestsPerMinute: Number(rpm), store, storeTimeoutMs: 250, storeRetryMs: 1000 },
  onWarning: (w) => warnings.push(w.code),
});
let ok = 0;
const failures = [];
for (let i = 0; i < Number(calls); i++) {
  try {
    await client.sites.list();
    ok++;
  } catch (error) {
    failures.push(`${error.name}: ${error.message}`);
  }
}
await store.close();
process.stdout.write(JSON.stringify({ ok, failures, warnings, answers }));
