// Every test file shares its worker process with the files before and after it (vitest `isolate: false`: one module
// registry per worker, which took a full run from 474 to 402 CPU-seconds). A file that leaves the process changed —
// a variable, the working directory, fake timers, a global or a method replaced, a listener on `process` — would
// change what a later file sees, and which file comes later depends on the machine's speed. So each file is
// checked as it ends: what it leaves behind fails that file, by name, every time, instead of another file sometimes.
// What vitest itself can undo (`vi.stubEnv`, `vi.stubGlobal`, `vi.spyOn`, fake timers) is undone here as the file
// ends; what it cannot (a variable or a global assigned, the directory changed, a listener added) fails the file.
import { afterAll, vi } from 'vitest';
import { processChanges, snapshotProcess } from '../support/process-state.js';

// Taken as this setup file runs, before the test file is imported: what its top level does counts too.
const before = snapshotProcess();
afterAll(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  const found = processChanges(before, snapshotProcess());
  if (found.length > 0) {
    throw new Error(
      `this file leaves the shared test process changed for the files after it: ${found.join('; ')}. Restore it in an afterEach/afterAll (see test/setup/shared-process.ts).`,
    );
  }
});
