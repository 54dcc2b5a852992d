// `--recheck N` (src/cli/gate/rechecks.ts) against the simulator, whose `?flaky=N` pages are UNREACHABLE in their
// first N CI checks: a recheck holds exactly the pages that failed the attempt before, never sets the baseline, at
// most N of them; the verdict reads each page's last attempt and every report shows the attempts.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentBody, commentMarker } from '../../src/cli/report/comment.js';
import { prepareReport } from '../../src/cli/verdict/prepare.js';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.js';

let sim: Simulator;
let proxy: RecordingProxy;
let dir: string;
const env = () => ({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: proxy.url });
const SHOP = 'https://shop.example.com';
// Each test uses pages of its own: the simulator counts a flaky page's checks over its whole life.
let n = 0;
const page = (path: string) => `${SHOP}/r${++n}${path}`;
const checksSince = (before: number) => proxy.created().slice(before);

beforeAll(async () => {
  sim = await startSimulator({ durations: { ciCheck: 120 }, rateLimit: false });
  proxy = await startRecordingProxy(sim.url);
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-recheck-'));
});
afterAll(async () => {
  await proxy.close();
  await sim.stop();
});

describe('--recheck', () => {
  it('a page UNREACHABLE once passes on recheck 1 (the default): the recheck holds only it, and the reports say so', async () => {
    const flaky = page('/clean?flaky=1');
    const steady = page('/clean');
    const before = proxy.created().length;
    const json = join(dir, 'one.json');
    const md = join(dir, 'one.md');
    const junit = join(dir, 'one.xml');
    const sarif = join(dir, 'one.sarif');
    const r = await runCliLikeBinary(
      [
        'ci',
        flaky,
        steady,
        '--fail-on',
        'ANY_CRITICAL',
        '--report',
        `json=${json}`,
        '--report',
        `markdown=${md}`,
        '--report',
        `junit=${junit}`,
        '--report',
        `sarif=${sarif}`,
      ],
      { env: env() },
    );
    expect(r.code, r.stderr).toBe(0);
    const created = checksSince(before);
    expect(created.map((c) => c.urls)).toEqual([[flaky, steady].sort(), [flaky]]);
    expect(created[1]!.context?.svcA11yBatch).toBe(`${SHOP} 1/1 recheck 1`);
    expect(r.stdout).toContain('UNREACHABLE, then DONE on recheck 1');
    expect(r.stdout).toContain('shop.example.com recheck 1');
    const report = JSON.parse(await readFile(json, 'utf8'));
    const entry = report.check.pages.find((p: { url: string }) => p.url === flaky);
    expect(entry.status).toBe('DONE');
    expect(entry.attempts.map((a: { status: string; recheck: number }) => [a.status, a.recheck])).toEqual([
      ['UNREACHABLE', 0],
      ['DONE', 1],
    ]);
    // Each page once in the report: the first check no longer lists the rechecked page.
    expect(report.check.pages.map((p: { url: string }) => p.url).sort()).toEqual([flaky, steady].sort());
    expect(report.verdict.outcome).toBe('PASS');
    // The PR comment and the GitLab note (one builder) name the page and its attempts.
    const body = commentBody(prepareReport({ check: report.check, violations: report.violations }), {
      marker: commentMarker(),
      runUrl: undefined,
    });
    expect(body).toContain(`> 1 page checked on a recheck: ${flaky} (UNREACHABLE, then DONE on recheck 1)`);
    expect(await readFile(md, 'utf8')).toContain('UNREACHABLE, then DONE on recheck 1');
    new XMLParser().parse(await readFile(junit, 'utf8'));
    const log = JSON.parse(await readFile(sarif, 'utf8'));
    const notes = log.runs[0].invocations[0].toolExecutionNotifications ?? [];
    expect(notes.map((x: { message: { text: string } }) => x.message.text)).toContain(
      `Page checked again (UNREACHABLE, then DONE on recheck 1): ${flaky}`,
    );
  });

  it('a page that keeps failing: one check and N rechecks, no more, each holding only it; still exit 4', async () => {
    const flaky = page('/clean?flaky=9');
    const steady = page('/clean');
    const before = proxy.created().length;
    const r = await runCliLikeBinary(['ci', flaky, steady, '--recheck', '2'], { env: env() });
    expect(r.code).toBe(4);
    const created = checksSince(before);
    expect(created.map((c) => c.urls)).toEqual([[flaky, steady].sort(), [flaky], [flaky]]);
    expect(r.stdout).toContain('UNREACHABLE, then UNREACHABLE on recheck 1, then UNREACHABLE on recheck 2');
    expect(r.stdout).toContain('recheck 2: the check did not complete (status FAILED)');
  });

  it('a check that ends FAILED is checked again whole; --recheck 0 checks nothing again', async () => {
    const a = page('/clean?flaky=1');
    const b = page('/x?flaky=1');
    const before = proxy.created().length;
    const r = await runCliLikeBinary(['ci', a, b, '--fail-on', 'NONE'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(checksSince(before).map((c) => c.urls)).toEqual([[a, b].sort(), [a, b].sort()]);
    expect(r.stdout).toContain('UNREACHABLE, then DONE on recheck 1');

    const c = page('/clean?flaky=1');
    const mark = proxy.created().length;
    const off = await runCliLikeBinary(['ci', c, '--recheck', '0'], { env: env() });
    expect(off.code).toBe(4);
    expect(checksSince(mark)).toHaveLength(1);
  });

  it('a baseline run sends setBaseline only with the first check, and says what the baseline lacks', async () => {
    const flaky = page('/clean?flaky=1');
    const steady = page('/clean');
    const before = proxy.created().length;
    const r = await runCliLikeBinary(['ci', flaky, steady, '--set-baseline', '--fail-on', 'NONE'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const created = checksSince(before);
    expect(created.map((c) => c.setBaseline)).toEqual([true, false]);
    expect(r.stderr).toContain(
      `note: the baseline saved by this run lacks 1 page its first checks could not check (${flaky})`,
    );
  });

  it('a FAIL found on a recheck fails the run (the verdict reads the last attempt)', async () => {
    const flaky = page('/?flaky=1&regress=1');
    const before = proxy.created().length;
    const r = await runCliLikeBinary(['ci', flaky, '--fail-on', 'ANY_CRITICAL'], { env: env() });
    expect(r.code).toBe(1);
    expect(checksSince(before)).toHaveLength(2);
    expect(r.stdout).toContain('UNREACHABLE, then DONE on recheck 1');
  });

  it('the setting reads from the config file, SVC_RECHECK and the flag, and refuses what is out of range', async () => {
    const bad = await runCliLikeBinary(['ci', page('/'), '--recheck', '6'], { env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--recheck must be a whole number from 0 to 5, got "6"');
    const flaky = page('/clean?flaky=1');
    const before = proxy.created().length;
    const viaEnv = await runCliLikeBinary(['ci', flaky], { env: { ...env(), SVC_RECHECK: '0' } });
    expect(viaEnv.code).toBe(4);
    expect(checksSince(before)).toHaveLength(1);
  });
});
