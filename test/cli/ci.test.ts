// `svc-a11y ci` end to end: the CLI in process against the local simulator — stdout, stderr, exit codes and
// the report files CI systems read.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { validateSarif } from '../support/sarif.js';

let sim: Simulator;
let dir: string;
const env = () => ({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url });
const root = 'https://shop.example.com/';
const checkout = 'https://shop.example.com/checkout';
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at /);

beforeAll(async () => {
  sim = await startSimulator({ durations: { ciCheck: 150 }, rateLimit: false });
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-cli-'));
});
afterAll(() => sim.stop());

describe('svc-a11y ci against the simulator (one baseline story, in order)', () => {
  it('1. --set-baseline --fail-on NONE: PASS, exit 0, text report on stdout, progress on stderr', async () => {
    const r = await runCliLikeBinary(['ci', root, checkout, '--set-baseline', '--fail-on', 'NONE'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Accessibility check: PASS');
    expect(r.stdout).toContain('No baseline check was found');
    expect(r.stdout).toContain(root);
    expect(r.stderr).toMatch(/\[\d+\.\ds\] COMPLETED {2}pages 2\/2/);
    expect(r.stdout).not.toMatch(/\[\d+\.\ds\]/);
  });

  it('2. same pages against the baseline: nothing new → PASS with unchanged counts', async () => {
    const r = await runCliLikeBinary(['ci', root, checkout], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Accessibility check: PASS');
    expect(r.stdout).toMatch(/Fixed: 0, unchanged: [1-9]\d*/);
  });

  it('3. a regression: FAIL, exit 1, JUnit + SARIF + markdown reports, job summary and annotations', async () => {
    const summary = join(dir, 'summary.md');
    await writeFile(summary, '# Earlier step\n');
    const junit = join(dir, 'reports/a11y.xml');
    const sarif = join(dir, 'reports/a11y.sarif');
    const markdown = join(dir, 'a11y.md');
    const r = await runCliLikeBinary(
      [
        'ci',
        `${root}?regress=2`,
        checkout,
        '--report',
        `junit=${junit}`,
        '--report',
        `sarif=${sarif}`,
        '--report',
        `markdown=${markdown}`,
      ],
      {
        env: { ...env(), GITHUB_STEP_SUMMARY: summary, GITHUB_ACTIONS: 'true' },
      },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Accessibility check: FAIL');
    noStack(r.stderr);

    // JUnit: parses as XML, a suite per page, failures = the 2 new critical findings.
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      await readFile(junit, 'utf8'),
    );
    const suites = [xml.testsuites.testsuite].flat();
    expect(suites.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining([`${root}?regress=2`, checkout]),
    );
    expect(Number(xml.testsuites.failures)).toBe(2);
    const cases = suites.flatMap((s: { testcase: unknown }) => [s.testcase].flat()) as Array<{
      name: string;
      failure?: unknown;
    }>;
    expect(cases.filter((c) => c.failure)).toHaveLength(2);
    expect(Number(xml.testsuites.tests)).toBe(cases.length);

    // SARIF: valid against the 2.1.0 schema; failures only, with fingerprints.
    const log = JSON.parse(await readFile(sarif, 'utf8'));
    expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
    expect(log.runs[0].results).toHaveLength(2);
    for (const result of log.runs[0].results) {
      expect(result.level).toBe('error');
      expect(Object.values(result.partialFingerprints)[0]).toMatch(/^[0-9a-f]{16}$/);
    }

    // Markdown report and job summary (appended, earlier content kept, under 1 MiB).
    expect(await readFile(markdown, 'utf8')).toContain('Accessibility check: FAIL');
    const appended = await readFile(summary, 'utf8');
    expect(appended.startsWith('# Earlier step\n')).toBe(true);
    expect(appended).toContain('Accessibility check: FAIL');
    expect(Buffer.byteLength(appended)).toBeLessThan(1024 * 1024);

    // GitHub annotations on stderr (stdout stays the report's).
    expect(r.stderr.match(/^::error /gm)).toHaveLength(2);
    expect(r.stdout).not.toContain('::error');
  });

  it('--json prints the API records only; no progress', async () => {
    const r = await runCliLikeBinary(['ci', root, '--json'], { env: env() });
    const report = JSON.parse(r.stdout);
    expect(report.check.status).toBe('COMPLETED');
    expect(Array.isArray(report.violations)).toBe(true);
    expect(report.violations[0]).toHaveProperty('fingerprint');
    expect(r.stderr).toBe('');
  });

  it('--format sarif on stdout is a valid SARIF log', async () => {
    const r = await runCliLikeBinary(['ci', `${root}?regress=1`, '--format', 'sarif', '--quiet'], { env: env() });
    expect(r.code).toBe(1);
    expect(validateSarif(JSON.parse(r.stdout))).toBe(true);
    expect(r.stderr).toBe('');
  });

  it('says on stderr where it wrote each report; stdout stays the report', async () => {
    const junit = join(dir, 'said.xml');
    const sarif = join(dir, 'said.sarif');
    const r = await runCliLikeBinary(
      ['ci', root, '--no-progress', '--report', `junit=${junit}`, '--report', `sarif=${sarif}`],
      {
        env: env(),
      },
    );
    expect(r.stderr).toContain(`wrote JUnit to ${junit}\n`);
    expect(r.stderr).toContain(`wrote SARIF to ${sarif}\n`);
    expect(r.stdout).not.toContain('wrote ');
  });

  it('--quiet: no stdout report, no progress; the exit code and report files remain', async () => {
    const junit = join(dir, 'quiet.xml');
    const r = await runCliLikeBinary(['ci', root, '--quiet', '--report', `junit=${junit}`], { env: env() });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('');
    expect(await readFile(junit, 'utf8')).toContain('<testsuites');
  });
});

describe('svc-a11y ci: progress', () => {
  it('prints one line per status change on stderr (not a TTY): RUNNING with pages, then COMPLETED', async () => {
    const slow = await startSimulator({ durations: { ciCheck: 3000 }, rateLimit: false });
    try {
      const r = await runCliLikeBinary(['ci', root, checkout], {
        env: { SVC_API_KEY: slow.keys.full, SVC_BASE_URL: slow.url },
      });
      const lines = r.stderr.trim().split('\n');
      expect(lines.some((l) => /^\[\d+\.\ds\] RUNNING {2}pages [01]\/2$/.test(l))).toBe(true);
      expect(lines.at(-1)).toMatch(/^\[\d+\.\ds\] COMPLETED {2}pages 2\/2$/);
      expect(new Set(lines).size).toBe(lines.length); // no repeated line for an unchanged state
      expect(r.stdout).not.toMatch(/\[\d+\.\ds\]/);
    } finally {
      await slow.stop();
    }
  });
});

describe('svc-a11y ci: checks that could not run never pass', () => {
  it('one UNREACHABLE page → exit 4 even when the verdict passes', async () => {
    const r = await runCliLikeBinary(['ci', root, 'https://shop.example.com/unreachable', '--fail-on', 'NONE'], {
      env: env(),
    });
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('UNREACHABLE');
  });

  it('every page unreachable → the check ends FAILED → exit 4 with the failure reason', async () => {
    const r = await runCliLikeBinary(
      ['ci', 'https://shop.example.com/unreachable', 'https://shop.example.com/timeout'],
      {
        env: env(),
      },
    );
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/FAILED/);
  });

  it('the wait times out → exit 4 naming the job and its last status', async () => {
    const slow = await startSimulator({ durations: { ciCheck: 60_000 }, rateLimit: false });
    try {
      const r = await runCliLikeBinary(['ci', root, '--timeout', '1500ms'], {
        env: { SVC_API_KEY: slow.keys.full, SVC_BASE_URL: slow.url },
      });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(
        /CI check [0-9a-f-]{36} did not finish within \d+ ms \(--timeout\); it was (QUEUED|RUNNING) when last seen\./,
      );
    } finally {
      await slow.stop();
    }
  });
});

describe('svc-a11y ci: API errors → exit 3 with code, title and traceId', () => {
  it('an unverified site → 409 DOMAIN_NOT_VERIFIED', async () => {
    const r = await runCliLikeBinary(['ci', 'https://blog.example.org/'], { env: env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('409 DOMAIN_NOT_VERIFIED');
    expect(r.stderr).toMatch(/traceId: [0-9a-f-]{36}/);
    expect(r.stdout).toBe('');
    noStack(r.stderr);
  });

  it('a key without ci:check → 403 API_KEY_SCOPE_MISSING; the key is never printed', async () => {
    const r = await runCliLikeBinary(['ci', root, '--api-key', sim.keys.noCi], { env: { SVC_BASE_URL: sim.url } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('403 API_KEY_SCOPE_MISSING');
    expect(r.stdout + r.stderr).not.toContain(sim.keys.noCi);
  });

  it('a bad key → 401 API_KEY_INVALID', async () => {
    const r = await runCliLikeBinary(['sites'], { env: { SVC_API_KEY: 'svc_wrong_key_123', SVC_BASE_URL: sim.url } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('401 API_KEY_INVALID');
    expect(r.stderr).not.toContain('svc_wrong_key_123');
  });
});
