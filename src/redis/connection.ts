// One store's connection to Redis, shared by the stores of `@svc/a11y-sdk/redis`: the client the caller passed,
// or one the store opens from a URL with node-redis (an optional peer, loaded only then). Every wait on Redis is
// bounded (connecting, each operation, closing): a server that accepts connections and never answers costs a
// caller its bound, never a hang. No reconnect loop in the background and no offline queue: a failed operation
// fails at once, and a later one connects again.
import { bounded } from '../internal/bounded.js';
import { timerDelay } from '../internal/sleep.js';

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

/**
 * How a store of `@svc/a11y-sdk/redis` reaches Redis: a URL (the store connects with the `redis` package) or a
 * client of your own, and the time bounds of connecting and of each operation.
 * @example { url: process.env.SVC_REDIS_URL! }
 * @example { client: await createClient({ url }).connect(), commandTimeoutMs: 500 }
 */
export type RedisConnectionOptions = (
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

// What a store needs of a client it opened itself (node-redis 4–6).
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
// One connection attempt: ended at once when abandoned, even while it is still connecting.
interface Attempt {
  client?: OwnedClient;
  ended: boolean;
}

/**
 * The bounded connection of one store (see the file's header). `owner` names the store in its errors.
 * @internal
 */
export class RedisConnection {
  #client: Promise<RedisLikeClient> | undefined;
  #attempt: Attempt | undefined;
  #closed = false;
  readonly #options: RedisConnectionOptions;
  readonly #owner: string;
  readonly #module: Promise<RedisModule> | undefined;
  readonly #connectTimeoutMs: number;
  readonly #commandTimeoutMs: number;

  /**
   * Checks the options; the `redis` package starts loading now (from `{ url }`), so the first operation does
   * not wait for it. Nothing connects yet.
   * @throws TypeError when neither `url` nor `client` is given, or a bound is not a finite number ≥ 1
   */
  constructor(options: RedisConnectionOptions, owner: string) {
    if (!options || (typeof options.url !== 'string' && !options.client))
      throw new TypeError(`${owner} needs { url } or { client }.`);
    this.#options = options;
    this.#owner = owner;
    this.#connectTimeoutMs = bound(owner, 'connectTimeoutMs', options.connectTimeoutMs);
    this.#commandTimeoutMs = bound(owner, 'commandTimeoutMs', options.commandTimeoutMs);
    if (options.client === undefined) {
      this.#module = loadRedis(owner);
      // Reported by the first operation (which says how to install it), not as an unhandled rejection now.
      this.#module.catch(() => undefined);
    }
  }

  /**
   * Runs `command` on the connection within commandTimeoutMs (connecting first, within connectTimeoutMs). A
   * connection the store opened is closed after a failure or a timeout (a frozen server's queue never drains)
   * and opened again on a later call.
   */
  async send(command: (client: RedisLikeClient) => Promise<unknown>): Promise<unknown> {
    const client = await this.connect();
    const attempt = this.#attempt;
    try {
      return await bounded(command(client), this.#commandTimeoutMs, 'Redis');
    } catch (error) {
      this.#drop(attempt);
      throw error;
    }
  }

  /** The connected client: the caller's, or the store's own (connecting now if needed). */
  connect(): Promise<RedisLikeClient> {
    if (this.#closed) return Promise.reject(new Error(`${this.#owner} was closed.`));
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

  /** Closes the connection the store opened, at once (mid-connect included); later operations fail. */
  close(): void {
    this.#closed = true;
    this.#drop(this.#attempt);
  }

  async #open(url: string, attempt: Attempt): Promise<RedisLikeClient> {
    // Loading the package is local work that always ends (and starts at construction): the bound is on Redis.
    const redis = await (this.#module ?? loadRedis(this.#owner));
    if (attempt.ended) throw new Error('The connection attempt to Redis was abandoned.');
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

  // Ends one connection attempt (nothing for a client of the caller's), and forgets it when it is the current one.
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

/**
 * Sends one command, given as its words, through either client's API.
 * @internal
 */
export function sendCommand(client: RedisLikeClient, args: string[]): Promise<unknown> {
  return 'sendCommand' in client ? client.sendCommand(args) : client.call(args[0]!, ...args.slice(1));
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

async function loadRedis(owner: string): Promise<RedisModule> {
  try {
    return (await import(/* webpackIgnore: true */ 'redis' as string)) as RedisModule;
  } catch {
    throw new Error(`${owner}({ url }) needs the \`redis\` package: npm install redis (or pass { client }).`);
  }
}

function bound(owner: string, name: string, value: number | undefined): number {
  if (value === undefined) return 1000;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 1)
    throw new TypeError(`${owner}: ${name} must be a finite number ≥ 1, got ${String(value)}.`);
  return value;
}
