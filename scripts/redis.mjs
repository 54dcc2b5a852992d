// Starts Debian's redis-server on a free loopback port with persistence off, and stops it by its PID.
// Used by the vitest global setup (one server per run), the Redis-down test (a server of its own, killed
// mid-run) and the fleet benchmark.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './prism.mjs';

/**
 * Starts `redis-server` on 127.0.0.1.
 * @param {{ timeoutMs?: number, databases?: number }} [options] `databases`: how many numbered databases it has
 *   (Redis' default: 16)
 * @returns {Promise<{ url: string, port: number, pid: number, stop: () => Promise<void> }>}
 */
export async function startRedis(options = {}) {
  const timeoutMs = options.timeoutMs ?? 10_000;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'yes',
    ];
    if (options.databases) args.push('--databases', String(options.databases));
    const child = spawn('redis-server', args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const failed = new Promise((resolve) => {
      child.once('error', (error) => resolve(error));
      child.once('exit', (code) => resolve(new Error(`redis-server exited with ${code}`)));
    });
    const ready = await Promise.race([waitForPing(port, () => output, timeoutMs), failed]);
    if (ready === true) {
      const stop = () =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
          child.once('exit', () => resolve(undefined));
          child.kill('SIGTERM');
        });
      return { url: `redis://127.0.0.1:${port}`, port, pid: /** @type {number} */ (child.pid), stop };
    }
    child.kill('SIGKILL');
    if (ready instanceof Error && /ENOENT/.test(String(ready.message ?? ready))) {
      throw new Error("redis-server was not found: install Debian's redis-server package (.ci/run does)");
    }
    if (attempt === 2) throw new Error(`redis-server did not start: ${String(ready)}\n${output}`);
  }
  throw new Error('unreachable');
}

/**
 * Resolves true once this server says it is ready and a PING on `port` is answered, false after `timeoutMs`. Its
 * own word first: another redis-server started at the same time may hold the port, and its PONG would hand the
 * caller that server (one a test may kill or freeze).
 */
async function waitForPing(port, output, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!output().includes('Ready to accept connections')) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    const pong = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.setTimeout(500);
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (d) => {
        socket.destroy();
        resolve(String(d).startsWith('+PONG'));
      });
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (pong) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
