// One validating Prism proxy for the whole run, in front of whichever simulator a test names: Prism's proxy takes a
// single upstream, so its upstream is this router, which forwards each request to the loopback port named by the
// request's `x-svc-test-upstream` header (Prism passes request headers through). A Prism proxy costs ~3 CPU-s to
// start; the simulator's contract tests started three.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The request header naming the simulator's port on 127.0.0.1. */
const UPSTREAM_HEADER = 'x-svc-test-upstream';

/** A running router: its URL, and close(). */
export interface UpstreamRouter {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the router on a free port of 127.0.0.1. A request without a valid port in {@link UPSTREAM_HEADER}, or
 * whose upstream cannot be reached, is answered 502 with the reason.
 * @example const router = await startUpstreamRouter(); // then `startPrism({ upstream: router.url })`
 */
export async function startUpstreamRouter(): Promise<UpstreamRouter> {
  const server: Server = createServer((req, res) => {
    const named = req.headers[UPSTREAM_HEADER];
    const port = typeof named === 'string' && /^\d{1,5}$/.test(named) ? Number(named) : 0;
    if (port < 1 || port > 65_535) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`${UPSTREAM_HEADER}: no port in ${String(named)}`);
      return;
    }
    const { [UPSTREAM_HEADER]: _routed, ...rest } = req.headers;
    const headers = { ...rest, host: `127.0.0.1:${port}` };
    const out = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`upstream 127.0.0.1:${port}: ${error.message}`);
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A fetch for a client whose base URL is the run's validating Prism proxy (`inject('prismProxyUrl')`): each request
 * carries the header that routes it on to `upstreamUrl` (a simulator on 127.0.0.1), and goes out through `inner`.
 * @example new A11yClient({ apiKey, baseUrl: inject('prismProxyUrl'), fetch: throughProxy(sim.url) })
 */
export function throughProxy(upstreamUrl: string, inner: typeof fetch = fetch): typeof fetch {
  const port = new URL(upstreamUrl).port;
  return (input, init) => {
    const request = new Request(input, init);
    request.headers.set(UPSTREAM_HEADER, port);
    return inner(request);
  };
}
