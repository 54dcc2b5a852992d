// The debug log of a real run against a loopback service: a 429 with Retry-After on the create, a 500 re-sent on a
// poll, a rate budget spacing the requests, and polls until COMPLETED. Every line says what happened (method, path,
// status, attempt; each wait with its reason and duration), and no spelling of a secret reaches the log.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { A11yClient, ConfigurationError } from '../../src/index.js';
import type { Logger } from '../../src/index.js';
import { json, problem, serveEach, text } from '../support/loopback.js';

const KEY = 'svc_Observe_Key-42abc';
const id = '396154c7-55f5-43ad-bac0-2dd077d2efcb';
const serve = serveEach();

/** A logger that keeps every line with its level; `settled()` waits for lines still on their way. */
function capture() {
  const lines: string[] = [];
  const at = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { lines, logger, settled: () => new Promise((resolve) => setTimeout(resolve, 20)) };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('debug log of a run with a 429, a re-sent 500, a rate budget and polls', () => {
  it('says method, path, status, attempt, each wait with its reason and duration, and no secret', async () => {
    const leaky = {
      'x-echo': `Bearer ${KEY}`,
      'set-cookie': 'session=sessval',
      'x-debug': `k=${KEY.replace(/_/g, '%5F')}`,
    };
    const api = await serve([
      problem(429, 'RATE_LIMITED', { 'retry-after': '1', ...leaky }),
      (_req, res) =>
        json(
          202,
          { id, status: 'QUEUED' },
          { location: `http://user:pa55word@127.0.0.1:1/api/v1/ci/checks/${id}?access_token=tok123` },
        )(_req, res, 0),
      text(500, 'boom'),
      json(200, { id, status: 'RUNNING', pages: [{ status: 'DONE' }, { status: 'RUNNING' }] }, leaky),
      json(200, { id, status: 'COMPLETED', verdict: 'PASS' }),
    ]);
    const { lines, logger, settled } = capture();
    const client = new A11yClient({
      apiKey: KEY,
      baseUrl: api.url,
      logger,
      logLevel: 'debug',
      // One request every 500 ms: polls planned 20–40 ms apart always wait for the budget, however slow the machine.
      rateLimit: { requestsPerMinute: 120 },
    });
    const check = await client.ciChecks.createAndWait(
      { urls: ['https://shop.example.com/?token=pagetok'], failOn: 'NEW_CRITICAL' },
      { intervalMs: 20, maxIntervalMs: 40 },
    );
    await settled();
    expect(check.status).toBe('COMPLETED');
    const log = lines.join('\n');

    // Each attempt: method, URL or path, operation, attempt number, status and timing.
    expect(log).toMatch(
      /debug \[a11y\] → POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/ci\/checks \(createCiCheck\), attempt 1;/,
    );
    expect(log).toMatch(
      /debug \[a11y\] ← POST \/api\/v1\/ci\/checks: 429 in \d+ ms \(attempt 1\); headers: .*"retry-after":"1"/,
    );
    expect(log).toMatch(/→ POST .*\/api\/v1\/ci\/checks \(createCiCheck\), attempt 2;/);
    expect(log).toMatch(/← POST \/api\/v1\/ci\/checks: 202 in \d+ ms \(attempt 2\)/);
    // Why each request waits, and for how long: Retry-After, the rate budget, backoff.
    expect(log).toMatch(
      /info \[a11y\] POST \/api\/v1\/ci\/checks: attempt 1 answered 429; waiting 1000 ms \(Retry-After 1000 ms\) before attempt 2/,
    );
    expect(log).toMatch(/rate budget: a 429 pauses every sharer of the budget for 1000 ms/);
    expect(log).toMatch(/debug \[a11y\] rate budget: waiting \d+ ms for a slot \(store: MemoryRateLimitStore\)/);
    expect(log).toMatch(
      new RegExp(
        `info \\[a11y\\] GET /api/v1/ci/checks/${id}: attempt 1 answered 500; waiting \\d+ ms \\(backoff\\) before attempt 2`,
      ),
    );
    // The poll decisions.
    expect(log).toMatch(new RegExp(`getCiCheck ${id}: created; first poll in \\d+ ms \\(intervalMs\\)`));
    expect(log).toMatch(new RegExp(`getCiCheck ${id}: RUNNING, 1 of 2 pages at poll 1; next poll in \\d+ ms \\(`));
    expect(log).toMatch(new RegExp(`getCiCheck ${id}: COMPLETED \\(terminal\\) at poll 2`));
    // Calls end with their status and duration.
    expect(log).toMatch(/debug \[a11y\] createCiCheck: 202 after \d+ ms/);
    // Every line that speaks of a wait gives its duration.
    const waits = lines.filter((line) => /wait|poll in|pause/.test(line));
    expect(waits.length).toBeGreaterThanOrEqual(6);
    for (const line of waits) expect(line).toMatch(/\d+ ms/);

    // No secret in any spelling: the key (as is, lower case, percent-encoded), the URL's password, token values,
    // the cookie — while the headers that carried them are still listed.
    expect(log).toContain('"x-echo":"Bearer [redacted]"');
    expect(log).toContain('"authorization":"[redacted]"');
    expect(log).toContain('"set-cookie":"[redacted]"');
    for (const secret of [
      KEY,
      KEY.toLowerCase(),
      KEY.replace(/_/g, '%5F'),
      KEY.slice(0, 10),
      'pa55word',
      'tok123',
      'sessval',
    ])
      expect(log).not.toContain(secret);
    expect(log).toContain('?access_token=[redacted]","transfer-encoding"');
    expect(log).toContain('http://[redacted]@127.0.0.1:1/');
  });

  it('a call that fails for good is a warn line naming its error', async () => {
    const api = await serve(problem(404, 'CI_CHECK_NOT_FOUND'));
    const { lines, logger, settled } = capture();
    const client = new A11yClient({ apiKey: KEY, baseUrl: api.url, logger, logLevel: 'warn' });
    await expect(client.ciChecks.get(id)).rejects.toThrow();
    await settled();
    expect(lines).toEqual([
      expect.stringMatching(
        /^warn \[a11y\] getCiCheck failed after \d+ ms: NotFoundError \(404 CI_CHECK_NOT_FOUND\): /,
      ),
    ]);
  });
});

describe('log level and logger options', () => {
  it('off by default: nothing is written, and the logging module is never loaded', async () => {
    vi.stubEnv('SVC_LOG', '');
    const api = await serve(json(200, []));
    const { lines, logger, settled } = capture();
    const client = new A11yClient({ apiKey: KEY, baseUrl: api.url, logger });
    await client.sites.list();
    await settled();
    expect(lines).toEqual([]);
    expect((client.sites as unknown as { transport: { observe: unknown } }).transport.observe).toBeUndefined();
  });

  it('SVC_LOG sets the level (any case); the option wins over it', async () => {
    const api = await serve(json(200, []));
    vi.stubEnv('SVC_LOG', 'DEBUG');
    const debug = capture();
    await new A11yClient({ apiKey: KEY, baseUrl: api.url, logger: debug.logger }).sites.list();
    await debug.settled();
    expect(debug.lines.some((l) => /^debug \[a11y\] ← GET \/api\/v1\/sites: 200/.test(l))).toBe(true);

    const quiet = capture();
    await new A11yClient({ apiKey: KEY, baseUrl: api.url, logger: quiet.logger, logLevel: 'info' }).sites.list();
    await quiet.settled();
    expect(quiet.lines).toEqual([]);
  });

  it('the default logger is console', async () => {
    const api = await serve(json(200, []));
    const spy = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    try {
      await new A11yClient({ apiKey: KEY, baseUrl: api.url, logLevel: 'debug' }).sites.list();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(spy.mock.calls.map(([line]) => String(line)).some((l) => l.startsWith('[a11y] → GET'))).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });

  it('a logger that throws does not fail the call', async () => {
    const api = await serve(json(200, []));
    const boom = () => {
      throw new Error('logger down');
    };
    const client = new A11yClient({
      apiKey: KEY,
      baseUrl: api.url,
      logLevel: 'debug',
      logger: { debug: boom, info: boom, warn: boom, error: boom },
    });
    await expect(client.sites.list()).resolves.toEqual([]);
  });

  it('an invalid level is a ConfigurationError naming the field, at construction', () => {
    const base = { apiKey: KEY, baseUrl: 'https://a11y.example.com' };
    expect(() => new A11yClient({ ...base, logLevel: 'verbose' as never })).toThrow(
      new ConfigurationError('logLevel (or SVC_LOG) must be one of off, error, warn, info, debug.'),
    );
    vi.stubEnv('SVC_LOG', 'loud');
    expect(() => new A11yClient(base)).toThrow(/SVC_LOG\) must be one of off, error, warn, info, debug/);
  });

  it('an invalid logger or hook fails the first call with a ConfigurationError naming the member; nothing is sent', async () => {
    const api = await serve(json(200, []));
    const base = { apiKey: KEY, baseUrl: api.url };
    const noError = new A11yClient({
      ...base,
      logLevel: 'debug',
      logger: { debug() {}, info() {}, warn() {} } as never,
    });
    await expect(noError.sites.list()).rejects.toThrow(new ConfigurationError('logger.error must be a function.'));
    const badHook = new A11yClient({ ...base, hooks: { onRequest: 'yes' as never } });
    await expect(badHook.sites.list()).rejects.toThrow(new ConfigurationError('hooks.onRequest must be a function.'));
    expect(api.requests).toHaveLength(0);
  });
});
