// Corporate networks: every request the CLI and the GitHub Action make (the service's API, sitemaps, GitHub's API)
// goes through the proxy named by HTTPS_PROXY / HTTP_PROXY (either case), bypassing hosts listed in NO_PROXY, all
// through `requestFetch` below. Node's own NODE_USE_ENV_PROXY exists only in recent releases (22.21, 24.5), not on
// Node 20, so the CLI uses undici's EnvHttpProxyAgent — the same HTTP client as Node's built-in fetch, from Node's
// own team — bundled into the CLI build and loaded only when a proxy is set. The SDK itself keeps taking a custom
// `fetch` (docs/sdk.md, "Behind a proxy", shows the same set-up for SDK users).
//
// A proxy is never skipped silently: when it cannot be reached, the request fails (no direct connection is
// tried). An http:// target goes to the proxy in absolute form (`GET http://host/path`, as curl sends it: a default
// Squid refuses CONNECT to port 80) and an https:// one through CONNECT, so the proxy resolves the target's host
// name, not this machine. A proxy that drops or stalls a CONNECT fails the requests waiting for that tunnel within
// PROXY_CONNECT_TIMEOUT_MS, saying so: undici would otherwise take a dropped CONNECT for a socket to retry (for as
// long as the request waits) and wait 300 s for a stalled one, keeping the process alive after the command ended.

import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';
import { parseUrl } from './parse-url.js';

/** The environment variables the CLI reads for a proxy, in the order undici reads them. */
export const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;

/**
 * Most time, in milliseconds, a proxy has to take the connection and answer a CONNECT: the bound undici puts on a
 * direct connection (TCP and TLS), so a tunnel that never opens fails like a host that never answers, well within
 * a request's own timeout (30 s).
 */
export const PROXY_CONNECT_TIMEOUT_MS = 10_000;

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
 * The proxy variables of `env` that apply to a URL of `protocol` (an https:// URL falls back on HTTP_PROXY when no
 * HTTPS_PROXY is set, as undici reads them), for messages: `['HTTPS_PROXY']`, or `[]` when none applies.
 * @example proxyVariablesFor({ HTTP_PROXY: 'http://proxy:3128' }, 'https:') // ['HTTP_PROXY']
 */
export function proxyVariablesFor(env: Record<string, string | undefined>, protocol: string): string[] {
  const set = (names: readonly string[]) => names.filter((name) => env[name]?.trim());
  const http = set(['HTTP_PROXY', 'http_proxy']);
  if (protocol !== 'https:') return http;
  const https = set(['HTTPS_PROXY', 'https_proxy']);
  return https.length ? https : http;
}

/**
 * The proxies' passwords (and user names that look like tokens), to keep out of every output: a proxy URL's
 * `user:password@` is redacted anyway wherever a URL is printed, but an error may quote the password alone.
 */
export function proxySecrets(settings: ProxySettings): string[] {
  return [settings.httpProxy, settings.httpsProxy].flatMap((url) => {
    const parsed = url ? parseUrl(url) : undefined;
    if (!parsed) return [];
    const { username, password } = parsed;
    return [password, username].filter((s) => s.length >= 4).map((s) => decodeURIComponent(s));
  });
}

/** The part of undici the proxy uses (`dist/cli-undici.cjs`, built from `undici-entry.ts`). */
export type Undici = typeof import('./undici-entry.js');

/** Options of {@link proxyFetch} and {@link requestFetch}. */
export interface ProxyFetchOptions {
  /**
   * Most time for a proxy to take the connection and answer a CONNECT, in milliseconds.
   * @default PROXY_CONNECT_TIMEOUT_MS
   */
  connectTimeoutMs?: number | undefined;
  /**
   * Loads undici, for a bundle that carries it itself (the GitHub Action's `action/index.cjs` has no
   * `cli-undici.cjs` beside it).
   * @default the one given to {@link useBundledUndici}, else `cli-undici.cjs` next to the CLI's chunks
   */
  undici?: (() => Promise<Undici>) | undefined;
}

/** A `fetch` over one set of connections, and the way to let go of them. */
export interface RequestFetch {
  /** Sends a request, through the proxy that applies to its URL when there is one. */
  readonly fetch: typeof fetch;
  /** Whether the environment names a proxy (requests may still go direct: NO_PROXY). */
  readonly proxied: boolean;
  /**
   * Ends every connection, a CONNECT still waiting for its answer included, so nothing keeps the process alive
   * once its requests are over; a request sent afterwards fails.
   */
  close(): Promise<void>;
}

let bundled: (() => Promise<Undici>) | undefined;

/**
 * Where {@link proxyFetch} takes undici from in a bundle that carries it (the GitHub Action runs the CLI in its
 * own process, with no `cli-undici.cjs` beside it); `undefined` restores the default.
 * @example useBundledUndici(() => import('./undici-entry.js'))
 */
export function useBundledUndici(load: (() => Promise<Undici>) | undefined): void {
  bundled = load;
}

async function loadUndici(): Promise<Undici> {
  if (bundled) return bundled();
  const load = createRequire(import.meta.url);
  // dist/cli-undici.cjs, next to the CLI's chunks (built by tsup.config.ts from undici-entry.ts); run from the
  // sources (tests), the dev dependency itself.
  return load(import.meta.url.endsWith('.ts') ? 'undici' : './cli-undici.cjs') as Undici;
}

