// Vitest global setup: one redis-server for the whole run (persistence off, a free loopback port), stopped by
// its PID. Each test file takes a database of its own on it (test/support/redis-database.ts): files that ran side
// by side on one database shared the budget of the simulator's fixed API key, so one file's fleet or 429 pause
// made another's wait (a 25-page run took 44 s beside them, 1.7 s alone). Tests that kill a server mid-run start
// one of their own.
import type { TestProject } from 'vitest/node';
import { startRedis } from '../../scripts/redis.mjs';
import { REDIS_DATABASES } from '../support/redis-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * `redis://127.0.0.1:PORT` of the run's shared redis-server, for test/support/redis-database.ts only: a test
     * takes its own database with `redisDatabase()`.
     */
    redisServerUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const redis = await startRedis({ databases: REDIS_DATABASES });
  project.provide('redisServerUrl', redis.url);
  return async () => {
    await redis.stop();
  };
}
