// The API key never leaks: every error path of the SDK (in process) and of the CLI (at every verbosity, with report
// files: in process, and on the built binary for one run of each kind) is run with a recognisable key, against a
// loopback server that echoes the Authorization header back (problem body, JSON escapes, a response header, the
// status text) and against the simulator; everything captured is searched for the key.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  A11yClient,
  ApiConnectionError,
  ApiTimeoutError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PollTimeoutError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  UnprocessableEntityError,
  type ClientOptions,
} from '../../src/index.js';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCli, type CliResult } from '../support/cli.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { startLoopback, type Handler, type Loopback } from '../support/loopback.js';
import { CANARY, closedLoopbackUrl, ensureBuilt, findLeaks, views } from './support.js';

const checkId = '396154c7-55f5-43ad-bac0-2dd077d2efcb';
const randomId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const ciBody = { urls: ['https://shop.example.com/'] };

/**
 * Answers by path prefix: `/sNNN/…` → status NNN with the Authorization header echoed everywhere an answer can
 * carry text; `/hang/…` → a 202 for the POST, then polls that never answer; `/bad200/…` → a 200 whose body
 * (echoing the key) breaks the schema; `/cut/…` → a 200 cut mid-body.
 */
const echo: Handler = (req, res) => {
  const auth = String(req.headers.authorization ?? '');
  const key = auth.replace(/^Bearer /, '');
  const escaped = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  if (req.url.startsWith('/hang/')) {
    if (req.method === 'POST') {
      res.writeHead(202, { 'content-type': 'application/json', location: `/hang/api/v1/ci/checks/${checkId}` });
      res.end(JSON.stringify({ id: checkId, status: 'QUEUED' }));
    }
    return; // polls hang
  }
  if (req.url.startsWith('/bad200/')) {
    res.writeHead(200, { 'content-type': 'application/json', 'x-echo': auth });
    res.end(JSON.stringify([{ id: auth, name: 42 }]));
    return;
  }
  if (req.url.startsWith('/cut/')) {
    res.writeHead(200, { 'content-type': 'application/json', 'x-echo': auth });
    res.write(`[{"id":"${auth}`);
    setTimeout(() => res.socket?.destroy(), 10);
    return;
  }
  const status = Number(/^\/s(\d{3})\//.exec(req.url)?.[1] ?? 400);
  const headers: Record<string, string> = {
    'content-type': 'application/problem+json',
    'x-echo-authorization': auth,
    'www-authenticate': `Bearer error="${auth}"`,
  };
  if (status === 429) headers['retry-after'] = '3600';
  res.writeHead(status, `Echo ${auth}`, headers);
  if (status === 502) {
    // A proxy's HTML page: no problem body, so the status text (which echoes the key) becomes the title.
    res.end(`<html><body>Bad gateway for ${auth}</body></html>`);
    return;
  }
  // Raw and JSON-escaped (\u…) echoes, in the documented fields and in extra ones.
  res.end(
    `{"type":"about:blank","title":"You sent ${auth}","status":${status},"detail":"key=${escaped}","code":"ECHO","instance":"\\/x\\/${key.replace('_', '\\u005f')}",` +
      `"traceId":"5b9e3c1a-8f2d-4e6b-9a7c-1d2e3f4a5b6c","echo":{"authorization":"${auth}","list":["${escaped}"]},"${key}":true}`,
  );
};

let echoServer: Loopback;
let sim: Simulator;
let limitedSim: Simulator;
let closedUrl: string;
let tmp: string;

beforeAll(async () => {
  echoServer = await startLoopback(echo);
  sim = await startSimulator({
    rateLimit: false,
    durations: { ciCheck: 150, scan: 150, scanRun: 150, journeyRun: 150, fixVerification: 150 },
  });
  limitedSim = await startSimulator({ rateLimit: { requestsPerMinute: 1, windowMs: 60_000 } });
  closedUrl = await closedLoopbackUrl();
  tmp = mkdtempSync(join(tmpdir(), 'svc-secrets-'));
});
afterAll(async () => {
  await echoServer?.close();
  await sim?.stop();
  await limitedSim?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** The error a call ends with (sync throws included). */
async function failure(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('SDK (in process): the key is absent from every error of every path', () => {
  // The paths that never answer set their own timeouts; the rest answer, and a busy machine took over 300 ms to.
  const client = (path: string, options: ClientOptions = {}) =>
    new A11yClient({
      apiKey: CANARY,
      baseUrl: `${echoServer.url}${path}`,
      maxRetries: 0,
      timeoutMs: 30_000,
      ...options,
    });

  const paths: Array<[string, () => unknown, abstract new (...a: never[]) => Error]> = [
    ...(
      [
        [400, BadRequestError],
        [401, AuthenticationError],
        [403, PermissionDeniedError],
        [404, NotFoundError],
        [409, ConflictError],
        [422, UnprocessableEntityError],
        [429, RateLimitError],
        [500, InternalServerError],
        [502, InternalServerError],
        [503, InternalServerError],
      ] as const
    ).flatMap(
      ([status, Class]): Array<[string, () => unknown, abstract new (...a: never[]) => Error]> => [
        [`${status} (GET, echoed)`, () => client(`/s${status}`).sites.list(), Class],
        [`${status} (POST, echoed)`, () => client(`/s${status}`).ciChecks.create(ciBody), Class],
      ],
    ),
    [
      'connection refused',
      () => new A11yClient({ apiKey: CANARY, baseUrl: closedUrl, maxRetries: 0 }).sites.list(),
      ApiConnectionError,
    ],
    ['timeout (no answer)', () => client('/hang').ciChecks.get(checkId, { timeoutMs: 100 }), ApiTimeoutError],
    [
      'poll deadline',
      () => client('/hang', { timeoutMs: 5000 }).ciChecks.createAndWait(ciBody, { intervalMs: 10, timeoutMs: 200 }),
      PollTimeoutError,
    ],
    ['reset mid-body', () => client('/cut').sites.list(), ApiConnectionError],
    [
      'response validation (body echoes the key)',
      () => client('/bad200', { validateResponses: true }).sites.list(),
      ResponseValidationError,
    ],
    [
      'request validation (key passed as a URL)',
      () => client('/s400').scans.create({ url: CANARY }),
      RequestValidationError,
    ],
    ['request validation (key passed as an id)', () => client('/s400').ciChecks.get(CANARY), RequestValidationError],
    [
      'config: key with "Bearer"',
      () => new A11yClient({ apiKey: `Bearer ${CANARY}`, baseUrl: echoServer.url }),
      ConfigurationError,
    ],
    [
      'config: key with a space',
      () => new A11yClient({ apiKey: `${CANARY} `, baseUrl: echoServer.url }),
      ConfigurationError,
    ],
    [
      'config: key with a control character',
      () => new A11yClient({ apiKey: `${CANARY}\u0000`, baseUrl: echoServer.url }),
      ConfigurationError,
    ],
    [
      'config: key in the base URL (user:password@)',
      () => new A11yClient({ apiKey: CANARY, baseUrl: `http://${CANARY}:x@127.0.0.1:9` }),
      ConfigurationError,
    ],
    [
      'config: key and base URL swapped',
      () => new A11yClient({ apiKey: echoServer.url, baseUrl: CANARY }),
      ConfigurationError,
    ],
    ['config: invalid base URL', () => new A11yClient({ apiKey: CANARY, baseUrl: 'ftp://x' }), ConfigurationError],
  ];

  it.each(paths)('%s', async (_name, call, Class) => {
    const writes = [vi.spyOn(process.stdout, 'write'), vi.spyOn(process.stderr, 'write')];
    const logs = (['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((m) => vi.spyOn(console, m));
    try {
      const error = await failure(call);
      expect(error).toBeInstanceOf(Class);
      expect(findLeaks(views(error), CANARY)).toEqual([]);
      if (error instanceof ApiError) {
        // What the server echoed is there, redacted: the test really exercised the echo.
        expect(JSON.stringify(error.problem ?? {}) + error.message).toContain('[redacted]');
        expect(inspect(error.headers)).not.toContain(CANARY);
      }
      // The SDK logs nothing: no console call and no direct write while the error path ran.
      for (const spy of [...writes, ...logs]) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of [...writes, ...logs]) spy.mockRestore();
    }
  });

  it('JSON.stringify and util.inspect of the client and its resources never show the key', () => {
    const c = client('');
    for (const value of [
      c,
      c.sites,
      c.ciChecks,
      c.scans,
      c.scanRuns,
      c.journeys,
      c.journeyRuns,
      c.fixes,
      c.fixVerifications,
    ]) {
      expect(findLeaks(views(value), CANARY)).toEqual([]);
    }
    expect(Object.keys(c)).not.toContain('apiKey');
  });

  it('the source of the SDK has no logging (no console, no process.stdout/stderr outside the CLI, the action and the simulator)', () => {
    const root = new URL('../../src/', import.meta.url).pathname;
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!['cli', 'testing', 'action'].includes(entry.name) || dir !== root.replace(/\/$/, '')) walk(path);
          continue;
        }
        const code = readFileSync(path, 'utf8')
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/(^|[^:])\/\/.*$/gm, '$1');
        if (/\bconsole\.|process\.(stdout|stderr)/.test(code)) offenders.push(path.slice(root.length));
      }
    };
    walk(root.replace(/\/$/, ''));
    expect(offenders).toEqual([]);
  });

  it('against the simulator: 401/403/404/409/422/429 errors never show the key used', async () => {
    const ids = sim.ids;
    const keyed = (apiKey: string, s = sim, options: ClientOptions = {}) =>
      new A11yClient({ apiKey, baseUrl: s.url, maxRetries: 0, ...options });
    const cases: Array<[string, unknown, typeof ApiError]> = [
      [CANARY, await failure(() => keyed(CANARY).sites.list()), AuthenticationError],
      [sim.keys.noCi, await failure(() => keyed(sim.keys.noCi).ciChecks.create(ciBody)), PermissionDeniedError],
      [
        sim.keys.freePlan,
        await failure(() => keyed(sim.keys.freePlan).sites.getTrend(ids.verifiedSite)),
        PermissionDeniedError,
      ],
      [sim.keys.full, await failure(() => keyed(sim.keys.full).scanRuns.get(randomId)), NotFoundError],
      [
        sim.keys.full,
        await failure(() => keyed(sim.keys.full).ciChecks.create({ urls: ['https://blog.example.org/'] })),
        ConflictError,
      ],
      [
        sim.keys.full,
        await failure(() => keyed(sim.keys.full).fixes.startVerification(ids.unverifiableFix)),
        UnprocessableEntityError,
      ],
    ];
    const limited = keyed(sim.keys.full, limitedSim, { maxRetryDelayMs: 100 });
    await limited.sites.list();
    cases.push([sim.keys.full, await failure(() => limited.sites.list()), RateLimitError]);
    for (const [key, error, Class] of cases) {
      expect(error).toBeInstanceOf(Class);
      expect(findLeaks(views(error), key)).toEqual([]);
    }
  });
});

