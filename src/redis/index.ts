// @svc/a11y-sdk/redis: a rate budget shared by every process using one API key, in Redis. One atomic Lua
// script per request (GCRA: one number per budget, so one key and one round trip; a sliding-window log would
// keep an entry per request and a sorted set to trim), keys namespaced by a hash of the API key and expiring
// once the budget has refilled. Time is Redis' own (`TIME`), so the clocks of CI machines never disagree.
import type { RateLimit, RateLimitStore, Reservation } from '../rate-limit/store.js';

export type { RateLimit, RateLimitStore, Reservation } from '../rate-limit/store.js';

// KEYS[1] budget (GCRA's theoretical arrival time), KEYS[2] its sharers (client id → last seen, ms).
// ARGV: op ('reserve' | 'pause' | 'refund'), interval ms, tolerance ms, client id, pause ms.
// Returns { wait ms, sharers seen in the last minute }.
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[2])
local tolerance = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local wait = 0
if ARGV[1] == 'reserve' then
  if tat < now then tat = now end
  wait = math.max(0, tat - tolerance - now)
  tat = tat + interval
elseif ARGV[1] == 'pause' then
  tat = math.max(tat, now + tonumber(ARGV[5]) + tolerance)
else
  tat = math.max(now, tat - interval)
end
redis.call('SET', KEYS[1], tostring(tat), 'PX', math.max(1, math.ceil(tat - now)) + 60000)
if ARGV[1] == 'reserve' then redis.call('ZADD', KEYS[2], now, ARGV[4]) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)
redis.call('PEXPIRE', KEYS[2], 120000)
return { math.ceil(wait), redis.call('ZCARD', KEYS[2]) }
`;

/** A connected Redis client: node-redis (`redis` 4–6: `sendCommand`) or ioredis (`call`). */
export type RedisLikeClient =
  | {
      /** node-redis: sends one command given as its words. */
      sendCommand(args: string[]): Promise<unknown>;
    }
  | {
      /** ioredis: sends one command given as its name and arguments. */
      call(command: string, ...args: string[]): Promise<unknown>;
    };

/** Options of {@link RedisRateLimitStore}: a URL (the store connects with the `redis` package) or a client. */
export type RedisRateLimitStoreOptions =
  | {
      /**
       * `redis://[:password@]host:port[/db]`, connected with the `redis` package (an optional peer
       * dependency: `npm install redis`).
       * @example 'redis://127.0.0.1:6379'
       */
      url: string;
      client?: never;
    }
  | {
      /** A connected client of your own (node-redis or ioredis); the store never closes it. */
      client: RedisLikeClient;
      url?: never;
    };

/**
 * The rate budget of an API key in Redis, shared by every process that uses the same key and server.
 * @example
 * ```ts
 * import { A11yClient } from '@svc/a11y-sdk';
 * import { RedisRateLimitStore } from '@svc/a11y-sdk/redis';
 * const store = new RedisRateLimitStore({ url: process.env.SVC_REDIS_URL! });
 * const client = new A11yClient({ rateLimit: { requestsPerMinute: 120, store } });
 * // … when done: await store.close();
 * ```
 */
export class RedisRateLimitStore implements RateLimitStore {
  #client: Promise<RedisLikeClient> | undefined;
  #sha: string | undefined;
  readonly #owned: boolean;
  readonly #options: RedisRateLimitStoreOptions;

  /**
   * Creates the store; nothing connects until {@link RedisRateLimitStore.connect} or the first request.
   * @param options - `{ url }` or `{ client }`
   */
  constructor(options: RedisRateLimitStoreOptions) {
    if (!options || (typeof options.url !== 'string' && !options.client)) throw new TypeError('RedisRateLimitStore needs { url } or { client }.');
    this.#options = options;
    this.#owned = options.client === undefined;
  }

  /** {@inheritDoc RateLimitStore.reserve} */
  async reserve(key: string, limit: RateLimit, clientId: string): Promise<Reservation> {
    const [waitMs, sharers] = await this.#eval(key, 'reserve', limit, clientId, 0);
    return { waitMs, sharers };
  }

