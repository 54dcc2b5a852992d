// Support of the ecosystem suite: a one-package npm registry on loopback (so each runtime installs the packed
// tarball by name, the way its users install from npm), and a child-process runner that stops what it started
// by PID.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface Registry {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  /** Every request, as `METHOD path`, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** package/package.json of an npm tarball (a gzipped tar: 512-byte headers, then the content). */
export function manifestOf(tarball: Buffer): Record<string, unknown> & { name: string; version: string } {
  const tar = gunzipSync(tarball);
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const name = tar
      .subarray(offset, offset + 100)
      .toString('utf8')
      .replace(/\0.*$/s, '');
    const size = parseInt(
      tar
        .subarray(offset + 124, offset + 136)
        .toString('utf8')
        .replace(/\0.*$/s, '')
        .trim() || '0',
      8,
    );
    if (name === 'package/package.json')
      return JSON.parse(tar.subarray(offset + 512, offset + 512 + size).toString('utf8'));
    if (!name) break;
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error('package/package.json not found in the tarball');
}

/**
 * Serves one package: its packument at `/<name>` (also `%2f`-encoded) and its tarball. Everything else is a 404,
 * which is what the registry answers for an unpublished name (Deno asks for the optional peer `redis`).
 * No `time` field: Deno (2.9+) refuses versions published less than 24 h ago by default, and this one was
 * packed a second ago.
 */
export async function startRegistry(tarballPath: string): Promise<Registry> {
  const tarball = readFileSync(tarballPath);
  const manifest = manifestOf(tarball);
  const file = `${manifest.name.split('/').pop()}-${manifest.version}.tgz`;
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://registry').pathname);
    requests.push(`${req.method} ${path}`);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (path === `/${manifest.name}`) {
      const dist = {
        tarball: `${base}/${manifest.name}/-/${file}`,
        shasum: createHash('sha1').update(tarball).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
      };
      const packument = {
        name: manifest.name,
        'dist-tags': { latest: manifest.version },
        versions: { [manifest.version]: { ...manifest, _id: `${manifest.name}@${manifest.version}`, dist } },
      };
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(packument));
    } else if (path === `/${manifest.name}/-/${file}`) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': tarball.length }).end(tarball);
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a command to its end with exactly `env` (no variable of the test process leaks in); killed by PID at the timeout. */
export function exec(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    }, options.timeoutMs ?? 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** A failed run's whole story, for assertion messages. */
export const describeRun = (what: string, run: Run) =>
  `${what}: exit ${run.code}${run.signal ? ` (${run.signal})` : ''} after ${run.ms} ms\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;

/** The last line of stdout as JSON (the scenario prints exactly one). */
export function lastJsonLine<T>(what: string, run: Run): T {
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new Error(`${describeRun(what, run)}\n(expected one JSON line on stdout)`);
  }
}

export interface ServerProcess {
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts a server process that prints `{"port":N}` on its first stdout line; stopped by its PID. */
export async function startServer(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<ServerProcess> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const stop = async () => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const closed = new Promise((resolve) => child.once('close', resolve));
    process.kill(child.pid, 'SIGTERM');
    await closed;
  };
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command} ${args.join(' ')} did not print its port:\n${output}`)),
      options.timeoutMs ?? 30_000,
    );
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /\{"port":(\d+)\}/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new Error(`${command} exited (${code ?? signal}) before listening:\n${output}`)),
    );
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
}
