import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

// The longest files (measured: tens of seconds each, most of it waiting on child processes, tsc on scratch copies
// or fleets of processes) start first, so none of them is the last one left running while the other workers are
// idle. A fresh clone has no timing cache, and vitest's fallback order (by file size) starts them last.
const SLOW_FIRST = [
  // The fleets of processes start apart from each other (each judges its elapsed time against the rate): the first
  // six files start at once (maxWorkers), the second fleet when one of them ends.
  'test/redis/fleet.test.ts',
  'test/spec-diff/maintainer-path.test.ts',
  'test/spec-diff/compile.test.ts',
  'test/cli/keeps-result.test.ts',
  'test/runtimes/runtimes.test.ts',
  'test/reliability/faults.test.ts',
  'test/redis/fleet-redis-down.test.ts',
  'test/cli/ci.test.ts',
  'test/cli/commands.test.ts',
  'test/cli/site-run.test.ts',
  'test/cli/hostile-files.test.ts',
  'test/redis/fleet-pause.test.ts',
  // Compilers: TypeScript 4.9 over four consumer set-ups, and every code block of the docs.
  'test/package/lowest-typescript.test.ts',
  'test/docs/code-blocks.test.ts',
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = SLOW_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
      return at === -1 ? SLOW_FIRST.length : at;
    };
    // Array.prototype.sort is stable: the rest keeps vitest's own order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/prism.global.ts', 'test/setup/redis.global.ts'],
    // One module registry per worker, not one per file: each file re-importing vitest, the SDK and its own helpers
    // cost a full run 474 of its CPU-seconds, 402 without (2 cores; the suite is bound by the CPU). What a file
    // could leave behind for the next one is undone as it ends, or fails it (test/setup/shared-process.ts).
    // (Not vitest's unstubEnvs/unstubGlobals/restoreMocks: they undo before each test, so a stub a file sets up in
    // beforeAll would be gone by its first test.)
    isolate: false,
    setupFiles: ['test/setup/shared-process.ts'],
    // Most test files wait on timers, child processes and loopback servers rather than the CPU: a suite's wall time is
    // the files' summed time over the workers, and with four workers a full run used about 1.5 of the 2 cores. Six
    // on the 2-core CI machines: 220 → 189 s for the same CPU (350 s); eight took more CPU and no less time (195 s).
    maxWorkers: 6,
    sequence: { sequencer: SlowFirst },
    // A hang guard, not a bound: tests that run the built CLI several times in a row took over 20 s at load 5–10.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
