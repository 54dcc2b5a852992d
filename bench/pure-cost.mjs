// Benchmark 1b: each client's pure cost per call, with an in-memory fetch (no network, no undici). Every
// variant pays for creating a Response and parsing its JSON, so "variant − raw" is what each client (ours and
// the peers: bare openapi-fetch, ky, the hey-api generated SDK) adds on top of the fetch itself.
import { QUICK } from './lib/env.mjs';
import { repeat } from './lib/bounded.mjs';
import { bodyFor } from './lib/loopback-server.mjs';
import { fmtSpread, summary } from './lib/stats.mjs';
import { judge, row } from './lib/table.mjs';
import { checkVariants, makeVariants } from './lib/variants.mjs';

const ROUNDS = QUICK ? 5 : 25;
const BATCH = QUICK ? 500 : 1_500; // calls per variant per round (short rounds, many of them: the median resists noise)
// Time cap per batch: the slowest peers run ~100 µs per call on a quiet machine (150 ms a batch); on a loaded
// one the cap keeps the rounds, not the calls, within the benchmark's budget.
const BATCH_MAX_MS = 250;
const RESPONSE_INIT = { status: 200, headers: { 'content-type': 'application/json' } };
// Re-creating the Response is cheaper than clone() (which tees a stream) and is paid equally by all; the body
// is chosen by URL (a sites list, or a CI check that a validating client accepts). ky and hey-api hand fetch a
// Request, the others a string.
const memoryFetch = async (input) =>
  new Response(bodyFor(typeof input === 'string' ? input : input.url), RESPONSE_INIT);
/** Clients compared, each with a list (`name`) and a get-by-id (`${name}Get`) variant. */
export const PURE_CLIENTS = ['raw', 'rawSignal', 'openapi', 'ky', 'heyapi', 'ours'];
const NAMES = PURE_CLIENTS.flatMap((n) => [n, `${n}Get`]);

async function perCallUs(fn, n) {
  const t0 = performance.now();
  const done = await repeat(n, BATCH_MAX_MS, fn);
  return ((performance.now() - t0) * 1000) / done;
}

export async function measurePureCost() {
  const v = await makeVariants('http://127.0.0.1:9', memoryFetch);
  await checkVariants(v);
  for (const name of NAMES) await perCallUs(v[name], QUICK ? 500 : 2_000); // warm-up
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
  // cost.list[client], cost.get[client]: µs per call above raw fetch, per round, median (min–max).
  const cost = { list: {}, get: {} };
  for (const c of PURE_CLIENTS) {
    cost.list[c] = diff(c, 'raw');
    cost.get[c] = diff(`${c}Get`, 'rawGet');
  }
  const s = { rawUs: summary(rounds.map((u) => u.raw)), rawGetUs: summary(rounds.map((u) => u.rawGet)), cost };
  const us = (st) => `${fmtSpread(st, 2)} µs`;
  const ratio = (a, b) => `${(a.median / b.median).toFixed(2)}×`;
  const rows = [];
  for (const [op, label] of [
    ['list', 'sites.list'],
    ['get', 'ciChecks.get(uuid)'],
  ]) {
    const c = cost[op];
    rows.push(
      row(`pure cost µs/call, ${label}: ours`, us(c.ours), '', '', '≤ 5 µs', judge(c.ours.median, 5, false)),
      row(
        `pure cost µs/call, ${label}: ours vs bare openapi-fetch`,
        us(c.ours),
        us(c.openapi),
        ratio(c.ours, c.openapi),
        '≤ openapi-fetch',
        judge(c.ours.median, c.openapi.median, false),
      ),
      row(
        `pure cost µs/call, ${label}: ours vs ky`,
        us(c.ours),
        us(c.ky),
        ratio(c.ours, c.ky),
        '≤ ky (ahead)',
        judge(c.ours.median, c.ky.median, false),
      ),
      row(
        `pure cost µs/call, ${label}: ours vs hey-api SDK (validator on)`,
        us(c.ours),
        us(c.heyapi),
        ratio(c.ours, c.heyapi),
        '≤ hey-api (ahead)',
        judge(c.ours.median, c.heyapi.median, false),
      ),
      row(
        `pure cost µs/call, ${label}: ours vs ceiling (AbortController + timer only)`,
        us(c.ours),
        us(c.rawSignal),
        ratio(c.ours, c.rawSignal),
        'info',
      ),
    );
  }
  rows.push(
    row(
      'in-memory fetch + Response + json() µs/call (subtracted), list / get',
      '',
      `${us(s.rawUs)} / ${us(s.rawGetUs)}`,
      '',
      'info',
    ),
  );
  return {
    rows,
    cost,
    notes: [
      `Pure cost: in-memory fetch re-creating a ~200 B JSON Response per call; ${ROUNDS} rounds × ${BATCH} awaited calls per variant, order rotated; cost = per-round (variant − raw in-memory fetch + json()), median (min–max). Ours with validation off (its default); ciChecks.get includes our request pre-validation of the UUID. The hey-api SDK validates the request and the response with zod (its \`validator: true\`); ky and bare openapi-fetch validate nothing.`,
    ],
    raw: { summary: s, rounds },
  };
}
