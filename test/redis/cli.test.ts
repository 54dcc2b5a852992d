// The CLI's shared budget: --rate-limit / SVC_RATE_LIMIT and --redis-url / SVC_REDIS_URL, against the simulator and
// the run's redis-server. The built binary where the process ending by itself is the subject (an open Redis
// connection, a Redis that never answers); the flags' checks and a Redis that is down run in process.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisDatabase } from '../support/redis-database.js';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCli, warningsBesidesStore } from '../support/cli.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { startLoopback } from '../support/loopback.js';
import { startSilentServer } from '../support/silent-tcp.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ rateLimit: false });
});
afterAll(() => sim.stop());

describe('svc-a11y with a shared rate budget', () => {
  it('SVC_REDIS_URL + SVC_RATE_LIMIT: the budget lives in Redis under a hashed key, and the process exits when done', async () => {
    const redisUrl = await redisDatabase();
    const admin = createClient({ url: redisUrl });
    await admin.connect();
    try {
      const before = new Set(await admin.keys('svc-a11y:rl:v1:*'));
      // An open connection would keep the process alive for good: it must end by itself (exit 0), never by the kill
      // at 60 s, however slow the machine (a bound tighter than that would judge the machine, not the process).
      const r = await runCli(['sites'], {
        env: {
          SVC_API_KEY: sim.keys.freePlan,
          SVC_BASE_URL: sim.url,
          SVC_REDIS_URL: redisUrl,
          SVC_RATE_LIMIT: '600',
        },
        timeoutMs: 60_000,
      });
      expect(r.code).toBe(0);
      // No warning but the store's own (the budget still lands in Redis, below).
      expect(warningsBesidesStore(r.stderr)).toEqual([]);
      const added = (await admin.keys('svc-a11y:rl:v1:*')).filter((k) => !before.has(k));
      expect(added.length).toBeGreaterThan(0);
      for (const key of added) expect(key).not.toContain(sim.keys.freePlan);
    } finally {
      await admin.quit();
    }
  }, 90_000);

  it('--redis-url of a Redis that is down: the command still succeeds, with one warning on stderr', async () => {
    const closed = await startLoopback(() => undefined);
    await closed.close();
    const r = await runCliLikeBinary(
      ['sites', '--rate-limit', '600', '--redis-url', closed.url.replace('http', 'redis')],
      {
        env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url },
      },
    );
    expect(r.code).toBe(0);
    expect(r.stderr.match(/warning: The shared rate-limit store failed/g)).toHaveLength(1);
  });

  it.each([
    [['sites']],
    [['sites', '--rate-limit', '600']],
    [['sites', '--json']],
    [['ci', 'https://shop.example.com/', '--quiet', '--report']],
  ])(
    '--redis-url of a Redis that accepts and never answers: `%j` ends by itself, its output written',
    { timeout: 30_000 },
    async (args) => {
      const silent = await startSilentServer();
      const dir = await mkdtemp(join(tmpdir(), 'svc-a11y-silent-redis-'));
      const junit = join(dir, 'a11y.xml');
      try {
        // The kill timer is far beyond the bounds (5 s to connect, then in-process): reaching it is the failure, and
        // its mark is the exit code (null: killed), not a reading of the clock against the same 25 s.
        const argv = args.at(-1) === '--report' ? [...args, `junit=${junit}`] : args;
        const r = await runCli([...argv, '--redis-url', silent.url], {
          env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url },
          timeoutMs: 25_000,
        });
        expect(r.code).not.toBeNull(); // null: killed by the timer
        expect(r.code).toBeLessThanOrEqual(1); // a verdict (pass or fail), not an error
        if (argv !== args) expect(await readFile(junit, 'utf8')).toContain('<testsuites');
        else expect(r.stdout.length).toBeGreaterThan(0);
        expect(r.stderr.match(/warning: The shared rate-limit store failed/g)).toHaveLength(1);
      } finally {
        await silent.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it.each([
    // The message names the flag that was given (a variable's value is named by the variable: test/cli/settings).
    [['--rate-limit', '0'], /error: --rate-limit must be a positive number/],
    [['--rate-limit', 'fast'], /error: --rate-limit must be a positive number/],
    [['--redis-url', 'http://127.0.0.1:1'], /error: --redis-url must be a redis:\/\/ or rediss:\/\/ URL/],
  ])('%j → exit 2', async (flags, message) => {
    const r = await runCliLikeBinary(['sites', ...flags], {
      env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it("a Redis whose connection opens 2.5 s late: ci waits for it, so every request is counted by the store (none on the process's own share, no warning)", async () => {
    const redisUrl = await redisDatabase();
    const target = new URL(redisUrl);
    // A loopback proxy that holds each connection 2.5 s before it reaches Redis: a service container still starting.
    const sockets = new Set<Socket>();
    const proxy = createServer((client) => {
      sockets.add(client);
      client.pause();
      const timer = setTimeout(() => {
        const upstream = connect(Number(target.port), target.hostname, () => {
          client.pipe(upstream).pipe(client);
          client.resume();
        });
        sockets.add(upstream);
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
      }, 2_500);
      client.on('close', () => clearTimeout(timer));
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    const { port } = proxy.address() as AddressInfo;
    const admin = createClient({ url: redisUrl });
    await admin.connect();
    try {
      const before = sim.requestCount(sim.keys.full);
      const urls = ['a', 'b', 'c'].map((p) => `https://shop.example.com/clean/late-${p}`);
      const r = await runCliLikeBinary(
        ['ci', ...urls, '-q', '--rate-limit', '600', '--redis-url', `redis://127.0.0.1:${port}${target.pathname}`],
        { env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url }, timeoutMs: 30_000 },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('rate-limit store');
      const sent = sim.requestCount(sim.keys.full) - before;
      expect(sent).toBeGreaterThanOrEqual(2); // the create and at least one look
      // Every request the service got took its slot in the store's window log first.
      const logs = (await admin.keys('svc-a11y:rl:v1:*')).filter((k) => k.endsWith(':log'));
      expect(logs).toHaveLength(1);
      expect(await admin.lLen(logs[0]!)).toBe(sent);
    } finally {
      await admin.quit();
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => proxy.close(done));
    }
  }, 60_000);
});
