/**
 * Redis-backed stores for fleets of processes (`@svc/a11y-sdk/redis`): the rate budget of an API key shared by
 * every process using it, and the webhook replay guard shared by every receiver behind a load balancer. Both
 * connect through node-redis (an optional peer: `npm install redis`) or take your own client, and bound every
 * wait on Redis.
 * @packageDocumentation
 */
export { RedisRateLimitStore } from './rate-limit-store.js';
export type { RedisRateLimitStoreOptions } from './rate-limit-store.js';
export { RedisReplayStore } from './replay-store.js';
export type { RedisReplayStoreOptions, ReplayStoreWarning } from './replay-store.js';
export type { RedisConnectionOptions, RedisLikeClient } from './connection.js';
export type { RateLimit, RateLimitStore, Reservation } from '../core/rate-limit-store.js';
export type { ReplayStore } from '../webhooks/replay-store.js';
