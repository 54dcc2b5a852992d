// The run's redis-server is shared by files running side by side: each takes a database of its own
// (test/support/redis-database.ts), and two never get the same one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { REDIS_DATABASES, redisDatabase } from '../support/redis-database.js';

const TEST = fileURLToPath(new URL('..', import.meta.url));
const HELPER = 'support/redis-database.ts';
// Spelled in two parts, so that this file is not one of the readers it looks for.
const READ = ['inject(', "'redisServerUrl')"].join('');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.(ts|mjs)$/.test(name) ? [path] : [];
  });
}

describe('the shared redis-server', () => {
  it("only the helper reads the server's own URL (a file using it directly would share database 0)", () => {
    const readers = filesUnder(TEST)
      .filter((path) => readFileSync(path, 'utf8').includes(READ))
      .map((path) => relative(TEST, path));
    expect(readers).toEqual([HELPER]);
  });

  it('hands out a different database each time, each one empty of the others’ keys', async () => {
    const [a, b] = await Promise.all([redisDatabase(), redisDatabase()]);
    const number = (url: string) => Number(/\/(\d+)$/.exec(url)?.[1]);
    expect(number(a)).toBeGreaterThan(0);
    expect(number(a)).toBeLessThan(REDIS_DATABASES);
    expect(number(b)).not.toBe(number(a));
    const [first, second] = [createClient({ url: a }), createClient({ url: b })];
    await Promise.all([first.connect(), second.connect()]);
    try {
      await first.set('svc-a11y:probe', 'a');
      expect(await second.get('svc-a11y:probe')).toBeNull();
      expect(await first.get('svc-a11y:probe')).toBe('a');
    } finally {
      await Promise.all([first.quit(), second.quit()]);
    }
  });
});
