// `--verbose` and `SVC_LOG`: the SDK's debug lines on the CLI's stderr, through the same output guard as every other
// line, so the key never shows, whatever the service echoes. The CLI in process against a loopback service.
import { afterEach, describe, expect, it } from 'vitest';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { json, type Loopback, problem, startLoopback } from '../support/loopback.js';

const KEY = 'svc_verbose_cli_key_0123456789';
const siteId = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const trend = { siteId, standard: 'WCAG22_AA', points: [] };
let api: Loopback | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

// A 429 with Retry-After, then the answer: a wait line and two attempts to log.
const run = async (args: string[], env: Record<string, string> = {}) => {
  api = await startLoopback([problem(429, 'RATE_LIMITED', { 'retry-after': '1' }), json(200, trend)]);
  return runCliLikeBinary(['trend', siteId, ...args], {
    env: { SVC_API_KEY: KEY, SVC_BASE_URL: api.url, ...env },
    timeoutMs: 60_000,
  });
};

describe('svc-a11y --verbose', () => {
  it('prints each attempt, the wait with its reason and duration, and the result on stderr; stdout stays the output', async () => {
    const r = await run(['--verbose']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^debug: \[a11y\] → GET .*\/api\/v1\/sites\/[^ ]+\/trend.* attempt 1/m);
    expect(r.stderr).toMatch(/^debug: \[a11y\] ← GET \/api\/v1\/sites\/[^ ]+\/trend: 429 in \d+ ms \(attempt 1\)/m);
    expect(r.stderr).toMatch(/attempt 1 answered 429; waiting 1000 ms \(Retry-After 1000 ms\) before attempt 2/);
    expect(r.stderr).toMatch(/^debug: \[a11y\] ← GET \/api\/v1\/sites\/[^ ]+\/trend: 200 in \d+ ms \(attempt 2\)/m);
    expect(r.stdout).not.toMatch(/debug:|attempt/);
    expect(`${r.stdout}${r.stderr}`).not.toContain(KEY.slice(0, 8));
    expect(r.stderr).toContain('[redacted]');
  });

  it('is off without --verbose or SVC_LOG', async () => {
    const r = await run([]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/debug:|info:|attempt/);
  });

  it('SVC_LOG=info logs the re-send only; --verbose wins over it', async () => {
    const info = await run([], { SVC_LOG: 'INFO' });
    expect(info.code).toBe(0);
    expect(info.stderr).toMatch(/^info: .*waiting 1000 ms \(Retry-After 1000 ms\)/m);
    expect(info.stderr).not.toContain('debug:');
    const verbose = await run(['--verbose'], { SVC_LOG: 'error' });
    expect(verbose.stderr).toContain('debug: ');
  });

  it('a bad SVC_LOG is a usage error naming the variable and the levels; nothing is sent', async () => {
    api = await startLoopback(json(200, trend));
    const r = await runCliLikeBinary(['trend', siteId], {
      env: { SVC_API_KEY: KEY, SVC_BASE_URL: api.url, SVC_LOG: 'loud' },
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/SVC_LOG must be one of off, error, warn, info, debug/);
    expect(api.requests).toHaveLength(0);
  });
});