describe('CLI: the key is absent from stdout, stderr and report files at every verbosity', () => {
  beforeAll(() => void ensureBuilt(), 180_000);

  // The runs of each kind that go through the built binary (a success with every report, an API error, a refused
  // connection, a body cut short, a wait that times out, a usage error): what only a process shows — Node's own
  // output of an uncaught error or a warning, a write past the CLI's streams — would show there. The other runs
  // vary the same paths in process (`run(argv, io)`, the binary's code without a process each: ~0.2 s of CPU).
  const ON_THE_BINARY = new Set([
    'sim-ci text',
    'sim-401',
    'echo-401 GET',
    'echo-refused',
    'echo-cut mid-body',
    'echo-poll timeout',
    'echo-usage error',
  ]);

  /** Runs the CLI and returns everything it printed or wrote (reports, step summary). */
  async function captured(
    name: string,
    args: string[],
    env: Record<string, string>,
  ): Promise<{ r: CliResult; text: string }> {
    const dir = join(tmp, name.replace(/\W+/g, '-'));
    const reportArgs =
      args.includes('ci') && !args.includes('--help')
        ? [
            '--report',
            `junit=${dir}/a11y.xml`,
            '--report',
            `sarif=${dir}/a11y.sarif`,
            '--report',
            `markdown=${dir}/a11y.md`,
          ]
        : [];
    const summary = join(dir, 'summary.md');
    const r = await (ON_THE_BINARY.has(name) ? runCli : runCliLikeBinary)([...args, ...reportArgs], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, ...env },
      timeoutMs: 60_000,
    });
    let files = '';
    try {
      for (const f of readdirSync(dir)) files += `\n--- ${f}\n${readFileSync(join(dir, f), 'utf8')}`;
    } catch {
      // no file written on this path
    }
    return { r, text: `${r.stdout}\n${r.stderr}${files}` };
  }

  it('against the simulator: successes (with reports and every output mode) and 401/403/404/409/422 errors', async () => {
    const ids = sim.ids;
    const full = sim.keys.full;
    const viaEnv = (key: string) => ({ SVC_API_KEY: key, SVC_BASE_URL: sim.url });
    const runs: Array<[string, string[], Record<string, string>, number, string]> = [
      ['ci text', ['ci', 'https://shop.example.com/', 'https://shop.example.com/checkout'], viaEnv(full), -1, full],
      ['ci json', ['ci', 'https://shop.example.com/', '--json'], viaEnv(full), -1, full],
      [
        'ci sarif stdout',
        ['ci', 'https://shop.example.com/', '--format', 'sarif', '--no-progress'],
        viaEnv(full),
        -1,
        full,
      ],
      ['ci quiet', ['ci', 'https://shop.example.com/', '-q'], viaEnv(full), -1, full],
      [
        'ci key flag',
        ['ci', 'https://shop.example.com/', '--api-key', full, '--base-url', sim.url, '--format', 'markdown'],
        {},
        -1,
        full,
      ],
      ['sites', ['sites'], viaEnv(full), 0, full],
      ['sites json flag', ['sites', '--json', '--api-key', full, '--base-url', sim.url], {}, 0, full],
      ['root-causes', ['root-causes', ids.lastScanRun], viaEnv(full), 0, full],
      ['trend json', ['trend', ids.verifiedSite, '--json'], viaEnv(full), 0, full],
      ['401', ['sites'], viaEnv(CANARY), 3, CANARY],
      ['401 json flag', ['sites', '--json', '--api-key', CANARY, '--base-url', sim.url], {}, 3, CANARY],
      ['403 scope', ['ci', 'https://shop.example.com/'], viaEnv(sim.keys.noCi), 3, sim.keys.noCi],
      ['403 plan', ['trend', ids.verifiedSite], viaEnv(sim.keys.freePlan), 3, sim.keys.freePlan],
      ['404', ['root-causes', randomId, '--json'], viaEnv(full), 3, full],
      ['409', ['ci', 'https://blog.example.org/'], viaEnv(full), 3, full],
      ['422', ['verify-fix', ids.unverifiableFix], viaEnv(full), 3, full],
    ];
    const results = await Promise.all(
      runs.map(async ([name, args, env, code, key]) => ({
        name,
        code,
        key,
        ...(await captured(`sim-${name}`, args, env)),
      })),
    );
    for (const { name, code, key, r, text } of results) {
      if (code >= 0) expect(r.code, `${name}: ${r.stderr}`).toBe(code);
      else expect([0, 1, 4], `${name}: ${r.stderr}`).toContain(r.code);
      expect(findLeaks(text, key), name).toEqual([]);
      expect(findLeaks(text, CANARY), name).toEqual([]);
    }
    // The binary ran the kinds it is named for (a renamed run would silently move them in process).
    const names = new Set(results.map((x) => `sim-${x.name}`));
    expect([...ON_THE_BINARY].filter((n) => n.startsWith('sim-') && !names.has(n))).toEqual([]);
    // The success runs did write their reports (so the search above covered them).
    expect(results.find((x) => x.name === 'ci text')!.text).toContain('--- a11y.sarif');
  }, 90_000);

  it('against the echo server: every status, refused, timeout, validation and configuration errors', async () => {
    const at = (path: string) => ({ SVC_API_KEY: CANARY, SVC_BASE_URL: `${echoServer.url}${path}` });
    const runs: Array<[string, string[], Record<string, string>, number]> = [
      ...[400, 401, 403, 404, 409, 422, 429, 500, 502, 503].flatMap(
        (status): Array<[string, string[], Record<string, string>, number]> => [
          [`${status} GET`, ['sites'], at(`/s${status}`), 3],
          // A 429 on a create is waited out (a service limiting concurrent checks says so with one): the run
          // ends at its deadline with the pages not judged (4), having never failed for it.
          status === 429
            ? [
                `${status} POST json`,
                ['ci', 'https://shop.example.com/', '--json', '--timeout', '1500ms'],
                at(`/s${status}`),
                4,
              ]
            : [`${status} POST json`, ['ci', 'https://shop.example.com/', '--json'], at(`/s${status}`), 3],
        ],
      ),
      ['flag key 401', ['sites', '--api-key', CANARY, '--base-url', `${echoServer.url}/s401`], {}, 3],
      ['refused', ['sites', '--json'], { SVC_API_KEY: CANARY, SVC_BASE_URL: closedUrl }, 3],
      ['poll timeout', ['ci', 'https://shop.example.com/', '--timeout', '1500ms'], at('/hang'), 4],
      ['cut mid-body', ['sites'], at('/cut'), 3],
      ['validation', ['ci', 'not-a-url'], at('/s400'), 2],
      ['key as a positional', ['ci', CANARY], at('/s400'), 2],
      ['no base url', ['sites'], { SVC_API_KEY: CANARY }, 2],
      ['swapped variables', ['sites'], { SVC_API_KEY: echoServer.url, SVC_BASE_URL: CANARY }, 2],
      ['key in base url', ['sites', '--base-url', `http://${CANARY}@127.0.0.1:9`], { SVC_API_KEY: CANARY }, 2],
      ['bearer key', ['sites', '--api-key', `Bearer ${CANARY}`, '--base-url', echoServer.url], {}, 2],
      ['usage error', ['ci', 'https://shop.example.com/', '--format', 'pdf'], at('/s400'), 2],
    ];
    const results = await Promise.all(
      runs.map(async ([name, args, env, code]) => ({ name, code, ...(await captured(`echo-${name}`, args, env)) })),
    );
    for (const { name, code, r, text } of results) {
      expect(r.code, `${name}: ${r.stderr}`).toBe(code);
      expect(text, name).not.toMatch(/\n\s+at\s/);
      expect(findLeaks(text, CANARY), `${name}:\n${text}`).toEqual([]);
    }
    const names = new Set(results.map((x) => `echo-${x.name}`));
    expect([...ON_THE_BINARY].filter((n) => n.startsWith('echo-') && !names.has(n))).toEqual([]);
    // The echo reached the output (redacted), so the search above was meaningful.
    expect(results.find((x) => x.name === '401 GET')!.r.stderr).toContain('[redacted]');
  }, 90_000);
});
