// A fake of the Actions cache service (v2, what GitHub's runners use: ACTIONS_CACHE_SERVICE_V2 with ACTIONS_RESULTS_URL)
// on loopback, for @actions/cache as the action bundles it: the twirp JSON calls (CreateCacheEntry,
// FinalizeCacheEntryUpload, GetCacheEntryDownloadURL) and the blob store their signed URLs point at (a single-shot
// PUT of the archive, as the Azure SDK sends a small one; a plain GET back). Entries are matched as the service does:
// the exact key first, else the newest entry whose key starts with a restore key, of the same version.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Entry {
  key: string;
  version: string;
  blob: Buffer | undefined;
  finalized: boolean;
  at: number;
}

/** The fake, with what it holds. */
export interface FakeCache {
  /** ACTIONS_RESULTS_URL. */
  url: string;
  /** The env the runner gives an action that may use the cache. */
  env: Record<string, string>;
  /** The entries saved and finalized, oldest first. */
  entries(): Array<{ key: string; size: number }>;
  /** The twirp calls made, by method name. */
  calls: string[];
  /** From now on, answer every twirp call 401 (a token the service refuses): nothing is read or written. */
  refuse(): void;
  close(): Promise<void>;
}

const TOKEN = 'fake-runtime-token';

/** Starts the fake on 127.0.0.1 (a free port). */
export async function startFakeCache(): Promise<FakeCache> {
  const entries: Entry[] = [];
  const calls: string[] = [];
  let base = '';
  let refusing = false;
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    const body = await read(req);
    const twirp = /^\/twirp\/github\.actions\.results\.api\.v1\.CacheService\/(\w+)$/.exec(url.pathname);
    if (twirp) {
      const method = twirp[1]!;
      calls.push(method);
      if (refusing || req.headers.authorization !== `Bearer ${TOKEN}`)
        return json(res, 401, { code: 'unauthenticated', msg: 'token refused' });
      const request = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      const version = String(request.version);
      if (method === 'CreateCacheEntry') {
        if (entries.some((e) => e.key === request.key && e.version === version))
          return json(res, 200, { ok: false, message: 'already exists' });
        const id = entries.push({
          key: String(request.key),
          version,
          blob: undefined,
          finalized: false,
          at: Date.now(),
        });
        return json(res, 200, { ok: true, signedUploadUrl: `${base}/devstoreaccount1/cache/entry-${id}?sig=upload` });
      }
      if (method === 'FinalizeCacheEntryUpload') {
        const entry = entries.find((e) => e.key === request.key && e.version === version && e.blob);
        if (!entry) return json(res, 200, { ok: false, message: 'nothing uploaded' });
        entry.finalized = true;
        return json(res, 200, { ok: true, entryId: String(entries.indexOf(entry) + 1) });
      }
      if (method === 'GetCacheEntryDownloadURL') {
        const done = entries.filter((e) => e.finalized && e.version === version);
        const restoreKeys = (request.restoreKeys as string[] | undefined) ?? [];
        const match =
          done.find((e) => e.key === request.key) ??
          restoreKeys
            .map((prefix) => done.filter((e) => e.key.startsWith(prefix)).sort((a, b) => b.at - a.at)[0])
            .find((e) => e !== undefined);
        if (!match) return json(res, 200, { ok: false });
        return json(res, 200, {
          ok: true,
          matchedKey: match.key,
          signedDownloadUrl: `${base}/devstoreaccount1/cache/entry-${entries.indexOf(match) + 1}?sig=download`,
        });
      }
      return json(res, 404, { code: 'bad_route' });
    }
    const blob = /^\/devstoreaccount1\/cache\/entry-(\d+)$/.exec(url.pathname);
    const entry = blob ? entries[Number(blob[1]) - 1] : undefined;
    if (!entry) return json(res, 404, { message: 'no such blob' });
    if (req.method === 'PUT') {
      entry.blob = body;
      res.writeHead(201, {
        etag: '"0x1"',
        'last-modified': new Date().toUTCString(),
        'x-ms-request-server-encrypted': 'true',
      });
      return res.end();
    }
    if (req.method === 'GET' && entry.blob) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': entry.blob.length });
      return res.end(entry.blob);
    }
    return json(res, 405, { message: 'not here' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    env: { ACTIONS_RESULTS_URL: `${base}/`, ACTIONS_RUNTIME_TOKEN: TOKEN, ACTIONS_CACHE_SERVICE_V2: 'true' },
    entries: () => entries.filter((e) => e.finalized).map((e) => ({ key: e.key, size: e.blob?.length ?? 0 })),
    calls,
    refuse: () => {
      refusing = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
