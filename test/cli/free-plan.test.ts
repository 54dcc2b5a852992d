// The Free plan takes at most 5 URLs per CI check (document §8; the simulator's `freePlan` key refuses more with 422
// VALIDATION_FAILED). A run finds out from one refused create, re-splits that batch and the rest of the run into
// checks of 5, says so once and judges every page; `--urls-per-check` (SVC_URLS_PER_CHECK, urlsPerCheck in the
// config file) sets the size up front, 1 to 20. In process against the simulator behind a recording proxy.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { type Exchange, type ScheduleProxy, startScheduleProxy } from '../support/schedule-proxy.js';

const SHOP = 'https://shop.example.com';
const pages = (n: number) => Array.from({ length: n }, (_, i) => `${SHOP}/p/${String(i + 1).padStart(3, '0')}`);

let sim: Simulator;
let proxy: ScheduleProxy;
let dir: string;
beforeAll(async () => {
  // No rate limit: every test of this file runs on the same keys.
  sim = await startSimulator({ durations: { ciCheck: 300 }, rateLimit: false });
  proxy = await startScheduleProxy(sim.url);
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-free-plan-'));
});
afterAll(async () => {
  await proxy.close();
  await sim.stop();
});

const isPost = (x: Exchange) => x.method === 'POST' && x.path === '/api/v1/ci/checks';
const urlsOf = (x: Exchange) => (x.body as { urls: string[] }).urls;