/**
 * The `fetch` every request of the CLI and the Action goes through: through the proxies of `env` (HTTPS_PROXY,
 * HTTP_PROXY, NO_PROXY in either case) when it names one, else the global `fetch`.
 * @example const { fetch, close } = requestFetch(process.env); try { await fetch(url) } finally { await close() }
 */
export function requestFetch(env: Record<string, string | undefined>, options: ProxyFetchOptions = {}): RequestFetch {
  const settings = proxySettings(env);
  if (settings) return proxyFetch(settings, options);
  return {
    // Read when called, not now: a test may stub the global.
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init)) as typeof fetch,
    proxied: false,
    close: async () => undefined,
  };
}

/**
 * A `fetch` that sends every request through the proxies of `settings`; undici is loaded on the first request.
 * @example new A11yClient({ apiKey, baseUrl, fetch: proxyFetch(proxySettings(process.env)!).fetch })
 */
function proxyFetch(settings: ProxySettings, options: ProxyFetchOptions = {}): RequestFetch {
  const connectTimeoutMs = options.connectTimeoutMs ?? PROXY_CONNECT_TIMEOUT_MS;
  let ready: Promise<{ undici: Undici; dispatcher: Dispatcher }> | undefined;
  const open = () =>
    (ready ??= (options.undici ?? loadUndici)().then((undici) => ({
      undici,
      dispatcher: proxyDispatcher(undici, settings, connectTimeoutMs),
    })));
  return {
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const { undici, dispatcher } = await open();
      return undici.fetch(input as never, { ...(init as object), dispatcher } as never);
    }) as unknown as typeof fetch,
    proxied: true,
    close: async () => {
      const opened = await ready?.catch(() => undefined);
      await opened?.dispatcher.destroy().catch(() => undefined);
    },
  };
}

// undici's EnvHttpProxyAgent with three changes: http:// targets in absolute form (`proxyTunnel: false`), the
// proxy's answer to CONNECT bounded, and a CONNECT that fails (no answer, or a refusal) reported as the proxy's.
function proxyDispatcher(undici: Undici, settings: ProxySettings, connectTimeoutMs: number): Dispatcher {
  // The client that asks the proxy for tunnels (CONNECT), and only that.
  class TunnelPool extends undici.Pool {
    readonly #proxy: string;
    constructor(origin: URL, options: object) {
      // headersTimeout: the time from sending CONNECT to the proxy's answer (undici's default is 300 s).
      super(origin, { ...options, headersTimeout: connectTimeoutMs });
      // host:port only: the URL may hold the proxy's credentials.
      this.#proxy = origin.host;
    }

    override connect(options: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData>;
    override connect(
      options: Dispatcher.ConnectOptions,
      callback: (err: Error | null, data: Dispatcher.ConnectData) => void,
    ): void;
    override connect(
      options: Dispatcher.ConnectOptions,
      callback?: (err: Error | null, data: Dispatcher.ConnectData) => void,
    ): Promise<Dispatcher.ConnectData> | undefined {
      if (callback) {
        super.connect(options, callback);
        return undefined;
      }
      return super.connect(options).then(
        (tunnel) => {
          if (tunnel.statusCode === 200) return tunnel;
          // undici would say "Request was cancelled."; the proxy's answer says more.
          tunnel.socket.destroy();
          throw new ProxyTunnelError(
            `the proxy ${this.#proxy} refused CONNECT ${options.path} (HTTP ${tunnel.statusCode}${tunnel.statusCode === 407 ? ': check the user and password in the proxy URL' : ''})`,
          );
        },
        (error: unknown) => {
          throw tunnelFailure(error, this.#proxy, connectTimeoutMs);
        },
      );
    }
  }
  return new undici.EnvHttpProxyAgent({
    // '' rather than undefined: undici would read process.env itself, and the environment is the one given.
    httpProxy: settings.httpProxy ?? '',
    httpsProxy: settings.httpsProxy ?? '',
    noProxy: settings.noProxy ?? '',
    proxyTunnel: false,
    // The TCP (and TLS, for an https:// proxy) connection to the proxy.
    proxyTls: { timeout: connectTimeoutMs },
    clientFactory: (origin: URL, options: object) => new TunnelPool(origin, options),
  });
}

/** A proxy that failed a tunnel: the message names it (host and port) and what it did. */
class ProxyTunnelError extends Error {
  override name = 'ProxyTunnelError';
}

// undici reports a CONNECT dropped before any answer as a socket error (UND_ERR_SOCKET), which makes the target's
// client connect again and again while the request waits; any other error ends the requests waiting for the
// tunnel. The error has no `code`, so its message is what a failure shows ("fetch failed (the proxy …)").
function tunnelFailure(error: unknown, proxy: string, connectTimeoutMs: number): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT')
    return new ProxyTunnelError(`the proxy ${proxy} did not answer CONNECT within ${connectTimeoutMs / 1000} s`, {
      cause: error,
    });
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE')
    return new ProxyTunnelError(`the proxy ${proxy} closed the connection before answering CONNECT`, {
      cause: error,
    });
  return error;
}
