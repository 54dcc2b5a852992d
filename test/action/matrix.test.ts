// The action in a CI matrix: each shard job (`shard: I/N`) checks its share, writes its JSON report to reports-dir
// (the `json-file` output) and no pull request comment; the last job's `merge` input reads the shards' folder and
// gives one verdict, one SARIF and JUnit report and one comment, as one run of the whole list would. A shard whose
// report is missing fails the merge naming it. The committed bundle is run as the runner runs it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { type FakeGitHub, startFakeGitHub } from './fake-github.js';
import { type ActionRun, nodeForAction, runAction } from './run-action.js';

const TOKEN = 'ghs_fakeInstallationToken0123456789abcdef';
const MARKER = '<!-- svc-a11y-action -->';
let sim: Simulator;
let github: FakeGitHub;
let shardsDir: string;
const urls = [
  ...Array.from({ length: 50 }, (_, i) => `https://shop.example.com/clean/${String(i).padStart(2, '0')}`),
  'https://shop.example.com/sale?regress=1',
].join('\n');
const describeRun = (run: ActionRun) => `exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
const pr = (inputs: Record<string, string>) =>
  runAction({
    inputs: { 'base-url': sim.url, ...inputs },
    eventName: 'pull_request',
    eventFile: 'pull_request.opened.json',
    apiUrl: github.url,
    token: TOKEN,
  });
const comments = () => (github.comments.get(7) ?? []).filter((c) => c.body.startsWith(MARKER));

beforeAll(async () => {
  nodeForAction();
  sim = await startSimulator({ durations: { ciCheck: 100 }, rateLimit: false });
  github = await startFakeGitHub({ repository: 'acme/shop', token: TOKEN });
  shardsDir = mkdtempSync(join(tmpdir(), 'svc-a11y-matrix-'));
}, 600_000);
afterAll(async () => {
  await github?.close();
  await sim?.stop();
  rmSync(shardsDir, { recursive: true, force: true });
});

describe('a matrix of three shards and a merge job', () => {
  it('each shard writes its JSON report and no comment; the merge gives one verdict, one SARIF and one comment', async () => {
    const shards = await Promise.all(
      [1, 2, 3].map((i) => pr({ 'api-key': sim.keys.full, urls, shard: `${i}/3`, 'reports-dir': shardsDir })),
    );
    for (const [i, run] of shards.entries()) {
      expect(run.outputs['json-file'], describeRun(run)).toBe(join(shardsDir, `a11y-shard-${i + 1}-of-3.json`));
      expect(JSON.parse(readFileSync(run.outputs['json-file']!, 'utf8')).shard).toMatchObject({
        index: i + 1,
        total: 3,
      });
    }
    expect(comments()).toHaveLength(0);
    expect(shards.filter((r) => r.code !== 0)).toHaveLength(1); // the shard holding the regressing page

    // The merge job: no API key (nothing is sent), the folder the artifacts were downloaded into.
    const merged = await pr({ merge: shardsDir });
    expect(merged.code, describeRun(merged)).toBe(1);
    expect(merged.outputs.verdict).toBe('FAIL');
    expect(merged.outputs['new-findings']).not.toBe('');
    const sarif = JSON.parse(readFileSync(merged.outputs['sarif-file']!, 'utf8'));
    expect(sarif.runs).toHaveLength(1);
    expect(sarif.runs[0].results.some((r: { level: string }) => r.level === 'error')).toBe(true);
    expect(readFileSync(merged.outputs['junit-file']!, 'utf8')).toContain('<testsuites');
    expect(comments()).toHaveLength(1);
    expect(comments()[0]!.body).toContain('Accessibility check: FAIL');
    expect(merged.outputs['comment-url']).toBe(comments()[0]!.html_url);
    expect(merged.summary).toContain('## Accessibility check: FAIL');
    expect(merged.stdout).toMatch(/^::error/m);
  }, 180_000);

  it('a shard report missing fails the merge naming the shard; an empty merge input names the folder', async () => {
    const partial = mkdtempSync(join(tmpdir(), 'svc-a11y-matrix-partial-'));
    try {
      await Promise.all(
        [1, 3].map((i) =>
          pr({
            'api-key': sim.keys.full,
            urls: 'https://shop.example.com/clean/a\nhttps://shop.example.com/clean/b',
            shard: `${i}/3`,
            'reports-dir': partial,
            'urls-per-check': '1',
            comment: 'false',
          }),
        ),
      );
      const merged = await pr({ merge: partial, comment: 'false' });
      expect(merged.code, describeRun(merged)).toBe(1);
      expect(merged.outputs.verdict).toBe('UNKNOWN');
      expect(merged.stdout).toMatch(/^::error::Accessibility check UNKNOWN: shard 2\/3: its report was not given/m);
      const empty = await pr({ merge: join(partial, 'nothing-here') });
      expect(empty.code).toBe(1);
      expect(empty.stdout).toContain('::error::svc-a11y merge exited 2');
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
  }, 180_000);
});
