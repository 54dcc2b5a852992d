// A scripted HTTP server on 127.0.0.1 (free port) for fault sequences Prism cannot play.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}
export type Handler = (req: Seen, res: ServerResponse, index: number) => void | Promise<void>;

export interface Loopback {
  url: string;
  requests: Seen[];
  close(): Promise<void>;
}

/** Starts a server whose n-th request is answered by `handlers[n]` (the last one repeats). */
export async function startLoopback(handlers: Handler | Handler[]): Promise<Loopback> {
  const list = Array.isArray(handlers) ? handlers : [handlers];
  const requests: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const seen: Seen = { method: req.method!, url: req.url!, headers: req.headers, body, at: Date.now() };
    const index = requests.push(seen) - 1;
    await list[Math.min(index, list.length - 1)]!(seen, res, index);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A `serve(handlers)` for one test file (or describe block): each server it starts is closed after every test.
 * @example const serve = serveEach(); const api = await serve(json(200, []));
 */
export function serveEach(): (handlers: Handler | Handler[]) => Promise<Loopback> {
  const servers: Loopback[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (handlers) => {
    const server = await startLoopback(handlers);
    servers.push(server);
    return server;
  };
}

/** Answers JSON with a status and optional headers. */
export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}, type = 'application/json'): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': type, ...headers });
    res.end(JSON.stringify(body));
  };

/** Answers a problem+json body. */
export const problem = (status: number, code: string | undefined, headers: Record<string, string> = {}): Handler =>
  json(
    status,
    {
      type: 'about:blank',
      title: `Title ${status}`,
      status,
      detail: `Detail ${status}`,
      code,
      traceId: '5b9e3c1a-8f2d-4e6b-9a7c-1d2e3f4a5b6c',
      instance: '/x',
      timestamp: '2026-11-20T10:00:00Z',
    },
    headers,
    'application/problem+json',
  );

/** Answers raw text (e.g. an HTML 502 from a proxy). */
export const text =
  (status: number, body: string, type = 'text/html'): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };

/** Destroys the connection before any answer. */
export const reset: Handler = (_req, res) => {
  res.socket?.destroy();
};

/** Never answers (the client's timeout must end the wait). */
export const hang: Handler = () => undefined;

// Ports the kernel never hands out for port 0 (Linux's ephemeral range starts at 32768): a port closed here is
// not given to another test's server a moment later, so a connection to it is refused for the whole run.
const FIXED_PORTS = { from: 20_000, to: 32_000 };

/**
 * A loopback port nothing listens on, for a refused connection: below the ephemeral range and checked free, so
 * no server started by any test (they all listen on port 0) can take it while it is used.
 * @example const url = `http://127.0.0.1:${await refusedPort()}`;
 */
export async function refusedPort(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = FIXED_PORTS.from + Math.floor(Math.random() * (FIXED_PORTS.to - FIXED_PORTS.from));
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return port;
    }
  }
  throw new Error('no free port below the ephemeral range');
}

/**
 * A service whose every CI check is created (202 with its `Location`), then COMPLETED with the service's PASS over
 * the pages `pages(asked)` lists (by default every URL asked for, DONE), with `violations` as its findings. For tests
 * of what the gate makes of an answer; `createdWith(server)` reads the body the check was created with.
 * @example const api = await serve(passingService([{ impact: 'critical', isNew: true }]));
 */
export function passingService(
  violations: unknown[] = [],
  pages: (asked: string[]) => unknown[] = (asked) => asked.map((url) => ({ url, status: 'DONE' })),
): Handler {
  const id = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
  let asked: string[] = [];
  return (req, res) => {
    if (req.method === 'POST') {
      asked = (JSON.parse(req.body) as { urls: string[] }).urls;
      return json(202, { id, status: 'QUEUED' }, { location: `/api/v1/ci/checks/${id}` })(req, res, 0);
    }
    if (req.url.endsWith('/violations')) return json(200, violations)(req, res, 0);
    return json(200, { id, status: 'COMPLETED', verdict: 'PASS', pages: pages(asked) })(req, res, 0);
  };
}

/** The body a check was created with, on a server of {@link passingService}. */
export const createdWith = (server: { requests: Seen[] }): { setBaseline?: boolean; failOn?: string; urls: string[] } =>
  JSON.parse(server.requests.find((r) => r.method === 'POST')!.body);
