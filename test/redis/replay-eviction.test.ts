// A shared replay store never forgets silently: RedisReplayStore against real redis-servers whose
// maxmemory-policy can evict its entries (every allkeys-* policy, and every volatile-* one, since each entry has a
// TTL). The store reads the policy when it connects (CONFIG GET, or INFO memory where CONFIG is disabled), again
// on a new connection and once a minute by its clock: under a policy that evicts, fail-closed refuses deliveries
// with REPLAY_STORE_EVICTION and fail-open accepts them, each warning once; a policy it cannot read is warned about
// once; noeviction is read once per connection and changes nothing. Each server is this file's own, started with
// the options under test, used once its own log says it is ready and its port is in its own socket table, and
// stopped by PID. No assertion here is on time: outcomes, warnings and Redis' own command counts.
import { type ChildProcess, spawn } from 'node:child_process';
import { createClient } from 'redis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/prism.mjs';
import { RedisReplayStore, type RedisReplayStoreOptions, type ReplayStoreWarning } from '../../src/redis/index.js';
import { WebhookVerificationError, verifyWebhook, type VerifyWebhookOptions } from '../../src/webhooks/index.js';
import { listeningPorts } from '../support/listening.js';
import { delivery, SECRET, type Delivery } from './receivers.js';

const EVICTING = ['allkeys-lru', 'volatile-lru', 'volatile-ttl', 'allkeys-random'] as const;
const connectAdmin = async (url: string) => {
  const admin = createClient({ url });
  await admin.connect();
  return admin;
};
type Admin = Awaited<ReturnType<typeof connectAdmin>>;

interface Server {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

// A redis-server on a free loopback port with persistence off and `args` added. A port taken between freePort()
// and its bind makes it exit (it never says it is ready then), and a new port is tried.
async function startRedisWith(args: string[]): Promise<Server> {
  let output = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child: ChildProcess = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    let exited = false;
    const exit = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', (error) => {
        output += String(error);
        resolve();
      });
    }).then(() => {
      exited = true;
    });
    // A hang guard, not a bound under test: a loaded machine may take seconds to start it.
    const deadline = Date.now() + 30_000;
    while (!exited && Date.now() < deadline) {
      if (output.includes('Ready to accept connections') && listeningPorts(child.pid!).includes(port)) {
        return {
          url: `redis://127.0.0.1:${port}`,
          pid: child.pid!,
          stop: async () => {
            if (!exited) process.kill(child.pid!, 'SIGTERM');
            await exit;
          },
        };
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    if (!exited) process.kill(child.pid!, 'SIGKILL');
    await exit;
  }
  throw new Error(`redis-server did not start with ${args.join(' ')}:\n${output}`);
}

let prefix: string;
beforeEach(() => {
  prefix = `svc-a11y:test:replay-eviction:${Math.random().toString(36).slice(2)}:`;
});

const opened: RedisReplayStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});
// A store on `url` with this test's prefix, and the warnings it gave. Its bounds are long: what these tests judge is
// the policy it reads, never how fast a loaded machine answers (the default 1 s once made a slow call UNAVAILABLE).
const storeOn = (url: string, options: Partial<RedisReplayStoreOptions> = {}) => {
  const warnings: ReplayStoreWarning[] = [];
  const store = new RedisReplayStore({
    url,
    keyPrefix: prefix,
    connectTimeoutMs: 30_000,
    commandTimeoutMs: 30_000,
    onWarning: (w) => warnings.push(w),
    ...options,
  } as RedisReplayStoreOptions);
  opened.push(store);
  return { store, warnings };
};

