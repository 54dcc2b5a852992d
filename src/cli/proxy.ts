// Corporate networks: the CLI reaches the service through the proxy named by HTTPS_PROXY / HTTP_PROXY (either
// case), bypassing hosts listed in NO_PROXY. Node's own NODE_USE_ENV_PROXY exists only in recent releases (22.21,
// 24.5), not on Node 20, so the CLI uses undici's EnvHttpProxyAgent — the same HTTP client as Node's built-in
// fetch, from Node's own team — bundled into the CLI build and loaded only when a proxy is set. The SDK itself
// keeps taking a custom `fetch` (docs/sdk.md, "Behind a proxy", shows the same set-up for SDK users).
//
// A proxy is never skipped silently: when it cannot be reached, the request fails (no direct connection is
// tried). An http:// target goes to the proxy in absolute form and an https:// one through CONNECT, so the proxy
// resolves the target's host name, not this machine.

import { createRequire } from 'node:module';

/** The environment variables the CLI reads for a proxy, in the order undici reads them. */
export const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;

/** The proxy settings found in an environment. */
export interface ProxySettings {
  httpProxy: string | undefined;
  httpsProxy: string | undefined;
  noProxy: string | undefined;
}

const first = (env: Record<string, string | undefined>, ...names: string[]): string | undefined =>
  names.map((name) => env[name]?.trim()).find((value) => value !== undefined && value !== '');

/**
 * The proxy settings of `env` (lower case wins over upper case, as curl and undici read them), or undefined
 * when no proxy is set.
 * @example proxySettings({ HTTPS_PROXY: 'http://proxy:3128' }) // { httpProxy: undefined, httpsProxy: 'http://proxy:3128', noProxy: undefined }
 */
export function proxySettings(env: Record<string, string | undefined>): ProxySettings | undefined {
  const settings = {
    httpProxy: first(env, 'http_proxy', 'HTTP_PROXY'),
    httpsProxy: first(env, 'https_proxy', 'HTTPS_PROXY'),
    noProxy: first(env, 'no_proxy', 'NO_PROXY'),
  };
  return settings.httpProxy || settings.httpsProxy ? settings : undefined;
}

/**
 * The proxies' passwords (and user names that look like tokens), to keep out of every output: a proxy URL's
 * `user:password@` is redacted anyway wherever a URL is printed, but an error may quote the password alone.
 */
export function proxySecrets(settings: ProxySettings): string[] {
  return [settings.httpProxy, settings.httpsProxy].flatMap((url) => {
    if (!url || !URL.canParse(url)) return [];
    const { username, password } = new URL(url);
    return [password, username].filter((s) => s.length >= 4).map((s) => decodeURIComponent(s));
  });
}

/**
 * A `fetch` that sends every request through the proxies of `settings`; undici is imported on the first request.
 * @example new A11yClient({ apiKey, baseUrl, fetch: proxyFetch(proxySettings(process.env)!) })
 */
export function proxyFetch(settings: ProxySettings): typeof fetch {
  let ready: Promise<typeof fetch> | undefined;
  const load = async (): Promise<typeof fetch> => {
    // dist/cli-undici.cjs, next to the CLI's chunks (built by tsup.config.ts from undici-entry.ts).
    const undici = createRequire(import.meta.url)('./cli-undici.cjs') as typeof import('./undici-entry.js');
    const dispatcher = new undici.EnvHttpProxyAgent(settings);
    return ((input: RequestInfo | URL, init?: RequestInit) =>
      undici.fetch(input as never, { ...(init as object), dispatcher } as never)) as unknown as typeof fetch;
  };
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    ready ??= load();
    return (await ready)(input, init);
  }) as typeof fetch;
}
