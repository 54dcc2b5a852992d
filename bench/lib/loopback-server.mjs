// A node:http keep-alive server answering every request with the same ~200 B JSON body. It runs in a
// child process so that process.cpuUsage() in the benchmark counts the client side only, and so the
// server's work does not share the client's event loop.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

// One site, shaped like the API's list answer, padded to ~200 bytes.
export const SITES_BODY = JSON.stringify([
  {
    id: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
    name: 'Shop',
    url: 'https://shop.example.com/',
    verified: true,
    createdAt: '2025-01-01T00:00:00.000Z',
    lastScanAt: '2025-01-02T00:00:00.000Z',
  },
]);

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
  const body = Buffer.from(SITES_BODY);
  const headers = { 'Content-Type': 'application/json', 'Content-Length': body.length };
  const server = createServer((req, res) => {
    // Drain any request body, then answer; the answer never depends on the request.
    req.resume();
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
