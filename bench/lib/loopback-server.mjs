// A node:http keep-alive server answering every request with a ~200 B JSON body (a sites list, or a CI check for
// /ci/checks/ paths). It runs in a child process so that process.cpuUsage() in the benchmark counts the client
// side only, and so the server's work does not share the client's event loop.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

// One site, shaped like the API's list answer, padded to ~200 bytes.
const SITES_BODY = JSON.stringify([
  {
    id: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
    name: 'Shop',
    url: 'https://shop.example.com/',
    verified: true,
    createdAt: '2025-01-01T00:00:00.000Z',
    lastScanAt: '2025-01-02T00:00:00.000Z',
  },
]);

// A completed CI check, valid against V1CiCheckResponse (~200 bytes), for GET /api/v1/ci/checks/{id}: a client
// that validates responses (the hey-api peer) must be given a body of the right shape.
const CHECK_BODY = JSON.stringify({
  id: '3b241101-e2bb-4255-8caf-4136c566a962',
  status: 'COMPLETED',
  verdict: 'PASS',
  failOn: 'NEW_CRITICAL',
  baselineMissing: false,
  counts: { critical: 1, serious: 2, moderate: 0, minor: 0 },
  fixedCount: 2,
  unchangedCount: 3,
});

/** The body the server (and the in-memory fetch of pure-cost.mjs) answers for a request URL or path. */
export const bodyFor = (url) => (url.includes('/ci/checks/') ? CHECK_BODY : SITES_BODY);

/** Forks this file as a server and resolves `{ url, stop }` once it listens on 127.0.0.1. */
export async function startLoopbackServer() {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('loopback server did not start within 10 s')), 10_000);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve(m.port);
    });
    child.once('exit', (code) => reject(new Error(`loopback server exited early (${code})`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      // Kill only this child, by its own handle, if it ignores the polite request.
      const force = setTimeout(() => child.kill('SIGKILL'), 3_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.send('stop');
    });
  return { url: `http://127.0.0.1:${port}`, stop };
}

function serve() {
  const answer = (text) => {
    const body = Buffer.from(text);
    return { body, headers: { 'Content-Type': 'application/json', 'Content-Length': body.length } };
  };
  const sites = answer(SITES_BODY);
  const check = answer(CHECK_BODY);
  const server = createServer((req, res) => {
    // Drain any request body, then answer; the answer depends on the path only (sites list or a CI check).
    req.resume();
    const { body, headers } = req.url.includes('/ci/checks/') ? check : sites;
    res.writeHead(200, headers);
    res.end(body);
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('message', (m) => {
    if (m !== 'stop') return;
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
  // An orphaned server must not outlive its parent.
  process.on('disconnect', () => process.exit(0));
}

if (process.argv.includes('--serve')) serve();
