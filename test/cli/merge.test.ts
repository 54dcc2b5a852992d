// `svc-a11y merge`: the JSON reports of a matrix's shards give one verdict and one set of reports, as one run of the
// whole list would (the same verdict, the same pages and findings, each once); a set with a shard missing is not
// judged (exit 4 naming it) unless a FAIL decides; a mixed set (another matrix, list or settings; a shard twice; a
// report that is not a shard's, or was edited) is refused with exit 2 and nothing written.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';

const SHOP = 'https://shop.example.com';
let sim: Simulator;
let dir: string;
let n = 0;
const file = (name: string) => join(dir, `${++n}-${name}`);

beforeAll(async () => {
  sim = await startSimulator({ durations: { ciCheck: 100 }, rateLimit: false });
  dir = mkdtempSync(join(tmpdir(), 'svc-a11y-merge-'));
});
afterAll(() => sim.stop());

const env = () => ({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url });
const cli = (args: string[]) => runCliLikeBinary(args, { env: env(), timeoutMs: 60_000 });

// A list of `count` clean pages (no findings), plus `extra` pages.
function list(count: number, extra: string[] = []): string {
  const path = file('urls.txt');
  const urls = [...Array.from({ length: count }, (_, i) => `${SHOP}/clean/${String(i).padStart(3, '0')}`), ...extra];
  writeFileSync(path, `${urls.join('\n')}\n`);
  return path;
}

// Runs every shard of `urls` (or those in `only`), each writing its JSON report; returns the reports' paths.
async function shards(urls: string, total: number, args: string[] = [], only?: number[]): Promise<string[]> {
  const indexes = only ?? Array.from({ length: total }, (_, i) => i + 1);
  return Promise.all(
    indexes.map(async (i) => {
      const json = file(`shard-${i}.json`);
      const r = await cli([
        'ci',
        '--urls-file',
        urls,
        '--shard',
        `${i}/${total}`,
        '-q',
        '--report',
        `json=${json}`,
        ...args,
      ]);
      expect([0, 1, 4], r.stderr).toContain(r.code);
      return json;
    }),
  );
}

const merge = (files: string[], args: string[] = []) => cli(['merge', ...files, ...args]);
const read = (path: string) => readFileSync(path, 'utf8');
const ids = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID');

