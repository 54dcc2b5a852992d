// The CLI behind a corporate proxy: HTTP_PROXY / HTTPS_PROXY / NO_PROXY (either case), against a real forward
// proxy on loopback (the `proxy` package: absolute-form HTTP and CONNECT). An http:// service is asked in absolute
// form (as curl does: a default Squid refuses CONNECT to port 80), an https:// one through CONNECT. The proxy is
// never skipped silently, its credentials never printed, and the target's host name is the proxy's to resolve.
// Sitemaps, the Action's GitHub client and proxies that drop or stall a CONNECT: proxy-everywhere.test.ts.
import { selfSignedCertificate } from '../support/self-signed.js';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createProxy } from 'proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startForwardProxy } from '../support/forward-proxy.js';
import { refusedPort } from '../support/loopback.js';

const SITE = {
  id: 'e832d125-72cd-4720-9cc8-69615015f0d7',
  name: 'Example shop',
  rootUrl: 'https://shop.example.com/',
  normalizedHost: 'shop.example.com',
  verified: true,
};
const PASSWORD = 'pr0xy-S3cret_pw';

let sim: Simulator;
let proxy: Server;
let proxyUrl: string;
let authProxy: Server;
let authProxyPort: number;
const seen: string[] = [];
let tls: Server;
let tlsUrl: string;
let certFile: string;

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};
const close = (server: Server | undefined) =>
  new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

beforeAll(async () => {
  sim = await startSimulator({ rateLimit: false });
  proxy = createProxy(createHttpServer());
  proxy.on('request', (req) => seen.push(`${req.method} ${req.url}`));
  proxy.on('connect', (req) => seen.push(`CONNECT ${req.url}`));
  proxyUrl = `http://127.0.0.1:${await listen(proxy)}`;

  const withAuth = createProxy(createHttpServer());
  // The proxy calls authenticate(req) before serving a request (its documented hook).
  withAuth.authenticate = (req: IncomingMessage) =>
    req.headers['proxy-authorization'] === `Basic ${Buffer.from(`tester:${PASSWORD}`).toString('base64')}`;
  authProxy = withAuth;
  authProxyPort = await listen(authProxy);

  // An HTTPS "service" with a certificate of its own, trusted by the CLI through NODE_EXTRA_CA_CERTS.
  const tlsFiles = selfSignedCertificate('localhost', ['DNS:localhost', 'IP:127.0.0.1']);
  certFile = tlsFiles.certFile;
  tls = createHttpsServer({ key: tlsFiles.key, cert: tlsFiles.cert }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([SITE]));
  });
  tlsUrl = `https://localhost:${await listen(tls)}`;
}, 60_000);
afterAll(async () => {
  await Promise.all([close(proxy), close(authProxy), close(tls), sim?.stop()]);
});

const sites = (env: Record<string, string>) =>
  runCli(['sites', '--json'], { env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url, ...env } });

describe('the CLI through a forward proxy', () => {
  it.each(['HTTP_PROXY', 'http_proxy'])(
    '%s: an http:// service is reached through the proxy, in absolute form (no CONNECT tunnel)',
    async (variable) => {
      seen.length = 0;
      const before = sim.requestCount(sim.keys.full);
      const r = await sites({ [variable]: proxyUrl });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
      expect(sim.requestCount(sim.keys.full)).toBe(before + 1);
      expect(seen).toEqual([`GET ${sim.url}/api/v1/sites`]);
    },
  );

  it('an http:// service on port 80, behind a proxy that refuses CONNECT to port 80 as a default Squid does', async () => {
    // The service's name resolves nowhere but at the proxy, which serves it from the simulator.
    const squid = await startForwardProxy({ 'a11y-service.invalid:80': new URL(sim.url).host });
    try {
      const r = await runCliInProcess(['sites', '--json'], {
        SVC_API_KEY: sim.keys.full,
        SVC_BASE_URL: 'http://a11y-service.invalid',
        HTTP_PROXY: squid.url,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
      expect(squid.seen).toEqual(['GET http://a11y-service.invalid/api/v1/sites']);
    } finally {
      await squid.close();
    }
  });

  it('HTTPS_PROXY is for https:// services only, as curl reads it: an http:// service is reached directly', async () => {
    seen.length = 0;
    const r = await sites({ HTTPS_PROXY: proxyUrl });
    expect(r.code, r.stderr).toBe(0);
    expect(seen).toEqual([]);
  });

  it.each(['NO_PROXY', 'no_proxy'])('%s bypasses the proxy for the hosts it lists', async (variable) => {
    seen.length = 0;
    const r = await sites({ HTTP_PROXY: proxyUrl, [variable]: '127.0.0.1' });
    expect(r.code, r.stderr).toBe(0);
    expect(seen).toEqual([]);
  });

  it('an https:// service is reached through CONNECT; the proxy resolves the name', async () => {
    seen.length = 0;
    const r = await runCli(['sites', '--json'], {
      env: {
        SVC_API_KEY: 'svc_proxy_tls_key',
        SVC_BASE_URL: tlsUrl,
        HTTPS_PROXY: proxyUrl,
        NODE_EXTRA_CA_CERTS: certFile,
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([SITE]);
    expect(seen).toEqual([`CONNECT ${new URL(tlsUrl).host}`]);
  });

  it('a host name only the proxy could resolve is sent to the proxy as a name, never looked up here', async () => {
    seen.length = 0;
    const r = await runCli(['sites'], {
      env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: 'http://a11y-service.invalid:8080', HTTP_PROXY: proxyUrl },
    });
    expect(r.code).toBe(3);
    expect(seen).toContain('GET http://a11y-service.invalid:8080/api/v1/sites');
    expect(r.stderr).not.toContain('ENOTFOUND a11y-service.invalid');
  });

  it('proxy credentials work and are never printed, whatever the proxy answers', async () => {
    const good = await sites({ HTTP_PROXY: `http://tester:${PASSWORD}@127.0.0.1:${authProxyPort}` });
    expect(good.code, good.stderr).toBe(0);
    const bad = await sites({ HTTP_PROXY: `http://tester:${PASSWORD}-wrong@127.0.0.1:${authProxyPort}` });
    expect(bad.code).toBe(3);
    for (const r of [good, bad]) expect(`${r.stdout}${r.stderr}`).not.toContain(PASSWORD);
  });

  it('a proxy that cannot be reached fails the command; nothing goes to the service directly', async () => {
    const before = sim.requestCount(sim.keys.full);
    const r = await sites({ HTTP_PROXY: `http://user:${PASSWORD}@127.0.0.1:${await refusedPort()}` });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Check the proxy \(HTTP_PROXY; NO_PROXY bypasses it\)/);
    expect(r.stderr).not.toContain(PASSWORD);
    expect(sim.requestCount(sim.keys.full)).toBe(before);
  });
});
