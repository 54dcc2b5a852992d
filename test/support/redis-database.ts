// A database of its own on the run's shared redis-server (test/setup/redis.global.ts), for each test that uses it:
// the budget keys derive from the API key, and the simulator's keys are the same in every instance, so two files
// on one database would share one budget (and each other's 429 pauses).
import { inject } from 'vitest';
import { createClient } from 'redis';

/** How many databases the shared server has: database 0 holds the counter, the others are handed out. */
export const REDIS_DATABASES = 1000;
const COUNTER = 'svc-a11y-test:databases-handed-out';

/**
 * `redis://127.0.0.1:PORT/N`: a database of the shared server that no other caller in this run gets (an `INCR` on
 * database 0, atomic across the workers). Call it once per file (in `beforeAll`) or per test; the run has
 * {@link REDIS_DATABASES} − 1 of them.
 * @example const url = await redisDatabase(); new RedisRateLimitStore({ url })
 */
export async function redisDatabase(): Promise<string> {
  const server = inject('redisServerUrl');
  const admin = createClient({ url: server });
  await admin.connect();
  try {
    const n = await admin.incr(COUNTER);
    if (n >= REDIS_DATABASES)
      throw new Error(`the shared redis-server has only ${REDIS_DATABASES - 1} databases to hand out`);
    return `${server}/${n}`;
  } finally {
    await admin.quit();
  }
}
