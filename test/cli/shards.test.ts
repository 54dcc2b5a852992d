// A run split over a CI matrix (`--shard I/N`, `SVC_SHARD`, `shard` in the config file): the shares of one list cover
// every page exactly once, differ by one check at most and do not depend on the order the list was read in; each
// shard checks only its share, bounded by --max-urls, and its JSON report records the shard and digests of the whole
// list and of the judging settings.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planBatches } from '../../src/cli/gate/batches.js';
import { shardPages } from '../../src/cli/gate/shards.js';
import { UsageError } from '../../src/cli/exit-codes.js';
import { parseShard } from '../../src/cli/settings/ci-settings.js';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';

const SHOP = 'https://shop.example.com';

describe('the partition', () => {
  it('I/N is parsed, and anything else is refused naming the place and the rule', () => {
    expect(parseShard('2/4', '--shard')).toEqual({ index: 2, total: 4 });
    expect(parseShard(' 1 / 1 ', '--shard')).toEqual({ index: 1, total: 1 });
    for (const bad of ['0/4', '5/4', '1/0', '2', '1/1001', '-1/2', '1.5/2', 'a/b', '', '1/2/3']) {
      expect(() => parseShard(bad, '--shard'), bad).toThrow(UsageError);
      expect(() => parseShard(bad, '--shard'), bad).toThrow(
        `--shard must be I/N: whole numbers with 1 ≤ I ≤ N ≤ 1000, such as 2/4, got ${JSON.stringify(bad)}`,
      );
    }
  });

  it('the shares of one list cover every page exactly once, differ by one check at most, whatever the order', () => {
    const site = fc.constantFrom('https://a.example', 'https://b.example', 'https://c.example');
    const page = fc.tuple(site, fc.integer({ min: 0, max: 400 })).map(([origin, n]) => `${origin}/p/${n}`);
    fc.assert(
      fc.property(
        fc.uniqueArray(page, { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 20 }),
        (urls, total, perCheck) => {
          const shares = Array.from({ length: total }, (_, i) => shardPages(urls, { index: i + 1, total }, perCheck));
          const all = shares.flat();
          expect(all.length).toBe(urls.length);
          expect(new Set(all)).toEqual(new Set(urls));
          const checks = shares.map((share) => planBatches(share, { maxPerCheck: perCheck }).length);
          expect(Math.max(...checks) - Math.min(...checks)).toBeLessThanOrEqual(1);
          // Read in another order, the same partition.
          const reversed = [...urls].reverse();
          for (let i = 0; i < total; i++)
            expect(shardPages(reversed, { index: i + 1, total }, perCheck)).toEqual(shares[i]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

let sim: Simulator;
let dir: string;
let urlsFile: string;
const urls = Array.from({ length: 100 }, (_, i) => `${SHOP}/products/${String(i + 1).padStart(3, '0')}`);
beforeAll(async () => {
  sim = await startSimulator({ durations: { ciCheck: 200 }, rateLimit: false });
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-shards-'));
  urlsFile = join(dir, 'urls.txt');
  await writeFile(urlsFile, `${urls.join('\n')}\n`);
});
afterAll(() => sim.stop());

interface JsonReport {
  check: { pages?: Array<{ url: string }> };
  batches?: Array<{ urls: string[] }>;
  shard?: { index: number; total: number; pages: string; settings: string };
}
const pagesOf = (report: JsonReport) =>
  (report.batches ? report.batches.flatMap((b) => b.urls) : (report.check.pages ?? []).map((p) => p.url)).sort();

describe('a shard of a run', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    runCliLikeBinary(['ci', '--urls-file', urlsFile, '--fail-on', 'NONE', '--format', 'json', ...args], {
      env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url, ...env },
      timeoutMs: 60_000,
    });

  it('checks only its share, says so, and records the shard with digests of the whole list and the judging settings', async () => {
    const shares = await Promise.all([1, 2, 3].map((i) => run(['--shard', `${i}/3`])));
    const reports = shares.map((r) => {
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as JsonReport;
    });
    for (const [i, report] of reports.entries()) {
      expect(pagesOf(report)).toEqual(shardPages(urls, { index: i + 1, total: 3 }, 20).sort());
      expect(report.shard).toMatchObject({ index: i + 1, total: 3 });
      expect(shares[i]!.stderr).toContain(`Shard ${i + 1}/3: ${pagesOf(report).length} of the 100 pages.`);
    }
    // One list, one set of settings: the same digests in every shard; together, every page once.
    expect(new Set(reports.map((r) => r.shard!.pages)).size).toBe(1);
    expect(new Set(reports.map((r) => r.shard!.settings)).size).toBe(1);
    expect(reports.flatMap(pagesOf).sort()).toEqual([...urls].sort());
    // Other judging settings: another settings digest, the same list digest.
    const stricter = JSON.parse((await run(['--shard', '1/3', '--fail-on', 'ANY_CRITICAL'])).stdout) as JsonReport;
    expect(stricter.shard!.pages).toBe(reports[0]!.shard!.pages);
    expect(stricter.shard!.settings).not.toBe(reports[0]!.shard!.settings);
  });

  it('SVC_SHARD is read (a matrix job that sets it checks its share, not the whole list)', async () => {
    const r = await run([], { SVC_SHARD: '2/5' });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as JsonReport;
    expect(report.shard).toMatchObject({ index: 2, total: 5 });
    expect(pagesOf(report)).toEqual(shardPages(urls, { index: 2, total: 5 }, 20).sort());
  });

  it('--max-urls bounds the share, not the whole list; a share over it is refused naming the shard, nothing sent', async () => {
    const within = await run(['--shard', '1/3', '--max-urls', '40']);
    expect(within.code, within.stderr).toBe(0);
    const before = sim.requestCount();
    const over = await run(['--shard', '1/2', '--max-urls', '40']);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('60 URLs to check, more than --max-urls 40 (shard 1/2)');
    expect(sim.requestCount()).toBe(before);
  });

  it("a pull request's config file cannot narrow its gate: its shard is ignored with a warning; the matrix's SVC_SHARD still splits", async () => {
    const config = join(dir, 'pr-config.json');
    await writeFile(config, JSON.stringify({ shard: '1/1000' }));
    const pr = { GITHUB_EVENT_NAME: 'pull_request' };
    const ignored = await run(['--config', config], pr);
    expect(ignored.code, ignored.stderr).toBe(0);
    expect(ignored.stderr).toContain(`shard in ${config}`);
    expect(ignored.stderr).toContain(
      "is ignored on GitHub's pull_request event (GITHUB_EVENT_NAME): a pull request cannot narrow",
    );
    const report = JSON.parse(ignored.stdout) as JsonReport;
    expect(report.shard).toBeUndefined();
    expect(pagesOf(report)).toEqual([...urls].sort());
    // On a push the same file splits the run; on the pull request the matrix's variable does.
    const push = JSON.parse((await run(['--config', config], { GITHUB_EVENT_NAME: 'push' })).stdout) as JsonReport;
    expect(push.shard).toMatchObject({ index: 1, total: 1000 });
    const matrix = JSON.parse((await run(['--config', config], { ...pr, SVC_SHARD: '2/2' })).stdout) as JsonReport;
    expect(matrix.shard).toMatchObject({ index: 2, total: 2 });
  });

  it('a bad --shard or SVC_SHARD is a usage error naming it, before anything is sent', async () => {
    const before = sim.requestCount();
    const flag = await run(['--shard', '4/3']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--shard must be I/N');
    const env = await run([], { SVC_SHARD: 'two of four' });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('SVC_SHARD must be I/N');
    expect(sim.requestCount()).toBe(before);
  });
});
