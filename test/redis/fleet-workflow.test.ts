// The fleet page's GitHub Actions matrix (docs/fleet.md) runs as written: its YAML is read from the page, and each
// matrix job's `run:` script is executed by bash with the job's `env`, the way the runner would — a
// redis-server per job standing in for the job's Redis service container (its port mapped), the simulator for
// the service, `node dist/cli.js` for `npx svc-a11y` (no install in tests). Both jobs at once, one API key.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startRedis } from '../../scripts/redis.mjs';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { cliPath, warningsBesidesStore } from '../support/cli.js';
import { type ProcessResult, runProcess } from '../support/process.js';
import { ensureBuilt } from '../reliability/support.js';

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}
/** The part of a SARIF run GitHub's upload keys analyses on: the tool and the category. */
interface SarifRun {
  tool: { driver: { name: string } };
  automationDetails?: { id?: string };
}
interface Job {
  'runs-on': string;
  strategy: { matrix: { group: string[] } };
  services: { redis: { image: string; ports: string[]; options?: string } };
  env: Record<string, string>;
  steps: Step[];
}

const page = readFileSync(new URL('../../docs/fleet.md', import.meta.url), 'utf8');
const job = (parse(/```yaml\n([\s\S]*?)```/.exec(page)![1]!) as { jobs: { a11y: Job } }).jobs.a11y;
// Pages of the simulator's verified site, per matrix group: one config file each, as a11y/<group>/*.json.
const PAGES: Record<string, string[]> = { shop: ['/', '/checkout'], account: ['/account', '/account/orders'] };

let sim: Simulator;
let dir: string;
beforeAll(async () => {
  ensureBuilt();
  sim = await startSimulator({ durations: { ciCheck: 300 } });
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-actions-'));
});
afterAll(async () => {
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
});

function bash(script: string, cwd: string, env: Record<string, string>): Promise<ProcessResult> {
  // What GitHub runs a `run:` step with on Linux.
  return runProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd,
    env,
    timeoutMs: 90_000,
  });
}

describe("the fleet page's GitHub Actions matrix", () => {
  it('each job runs a Redis service container on 6379 and points SVC_REDIS_URL at it', () => {
    expect(job.services.redis.image).toMatch(/^redis(:|$)/);
    expect(job.services.redis.ports).toContain('6379:6379');
    expect(job.services.redis.options).toMatch(/--health-cmd "redis-cli ping"/);
    expect(job.env.SVC_REDIS_URL).toBe('redis://localhost:6379');
    expect(job.strategy.matrix.group).toEqual(Object.keys(PAGES));
    // The key's rate split between the jobs, whose Redis are separate.
    expect(Number(job.env.SVC_RATE_LIMIT) * job.strategy.matrix.group.length).toBeLessThanOrEqual(120);
  });

  it("every job's checks run at once on one budget in its Redis, and pass", { timeout: 120_000 }, async () => {
    const step = job.steps.find((s) => s.run?.includes('svc-a11y ci'));
    expect(step?.run).toBeDefined();
    const services = await Promise.all(job.strategy.matrix.group.map(() => startRedis()));
    try {
      const uploaded: string[] = [];
      const runs = job.strategy.matrix.group.map(async (group, i) => {
        const workspace = join(dir, group);
        await mkdir(join(workspace, 'a11y', group), { recursive: true });
        for (const [n, path] of PAGES[group]!.entries()) {
          const config = {
            urls: [`https://shop.example.com${path}`],
            failOn: 'NONE',
            reports: { sarif: `reports/${group}-${n}.sarif` },
          };
          await writeFile(join(workspace, 'a11y', group, `page-${n}.json`), JSON.stringify(config));
        }
        const script = step!
          .run!.replaceAll('${{ matrix.group }}', group)
          .replaceAll('npx svc-a11y', `node ${JSON.stringify(cliPath)}`);
        const env = {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          ...job.env,
          SVC_API_KEY: sim.keys.full,
          SVC_BASE_URL: sim.url,
          // The service container's port, mapped to this job's redis-server.
          SVC_REDIS_URL: job.env.SVC_REDIS_URL!.replace('localhost:6379', `127.0.0.1:${services[i]!.port}`),
        };
        return { group, workspace, result: await bash(script, workspace, env) };
      });
      for (const { group, workspace, result } of await Promise.all(runs)) {
        expect(result.code, result.stderr).toBe(0);
        // No warning but the store's own (the bounded fallback of fleet-redis-down.test.ts). The budget was shared
        // all the same: see the sharers below.
        expect(warningsBesidesStore(result.stderr)).toEqual([]);
        const written = await readdir(join(workspace, 'reports'));
        expect(written.sort()).toEqual(PAGES[group]!.map((_, n) => `${group}-${n}.sarif`));
        uploaded.push(...(await Promise.all(written.map((f) => readFile(join(workspace, 'reports', f), 'utf8')))));
      }
      // What each job's upload-sarif sends: a folder of runs that GitHub accepts only if no two runs of one tool share
      // a category. Each run has its own (automationDetails.id), and the upload sets none to override them.
      const upload = job.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif'));
      expect(upload?.with).toEqual({ sarif_file: 'reports' });
      const sarifRuns = uploaded.flatMap((text) => (JSON.parse(text) as { runs: SarifRun[] }).runs);
      expect(sarifRuns).toHaveLength(Object.values(PAGES).flat().length);
      const categories = sarifRuns.map((r) => `${r.tool.driver.name} ${r.automationDetails?.id}`);
      expect(new Set(categories).size).toBe(sarifRuns.length);
      for (const run of sarifRuns) expect(run.automationDetails?.id).toMatch(/^a11y\/(shop|account)\/page-\d\/$/);
      // Each job's checks shared the budget in its own Redis (a hash of the key, never the key).
      for (const service of services) {
        const admin = createClient({ url: service.url });
        await admin.connect();
        try {
          const keys = await admin.keys('svc-a11y:rl:v1:*');
          expect(keys.length).toBeGreaterThan(0);
          for (const key of keys) expect(key).not.toContain(sim.keys.full);
          const sharers = keys.find((k) => k.endsWith(':sharers'));
          expect(await admin.zCard(sharers!)).toBe(2); // the job's two checks
        } finally {
          await admin.quit();
        }
      }
    } finally {
      await Promise.all(services.map((s) => s.stop()));
    }
    expect(existsSync(dir)).toBe(true);
  });
});
