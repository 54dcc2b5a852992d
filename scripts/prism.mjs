// Starts Prism (mock or proxy of openapi.yaml) on a free loopback port and stops it by its PID.
// Used by the vitest global setup, the benchmarks and the browser test.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const prismBin = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

/**
 * Asks the OS for a free TCP port on 127.0.0.1.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `prism mock openapi.yaml --errors` (or `prism proxy openapi.yaml <upstream> --errors`).
 * @param {{ upstream?: string, spec?: string, timeoutMs?: number }} [options]
 * @returns {Promise<{ url: string, pid: number, stop: () => Promise<void>, output: () => string }>}
 */
export async function startPrism(options = {}) {
  const spec = options.spec ?? join(root, 'openapi.yaml');
  const timeoutMs = options.timeoutMs ?? 30_000;
  // A port taken between freePort() and Prism's listen() is retried with a new port.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const args = options.upstream
      ? [prismBin, 'proxy', spec, options.upstream, '-h', '127.0.0.1', '-p', String(port), '--errors']
      : [prismBin, 'mock', spec, '-h', '127.0.0.1', '-p', String(port), '--errors'];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const url = `http://127.0.0.1:${port}`;
    const stop = () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        process.kill(/** @type {number} */ (child.pid), 'SIGTERM');
      });
    const ready = await waitUntilListening(url, child, () => output, timeoutMs);
    if (ready) return { url, pid: /** @type {number} */ (child.pid), stop, output: () => output };
    await stop();
    if (!/EADDRINUSE/.test(output)) throw new Error(`Prism did not start:\n${output}`);
  }
  throw new Error('Prism did not start: no free port after 3 attempts');
}

/**
 * Polls until this Prism says it listens on `url` and answers an HTTP request there (true), or exits / times out
 * (false). Its own word first: another process may have taken the port between freePort() and Prism's listen(),
 * and an answer from that process would hand the caller someone else's server (seen once under load).
 */
async function waitUntilListening(url, child, output, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return false;
    if (!output().includes(`Prism is listening on ${url}`)) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      await fetch(`${url}/__ready`, { signal: AbortSignal.timeout(1000) });
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return false;
}