const verify = (d: Delivery, replayStore: RedisReplayStore, extra: Partial<VerifyWebhookOptions> = {}) =>
  verifyWebhook({ body: d.body, headers: d.headers, secret: SECRET, replayStore, ...extra });
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: unknown) =>
      error instanceof WebhookVerificationError ? error.reason : `not a verification error: ${error}`,
  );
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
};
// Calls of one command Redis has counted (INFO commandstats; `config|get` for CONFIG GET). The INFO that reads them
// is counted once it has run, so each reading adds one `info` to the next.
const calls = async (admin: Admin, command: string) => {
  const stats = String(await admin.sendCommand(['INFO', 'commandstats']));
  return Number(new RegExp(`^cmdstat_${command.replace('|', '\\|')}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
};
const codes = (warnings: ReplayStoreWarning[]) => warnings.map((w) => w.code);

describe.each(EVICTING)('a redis-server started with --maxmemory 100mb --maxmemory-policy %s', (policy) => {
  let server: Server;
  let admin: Admin;
  beforeAll(async () => {
    server = await startRedisWith(['--maxmemory', '100mb', '--maxmemory-policy', policy]);
    admin = await connectAdmin(server.url);
  });
  afterAll(async () => {
    await admin?.quit();
    await server?.stop();
  });

  it('fail-closed: every delivery is refused with REPLAY_STORE_EVICTION naming the policy, nothing is written, one warning', async () => {
    const { store, warnings } = storeOn(server.url);
    const setsBefore = await calls(admin, 'set');
    // Five at once on a store not connected yet: none is let through before the policy is known.
    const first = Array.from({ length: 5 }, (_, n) => delivery(100 + n));
    expect(await Promise.all(first.map((d) => outcome(verify(d, store))))).toEqual(
      Array(5).fill('REPLAY_STORE_EVICTION'),
    );
    for (const d of [delivery(105), first[0]!, delivery(106)])
      expect(await outcome(verify(d, store))).toBe('REPLAY_STORE_EVICTION');
    const error = await refusal(verify(delivery(107), store));
    expect(error.reason).toBe('REPLAY_STORE_EVICTION');
    expect(error.message).toContain(`maxmemory-policy is ${policy}`);
    expect(error.message).toMatch(/Set maxmemory-policy noeviction/);
    expect(await admin.keys(`${prefix}*`)).toEqual([]);
    expect(await calls(admin, 'set')).toBe(setsBefore);
    expect(codes(warnings)).toEqual(['REPLAY_STORE_EVICTION']);
    expect(warnings[0]!.message).toContain(policy);
    expect(warnings[0]!.message).toContain('refused with REPLAY_STORE_EVICTION (fail-closed)');
  });

  it('fail-open: deliveries accepted (a repeat still REPLAYED) with one warning for all; the policy read once, not per delivery', async () => {
    const { store, warnings } = storeOn(server.url, { whenUnavailable: 'fail-open' });
    const readsBefore = await calls(admin, 'config|get');
    const setsBefore = await calls(admin, 'set');
    const d = delivery(110);
    expect(await outcome(verify(d, store))).toBe('accepted');
    expect(await outcome(verify(d, store))).toBe('REPLAYED');
    for (let n = 111; n < 115; n++) expect(await outcome(verify(delivery(n), store))).toBe('accepted');
    expect(codes(warnings)).toEqual(['REPLAY_STORE_EVICTION']);
    expect(warnings[0]!.message).toContain(`maxmemory-policy is ${policy}`);
    expect(warnings[0]!.message).toContain('(fail-open)');
    expect(await calls(admin, 'config|get')).toBe(readsBefore + 1);
    expect(await calls(admin, 'set')).toBe(setsBefore + 6);
  });
});

describe('a redis-server started with --maxmemory 100mb --maxmemory-policy noeviction', () => {
  let server: Server;
  let admin: Admin;
  beforeAll(async () => {
    server = await startRedisWith(['--maxmemory', '100mb', '--maxmemory-policy', 'noeviction']);
    admin = await connectAdmin(server.url);
  });
  afterAll(async () => {
    await admin?.quit();
    await server?.stop();
  });

  it('both modes: accepted once, then REPLAYED, no warning; the policy read once per store (CONFIG GET), not per delivery', async () => {
    const readsBefore = await calls(admin, 'config|get');
    for (const whenUnavailable of ['fail-closed', 'fail-open'] as const) {
      const { store, warnings } = storeOn(server.url, { whenUnavailable });
      const d = delivery(120);
      expect(await outcome(verify(d, store))).toBe('accepted');
      for (let n = 121; n < 125; n++) expect(await outcome(verify(delivery(n), store))).toBe('accepted');
      expect(await outcome(verify(d, store))).toBe('REPLAYED');
      expect(warnings).toEqual([]);
    }
    expect(await calls(admin, 'config|get')).toBe(readsBefore + 2);
  });

  it('through a node-redis client of the caller: the policy is read through it, and the client is left open', async () => {
    const client = await connectAdmin(server.url);
    try {
      const readsBefore = await calls(admin, 'config|get');
      const warnings: ReplayStoreWarning[] = [];
      const store = new RedisReplayStore({ client, keyPrefix: prefix, onWarning: (w) => warnings.push(w) });
      const d = delivery(126);
      expect(await outcome(verify(d, store))).toBe('accepted');
      expect(await outcome(verify(d, store))).toBe('REPLAYED');
      expect(await calls(admin, 'config|get')).toBe(readsBefore + 1);
      // The same client, once Redis evicts: a new store on it refuses.
      await admin.configSet('maxmemory-policy', 'allkeys-lru');
      const refusing = new RedisReplayStore({ client, keyPrefix: prefix, onWarning: (w) => warnings.push(w) });
      expect(await outcome(verify(delivery(127), refusing))).toBe('REPLAY_STORE_EVICTION');
      expect(codes(warnings)).toEqual(['REPLAY_STORE_EVICTION']);
      await Promise.all([store.close(), refusing.close()]);
      expect(await client.ping()).toBe('PONG');
    } finally {
      await admin.configSet('maxmemory-policy', 'noeviction');
      await client.quit();
    }
  });
});

describe('CONFIG disabled (started with --rename-command CONFIG ""): the policy is read from INFO memory', () => {
  it('volatile-lru: fail-closed refuses naming volatile-lru, fail-open accepts; one warning each', async () => {
    const server = await startRedisWith([
      '--rename-command',
      'CONFIG',
      '',
      '--maxmemory',
      '100mb',
      '--maxmemory-policy',
      'volatile-lru',
    ]);
    try {
      const closed = storeOn(server.url);
      const open = storeOn(server.url, { whenUnavailable: 'fail-open' });
      for (let n = 130; n < 133; n++) {
        const error = await refusal(verify(delivery(n), closed.store));
        expect(error.reason).toBe('REPLAY_STORE_EVICTION');
        expect(error.message).toContain('maxmemory-policy is volatile-lru');
      }
      const d = delivery(133);
      expect(await outcome(verify(d, open.store))).toBe('accepted');
      expect(await outcome(verify(d, open.store))).toBe('REPLAYED');
      expect(await outcome(verify(delivery(134), open.store))).toBe('accepted');
      expect(codes(closed.warnings)).toEqual(['REPLAY_STORE_EVICTION']);
      expect(codes(open.warnings)).toEqual(['REPLAY_STORE_EVICTION']);
      expect(open.warnings[0]!.message).toContain('volatile-lru');
    } finally {
      await server.stop();
    }
  });

  it('noeviction: accepted, then REPLAYED, no warning; INFO asked once for the policy', async () => {
    const server = await startRedisWith(['--rename-command', 'CONFIG', '']);
    const admin = await connectAdmin(server.url);
    try {
      const { store, warnings } = storeOn(server.url);
      const infoBefore = await calls(admin, 'info');
      const d = delivery(135);
      expect(await outcome(verify(d, store))).toBe('accepted');
      expect(await outcome(verify(delivery(136), store))).toBe('accepted');
      expect(await outcome(verify(d, store))).toBe('REPLAYED');
      expect(warnings).toEqual([]);
      // One INFO memory by the store; the other one is the INFO that read infoBefore.
      expect(await calls(admin, 'info')).toBe(infoBefore + 2);
    } finally {
      await admin.quit();
      await server.stop();
    }
  });
});

describe.each([
  [
    'CONFIG and INFO renamed away (ERR unknown command)',
    ['--rename-command', 'CONFIG', '', '--rename-command', 'INFO', ''],
  ],
  [
    'an ACL user without CONFIG and INFO (NOPERM)',
    ['--user', 'default', 'on', 'nopass', '~*', '&*', '+@all', '-config', '-info'],
  ],
])('the policy cannot be read: %s', (_, args) => {
  it.each(['fail-closed', 'fail-open'] as const)(
    '%s: deliveries accepted (a repeat REPLAYED) and REPLAY_STORE_EVICTION_UNCHECKED warned once, with both refusals as its cause',
    async (whenUnavailable) => {
      const server = await startRedisWith(args);
      try {
        const { store, warnings } = storeOn(server.url, { whenUnavailable });
        const d = delivery(140);
        expect(await outcome(verify(d, store))).toBe('accepted');
        for (let n = 141; n < 144; n++) expect(await outcome(verify(delivery(n), store))).toBe('accepted');
        expect(await outcome(verify(d, store))).toBe('REPLAYED');
        expect(codes(warnings)).toEqual(['REPLAY_STORE_EVICTION_UNCHECKED']);
        expect(warnings[0]!.message).toMatch(/cannot read Redis' maxmemory-policy/);
        const cause = warnings[0]!.cause as AggregateError;
        expect(cause).toBeInstanceOf(AggregateError);
        expect(cause.errors.map((e: Error) => e.message.split(' ')[0])).toEqual(
          args.includes('--user') ? ['NOPERM', 'NOPERM'] : ['ERR', 'ERR'],
        );
      } finally {
        await server.stop();
      }
    },
  );
});

describe('a policy changed while the store is connected (CONFIG SET)', () => {
  let server: Server;
  let admin: Admin;
  beforeEach(async () => {
    server = await startRedisWith(['--maxmemory', '100mb', '--maxmemory-policy', 'noeviction']);
    admin = await connectAdmin(server.url);
  });
  const stop = async () => {
    await admin.quit();
    await server.stop();
  };

  it('read again on a new connection: after its connection was killed, no delivery is accepted under allkeys-lru; accepted again once it is noeviction', async () => {
    try {
      const { store, warnings } = storeOn(server.url);
      expect(await outcome(verify(delivery(150), store))).toBe('accepted');
      await admin.configSet('maxmemory-policy', 'allkeys-lru');
      await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']);
      // The first finds its connection gone (refused as unavailable), or a new one already; none is accepted.
      const after = [];
      for (let n = 151; n < 154; n++) after.push(await outcome(verify(delivery(n), store)));
      expect(['REPLAY_STORE_UNAVAILABLE', 'REPLAY_STORE_EVICTION']).toContain(after[0]);
      expect(after.slice(1)).toEqual(['REPLAY_STORE_EVICTION', 'REPLAY_STORE_EVICTION']);
      expect(codes(warnings).filter((c) => c === 'REPLAY_STORE_EVICTION')).toHaveLength(1);
      // While refusing, each delivery reads the policy instead of writing: the first one after the fix passes.
      await admin.configSet('maxmemory-policy', 'noeviction');
      const d = delivery(154);
      expect(await outcome(verify(d, store))).toBe('accepted');
      expect(await outcome(verify(d, store))).toBe('REPLAYED');
      const last = warnings.at(-1)!;
      expect(last.code).toBe('REPLAY_STORE_RECOVERED');
      expect(last.message).toMatch(/maxmemory-policy is noeviction now/);
    } finally {
      await stop();
    }
  });

  it("read again once a minute by the store's clock, beside a delivery: noticed without a reconnect and without a read per delivery", async () => {
    try {
      let clock = Date.now();
      const now = () => clock;
      let warned: () => void = () => undefined;
      const evictionWarned = new Promise<void>((resolve) => (warned = resolve));
      const warnings: ReplayStoreWarning[] = [];
      const store = new RedisReplayStore({
        url: server.url,
        keyPrefix: prefix,
        now,
        onWarning: (w) => {
          warnings.push(w);
          if (w.code === 'REPLAY_STORE_EVICTION') warned();
        },
      });
      opened.push(store);
      const at = (n: number) => delivery(n, Math.floor(clock / 1000));
      const readsBefore = await calls(admin, 'config|get');
      expect(await outcome(verify(at(160), store, { now }))).toBe('accepted');
      await admin.configSet('maxmemory-policy', 'volatile-ttl');
      // Within the minute: decided on the policy read at connect, with no read of its own.
      expect(await outcome(verify(at(161), store, { now }))).toBe('accepted');
      expect(await calls(admin, 'config|get')).toBe(readsBefore + 1);
      clock += 60_000;
      // A minute later a delivery starts a read beside it and is decided without waiting for it.
      expect(await outcome(verify(at(162), store, { now }))).toBe('accepted');
      await evictionWarned;
      expect(await outcome(verify(at(163), store, { now }))).toBe('REPLAY_STORE_EVICTION');
      await admin.configSet('maxmemory-policy', 'noeviction');
      expect(await outcome(verify(at(164), store, { now }))).toBe('accepted');
      expect(codes(warnings)).toEqual(['REPLAY_STORE_EVICTION', 'REPLAY_STORE_RECOVERED']);
      expect(warnings[0]!.message).toContain('volatile-ttl');
    } finally {
      await stop();
    }
  });
});

describe('a real eviction (allkeys-lru, maxmemory lowered until the entry is gone)', () => {
  it('fail-open: the replay of an evicted delivery passes, as its one warning said; fail-closed accepted neither copy', async () => {
    const server = await startRedisWith(['--maxmemory', '100mb', '--maxmemory-policy', 'allkeys-lru']);
    const admin = await connectAdmin(server.url);
    try {
      const open = storeOn(server.url, { whenUnavailable: 'fail-open' });
      const closed = storeOn(server.url);
      const d = delivery(170);
      expect(await outcome(verify(d, open.store))).toBe('accepted');
      expect(await outcome(verify(d, open.store))).toBe('REPLAYED');
      expect(await outcome(verify(d, closed.store))).toBe('REPLAY_STORE_EVICTION');
      const [entry] = await admin.keys(`${prefix}*`);
      expect(entry).toBeDefined();
      // Room for about 2 MB more than Redis holds now, then filled with other keys until the entry is evicted.
      const used = Number(/^used_memory:(\d+)/m.exec(String(await admin.sendCommand(['INFO', 'memory'])))?.[1]);
      await admin.configSet('maxmemory', String(used + 2 * 1024 * 1024));
      const filler = 'x'.repeat(16 * 1024);
      for (let n = 0; n < 20_000 && (await admin.exists(entry!)) === 1; n++) await admin.set(`filler:${n}`, filler);
      expect(await admin.exists(entry!)).toBe(0);
      expect(await outcome(verify(d, open.store))).toBe('accepted');
      expect(await outcome(verify(d, closed.store))).toBe('REPLAY_STORE_EVICTION');
      expect(codes(open.warnings)).toEqual(['REPLAY_STORE_EVICTION']);
      expect(open.warnings[0]!.message).toMatch(/an evicted delivery could be replayed/);
      expect(codes(closed.warnings)).toEqual(['REPLAY_STORE_EVICTION']);
    } finally {
      await admin.quit();
      await server.stop();
    }
  });
});
