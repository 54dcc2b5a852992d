// @svc/a11y-sdk/redis: a rate budget shared by every process using one API key, in Redis. One atomic Lua
// script per request (GCRA: one number per budget, so one key and one round trip; a sliding-window log would
// keep an entry per request and a sorted set to trim), keys namespaced by a hash of the API key and expiring
// once the budget has refilled. Time is Redis' own (`TIME`), so the clocks of CI machines never disagree.
// Every wait on Redis is bounded (connecting, each operation, closing): a server that accepts connections
// and never answers costs a caller its bound, never a hang.
import { bounded } from '../internal/bounded.js';
import { timerDelay } from '../internal/sleep.js';
import { pauseLength } from '../rate-limit/pause.js';
import type { RateLimit, RateLimitStore, Reservation } from '../rate-limit/store.js';
import { SCRIPT, scriptArgs, readReply } from './script.js';

export type { RateLimit, RateLimitStore, Reservation } from '../rate-limit/store.js';

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
export type RedisRateLimitStoreOptions = (
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
    }
) & {
  /**
   * Longest time to connect from `{ url }` (loading the `redis` package included), in milliseconds; then the
   * attempt is abandoned and its socket closed, and a later operation connects again.
   * @default 1000
   */
  connectTimeoutMs?: number | undefined;
  /**
   * Longest time one operation may wait for Redis' answer, in milliseconds; then it fails and (from `{ url }`)
   * the connection is closed, since a server that stopped answering may never answer on it again.
   * @default 1000
   */
  commandTimeoutMs?: number | undefined;
};

// What the store needs of a client it opened itself (node-redis 4–6).
interface OwnedClient {
  sendCommand(args: string[]): Promise<unknown>;
  connect(): Promise<unknown>;
  on(event: string, listener: (error: unknown) => void): unknown;
  destroy?(): unknown;
  disconnect?(): Promise<unknown>;
}
interface RedisModule {
  createClient(options: object): OwnedClient;
}
// One connection attempt of the store: ended at once when abandoned, even while it is still connecting.
interface Attempt {
  client?: OwnedClient;
  ended: boolean;
}

