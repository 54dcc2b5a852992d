// Benchmark 1b: the SDK's pure cost per call, with an in-memory fetch (no network, no undici). Every
// variant pays for creating a Response and parsing its JSON, so "ours − raw" and "openapi-fetch − raw"
// are what each library adds on top of the fetch itself.
import { repeat } from './lib/bounded.mjs';
import { SITES_BODY } from './lib/loopback-server.mjs';
import { fmtSpread, summary } from './lib/stats.mjs';
import { judge, row } from './lib/table.mjs';
import { makeVariants } from './lib/variants.mjs';

const ROUNDS = 25;
const BATCH = 1_500; // calls per variant per round (short rounds, many of them: the median resists noise)
const BATCH_MAX_MS = 2_000;
const RESPONSE_INIT = { status: 200, headers: { 'content-type': 'application/json' } };
// Re-creating the Response is cheaper than clone() (which tees a stream) and is paid equally by all.
const memoryFetch = async () => new Response(SITES_BODY, RESPONSE_INIT);
const NAMES = ['raw', 'openapi', 'ours', 'rawGet', 'openapiGet', 'oursGet'];

async function perCallUs(fn, n) {
  const t0 = performance.now();
  const done = await repeat(n, BATCH_MAX_MS, fn);
  return ((performance.now() - t0) * 1000) / done;
}

export async function measurePureCost() {
  const v = await makeVariants('http://127.0.0.1:9', memoryFetch);
  for (const name of NAMES) await perCallUs(v[name], 2_000); // warm-up
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const us = {};
    for (let i = 0; i < NAMES.length; i++) {
      const name = NAMES[(i + r) % NAMES.length];
      us[name] = await perCallUs(v[name], BATCH);
    }
    rounds.push(us);
  }
  const diff = (a, b) => summary(rounds.map((u) => u[a] - u[b]));
  const s = {
    rawUs: summary(rounds.map((u) => u.raw)),
    oursListUs: diff('ours', 'raw'),
    openapiListUs: diff('openapi', 'raw'),
    oursGetUs: diff('oursGet', 'rawGet'),
    openapiGetUs: diff('openapiGet', 'rawGet'),
  };
  const ratio = (a, b) => `${(s[a].median / s[b].median).toFixed(2)}×`;
  const rows = [
    row('pure SDK cost µs/call, sites.list (ours vs openapi-fetch)', fmtSpread(s.oursListUs, 2), fmtSpread(s.openapiListUs, 2), ratio('oursListUs', 'openapiListUs'), '≤ 5 µs', judge(s.oursListUs.median, 5, false)),
    row('pure SDK cost µs/call, ciChecks.get(uuid) (ours vs openapi-fetch)', fmtSpread(s.oursGetUs, 2), fmtSpread(s.openapiGetUs, 2), ratio('oursGetUs', 'openapiGetUs'), '≤ 5 µs', judge(s.oursGetUs.median, 5, false)),
    row('in-memory fetch + Response + json() µs/call (subtracted)', '', fmtSpread(s.rawUs, 2), '', 'info'),
  ];
  return {
    rows,
    notes: [
      `Pure cost: in-memory fetch re-creating a ~200 B JSON Response per call; ${ROUNDS} rounds × ${BATCH} awaited calls per variant, order rotated; cost = per-round (variant − raw in-memory fetch + json()), median (min–max). Validation off; ciChecks.get includes the request pre-validation of the UUID.`,
    ],
    raw: { summary: s, rounds },
  };
}
