// The ways of doing the same GET that benchmark 1 compares — ours and what users would pick instead — all
// sending through the SAME fetch (so the same undici dispatcher and connection pool) with the same headers,
// and all parsing the JSON.
import { readFileSync } from 'node:fs';
import ky from 'ky';
// Imported here directly (a dev dependency of the bench), whether or not the SDK itself uses openapi-fetch.
import createClient from 'openapi-fetch';
import { importHeyApi } from './heyapi.mjs';
import { importIndex } from './package.mjs';

const API_KEY = 'svc_bench_key_0123456789';
const CHECK_ID = '3b241101-e2bb-4255-8caf-4136c566a962';
const ACCEPT = 'application/json, application/problem+json';
const HEADERS = { Accept: ACCEPT, Authorization: `Bearer ${API_KEY}` };
// ky with hand-written calls, its own timeout and retry (what a user writes instead of an SDK).
const KY_TIMEOUT_MS = 30_000;
const KY_RETRY = 2;

/** One label per variant, for tables. */
export const LABELS = {
  raw: 'raw fetch',
  rawSignal: 'raw fetch + AbortController timeout (ceiling)',
  openapi: 'bare openapi-fetch',
  ky: `ky ${kyVersion()} (hand-written calls, timeout 30 s, retry 2)`,
  heyapi: '@hey-api/openapi-ts SDK (client-fetch + zod, validator on)',
  ours: 'ours (@svc/a11y-sdk)',
};

function kyVersion() {
  return JSON.parse(readFileSync(new URL('../../node_modules/ky/package.json', import.meta.url), 'utf8')).version;
}

/**
 * `{ raw, rawSignal, openapi, ky, heyapi, ours }` for `GET /api/v1/sites`, the same with a `Get` suffix for
 * `GET /api/v1/ci/checks/{id}`, and the diagnostic `rawRequest`.
 */
export async function makeVariants(baseUrl, fetchImpl) {
  const { A11yClient } = await importIndex();
  const hey = await importHeyApi();
  // Validation off (the default) and no client-side limiter: the per-request path only.
  const client = new A11yClient({ apiKey: API_KEY, baseUrl, fetch: fetchImpl, validateResponses: false });
  const api = createClient({ baseUrl, fetch: fetchImpl, headers: HEADERS });
  // The generated SDK's client, configured as its docs show (auth resolves the bearer scheme of the
  // document's security requirement); throwOnError like ours and ky. Its validator is on in the generated code.
  const heyClient = hey.createClient(
    hey.createConfig({ baseUrl, fetch: fetchImpl, auth: API_KEY, headers: { Accept: ACCEPT }, throwOnError: true }),
  );
  const sitesUrl = `${baseUrl}/api/v1/sites`;
  const checkUrl = `${baseUrl}/api/v1/ci/checks/${CHECK_ID}`;
  const init = { headers: HEADERS };
  const kyOptions = { headers: HEADERS, timeout: KY_TIMEOUT_MS, retry: KY_RETRY, fetch: fetchImpl };
  // raw fetch with a per-call AbortController + armed timer, as any client with a per-attempt timeout needs.
  const withSignal = async (url) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 30_000);
    try {
      return await (await fetchImpl(url, { headers: HEADERS, signal: controller.signal })).json();
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    raw: async () => (await fetchImpl(sitesUrl, init)).json(),
    rawSignal: () => withSignal(sitesUrl),
    openapi: async () => (await api.GET('/api/v1/sites')).data,
    ky: () => ky.get(sitesUrl, kyOptions).json(),
    heyapi: async () => (await hey.listSites({ client: heyClient })).data,
    ours: () => client.sites.list(),
    rawGet: async () => (await fetchImpl(checkUrl, init)).json(),
    rawSignalGet: () => withSignal(checkUrl),
    openapiGet: async () => (await api.GET('/api/v1/ci/checks/{id}', { params: { path: { id: CHECK_ID } } })).data,
    kyGet: () => ky.get(checkUrl, kyOptions).json(),
    heyapiGet: async () => (await hey.getCiCheck({ client: heyClient, path: { id: CHECK_ID } })).data,
    oursGet: () => client.ciChecks.get(CHECK_ID),
    // Diagnostic (what one layer costs on top of raw fetch): a Request built first and then handed to fetch,
    // as openapi-fetch, ky and hey-api's client do (undici then builds a second one).
    rawRequest: async () => (await fetchImpl(new Request(sitesUrl, init))).json(),
  };
}

/** Calls every variant once and checks it answered the fixture, so a broken peer fails loudly, not fast. */
export async function checkVariants(v) {
  for (const [name, fn] of Object.entries(v)) {
    const data = await fn();
    const ok = name.endsWith('Get') ? data?.id === CHECK_ID : Array.isArray(data) && data.length === 1;
    if (!ok) throw new Error(`variant ${name} returned an unexpected value: ${JSON.stringify(data)?.slice(0, 200)}`);
  }
}