  /** {@inheritDoc RateLimitStore.pause} */
  async pause(key: string, limit: RateLimit, delayMs: number): Promise<void> {
    await this.#eval(key, 'pause', limit, 'pause', delayMs);
  }

  /** {@inheritDoc RateLimitStore.refund} */
  async refund(key: string, limit: RateLimit): Promise<void> {
    await this.#eval(key, 'refund', limit, 'refund', 0);
  }

  /**
   * Connects now (from `{ url }`) instead of on the first request, whose store operation would otherwise
   * include the connection time and may exceed the client's `storeTimeoutMs`. Rejects when Redis cannot be
   * reached; calls made anyway still succeed on the in-process budget.
   */
  async connect(): Promise<void> {
    await this.#connect();
  }

  /** Closes the connection the store opened from `{ url }` (a client you passed is yours to close). */
  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    const open = this.#owned ? ((await client?.catch(() => undefined)) as { destroy?: () => unknown; quit?: () => Promise<unknown> } | undefined) : undefined;
    // destroy(): no waiting for replies from a server that may be gone (node-redis 5+); quit() on older ones.
    if (open?.destroy) open.destroy();
    else await open?.quit?.().catch(() => undefined);
  }

  async #eval(key: string, op: string, limit: RateLimit, member: string, pauseMs: number): Promise<[number, number]> {
    const client = await this.#connect();
    try {
      return await this.#script(client, key, op, limit, member, pauseMs);
    } catch (error) {
      // A connection the store opened is dropped after a failure and opened again on a later call.
      if (this.#owned) void this.close();
      throw error;
    }
  }

  async #script(client: RedisLikeClient, key: string, op: string, limit: RateLimit, member: string, pauseMs: number): Promise<[number, number]> {
    const intervalMs = 60_000 / limit.requestsPerMinute;
    const args = ['2', key, `${key}:sharers`, op, String(intervalMs), String((limit.burst - 1) * intervalMs), member, String(Math.max(0, Math.round(pauseMs)))];
    // EVALSHA: the script's text crosses the network once per connection; NOSCRIPT (a restarted server) loads it again.
    let reply: unknown;
    try {
      reply = this.#sha ? await send(client, ['EVALSHA', this.#sha, ...args]) : undefined;
    } catch (error) {
      if (!String((error as Error)?.message).includes('NOSCRIPT')) throw error;
    }
    if (reply === undefined) {
      this.#sha ??= String(await send(client, ['SCRIPT', 'LOAD', SCRIPT]));
      reply = await send(client, ['EVAL', SCRIPT, ...args]);
    }
    const [wait, sharers] = reply as [unknown, unknown];
    return [Number(wait) || 0, Number(sharers) || 1];
  }

  #connect(): Promise<RedisLikeClient> {
    if (this.#client) return this.#client;
    const { client, url } = this.#options;
    this.#client = client ? Promise.resolve(client) : open(url!);
    // A failed connection is tried again on the next call, not cached.
    this.#client.catch(() => (this.#client = undefined));
    return this.#client;
  }
}

async function open(url: string): Promise<RedisLikeClient> {
  let redis: { createClient(options: object): RedisLikeClient & { connect(): Promise<unknown>; on(event: string, f: (e: unknown) => void): unknown } };
  try {
    redis = (await import(/* webpackIgnore: true */ 'redis' as string)) as typeof redis;
  } catch {
    throw new Error('RedisRateLimitStore({ url }) needs the `redis` package: npm install redis (or pass { client }).');
  }
  // No reconnect loop in the background: a failed operation falls back to the in-process budget, and the
  // next one after the retry delay connects again.
  const client = redis.createClient({ url, socket: { connectTimeout: 1000, reconnectStrategy: false }, disableOfflineQueue: true });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

function send(client: RedisLikeClient, args: string[]): Promise<unknown> {
  return 'sendCommand' in client ? client.sendCommand(args) : client.call(args[0]!, ...args.slice(1));
}