/**
 * The rate budget of an API key in Redis, shared by every process that uses the same key and server.
 * Constructing it and passing it to the client is enough: the first call connects (within
 * `connectTimeoutMs`); `connect()` only makes a missing `redis` package or an unreachable server fail at start-up.
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
  #attempt: Attempt | undefined;
  #sha: string | undefined;
  #closed = false;
  readonly #options: RedisRateLimitStoreOptions;
  readonly #module: Promise<RedisModule> | undefined;
  readonly #connectTimeoutMs: number;
  readonly #commandTimeoutMs: number;

  /**
   * Creates the store; nothing connects until {@link RedisRateLimitStore.connect} or the first request (the
   * `redis` package starts loading now, so the first request does not wait for it).
   * @param options - `{ url }` or `{ client }`, and the time bounds
   * @throws TypeError when neither is given, or a bound is not a finite number ≥ 1
   */
  constructor(options: RedisRateLimitStoreOptions) {
    if (!options || (typeof options.url !== 'string' && !options.client))
      throw new TypeError('RedisRateLimitStore needs { url } or { client }.');
    this.#options = options;
    this.#connectTimeoutMs = bound('connectTimeoutMs', options.connectTimeoutMs);
    this.#commandTimeoutMs = bound('commandTimeoutMs', options.commandTimeoutMs);
    if (options.client === undefined) {
      this.#module = loadRedis();
      // Reported by the first operation (which says how to install it), not as an unhandled rejection now.
      this.#module.catch(() => undefined);
    }
  }

  /** {@inheritDoc RateLimitStore.reserve} */
  async reserve(key: string, limit: RateLimit, clientId: string): Promise<Reservation> {
    const { waitMs, sharers, pauseMs, corrupt } = await this.#eval(key, 'reserve', limit, clientId, 0);
    return corrupt ? { waitMs, sharers, pauseMs, corrupt } : { waitMs, sharers, pauseMs };
  }

  /** {@inheritDoc RateLimitStore.pause} */
  async pause(key: string, limit: RateLimit, delayMs: number): Promise<void> {
    await this.#eval(key, 'pause', limit, 'pause', pauseLength(delayMs));
  }

  /** {@inheritDoc RateLimitStore.refund} */
  async refund(key: string, limit: RateLimit): Promise<void> {
    await this.#eval(key, 'refund', limit, 'refund', 0);
  }

  /** {@inheritDoc RateLimitStore.pausedFor} */
  async pausedFor(key: string): Promise<number> {
    // The pause key's time to live is the pause left, on Redis' clock: one read, no script.
    const left = Number(await this.#send((client) => send(client, ['PTTL', `${key}:pause`])));
    return left > 0 ? left : 0;
  }

  /**
   * Connects now (from `{ url }`) instead of on the first request. Rejects when the `redis` package is missing
   * or Redis cannot be reached within `connectTimeoutMs`; calls made anyway still succeed on the in-process
   * budget.
   */
  async connect(): Promise<void> {
    await this.#connect();
  }

  /**
   * Closes the connection the store opened from `{ url }`, at once (a connection still being opened
   * included), without waiting for a server that may not answer; a client you passed is yours to close.
   * The store is not used again: later operations fail (and clients fall back to their in-process budget).
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#drop(this.#attempt);
  }

  async #eval(
    key: string,
    op: string,
    limit: RateLimit,
    member: string,
    pauseMs: number,
  ): Promise<ReturnType<typeof readReply>> {
    const args = scriptArgs(key, op, limit, member, pauseMs);
    // EVALSHA: the script's text crosses the network once per connection; NOSCRIPT (a restarted server) loads it again.
    const reply = await this.#send(async (client) => {
      if (this.#sha) {
        try {
          return await send(client, ['EVALSHA', this.#sha, ...args]);
        } catch (error) {
          if (!String((error as Error)?.message).includes('NOSCRIPT')) throw error;
        }
      }
      this.#sha = String(await send(client, ['SCRIPT', 'LOAD', SCRIPT]));
      return send(client, ['EVAL', SCRIPT, ...args]);
    });
    return readReply(reply);
  }

  // Runs `command` on the connection within commandTimeoutMs. A connection the store opened is closed after
  // a failure or a timeout (a frozen server's queue never drains) and opened again on a later call.
  async #send(command: (client: RedisLikeClient) => Promise<unknown>): Promise<unknown> {
    const client = await this.#connect();
    const attempt = this.#attempt;
    try {
      return await bounded(command(client), this.#commandTimeoutMs, 'Redis');
    } catch (error) {
      this.#drop(attempt);
      throw error;
    }
  }

  #connect(): Promise<RedisLikeClient> {
    if (this.#closed) return Promise.reject(new Error('RedisRateLimitStore was closed.'));
    if (this.#client) return this.#client;
    const { client, url } = this.#options;
    if (client) {
      this.#client = Promise.resolve(client);
      return this.#client;
    }
    const attempt: Attempt = { ended: false };
    const connecting = this.#open(url!, attempt);
    this.#attempt = attempt;
    this.#client = connecting;
    // A failed connection is tried again on the next call, not cached.
    connecting.catch(() => this.#drop(attempt));
    return connecting;
  }

  async #open(url: string, attempt: Attempt): Promise<RedisLikeClient> {
    // Loading the package is local work that always ends (and starts at construction): the bound is on Redis.
    const redis = await (this.#module ?? loadRedis());
    if (attempt.ended) throw new Error('The connection attempt to Redis was abandoned.');
    // No reconnect loop in the background, no offline queue: a failed operation falls back to the in-process
    // budget at once, and a later one connects again.
    const client = redis.createClient({
      url,
      socket: { connectTimeout: timerDelay(this.#connectTimeoutMs), reconnectStrategy: false },
      disableOfflineQueue: true,
    });
    client.on('error', () => undefined);
    // node-redis (6.3) ignores destroy() while its socket is still connecting: the socket then connects
    // anyway, and connect() never settles. An abandoned attempt is ended again as soon as it connects.
    client.on('connect', () => attempt.ended && end(client));
    attempt.client = client;
    await bounded(client.connect(), this.#connectTimeoutMs, 'connecting to Redis', () => this.#drop(attempt));
    return client;
  }

  // Ends one connection attempt of the store (nothing for a client of the caller's), and forgets it when it is
  // the current one.
  #drop(attempt: Attempt | undefined): void {
    if (!attempt) return;
    if (this.#attempt === attempt) {
      this.#attempt = undefined;
      this.#client = undefined;
    }
    if (attempt.ended) return;
    attempt.ended = true;
    if (attempt.client) end(attempt.client);
  }
}

// Closes a connection at once: no waiting for replies from a server that may be gone.
function end(client: OwnedClient): void {
  try {
    // destroy() on node-redis 5+, disconnect() on 4.
    if (client.destroy) client.destroy();
    else client.disconnect?.().catch(() => undefined);
  } catch {
    // Already closed.
  }
}

async function loadRedis(): Promise<RedisModule> {
  try {
    return (await import(/* webpackIgnore: true */ 'redis' as string)) as RedisModule;
  } catch {
    throw new Error('RedisRateLimitStore({ url }) needs the `redis` package: npm install redis (or pass { client }).');
  }
}

function send(client: RedisLikeClient, args: string[]): Promise<unknown> {
  return 'sendCommand' in client ? client.sendCommand(args) : client.call(args[0]!, ...args.slice(1));
}

function bound(name: string, value: number | undefined): number {
  if (value === undefined) return 1000;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 1)
    throw new TypeError(`RedisRateLimitStore: ${name} must be a finite number ≥ 1, got ${String(value)}.`);
  return value;
}
