// The checked-in API reports (npm test runs `npm run api:check` itself on dist/). That a changed surface fails the
// check, shows the diff (lines gone and come), names the entry, says what to run and leaves the report alone is
// test/spec-diff/maintainer-path.test.ts's, on the change a maintainer makes (a second API Extractor run here cost
// 5 CPU-s for the same).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('api:check', () => {
  it('reports are checked in for the six entries', () => {
    expect(readdirSync(join(root, 'api')).sort()).toEqual([
      'index.api.md',
      'redact.api.md',
      'redis.api.md',
      'testing.api.md',
      'vocabulary.api.md',
      'webhooks.api.md',
    ]);
    const index = readFileSync(join(root, 'api/index.api.md'), 'utf8');
    // Named return types, and the generated fields behind them, are in the reviewed text.
    expect(index).toContain(
      'createAndWait(body: CreateCiCheckRequest, options?: WaitOptions<CiCheck>): APIPromise<CiCheck>;',
    );
    expect(index).toMatch(/V1CiCheckResponse: \{[^}]*verdict\?: "PASS" \| "FAIL";/);
    // Nothing machine- or build-specific (absolute paths, chunk hashes, line numbers).
    expect(index).not.toMatch(/\/work\/|\/tmp\/|store-[A-Za-z0-9]{6,}|\.d\.ts:\d+/);
  });
});
