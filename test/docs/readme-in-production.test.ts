// The README's "In production" block, run as a user would paste it (type-checking alone let an invalid
// `traceparent` value through, which every call then refused): compiled by esbuild, run by Node from the
// repository root (so `@svc/a11y-sdk` is this package, as built), against the simulator, with SVC_LOG unset;
// SVC_REDIS_URL names a port nobody listens on (the replay store connects on its first delivery, none here).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { ensureBuilt } from '../reliability/support.js';
import { refusedPort } from '../support/loopback.js';
import { runProcess } from '../support/process.js';
import { readPage, ROOT } from './pages.js';

let sim: Simulator;
beforeAll(async () => {
  ensureBuilt();
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.stop();
});

describe('README › In production', () => {
  it('runs as written: a debug line per attempt (the key redacted, the hook header sent), withResponse gives the status', async () => {
    const readme = readPage('README.md');
    const start = readme.source.split('\n').indexOf('## In production');
    const block = readme.blocks.find((b) => b.lang === 'ts' && b.line > start);
    expect(block, 'a ts block under "## In production"').toBeDefined();
    const { code } = await transform(block!.text, { loader: 'ts', format: 'esm' });
    // Written inside the repository, so that `@svc/a11y-sdk` resolves to this package (its own exports), the
    // way a user's project resolves its dependency; console.log shows the response, console.debug the log.
    // Not in dist/: the package tests read that folder's listing.
    const script = join(ROOT, 'test', 'docs', `.readme-in-production-${process.pid}.mjs`);
    writeFileSync(script, code);
    try {
      const r = await runProcess(process.execPath, [script], {
        env: {
          PATH: process.env.PATH ?? '',
          SVC_API_KEY: sim.keys.full,
          SVC_BASE_URL: sim.url,
          SVC_REDIS_URL: `redis://127.0.0.1:${await refusedPort()}`,
        },
        timeoutMs: 30_000,
      });
      expect(r.code, r.stderr).toBe(0);
      // console.log(sites.length, response.headers.get('retry-after')): the simulator's sites, no Retry-After.
      expect(r.stdout).toMatch(/^\d+ null$/m);
      const log = `${r.stdout}${r.stderr}`;
      expect(log).toMatch(/\[a11y\] → GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/sites \(listSites\), attempt 1/);
      expect(log).toMatch(/"traceparent":"00-[0-9a-f]{32}-[0-9a-f]{16}-01"/);
      expect(log).toContain('"authorization":"[redacted]"');
      expect(log).not.toContain(sim.keys.full.slice(0, 8));
    } finally {
      rmSync(script, { force: true });
    }
  });
});