describe('one verdict from the shards, as one run of the whole list', () => {
  it('the merged reports hold every page and finding of the list once, with the verdict and text one run gives', async () => {
    const urls = list(70, [`${SHOP}/promo?regress=2`, `${SHOP}/sale?regress=1`]);
    const parts = await shards(urls, 3);
    const one = {
      text: file('one.txt'),
      json: file('one.json'),
      sarif: file('one.sarif'),
      codequality: file('one-cq.json'),
    };
    const whole = await cli([
      'ci',
      '--urls-file',
      urls,
      '-q',
      ...['text', 'json', 'sarif', 'codequality'].flatMap((k) => ['--report', `${k}=${one[k as keyof typeof one]}`]),
    ]);
    expect(whole.code).toBe(1);

    const out = {
      text: file('m.txt'),
      json: file('m.json'),
      sarif: file('m.sarif'),
      junit: file('m.xml'),
      codequality: file('m-cq.json'),
      html: file('m.html'),
      markdown: file('m.md'),
    };
    const merged = await merge(
      parts,
      Object.entries(out).flatMap(([kind, path]) => ['--report', `${kind}=${path}`]),
    );
    expect(merged.code, merged.stderr).toBe(1);
    expect(merged.stderr).toContain('Merged 3 of 3 shards: 72 pages in 4 CI checks.');
    // The text report is one run's, but for the checks' ids and links.
    expect(ids(read(out.text))).toBe(ids(read(one.text)));
    const m = JSON.parse(read(out.json));
    const w = JSON.parse(read(one.json));
    expect(m.verdict).toEqual(w.verdict);
    expect(m.merged).toEqual({ total: 3, given: [1, 2, 3], missing: [] });
    expect(m.batches.map((b: { label: string }) => b.label)).toEqual(w.batches.map((b: { label: string }) => b.label));
    const pages = (r: { check: { pages: Array<{ url: string }> } }) => r.check.pages.map((p) => p.url).sort();
    expect(pages(m)).toEqual(pages(w));
    expect(new Set(pages(m)).size).toBe(72);
    // Each finding once, in SARIF and Code Quality as in one run's.
    expect(m.violations).toHaveLength(w.violations.length);
    type Sarif = { runs: Array<{ results: Array<{ ruleId: string; level: string; locations: unknown }> }> };
    const results = (path: string) =>
      (JSON.parse(read(path)) as Sarif).runs
        .flatMap((r) => r.results.map((x) => ids(JSON.stringify([x.ruleId, x.level, x.locations]))))
        .sort();
    expect(results(out.sarif).length).toBeGreaterThan(0);
    expect(results(out.sarif)).toEqual(results(one.sarif));
    const cq = (path: string) => (JSON.parse(read(path)) as Array<{ fingerprint: string }>).map((i) => i.fingerprint);
    expect(new Set(cq(out.codequality)).size).toBe(cq(out.codequality).length);
    expect(cq(out.codequality).sort()).toEqual(cq(one.codequality).sort());
    const junit = new XMLParser({ ignoreAttributes: false }).parse(read(out.junit));
    expect(Number(junit.testsuites['@_failures'])).toBeGreaterThan(0);
    expect(read(out.html)).toContain('3 of 3');
    expect(read(out.markdown)).toContain('FAIL');
  }, 120_000);

  it('exit codes as one run: all pass → 0; a page not judged → 4; a FAIL wins over it → 1', async () => {
    const pass = await merge(await shards(list(45), 3));
    expect(pass.code, pass.stderr).toBe(0);
    const unknown = await merge(await shards(list(45, [`${SHOP}/gone/unreachable`]), 3));
    expect(unknown.code, unknown.stdout).toBe(4);
    // Its shard checked it again alone (--recheck 1, the default): the merged report shows both attempts.
    expect(unknown.stdout).toMatch(/recheck 1: the check did not complete \(status FAILED\)/);
    expect(unknown.stdout).toContain(
      'UNREACHABLE, then UNREACHABLE on recheck 1  https://shop.example.com/gone/unreachable',
    );
    const both = await merge(await shards(list(45, [`${SHOP}/a/unreachable`, `${SHOP}/x?regress=1`]), 3));
    expect(both.code).toBe(1);
    expect(both.stdout).toContain('also not judged');
  }, 120_000);

  it('a shard with no check of its own writes its report, and the set is whole with it', async () => {
    const parts = await shards(list(30), 4); // 2 checks over 4 shards
    const empty = JSON.parse(read(parts[3]!));
    expect(empty.batches).toEqual([]);
    expect(empty.shard).toMatchObject({ index: 4, total: 4 });
    const r = await merge(parts);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Merged 4 of 4 shards: 30 pages in 2 CI checks.');
  }, 120_000);
});

