// One process of a fleet: `calls` sequential calls with one API key, its rate budget in a shared Redis store.
// Prints a JSON summary on stdout, with every answer's time and status.
// Usage: node fleet-worker.mjs '<JSON: { baseUrl, apiKey, redisUrl, calls, requestsPerMinute, connect, storeTimeoutMs, storeRetryMs }>'
import { A11yClient } from '../../dist/index.js';
import { RedisRateLimitStore } from '../../dist/redis.js';

const options = JSON.parse(process.argv[2]);
const store = new RedisRateLimitStore({ url: options.redisUrl });
// The first use docs/fleet.md shows: construct the store and pass it to the client. `connect: true` connects up front.
if (options.connect) await store.connect();
const warnings = [];
// Every answer the service gave (time and status), 429s included, which the client retries unseen.
const answers = [];
const client = new A11yClient({
  apiKey: options.apiKey,
  baseUrl: options.baseUrl,
  fetch: (url, init) =>
    fetch(url, init).then((response) => {
      answers.push([Date.now(), response.status]);
      // The harness harms Redis only once every process is being served (a busy machine boots them slowly).
      if (answers.length === 1) process.stderr.write('serving\n');
      return response;
    }),
  rateLimit: {
    requestsPerMinute: options.requestsPerMinute,
    store,
    storeTimeoutMs: options.storeTimeoutMs ?? 250,
    storeRetryMs: options.storeRetryMs ?? 1000,
  },
  onWarning: (w) => warnings.push(w.code),
});
let ok = 0;
const failures = [];
for (let i = 0; i < options.calls; i++) {
  try {
    await client.sites.list();
    ok++;
  } catch (error) {
    failures.push(`${error.name}: ${error.message}`);
  }
}
await store.close();
process.stdout.write(JSON.stringify({ ok, failures, warnings, answers }));