/** Runs `ci` on `urls` and returns the run's result and the creates the service saw. */
async function run(urls: string[], args: string[] = [], env: Record<string, string> = {}, key = sim.keys.freePlan) {
  const file = join(dir, `urls-${urls.length}-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(file, `${urls.join('\n')}\n`);
  const from = proxy.log.length;
  const r = await runCliInProcess(['ci', '--urls-file', file, '--fail-on', 'NONE', '--json', ...args], {
    SVC_API_KEY: key,
    SVC_BASE_URL: proxy.url,
    ...env,
  });
  const posts = proxy.log.slice(from).filter(isPost);
  return { r, posts, accepted: posts.filter((x) => x.status === 202), refused: posts.filter((x) => x.status === 422) };
}

const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('warning:'));

describe('a Free-plan key', () => {
  it('60 URLs, no flag: one refused create, then 12 checks of 5; every page judged; one warning', {
    timeout: 60_000,
  }, async () => {
    const urls = pages(60);
    const { r, accepted, refused } = await run(urls);
    expect(r.code, r.stderr).toBe(0);
    expect(refused).toHaveLength(1);
    expect(urlsOf(refused[0]!)).toHaveLength(20);
    expect(accepted.map((x) => urlsOf(x).length)).toEqual(Array(12).fill(5));
    expect([...accepted.flatMap(urlsOf)].sort()).toEqual(urls);
    expect(warnings(r.stderr)).toEqual([
      'warning: the service refused a CI check of 20 URLs (422 VALIDATION_FAILED); the Free plan takes at most 5 URLs per check, so the run goes on in checks of 5 (--urls-per-check 5 starts so)',
    ]);
    // The re-split batches carry their own keys: the site's 12 checks of 5.
    expect(accepted.map((x) => (x.body as { context: Record<string, string> }).context.svcA11yBatch)).toEqual(
      Array.from({ length: 12 }, (_, i) => `${SHOP} ${i + 1}/12`),
    );
    const json = JSON.parse(r.stdout);
    expect(json.batches).toHaveLength(12);
    expect(json.verdict.outcome).toBe('PASS');
  });

  it('one batch of 12: refused once, then 3 checks of 4', { timeout: 60_000 }, async () => {
    const { r, accepted, refused } = await run(pages(12));
    expect(r.code, r.stderr).toBe(0);
    expect(refused).toHaveLength(1);
    expect(accepted.map((x) => urlsOf(x).length)).toEqual([4, 4, 4]);
    expect(warnings(r.stderr)).toHaveLength(1);
  });

  it('--urls-per-check 5: no refused create, no warning', { timeout: 60_000 }, async () => {
    const { r, accepted, refused } = await run(pages(12), ['--urls-per-check', '5']);
    expect(r.code, r.stderr).toBe(0);
    expect(refused).toHaveLength(0);
    expect(accepted.map((x) => urlsOf(x).length)).toEqual([4, 4, 4]);
    expect(warnings(r.stderr)).toEqual([]);
    expect(r.stderr).toContain('12 pages on 1 site: 3 CI checks of at most 5 pages each.');
  });

  it('a paid key is never re-split: 60 URLs in 3 checks of 20', { timeout: 60_000 }, async () => {
    const { r, accepted, refused } = await run(pages(60), [], {}, sim.keys.full);
    expect(r.code, r.stderr).toBe(0);
    expect(refused).toHaveLength(0);
    expect(accepted.map((x) => urlsOf(x).length)).toEqual([20, 20, 20]);
  });
});

describe('urlsPerCheck from every source', () => {
  it('SVC_URLS_PER_CHECK, the config file, and the flag over both', { timeout: 60_000 }, async () => {
    const fromEnv = await run(pages(12), [], { SVC_URLS_PER_CHECK: '4' }, sim.keys.full);
    expect(fromEnv.accepted.map((x) => urlsOf(x).length)).toEqual([4, 4, 4]);

    const config = join(dir, 'svc-a11y.config.json');
    await writeFile(config, JSON.stringify({ urlsPerCheck: 3 }));
    const fromConfig = await run(pages(12), ['--config', config], {}, sim.keys.full);
    expect(fromConfig.r.code, fromConfig.r.stderr).toBe(0);
    expect(fromConfig.accepted.map((x) => urlsOf(x).length)).toEqual([3, 3, 3, 3]);

    const flagWins = await run(
      pages(12),
      ['--config', config, '--urls-per-check', '6'],
      { SVC_URLS_PER_CHECK: '4' },
      sim.keys.full,
    );
    expect(flagWins.accepted.map((x) => urlsOf(x).length)).toEqual([6, 6]);
  });

  it.each([
    [['--urls-per-check', '21'], {}, '--urls-per-check must be a whole number from 1 to 20'],
    [['--urls-per-check', '0'], {}, '--urls-per-check must be a whole number from 1 to 20'],
    [[], { SVC_URLS_PER_CHECK: 'five' }, 'SVC_URLS_PER_CHECK must be a whole number from 1 to 20'],
  ])('%j %j: usage error naming the source and the rule, nothing sent', async (args, env, says) => {
    const { r, posts } = await run(pages(3), args, env as Record<string, string>, sim.keys.full);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(says);
    expect(posts).toHaveLength(0);
  });

  it('urlsPerCheck 30 in the config file: usage error naming the key and the file', async () => {
    const config = join(dir, 'bad.config.json');
    await writeFile(config, JSON.stringify({ urlsPerCheck: 30 }));
    const { r, posts } = await run(pages(3), ['--config', config], {}, sim.keys.full);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('urlsPerCheck');
    expect(r.stderr).toContain(config);
    expect(r.stderr).toContain('from 1 to 20');
    expect(posts).toHaveLength(0);
  });
});

describe('the GitHub Action', () => {
  it('passes its urls-per-check input on as the CLI’s --urls-per-check, which checks it', async () => {
    const { readInputs } = await import('../../src/action/inputs.js');
    const { parsedSettings } = await import('../../src/cli/settings/data.js');
    const inputs = readInputs((name) => ({ 'urls-per-check': '5' })[name] ?? '');
    expect(inputs.settings.urlsPerCheck).toBe('5');
    expect(parsedSettings(inputs.settings).values).toEqual({ 'urls-per-check': '5' });
    expect(parsedSettings(readInputs(() => '').settings).values).toEqual({});
  });
});