describe('an incomplete set', () => {
  it('shards 1, 3 and 4 of 4 → exit 4 naming shard 2, the reports written with what is known', async () => {
    const parts = await shards(list(80), 4, [], [1, 3, 4]);
    const json = file('incomplete.json');
    const r = await merge(parts, ['--report', `json=${json}`]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("error: shard 2/4's report was not given: its pages were not judged");
    expect(r.stdout).toContain('shard 2/4: its report was not given, so its pages were not judged');
    expect(JSON.parse(read(json)).merged).toEqual({ total: 4, given: [1, 3, 4], missing: [2] });
  }, 120_000);

  it('a FAIL in the shards given still decides (exit 1), the missing shard named too', async () => {
    const parts = await shards(list(40, [`${SHOP}/x?regress=1`]), 3, [], [1, 3]);
    const r = await merge(parts);
    expect([1, 4]).toContain(r.code);
    // The regressing page sorts into the first check (…/clean/… < …/x?…) only if it is there: find which.
    const failing = parts.some((p) => JSON.parse(read(p)).verdict.outcome === 'FAIL');
    expect(r.code).toBe(failing ? 1 : 4);
    expect(r.stderr).toContain("shard 2/3's report was not given");
  }, 120_000);
});

describe('a mixed set is refused (exit 2) and nothing is written', () => {
  let base: string[];
  beforeAll(async () => {
    base = await shards(list(60), 3);
  }, 120_000);

  const refused = async (files: string[], rule: string) => {
    const out = file('never.sarif');
    const r = await merge(files, ['--report', `sarif=${out}`]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(rule);
    expect(existsSync(out)).toBe(false);
  };

  it('another matrix, another list, other settings, a shard twice', async () => {
    const [other] = await shards(list(60), 4, [], [2]);
    await refused([base[0]!, other!], 'their numbers of shards differ');
    const [otherList] = await shards(list(61), 3, [], [2]);
    await refused([base[0]!, otherList!, base[2]!], 'they were cut from different page lists');
    const urls = list(60);
    const [stricter] = await shards(urls, 3, ['--fail-on', 'ANY_CRITICAL'], [2]);
    await refused([base[0]!, stricter!, base[2]!], 'they were judged with different settings');
    await refused([base[0]!, base[1]!, base[1]!], `shard 2/3 is given twice: ${base[1]} and ${base[1]}`);
  }, 120_000);

  it("a report that is not a shard's, not JSON, or edited", async () => {
    const plain = file('plain.json');
    await cli(['ci', `${SHOP}/clean/a`, '-q', '--report', `json=${plain}`]);
    await refused([plain], 'is not a shard\'s JSON report (it has no "shard")');
    const notJson = file('not.json');
    writeFileSync(notJson, '{"shard": ');
    await refused([notJson], 'is not JSON');
    // A page taken out of a shard: the whole set no longer makes up the list it was cut from.
    const edited = JSON.parse(read(base[1]!));
    edited.batches[0].urls.pop();
    const editedFile = file('edited.json');
    writeFileSync(editedFile, JSON.stringify(edited));
    await refused([base[0]!, editedFile, base[2]!], 'pages are not the list they were cut from');
    // A field of the wrong type names the field.
    const broken = JSON.parse(read(base[0]!));
    broken.judging.failOn = 'SOMETIMES';
    const brokenFile = file('broken.json');
    writeFileSync(brokenFile, JSON.stringify(broken));
    await refused([brokenFile], 'judging.failOn');
    // An absurd number of shards is refused, not listed as a billion missing ones.
    const absurd = JSON.parse(read(base[0]!));
    absurd.shard.total = 1e9;
    const absurdFile = file('absurd.json');
    writeFileSync(absurdFile, JSON.stringify(absurd));
    await refused([absurdFile], 'shard.total');
  }, 120_000);

  it('the key written into a report file by hand never reaches a merged report', async () => {
    const report = JSON.parse(read(base[0]!));
    report.batches[0].label = `leak ${sim.keys.full} "quoted" \\ back`;
    const leaked = file('leak.json');
    writeFileSync(leaked, JSON.stringify(report));
    const out = { json: file('leak-m.json'), html: file('leak-m.html') };
    const r = await merge(
      [leaked, base[1]!, base[2]!],
      ['--report', `json=${out.json}`, '--report', `html=${out.html}`],
    );
    expect(r.code, r.stderr).toBe(0);
    for (const text of [r.stdout, r.stderr, read(out.json), read(out.html)]) expect(text).not.toContain(sim.keys.full);
    expect(() => JSON.parse(read(out.json))).not.toThrow();
  }, 120_000);
});
