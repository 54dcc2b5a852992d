// A loopback proxy in front of the simulator for the whole-site schedule's tests: it records every request in
// arrival order with the status it was answered (and, for a poll of a CI check, the check's status and counts), and
// may answer a request itself (a 429, a 422) instead of forwarding it.
import { createServer } from 'node:http';
import { listenTracked } from './tracked-server.js';

export interface Exchange {
  /** When it arrived, on the proxy's event counter (arrivals and answers share it, so they can be ordered). */
  n: number;
  /** When it arrived (ms since the epoch). */
  at: number;
  method: string;
  path: string;
  /** The JSON body sent, when there was one. */
  body: unknown;
  /** The status answered (undefined until answered). */
  status?: number;
  /** A poll's answer: the check's status and whether its counts were all zero. */
  check?: { id: string; status: string; clean: boolean };
  /** The created check's id, for an accepted create. */
  created?: string;
  /** When it was answered, on the same event counter as `n` (undefined until answered). */
  answeredAs?: number;
  /** When it was answered (ms since the epoch). */
  answeredAt?: number;
}

/** A reply the test gives itself: status, headers and a JSON body. */
export type OwnReply = { status: number; headers?: Record<string, string>; body: unknown };

export interface ScheduleProxy {
  url: string;
  log: Exchange[];
  /** Accepted creates, in arrival order. */
  creates(): Exchange[];
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1 (free port) forwarding to `target`; `reply` may answer a request itself, and `hold`
 * may keep one waiting before it is forwarded.
 * @example const proxy = await startScheduleProxy(sim.url, (x) => (x.method === 'POST' ? undefined : undefined));
 */
export async function startScheduleProxy(
  target: string,
  reply?: (exchange: Exchange, log: Exchange[]) => OwnReply | undefined,
  /** Called before a request is forwarded: the request waits until what it returns settles. */
  hold?: (exchange: Exchange, log: Exchange[]) => Promise<void> | undefined,
): Promise<ScheduleProxy> {
  const log: Exchange[] = [];
  let tick = 0;
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const x: Exchange = {
      n: tick++,
      at: Date.now(),
      method: req.method!,
      path: req.url!,
      body: raw ? JSON.parse(raw) : undefined,
    };
    log.push(x);
    const own = reply?.(x, log);
    if (own) {
      x.status = own.status;
      x.answeredAs = tick++;
      x.answeredAt = Date.now();
      res
        .writeHead(own.status, { 'content-type': 'application/problem+json', ...own.headers })
        .end(JSON.stringify(own.body));
      return;
    }
    await hold?.(x, log);
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept', 'user-agent'])
      if (typeof req.headers[name] === 'string') headers[name] = req.headers[name] as string;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: raw || undefined });
    const text = await answer.text();
    x.status = answer.status;
    if (answer.ok && text) {
      const data = JSON.parse(text) as { id?: string; status?: string; counts?: Record<string, number> };
      if (req.method === 'POST') x.created = data.id;
      else if (/^\/api\/v1\/ci\/checks\/[^/]+$/.test(req.url!) && data.status)
        x.check = {
          id: data.id!,
          status: data.status,
          clean: data.counts !== undefined && Object.values(data.counts).every((c) => c === 0),
        };
    }
    x.answeredAs = tick++;
    x.answeredAt = Date.now();
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) out[name] = value;
    });
    res.writeHead(answer.status, out).end(text);
  });
  const listening = await listenTracked(server);
  return {
    url: listening.url,
    log,
    creates: () => log.filter((x) => x.method === 'POST' && x.created !== undefined),
    close: listening.close,
  };
}
