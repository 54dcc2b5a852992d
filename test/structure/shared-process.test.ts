// The suite's files share their worker's process (vitest `isolate: false`): the guard that fails a file leaving the
// process changed is wired in, and it names each kind of change — then, put back, it sees none.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';
import { processChanges, snapshotProcess } from '../support/process-state.js';

describe('one process per worker, guarded', () => {
  it('the suite runs without isolation, with the guard as a setup file of every file', () => {
    expect(config.test?.isolate).toBe(false);
    expect(config.test?.setupFiles).toContain('test/setup/shared-process.ts');
  });

  it('names a variable, the directory, the exit code, a listener and a replaced global; nothing once put back', () => {
    const before = snapshotProcess();
    const cwd = process.cwd();
    const dir = mkdtempSync(join(tmpdir(), 'svc-shared-process-'));
    const random = Math.random;
    const exitCode = process.exitCode;
    const onWarning = () => undefined;
    try {
      process.env.SVC_SHARED_PROCESS_PROBE = 'left behind';
      process.chdir(dir);
      process.exitCode = 9;
      process.on('warning', onWarning);
      Math.random = () => 0.5;
      expect(processChanges(before, snapshotProcess())).toEqual([
        'process.env.SVC_SHARED_PROCESS_PROBE changed',
        `the working directory is ${dir} (was ${cwd})`,
        'process.exitCode is 9',
        "+1 listener(s) on process 'warning'",
        'Math.random replaced',
      ]);
    } finally {
      delete process.env.SVC_SHARED_PROCESS_PROBE;
      process.chdir(cwd);
      process.exitCode = exitCode;
      process.off('warning', onWarning);
      Math.random = random;
      rmSync(dir, { recursive: true, force: true });
    }
    expect(processChanges(before, snapshotProcess())).toEqual([]);
  });
});
