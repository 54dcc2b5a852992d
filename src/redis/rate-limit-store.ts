// A rate budget shared by every process using one API key, in Redis. One atomic Lua
// script per request, so one round trip: GCRA's one number, and the slots of the last window in a list (at most
// `requestsPerMinute`; only the newest and the one that many places back are read, so a request costs the same
// at any rate), keys namespaced by a hash of the API key and expiring once the budget has refilled. Time is Redis' own (`TIME`), so the clocks of CI machines never disagree.
// Every wait on Redis is bounded by the store's connection (connection.ts).
import { pauseLength } from '../rate-limit/pause.js';
import type { RateLimit, RateLimitStore, Reservation } from '../core/rate-limit-store.js';
import { RedisConnection, sendCommand, type RedisConnectionOptions } from './connection.js';
import { SCRIPT, scriptArgs, readReply } from './script.js';

/**
 * Options of {@link RedisRateLimitStore}: a URL (the store connects with the `redis` package) or a client, and
 * the time bounds of connecting and of each operation.
 * @example { url: process.env.SVC_REDIS_URL!, commandTimeoutMs: 500 }
 */
export type RedisRateLimitStoreOptions = RedisConnectionOptions;

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
  readonly #connection: RedisConnection;
  #sha: string | undefined;

  /**
   * Creates the store; nothing connects until {@link RedisRateLimitStore.connect} or the first request (the
   * `redis` package starts loading now, so the first request does not wait for it).
   * @param options - `{ url }` or `{ client }`, and the time bounds
   * @throws TypeError when neither is given, or a bound is not a finite number ≥ 1
   */
  constructor(options: RedisRateLimitStoreOptions) {
    this.#connection = new RedisConnection(options, 'RedisRateLimitStore');
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
    const left = Number(await this.#connection.send((client) => sendCommand(client, ['PTTL', `${key}:pause`])));
    return left > 0 ? left : 0;
  }

  /**
   * Connects now (from `{ url }`) instead of on the first request. Rejects when the `redis` package is missing
   * or Redis cannot be reached within `connectTimeoutMs`; calls made anyway still succeed on the in-process
   * budget.
   */
  async connect(): Promise<void> {
    await this.#connection.connect();
  }

  /**
   * Closes the connection the store opened from `{ url }`, at once (a connection still being opened
   * included), without waiting for a server that may not answer; a client you passed is yours to close.
   * The store is not used again: later operations fail (and clients fall back to their in-process budget).
   */
  async close(): Promise<void> {
    this.#connection.close();
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
    const reply = await this.#connection.send(async (client) => {
      if (this.#sha) {
        try {
          return await sendCommand(client, ['EVALSHA', this.#sha, ...args]);
        } catch (error) {
          if (!String((error as Error)?.message).includes('NOSCRIPT')) throw error;
        }
      }
      this.#sha = String(await sendCommand(client, ['SCRIPT', 'LOAD', SCRIPT]));
      return sendCommand(client, ['EVAL', SCRIPT, ...args]);
    });
    return readReply(reply);
  }
}
