// Vitest global setup: one redis-server for the whole run (persistence off, a free loopback port), stopped by
// its PID. Tests that kill a server mid-run start one of their own.
import type { TestProject } from 'vitest/node';
import { startRedis } from '../../scripts/redis.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `redis://127.0.0.1:PORT` of the run's shared redis-server. */
    redisUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const redis = await startRedis();
  project.provide('redisUrl', redis.url);
  return async () => {
    await redis.stop();
  };
}
