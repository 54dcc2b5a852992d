// The three ways of doing the same GET that benchmark 1 compares, all sending through the SAME fetch
// (so the same undici dispatcher and connection pool) with the same headers, and all parsing the JSON.
import createClient from 'openapi-fetch';
import { importIndex } from './package.mjs';

export const API_KEY = 'svc_bench_key_0123456789';
export const CHECK_ID = '3b241101-e2bb-4255-8caf-4136c566a962';
const HEADERS = { Accept: 'application/json, application/problem+json', Authorization: `Bearer ${API_KEY}` };

/** `{ raw, openapi, ours }` for `GET /api/v1/sites`, plus `*Get` variants for `GET /api/v1/ci/checks/{id}`. */
export async function makeVariants(baseUrl, fetchImpl) {
  const { A11yClient } = await importIndex();
  // Validation off (the default) and no client-side limiter: the per-request path only.
  const client = new A11yClient({ apiKey: API_KEY, baseUrl, fetch: fetchImpl, validateResponses: false });
  const api = createClient({ baseUrl, fetch: fetchImpl, headers: HEADERS });
  const sitesUrl = `${baseUrl}/api/v1/sites`;
  const checkUrl = `${baseUrl}/api/v1/ci/checks/${CHECK_ID}`;
  const init = { headers: HEADERS };
  return {
    raw: async () => (await fetchImpl(sitesUrl, init)).json(),
    openapi: async () => (await api.GET('/api/v1/sites')).data,
    ours: () => client.sites.list(),
    // Diagnostics (what each layer of our transport costs on top of raw fetch):
    // a Request built first and then handed to fetch, as openapi-fetch does (undici then builds a second one);
    rawRequest: async () => (await fetchImpl(new Request(sitesUrl, init))).json(),
    // raw fetch with a per-call AbortController + armed timer, as our per-attempt timeout does.
    rawSignal: async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 30_000);
      try {
        return await (await fetchImpl(sitesUrl, { headers: HEADERS, signal: controller.signal })).json();
      } finally {
        clearTimeout(timer);
      }
    },
    rawGet: async () => (await fetchImpl(checkUrl, init)).json(),
    openapiGet: async () => (await api.GET('/api/v1/ci/checks/{id}', { params: { path: { id: CHECK_ID } } })).data,
    oursGet: () => client.ciChecks.get(CHECK_ID),
  };
}
