// A loopback HTTP proxy in front of the simulator that records every request (method, path, JSON body) it
// forwards: tests read what the CLI sent, e.g. how many CI checks it created and with which URLs and context.
import { createServer, request as httpRequest } from 'node:http';
import { listenTracked } from './tracked-server.js';

interface Recorded {
  method: string;
  path: string;
  body: string;
}

export interface RecordingProxy {
  url: string;
  requests: Recorded[];
  /** The parsed bodies of `POST /api/v1/ci/checks`. */
  created(): Array<{ urls: string[]; failOn?: string; setBaseline?: boolean; context?: Record<string, string> }>;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (free port) forwarding to `target` (an http:// origin). */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const requests: Recorded[] = [];
  const upstream = new URL(target);
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    requests.push({ method: req.method!, path: req.url!, body: body.toString('utf8') });
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    forward.end(body);
  });
  const listening = await listenTracked(server);
  return {
    url: listening.url,
    requests,
    created: () =>
      requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/ci/checks').map((r) => JSON.parse(r.body)),
    close: listening.close,
  };
}
