// The action keeps the journeys' baseline file in the Actions cache (src/action/journey-cache.ts), run as the runner
// runs it (the committed bundle) against the simulator and a fake cache service: saved by a run that set the baseline
// only, never by a pull request; left alone when the workflow restored the file itself; a runner without a cache, or
// a cache that refuses, is a line in the log and never changes the step's result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { type FakeCache, startFakeCache } from './fake-cache.js';
import { type FakeGitHub, startFakeGitHub } from './fake-github.js';
import { nodeForAction, runAction } from './run-action.js';

const TOKEN = 'ghs_cache_canary_1d2e';
let sim: Simulator;
let github: FakeGitHub;
let cache: FakeCache;
const FILE = '.svc-a11y/journeys.json';

beforeAll(async () => {
  nodeForAction();
  sim = await startSimulator({ durations: { ciCheck: 100, journeyRun: 200, scan: 80 }, rateLimit: false });
  github = await startFakeGitHub({ repository: 'acme/shop', token: TOKEN });
  cache = await startFakeCache();
});
afterAll(async () => {
  await github.close();
  await cache.close();
  await sim.stop();
});

const run = (eventName: 'push' | 'pull_request', env: Record<string, string>, files?: Record<string, string>) =>
  runAction({
    inputs: {
      'api-key': sim.keys.full,
      'base-url': sim.url,
      journeys: sim.ids.guestJourney,
      'journey-baseline': FILE,
      'fail-on': 'NONE',
    },
    eventName,
    eventFile: eventName === 'push' ? 'push.main.json' : 'pull_request.opened.json',
    apiUrl: github.url,
    token: TOKEN,
    env,
    ...(files ? { files } : {}),
  });

describe('the journeys baseline in the Actions cache', () => {
  it('a pull request with nothing saved yet reads the cache, finds nothing and saves nothing', async () => {
    const pr = await run('pull_request', cache.env);
    expect(pr.code, pr.stdout).toBe(0);
    expect(pr.stdout).toContain('journey-baseline: none in the Actions cache yet');
    expect(cache.calls).not.toContain('CreateCacheEntry');
    expect(cache.entries()).toEqual([]);
  });

  it('a file the workflow restored is left as it is: the cache is not read', async () => {
    const before = cache.calls.length;
    const own = JSON.stringify({ version: 1, journeys: {} });
    const pr = await run('pull_request', cache.env, { [FILE]: own });
    expect(pr.code, pr.stdout).toBe(0);
    expect(pr.stdout).toContain(`journey-baseline: ${FILE} is there already (the workflow restored it)`);
    expect(cache.calls.slice(before)).toEqual([]);
  });

  it('a runner without the Actions cache: said, and the check runs as ever', async () => {
    const push = await run('push', {});
    expect(push.code, push.stdout).toBe(0);
    expect(push.stdout).toContain('journey-baseline: no Actions cache on this runner');
    expect(push.outputs.verdict).toBe('PASS');
  });

  it('a cache that refuses the token: a warning or a line, never the step', async () => {
    const refusing = await startFakeCache();
    refusing.refuse();
    try {
      const push = await run('push', refusing.env);
      expect(push.code, push.stdout).toBe(0);
      expect(push.outputs.verdict).toBe('PASS');
      expect(push.stdout).toMatch(/::warning::.*(cache|Cache)/);
      expect(refusing.entries()).toEqual([]);
    } finally {
      await refusing.close();
    }
  });
});
