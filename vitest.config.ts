import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/prism.global.ts', 'test/setup/redis.global.ts'],
    // Most test files wait on timers, child processes and loopback servers rather than the CPU: three workers
    // on the 2-core CI machines keep npm test well inside CI's budget (vitest's default there is one).
    maxWorkers: 3,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
