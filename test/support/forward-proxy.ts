// A forward proxy on 127.0.0.1 (free port) that records what it is asked, as a corporate proxy sees it: requests
// in absolute form (`GET http://host/path HTTP/1.1`) are forwarded, CONNECT opens a tunnel. Host names that do not
// resolve (`sitemap.invalid`) are mapped to loopback servers, so the proxy reaches what a direct connection cannot:
// the proxy is the only way out. Like a default Squid (whose SSL_ports allow CONNECT to 443 only), it refuses
// CONNECT to port 80 with 403; other ports tunnel, so tests can reach loopback servers on free ports.
import { createServer, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { listenTracked } from './tracked-server.js';

export interface ForwardProxy {
  /** `http://127.0.0.1:PORT`, for HTTP_PROXY / HTTPS_PROXY. */
  url: string;
  /** What it was asked, in order: `GET http://host/path` (absolute form) or `CONNECT host:port`. */
  seen: string[];
  close(): Promise<void>;
}

/**
 * Starts the proxy. `hosts` maps `name:port` (the port always written) to the loopback `127.0.0.1:port` that
 * serves it; any other target is connected to as named.
 * @example await startForwardProxy({ 'sitemap.invalid:80': '127.0.0.1:40123' })
 */
export async function startForwardProxy(hosts: Record<string, string> = {}): Promise<ForwardProxy> {
  const seen: string[] = [];
  const route = (host: string, port: string) => {
    const [h, p] = (hosts[`${host}:${port}`] ?? `${host}:${port}`).split(/:(?=\d+$)/);
    return { host: h!, port: Number(p) };
  };
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (!req.url || !/^http:\/\//i.test(req.url)) {
      res.writeHead(400).end('a proxy takes absolute-form requests');
      return;
    }
    const target = new URL(req.url);
    const to = route(target.hostname, target.port || '80');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      { ...to, method: req.method, path: `${target.pathname}${target.search}`, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    client.on('error', () => undefined);
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    if (!host || !port) {
      client.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    if (port === '80') {
      client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(route(host, port), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    listening.track(upstream);
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n'));
  });
  const listening = await listenTracked(server);
  return {
    url: listening.url,
    seen,
    close: listening.close,
  };
}
