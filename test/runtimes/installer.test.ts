// The runtimes' installer (scripts/runtimes.mjs) against a registry on loopback: it takes each runtime's binary
// from its platform package's tarball, checked against the registry's sha512 integrity, and puts a folder in the
// cache only when every binary prints the version it must. The binaries here are shell scripts printing a version,
// so the whole path (manifests, tarballs, tar, the version checks, the cache) runs in a second.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { selfSignedCertificate } from '../support/self-signed.js';
import {
  RUNTIME_VERSIONS,
  RUNTIMES,
  ensureRuntimes,
  installRuntimes,
  platformPackages,
  runtimesDir,
} from '../../scripts/runtimes.mjs';

const SCRIPT = fileURLToPath(new URL('../../scripts/runtimes.mjs', import.meta.url));
type Name = keyof typeof RUNTIMES;
const NAMES = Object.keys(RUNTIMES) as Name[];
const work = mkdtempSync(join(tmpdir(), 'svc-a11y-runtimes-installer-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A gzipped npm tarball holding one executable at `file` (e.g. package/bin/node) that prints `printed`. */
function tarball(file: string, printed: string): Buffer {
  const dir = mkdtempSync(join(work, 'pkg-'));
  const path = join(dir, file);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `#!/bin/sh\necho '${printed}'\n`, { mode: 0o755 });
  writeFileSync(join(dir, 'package', 'README.md'), 'not the binary\n');
  const out = join(dir, 'out.tgz');
  execFileSync('tar', ['-czf', out, '-C', dir, 'package']);
  return readFileSync(out);
}

interface Published {
  tarball: Buffer;
  /** What the manifest says the tarball's sha512 is (the real one unless a test lies). */
  integrity?: string;
  /** Where the registry stops answering, the connection left open: before the manifest, or halfway through the tarball. */
  stall?: 'manifest' | 'tarball';
}

/**
 * A registry serving `GET /<name, / as %2f>/<version>` manifests and their tarballs (over TLS with `tls`); records
 * each path.
 */
async function startRegistry(packages: Map<string, Published>, tls?: { key: Buffer; cert: Buffer }) {
  const requests: string[] = [];
  const scheme = tls ? 'https' : 'http';
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    const tgz = /^\/tarballs\/(.+)\.tgz$/.exec(url.pathname);
    const key = tgz ? decodeURIComponent(tgz[1]!) : decodeURIComponent(url.pathname.slice(1));
    const published = packages.get(key);
    if (!published) return res.writeHead(404).end('{"error":"Not found"}');
    if (published.stall === 'manifest' && !tgz) return;
    if (tgz && published.stall === 'tarball') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return void res.write(published.tarball.subarray(0, published.tarball.length >> 1));
    }
    if (tgz) return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(published.tarball);
    const sha512 = createHash('sha512').update(published.tarball).digest('base64');
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        dist: {
          tarball: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}/tarballs/${encodeURIComponent(key)}.tgz`,
          integrity: published.integrity ?? `sha512-${sha512}`,
        },
      }),
    );
  };
  const server: Server = tls ? createHttpsServer(tls, handle) : createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      // The stalled answers' connections, which would keep the server open.
      server.closeAllConnections();
    });
  return { url, requests, close };
}

/** Every runtime published as this machine's platform packages, each printing its version unless `change` says. */
function publishAll(change: (name: Name, published: Published) => void = () => {}) {
  const packages = new Map<string, Published>();
  const platform = platformPackages();
  for (const name of NAMES) {
    const published = { tarball: tarball(platform[name].file, RUNTIMES[name].version) };
    change(name, published);
    packages.set(`${platform[name].name}/${RUNTIME_VERSIONS[name]}`, published);
  }
  return packages;
}

let registry: Awaited<ReturnType<typeof startRegistry>>;
let packages: Map<string, Published>;
beforeAll(async () => {
  packages = publishAll();
  registry = await startRegistry(packages);
});
afterAll(() => registry?.close());
afterEach(() => {
  registry.requests.length = 0;
  // Each test's cache, registry and PATH (vitest's own undo waits for the file's end).
  vi.unstubAllEnvs();
});

/** A fresh cache folder and the registry, for one install. */
function useCache(registryUrl = registry.url) {
  const cache = mkdtempSync(join(work, 'cache-'));
  vi.stubEnv('SVC_RUNTIMES_CACHE', cache);
  vi.stubEnv('npm_config_registry', registryUrl);
  return cache;
}

describe('the runtimes installer', () => {
  it('takes only each binary, from its platform package, into the folder of this set of versions; then a cache hit', async () => {
    const cache = useCache();
    const { dir } = await installRuntimes();
    expect(dir).toBe(runtimesDir());
    expect(dir.startsWith(cache)).toBe(true);
    // One manifest and one tarball per runtime, by the platform package's name and the pinned version.
    const platform = platformPackages();
    expect(registry.requests.filter((r) => !r.startsWith('/tarballs/')).sort()).toEqual(
      NAMES.map((n) => `/${platform[n].name.replace('/', '%2f')}/${RUNTIME_VERSIONS[n]}`).sort(),
    );
    expect(registry.requests.filter((r) => r.startsWith('/tarballs/'))).toHaveLength(NAMES.length);
    // The binaries only (no README from the tarball), and nothing left beside the folder.
    for (const name of NAMES) {
      const [folder, file] = RUNTIMES[name].bin.split('/');
      expect(readdirSync(join(dir, folder!))).toEqual([file]);
    }
    expect(readdirSync(cache)).toEqual([dir.split('/').at(-1)]);

    registry.requests.length = 0;
    const again = ensureRuntimes();
    expect(again).toMatchObject({ dir, installed: false });
    expect(again.bins.node22).toBe(join(dir, 'node22/node'));
    expect(execFileSync(again.bins.workerd, ['--version'], { encoding: 'utf8' }).trim()).toBe(RUNTIMES.workerd.version);
    expect(registry.requests).toEqual([]);
  });

  it('a tarball that does not match its integrity fails the install, naming the runtime; the cache stays empty', async () => {
    const lying = await startRegistry(
      publishAll((name, published) => {
        if (name === 'deno') published.integrity = `sha512-${createHash('sha512').update('other').digest('base64')}`;
      }),
    );
    try {
      const cache = useCache(lying.url);
      await expect(installRuntimes()).rejects.toThrow(
        /^Could not install the runtimes the ecosystem tests need: deno: @deno\/linux-[a-z0-9]+-glibc@2\.9\.6: the tarball does not match the registry's sha512 integrity$/,
      );
      // Tried three times, then given up; no folder, no leftover.
      expect(lying.requests.filter((r) => r.startsWith('/tarballs/%40deno'))).toHaveLength(3);
      expect(readdirSync(cache)).toEqual([]);
    } finally {
      await lying.close();
    }
  });

  it('a binary that prints another version fails the install with what it printed', async () => {
    const wrong = await startRegistry(
      publishAll((name, published) => {
        if (name === 'node24') published.tarball = tarball(platformPackages().node24.file, 'v24.0.0');
      }),
    );
    try {
      const cache = useCache(wrong.url);
      await expect(installRuntimes()).rejects.toThrow(/node24: expected v24\.21\.0 from node24\/node, got v24\.0\.0/);
      expect(readdirSync(cache)).toEqual([]);
    } finally {
      await wrong.close();
    }
  });

  it('a package the registry does not have fails with its name and the HTTP status', async () => {
    const missing = await startRegistry(new Map([...packages].filter(([key]) => !key.startsWith('@cloudflare/'))));
    try {
      const cache = useCache(missing.url);
      await expect(installRuntimes()).rejects.toThrow(
        /workerd: GET http:\/\/127\.0\.0\.1:\d+\/@cloudflare%2fworkerd-linux-[a-z0-9]+\/1\.20261117\.1: HTTP 404/,
      );
      expect(existsSync(join(cache, runtimesDir().split('/').at(-1)!))).toBe(false);
      expect(readdirSync(cache)).toEqual([]);
    } finally {
      await missing.close();
    }
  });

  it('without tar on the PATH: fails at once naming it, and leaves nothing (no download waits on a pipe)', async () => {
    const cache = useCache();
    vi.stubEnv('PATH', join(work, 'no-such-folder'));
    await expect(installRuntimes()).rejects.toThrow(/: tar could not write package\/\S+ \(spawn tar ENOENT/);
    expect(readdirSync(cache)).toEqual([]);
  });

  it.each([
    [
      'never answers for the manifest',
      'manifest',
      /workerd: GET http:\/\/127\.0\.0\.1:\d+\/\S+: no answer within 300 ms/,
    ],
    ['stalls halfway through a tarball', 'tarball', /workerd: @cloudflare\/\S+: the download of \S+ took over 300 ms/],
  ] as const)(
    'a registry that %s: each try ends at its bound, the install fails naming it, nothing is left',
    async (_, stall, message) => {
      const stalling = await startRegistry(
        publishAll((name, published) => {
          if (name === 'workerd') published.stall = stall;
        }),
      );
      try {
        const cache = useCache(stalling.url);
        // Only the stalled step has the short bound: a busy machine that answers the other one slowly must not
        // end a try before it reaches the stall (which would count one try fewer).
        const timeouts =
          stall === 'manifest' ? { manifestMs: 300, tarballMs: 10_000 } : { manifestMs: 10_000, tarballMs: 300 };
        await expect(installRuntimes({ timeouts })).rejects.toThrow(message);
        const tries = stalling.requests.filter((r) =>
          r.includes(stall === 'manifest' ? '/@cloudflare%2f' : '/tarballs/%40cloudflare'),
        );
        expect(tries).toHaveLength(3);
        expect(readdirSync(cache)).toEqual([]);
      } finally {
        await stalling.close();
      }
    },
  );

  it('a cached set whose binary prints another version is installed again (the script, as .ci/run runs it)', async () => {
    useCache();
    const { dir } = await installRuntimes();
    writeFileSync(join(dir, RUNTIMES.node24.bin), "#!/bin/sh\necho 'v0.0.0'\n", { mode: 0o755 });
    // A child process of its own (not ensureRuntimes' synchronous one, which would block this process and the
    // registry it serves); it reads the cache and registry from the environment stubbed above.
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(stderr).toMatch(
      /are broken \(node24: expected v24\.21\.0 from node24\/node, got v0\.0\.0\): installing again\n/,
    );
    expect(stdout).toMatch(/^runtimes: installed in \d+\.\d s at /);
    expect(execFileSync(join(dir, RUNTIMES.node24.bin), ['--version'], { encoding: 'utf8' }).trim()).toBe(
      RUNTIMES.node24.version,
    );
  });

  it("a registry whose TLS certificate only npm's cafile trusts (an egress proxy that re-signs): the script trusts it too", async () => {
    const tls = selfSignedCertificate('127.0.0.1', ['IP:127.0.0.1']);
    const secure = await startRegistry(packages, tls);
    try {
      const { NODE_EXTRA_CA_CERTS: _, npm_config_cafile: __, ...rest } = process.env;
      const env = { ...rest, SVC_RUNTIMES_CACHE: mkdtempSync(join(work, 'cache-')), npm_config_registry: secure.url };
      const run = promisify(execFile);
      // Without the CA file: every try refused, naming the certificate, and nothing installed.
      await expect(run(process.execPath, [SCRIPT], { env, encoding: 'utf8' })).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(
          /^Could not install the runtimes the ecosystem tests need: node22: GET https:\/\/127\.0\.0\.1:\d+\/node-linux-[a-z0-9]+\/22\.23\.3: self-signed certificate;/m,
        ),
      });
      expect(readdirSync(env.SVC_RUNTIMES_CACHE)).toEqual([]);
      // With it, as npm has it (`cafile`): installed.
      const { stdout } = await run(process.execPath, [SCRIPT], {
        env: { ...env, npm_config_cafile: tls.certFile },
        encoding: 'utf8',
      });
      expect(stdout).toMatch(/^runtimes: installed in \d+\.\d s at /);
      expect(secure.requests.filter((r) => r.startsWith('/tarballs/'))).toHaveLength(NAMES.length);
    } finally {
      await secure.close();
    }
  });
});
