// Every request the CLI and the GitHub Action make honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY:
// - a structural list of each place in src/cli and src/action that sends a request or builds a client that does,
//   each reviewed: it goes through requestFetch (src/cli/io/proxy.ts), or says why no proxy applies;
// - sitemaps behind a proxy that is the only way out (their host, `sitemap.invalid`, resolves nowhere), http:// in
//   absolute form to a proxy that refuses CONNECT to port 80 as a default Squid does, https:// through CONNECT;
//   NO_PROXY sends them direct (the built binary, whose process environment is the one it reads);
// - a proxy that takes the connection and then drops or stalls the CONNECT ends the command with exit 3 naming the
//   proxy variable, within the request's timeout, and leaves no connection open (in process);
// - the Action's GitHub client through the same proxy-aware fetch.
import { selfSignedCertificate } from '../support/self-signed.js';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitHubClient } from '../../src/action/pr-comment.js';
import { PROXY_CONNECT_TIMEOUT_MS, type Undici, requestFetch, useBundledUndici } from '../../src/cli/io/proxy.js';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { type ForwardProxy, startForwardProxy } from '../support/forward-proxy.js';
import { eventually, type SilentServer, startSilentServer } from '../support/silent-tcp.js';
import { raceTimer } from '../support/timer.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// ---------------------------------------------------------------------------------------------------------------
// Where requests are made

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

// What sends a request, or builds or loads what does, read from the syntax tree (comments and strings are no
// request): a call of anything named fetch (the global, a module's, a variable holding one, a function that
// fetches), a client made with `new`, Node's HTTP or socket modules, undici, Octokit, a dynamic import of undici.
const FETCH = /fetch/i;
const CLIENTS =
  /^(?:[\w$]+\.)*(?:A11yClient|GitHubClient|Octokit|RedisRateLimitStore|WebSocket|EventSource|[\w$]*(?:Agent|Pool|Client|Socket))$/;
const MAKES =
  /^(?:Octokit\.plugin|https?\.(?:get|request)|http2\.connect|net\.(?:connect|createConnection)|tls\.connect)$/;
const MODULES = /^(?:(?:node:)?(?:http|https|http2|net|tls|dgram)|undici|@octokit\/[\w-]+|.*undici.*)$/;

function sitesOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const sites: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      const [first] = node.arguments;
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        if (first && ts.isStringLiteral(first) && MODULES.test(first.text)) sites.push(`imports ${first.text}`);
      } else if (ts.isIdentifier(node.expression) || ts.isPropertyAccessExpression(node.expression)) {
        const name = ts.isIdentifier(node.expression) ? callee : node.expression.name.text;
        if (FETCH.test(name)) sites.push(`calls ${callee}`);
        else if (MAKES.test(callee)) sites.push(`makes ${callee}`);
      }
    } else if (ts.isNewExpression(node)) {
      const callee = node.expression.getText(source);
      if (CLIENTS.test(callee)) sites.push(`new ${callee}`);
    } else if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      MODULES.test(node.moduleSpecifier.text) &&
      // Types make no request.
      !(ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly : node.isTypeOnly)
    ) {
      sites.push(`imports ${node.moduleSpecifier.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sites;
}

function requestSites(): string[] {
  const files = ['src/cli', 'src/action'].flatMap((dir) => filesUnder(join(ROOT, dir)));
  return [...new Set(files.flatMap((file) => sitesOf(file).map((site) => `${relative(ROOT, file)}: ${site}`)))].sort();
}

// The code without its comments (TypeScript's own printer), for the checks of how each client is made.
const codeOf = (file: string) =>
  ts
    .createPrinter({ removeComments: true })
    .printFile(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));

// Each place, reviewed: why it honours the proxy settings, or why none applies.
const REVIEWED: Record<string, string> = {
  // The one proxy-aware fetch, and undici's part of it.
  'src/cli/io/proxy.ts: calls globalThis.fetch': 'requestFetch without a proxy in the environment',
  'src/cli/io/proxy.ts: calls proxyFetch': 'requestFetch with a proxy in the environment',
  'src/cli/io/proxy.ts: calls undici.fetch': 'proxyFetch: every request with the proxy dispatcher',
  'src/cli/io/proxy.ts: new TunnelPool': 'the client asking the proxy for CONNECT tunnels (bounded)',
  'src/cli/io/proxy.ts: new undici.EnvHttpProxyAgent': 'the dispatcher: HTTPS_PROXY, HTTP_PROXY, NO_PROXY',
  'src/cli/io/undici-entry.ts: imports undici': 'the part of undici bundled as dist/cli-undici.cjs',
  // The service's API.
  'src/cli/context.ts: calls requestFetch': "the API client's fetch (asserted below)",
  'src/cli/context.ts: new A11yClient': "the API client of every command: its fetch is requestFetch's",
  'src/cli/context.ts: new RedisRateLimitStore':
    'the shared rate budget: Redis speaks TCP, which an HTTP proxy does not carry (redis-cli ignores HTTP_PROXY too)',
  'src/cli/commands/doctor/redis.ts: new RedisRateLimitStore':
    "doctor's check of SVC_REDIS_URL: the store the commands would use, over TCP as context.ts's (no HTTP proxy)",
  'src/cli/commands/demo.ts: new A11yClient':
    'the simulator `demo` starts in this process on 127.0.0.1: a proxy could not reach it (with SVC_BASE_URL, demo uses the context client)',
  // Sitemaps.
  'src/cli/gate/sitemap-fetch.ts: calls requestFetch': 'the default fetch of a sitemap document (asserted below)',
  'src/cli/gate/sitemap-fetch.ts: calls fetchImpl': "the document's request and its same-origin redirects",
  'src/cli/gate/sitemap-fetch.ts: calls fetchWith': 'one document, with the fetch chosen above',
  'src/cli/gate/sitemap.ts: calls fetchSitemapBytes': "each sitemap document, through sitemap-fetch.ts's fetch",
  // The merge request note on GitLab.
  'src/cli/gate/gitlab-note.ts: calls requestFetch': "the GitLab API's fetch, through the proxy when one is set",
  'src/cli/gate/gitlab-note.ts: calls context.requests.fetch':
    'each call to GitLab (/user, the notes), with that fetch',
  // The Action's GitHub client.
  'src/action/pr-comment.ts: calls requestFetch': "the GitHub client's fetch (asserted below)",
  'src/cli/index.ts: imports ./io/undici-entry.js': 'undici, bundled into action/index.cjs for the proxy',
  'src/action/pr-comment.ts: imports @octokit/core': 'the GitHub client; its requests use request.fetch',
  'src/action/pr-comment.ts: imports @octokit/plugin-paginate-rest': 'pagination over the same client',
  'src/action/pr-comment.ts: makes Octokit.plugin': 'the client class; instances are made by gitHubClient only',
  'src/action/pr-comment.ts: new GitHubClient': 'gitHubClient: request.fetch is requestFetch(env) behind a proxy',
};

describe('every place that makes a request is reviewed', () => {
  const found = requestSites();

  it('finds the request sites it knows (so the search itself works)', () => {
    expect(found).toContain('src/cli/context.ts: new A11yClient');
    expect(found).toContain('src/action/pr-comment.ts: new GitHubClient');
  });

  it('each one is in the reviewed list, and the list names nothing that is gone', () => {
    const unreviewed = found.filter((site) => !(site in REVIEWED));
    expect(
      unreviewed,
      'a new request site: send it through requestFetch (src/cli/io/proxy.ts) and add it to REVIEWED with why',
    ).toEqual([]);
    expect(Object.keys(REVIEWED).filter((site) => !found.includes(site))).toEqual([]);
  });

  it('the global fetch is called in one place only: requestFetch when no proxy is set', () => {
    expect(found.filter((site) => /: calls (globalThis\.)?fetch$/.test(site))).toEqual([
      'src/cli/io/proxy.ts: calls globalThis.fetch',
    ]);
  });

  it("the API client, sitemaps and the GitHub client take requestFetch's fetch", () => {
    const context = codeOf(join(ROOT, 'src/cli/context.ts'));
    expect(context).toMatch(/const requests = requestFetch\(env\);/);
    expect(context).toMatch(
      /new A11yClient\(\{[\s\S]*?\.\.\.\(requests\.proxied \? \{ fetch: requests\.fetch \} : \{\}\)/,
    );
    expect(context).toMatch(/cleanups\.push\(\(\) => requests\.close\(\)\)/);
    const sitemap = codeOf(join(ROOT, 'src/cli/gate/sitemap-fetch.ts'));
    expect(sitemap).toMatch(/requestFetch\(env\)/);
    expect(sitemap).toMatch(/options\.fetch \?\? requests!\.fetch/);
    const comment = codeOf(join(ROOT, 'src/action/pr-comment.ts'));
    expect(comment).toMatch(/const requests = requestFetch\(env, \{ undici: bundledUndici \}\);/);
    expect(comment).toMatch(/new GitHubClient\(\{[\s\S]*?\{ request: \{ fetch: requests\.fetch \} \}/);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Sitemaps

const urlset = (urls: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`;
const PAGES = ['https://shop.example.com/', 'https://shop.example.com/checkout'];
const SITEMAP = urlset(PAGES);

const listen = async (server: Server, host = '127.0.0.1'): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
};
const close = (server: Server | undefined) =>
  new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

describe('sitemaps go through the proxy, as API requests do (the built CLI)', () => {
  let sim: Simulator;
  let plain: Server;
  let plainPort: number;
  const plainSeen: string[] = [];
  let tls: Server;
  let tlsPort: number;
  let certFile: string;
  let proxy: ForwardProxy;

  beforeAll(async () => {
    sim = await startSimulator({ durations: { ciCheck: 150 }, rateLimit: false });
    plain = createHttpServer((req, res) => {
      plainSeen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/xml' }).end(SITEMAP);
    });
    plainPort = await listen(plain);
    // An https sitemap on a name only the proxy resolves, with a certificate for that name (trusted by the CLI
    // through NODE_EXTRA_CA_CERTS).
    const tlsFiles = selfSignedCertificate('sitemap.invalid', ['DNS:sitemap.invalid']);
    certFile = tlsFiles.certFile;
    tls = createHttpsServer({ key: tlsFiles.key, cert: tlsFiles.cert }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' }).end(SITEMAP);
    });
    tlsPort = await listen(tls);
    proxy = await startForwardProxy({
      'sitemap.invalid:80': `127.0.0.1:${plainPort}`,
      'sitemap.invalid:443': `127.0.0.1:${tlsPort}`,
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([close(plain), close(tls), proxy?.close(), sim?.stop()]);
  });

  const ci = (sitemap: string, env: Record<string, string>) =>
    runCli(['ci', '--sitemap', sitemap, '--fail-on', 'NONE', '--no-progress'], {
      env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url, ...env },
    });

  it.each(['HTTP_PROXY', 'http_proxy'])(
    '%s: an http:// sitemap only the proxy can reach is asked in absolute form (the proxy refuses CONNECT to port 80)',
    async (variable) => {
      proxy.seen.length = 0;
      const r = await ci('http://sitemap.invalid/sitemap.xml', { [variable]: proxy.url });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('Sitemaps: 2 pages from 1 document');
      expect(proxy.seen).toContain('GET http://sitemap.invalid/sitemap.xml');
      // The API's requests went the same way (absolute form to the simulator), and nothing was tunnelled.
      expect(proxy.seen).toContain(`POST ${sim.url}/api/v1/ci/checks`);
      expect(proxy.seen.filter((line) => line.startsWith('CONNECT'))).toEqual([]);
    },
  );

  it.each(['HTTPS_PROXY', 'https_proxy'])(
    '%s: an https:// sitemap only the proxy can reach goes through CONNECT; the proxy resolves the name',
    async (variable) => {
      proxy.seen.length = 0;
      const r = await ci('https://sitemap.invalid/sitemap.xml', {
        [variable]: proxy.url,
        NODE_EXTRA_CA_CERTS: certFile,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('Sitemaps: 2 pages from 1 document');
      // HTTPS_PROXY is for https:// only: the http:// API went direct.
      expect(proxy.seen).toEqual(['CONNECT sitemap.invalid:443']);
    },
  );

  it.each(['NO_PROXY', 'no_proxy'])('%s listing the sitemap host sends it direct', async (variable) => {
    proxy.seen.length = 0;
    plainSeen.length = 0;
    const r = await ci(`http://127.0.0.1:${plainPort}/sitemap.xml`, { HTTP_PROXY: proxy.url, [variable]: '127.0.0.1' });
    expect(r.code, r.stderr).toBe(0);
    expect(plainSeen).toEqual(['GET /sitemap.xml']);
    expect(proxy.seen).toEqual([]);
  });

  it('a sitemap the proxy cannot fetch names the proxy variable (exit 2, naming the sitemap)', async () => {
    const refusing = createTcpServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const r = await ci('https://sitemap.invalid/sitemap.xml', {
        HTTPS_PROXY: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`,
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /sitemap https:\/\/sitemap\.invalid\/sitemap\.xml could not be fetched \(the proxy 127\.0\.0\.1:\d+ closed the connection before answering CONNECT\); check the proxy \(HTTPS_PROXY; NO_PROXY bypasses it\)/,
      );
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// A proxy that drops or stalls the CONNECT

describe('a proxy that takes the connection, then drops or stalls the CONNECT (in process)', () => {
  let silent: SilentServer;
  let dropping: ReturnType<typeof createTcpServer>;
  let droppingUrl: string;
  let dropped = 0;

  beforeAll(async () => {
    silent = await startSilentServer();
    dropping = createTcpServer((socket) => {
      dropped++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    droppingUrl = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}`;
    // One untimed run first: loading the proxy client (undici) and the command's modules is not the bound under
    // test, and at load 25 it once took longer than the tunnel's 10 s.
    await ci(droppingUrl);
  });
  afterAll(async () => {
    await Promise.all([silent?.close(), new Promise<void>((resolve) => dropping.close(() => resolve()))]);
  });

  // The service's host resolves nowhere: only the proxy could reach it.
  const env = (proxyUrl: string) => ({
    SVC_API_KEY: 'svc_proxy_test_key',
    SVC_BASE_URL: 'https://a11y-service.invalid',
    HTTPS_PROXY: proxyUrl,
  });
  const ci = (proxyUrl: string, ...flags: string[]) =>
    runCliInProcess(['ci', 'https://shop.example.com/', '--no-progress', ...flags], env(proxyUrl));

  it('dropped: exit 3 at once, naming HTTPS_PROXY and what the proxy did (not retried until the request times out)', async () => {
    const before = dropped;
    // undici would have reconnected for as long as the request waits: far past the bound of a tunnel.
    const timer = raceTimer(PROXY_CONNECT_TIMEOUT_MS);
    const r = await ci(droppingUrl);
    const ended = !timer.fired();
    timer.clear();
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/the proxy 127\.0\.0\.1:\d+ closed the connection before answering CONNECT/);
    expect(r.stderr).toContain('Check the proxy (HTTPS_PROXY; NO_PROXY bypasses it)');
    expect(ended, 'the command waited as long as a tunnel may take').toBe(true);
    expect(dropped).toBeGreaterThan(before);
  });

  it('refused (403, as a default Squid answers CONNECT to port 80): exit 3 quoting the answer, naming HTTPS_PROXY', async () => {
    const squid = await startForwardProxy();
    try {
      const r = await runCliInProcess(['ci', 'https://shop.example.com/', '--no-progress'], {
        ...env(squid.url),
        SVC_BASE_URL: 'https://a11y-service.invalid:80',
      });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/the proxy 127\.0\.0\.1:\d+ refused CONNECT a11y-service\.invalid:80 \(HTTP 403\)/);
      expect(r.stderr).toContain('Check the proxy (HTTPS_PROXY; NO_PROXY bypasses it)');
      expect(squid.seen).toEqual(['CONNECT a11y-service.invalid:80']);
    } finally {
      await squid.close();
    }
  });

  it('stalled: exit 3 once the tunnel had its time, naming HTTPS_PROXY, within the request timeout; the connection is closed', async () => {
    const opened = silent.accepted();
    // The request's own timeout: the client's default timeoutMs (the CLI sets none).
    const timer = raceTimer(30_000);
    const r = await ci(silent.url.replace(/^redis:/, 'http:'));
    const ended = !timer.fired();
    timer.clear();
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      new RegExp(`the proxy 127\\.0\\.0\\.1:\\d+ did not answer CONNECT within ${PROXY_CONNECT_TIMEOUT_MS / 1000} s`),
    );
    expect(r.stderr).toContain('Check the proxy (HTTPS_PROXY; NO_PROXY bypasses it)');
    expect(ended, 'the command outlasted the request timeout').toBe(true);
    expect(silent.accepted()).toBeGreaterThan(opened);
    await eventually(() => silent.open() === 0, 5_000);
    expect(silent.open(), 'a connection to the proxy was left open').toBe(0);
  }, 60_000);

  it("stalled past the run's --timeout: the run ends then (exit 4), and its CONNECT is closed with the command", async () => {
    const opened = silent.accepted();
    // Left to itself, the CONNECT would end only when the tunnel's bound ran out.
    const timer = raceTimer(PROXY_CONNECT_TIMEOUT_MS);
    const r = await ci(silent.url.replace(/^redis:/, 'http:'), '--timeout', '1s');
    expect(r.code, r.stderr).toBe(4);
    expect(silent.accepted()).toBeGreaterThan(opened);
    await eventually(() => silent.open() === 0 || timer.fired(), PROXY_CONNECT_TIMEOUT_MS * 2);
    const closedFirst = !timer.fired();
    timer.clear();
    expect(closedFirst, 'the CONNECT outlived the command').toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The GitHub Action's GitHub client

describe("the Action's GitHub client goes through the same proxy-aware fetch", () => {
  let github: Server;
  let githubPort: number;
  const githubSeen: string[] = [];
  let proxy: ForwardProxy;

  beforeAll(async () => {
    github = createHttpServer((req, res) => {
      githubSeen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ login: 'octo' }));
    });
    githubPort = await listen(github);
    proxy = await startForwardProxy({ 'github.invalid:80': `127.0.0.1:${githubPort}` });
  });
  afterAll(async () => {
    await Promise.all([close(github), proxy?.close()]);
  });

  it('HTTP_PROXY: a GitHub API only the proxy can reach is asked through it, the token sent', async () => {
    proxy.seen.length = 0;
    githubSeen.length = 0;
    const client = gitHubClient('ghs_proxy_token', 'http://github.invalid', 'svc-a11y-test', {
      HTTP_PROXY: proxy.url,
    });
    const { data } = await client.request('GET /user');
    expect(data.login).toBe('octo');
    expect(proxy.seen).toEqual(['GET http://github.invalid/user']);
    expect(githubSeen).toEqual(['GET /user']);
  });

  it('NO_PROXY listing its host: direct', async () => {
    proxy.seen.length = 0;
    githubSeen.length = 0;
    const client = gitHubClient('ghs_proxy_token', `http://127.0.0.1:${githubPort}`, 'svc-a11y-test', {
      HTTP_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1',
    });
    await client.request('GET /user');
    expect(githubSeen).toEqual(['GET /user']);
    expect(proxy.seen).toEqual([]);
  });

  it('no proxy set: the global fetch, as before', async () => {
    proxy.seen.length = 0;
    githubSeen.length = 0;
    const client = gitHubClient('ghs_proxy_token', `http://127.0.0.1:${githubPort}`, 'svc-a11y-test', {});
    await client.request('GET /user');
    expect(githubSeen).toEqual(['GET /user']);
    expect(proxy.seen).toEqual([]);
  });
});

describe('useBundledUndici (a bundle that carries undici: the Action running the CLI in its process)', () => {
  it('is where proxyFetch takes undici from, until reset', async () => {
    const server = createHttpServer((_req, res) => res.end('ok'));
    const port = await listen(server);
    const proxy = await startForwardProxy();
    let loads = 0;
    useBundledUndici(async () => {
      loads++;
      return (await import('../../src/cli/io/undici-entry.js')) as Undici;
    });
    const requests = requestFetch({ HTTP_PROXY: proxy.url });
    try {
      const response = await requests.fetch(`http://127.0.0.1:${port}/x`);
      expect(await response.text()).toBe('ok');
      expect(loads).toBe(1);
      expect(proxy.seen).toEqual([`GET http://127.0.0.1:${port}/x`]);
    } finally {
      useBundledUndici(undefined);
      await requests.close();
      await Promise.all([close(server), proxy.close()]);
    }
  });
});
