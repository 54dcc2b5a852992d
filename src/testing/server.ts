// HTTP layer: node:http on 127.0.0.1, the per-request pipeline (route, key, rate limit, scope, plan, body,
// handler) and the wire format of answers (application/json, application/problem+json).
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ciCheckHtml } from './ci.js';
import { SimProblem, fail, problemBody } from './problems.js';
import type { SlidingWindowLimiter } from './rate-limit.js';
import { matchRoute } from './routes.js';
import type { World } from './world.js';

// Bodies beyond this are refused (the document shows no limit; CI bodies are a few KB at most).
const MAX_BODY_BYTES = 1_048_576;

/** Request counters, by key and in total. */
export class RequestCounter {
  total = 0;
  readonly byKey = new Map<string, number>();
  add(key: string | undefined): void {
    this.total++;
    if (key !== undefined) this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
  }
}

/** Starts the HTTP server on 127.0.0.1:`port` and resolves once it listens. */
export async function listen(
  world: World,
  limiter: SlidingWindowLimiter | undefined,
  counter: RequestCounter,
  port: number,
): Promise<Server> {
  const server = createServer((req, res) => {
    handle(world, limiter, counter, req, res).catch(() => res.destroy());
  });
  // Idle keep-alive sockets must not delay stop(); closeAllConnections() ends them there.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  world.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return server;
}

async function handle(
  world: World,
  limiter: SlidingWindowLimiter | undefined,
  counter: RequestCounter,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const now = world.clock();
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
  const key = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  counter.add(key);
  try {
    // The whole body is read first, so an early error answer never leaves unread bytes on the socket.
    const raw = await readBody(req);
    const app = /^\/app\/ci\/checks\/([^/]+)$/.exec(path);
    if (app && req.method === 'GET') {
      const html = ciCheckHtml(world, app[1]!, now) ?? fail(404, undefined, `No CI check with id ${app[1]}.`);
      return write(res, 200, 'text/html; charset=utf-8', html);
    }
    const match = matchRoute(req.method ?? 'GET', path);
    if (!match) fail(404, undefined, `No route ${path} in the Developer API v1.`);
    if ('allow' in match) fail(405, undefined, `${req.method} is not allowed on ${path}.`, { Allow: match.allow });
    const { route, id } = match;
    const info = key === undefined ? undefined : world.org.keys.get(key);
    if (!info) fail(401, 'API_KEY_INVALID', 'The API key is missing, malformed or revoked.');
    const wait = limiter?.take(key!, now);
    if (wait !== undefined)
      fail(429, 'RATE_LIMITED', 'Rate limit of this key exceeded.', { 'Retry-After': String(wait) });
    if (!info.scopes.has(route.scope))
      fail(403, 'API_KEY_SCOPE_MISSING', `This API key does not have the scope ${route.scope}.`);
    for (const feature of ['API_ACCESS' as const, ...route.features]) {
      if (!info.plan.features.has(feature))
        fail(403, 'FEATURE_NOT_IN_PLAN', `The ${info.plan.name} plan does not include ${feature}.`);
    }
    const body = route.body ? parseJson(raw, route.body === '422' ? 422 : 400) : undefined;
    const reply = route.handle({ world, now, key: info, id, query, body });
    write(res, reply.status, 'application/json', JSON.stringify(reply.body), reply.headers);
  } catch (error) {
    const problem =
      error instanceof SimProblem ? error : new SimProblem(500, undefined, `The simulator failed: ${String(error)}`);
    write(
      res,
      problem.status,
      'application/problem+json',
      JSON.stringify(problemBody(problem, path, now)),
      problem.headers,
    );
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep draining (so the answer can still be written), but stop storing.
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () =>
      tooLarge
        ? reject(new SimProblem(413, undefined, 'The request body is too large.'))
        : resolve(Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
  });
}

function parseJson(raw: string, status: number): unknown {
  if (raw.trim() === '') fail(status, 'VALIDATION_FAILED', 'A JSON request body is required.');
  try {
    return JSON.parse(raw);
  } catch {
    return fail(status, 'VALIDATION_FAILED', 'The request body is not valid JSON.');
  }
}

function write(
  res: ServerResponse,
  status: number,
  type: string,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...headers,
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}
