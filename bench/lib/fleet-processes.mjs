// Starts the processes of a fleet (bench/lib/fleet-worker.mjs), each with the same arguments, and resolves with
// what each printed: { ok, failures, warnings, answers }. Used by benchmarks 7 (time-scaled) and 7b (a real minute).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const worker = fileURLToPath(new URL('./fleet-worker.mjs', import.meta.url));

/**
 * Runs `count` fleet workers at once; a worker's failure (or its bound, `timeoutMs`) rejects.
 * @param {number} count
 * @param {{ mode: string, url: string, apiKey: string, calls: number, rpm: number, redisUrl?: string }} fleet
 * @param {number} timeoutMs
 */
export function runWorkers(count, { mode, url, apiKey, calls, rpm, redisUrl = '' }, timeoutMs) {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve, reject) =>
          execFile(
            process.execPath,
            [worker, mode, url, apiKey, String(calls), String(rpm), redisUrl],
            { timeout: timeoutMs },
            (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
          ),
        ),
    ),
  );
}
