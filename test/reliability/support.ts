// Shared helpers of the reliability suite: the canary key, outcome capture with timing, a fetch that counts
// attempts (for faults where no server can count), the built binary, and the secret search.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { inspect } from 'node:util';
import { refusedPort } from '../support/loopback.js';
import { cliPath } from '../support/cli.js';

/** A recognisable API key: any output that contains it (or its distinctive core) is a leak. */
export const CANARY = 'svc_CANARY_7f3a9c2e5b1d4086a1b2c3d4e5f60718';

/** What one call did: its value or error, and how long it took. */
export interface Outcome {
  value?: unknown;
  error?: unknown;
  ms: number;
}

/** Runs `fn` and captures its value or error (sync throws included) and its duration. */
export async function outcome(fn: () => unknown): Promise<Outcome> {
  const started = performance.now();
  try {
    const value = await fn();
    return { value, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

/**
 * A `fetch` that counts the attempts made through it: for a refused port, where no server counts, and for
 * attempts timed out before a busy machine's server read them.
 */
export function countingFetch(): { fetch: typeof globalThis.fetch; readonly count: number; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    get count() {
      return urls.length;
    },
    fetch: (input, init) => {
      urls.push(input instanceof Request ? input.url : String(input));
      return globalThis.fetch(input, init);
    },
  };
}

/** `http://127.0.0.1:PORT` of a port that nothing listens on (connections are refused at once). */
export async function closedLoopbackUrl(): Promise<string> {
  return `http://127.0.0.1:${await refusedPort()}`;
}

/**
 * Builds dist/ once when it is missing (`npm test` builds first; a bare `vitest run` may not have).
 * A lock directory keeps parallel test files from building at the same time.
 */
export function ensureBuilt(): string {
  if (existsSync(cliPath)) return cliPath;
  const lock = new URL('../../node_modules/.cache/reliability-build.lock', import.meta.url).pathname;
  mkdirSync(new URL('../../node_modules/.cache/', import.meta.url).pathname, { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(cliPath)) return cliPath;
      if (Date.now() > deadline) throw new Error('timed out waiting for another test file to build dist/');
      execFileSync('sleep', ['0.2']);
    }
  }
  try {
    if (!existsSync(cliPath))
      execFileSync('npm', ['run', '--silent', 'build'], {
        cwd: new URL('../..', import.meta.url).pathname,
        stdio: 'ignore',
      });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return cliPath;
}

/** Every textual view of a value a user or a log pipeline could see. */
export function views(value: unknown): string {
  const parts: string[] = [];
  const add = (f: () => unknown) => {
    try {
      parts.push(String(f()));
    } catch (error) {
      parts.push(`<view threw ${String(error)}>`);
    }
  };
  add(() => inspect(value, { depth: Infinity, showHidden: true, getters: true }));
  add(() => JSON.stringify(value));
  add(() => String(value));
  if (value instanceof Error) {
    add(() => value.message);
    add(() => value.stack);
    add(() =>
      JSON.stringify(
        Object.fromEntries(
          Object.getOwnPropertyNames(value).map((k) => [k, (value as unknown as Record<string, unknown>)[k]]),
        ),
      ),
    );
    for (const key of Object.getOwnPropertyNames(value))
      add(() => inspect((value as unknown as Record<string, unknown>)[key], { depth: Infinity, showHidden: true }));
    add(() => inspect(value.cause, { depth: Infinity, showHidden: true }));
  }
  return parts.join('\n');
}

/** Forms a leaked key could take: verbatim, without the `svc_` prefix, URL- or base64-encoded. */
function leakForms(key: string): string[] {
  const core = key.replace(/^svc_/, '');
  return [
    key,
    core,
    encodeURIComponent(key),
    Buffer.from(key).toString('base64'),
    Buffer.from(`Bearer ${key}`).toString('base64'),
  ];
}

/** The leak forms of `key` found in `text` (empty when none). */
export function findLeaks(text: string, key: string): string[] {
  return leakForms(key).filter((form) => text.includes(form));
}
