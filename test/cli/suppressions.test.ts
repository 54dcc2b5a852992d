// Reviewed suppressions (src/cli/verdict/suppressions.ts, applied in prepareReport): the file's schema and its errors,
// what a suppressed finding becomes in every report (not counted toward --fail-on; SARIF `suppressions` of kind
// external with the reason as justification, checked with the SARIF schema and Microsoft's validator with
// GitHub's rules; JUnit skipped, checked against junit-10.xsd; counted separately), expired and stale entries,
// per-URL thresholds; and the CLI in process against the simulator.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/exit-codes.js';
import { prepareReport, toJUnit, toMarkdown, toSarif, toText } from '../../src/cli/report/index.js';
import { checkSuppressions, findSuppression, loadSuppressions } from '../../src/cli/verdict/suppressions.js';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { validateJUnitXsd } from '../support/junit-xsd.js';
import { runMultitool } from '../support/sarif-multitool.js';
import { validateSarif } from '../support/sarif.js';
import { CHECKOUT, failReport, HOME } from './reporters/fixtures.js';

const TODAY = '2026-06-15';
const entry = (fields: Record<string, unknown>) => ({
  ruleId: 'label',
  reason: 'Design system fix ships in v4 (A11Y-12)',
  expires: '2026-12-31',
  ...fields,
});
const file = (suppressions: unknown[]) => ({ suppressions });
const refusal = (data: unknown): string => {
  try {
    checkSuppressions(data, 'supp.json', TODAY);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('the suppressions file', () => {
  it('splits entries in force from expired ones (an entry suppresses through its expires day)', () => {
    const s = checkSuppressions(
      file([entry({}), entry({ expires: TODAY }), entry({ expires: '2026-06-14' })]),
      'supp.json',
      TODAY,
    );
    expect(s.active.map((e) => e.index)).toEqual([0, 1]);
    expect(s.expired.map((e) => e.index)).toEqual([2]);
  });

  it.each([
    [
      file([{ ruleId: 'label', expires: '2026-12-31' }]),
      'supp.json: suppressions[0].reason is required: every suppression needs a non-empty reason',
    ],
    [file([entry({ reason: '   ' })]), 'suppressions[0].reason is required'],
    [
      file([entry({}), entry({ expires: undefined })]),
      'suppressions[1].expires is required: every suppression needs an end date "YYYY-MM-DD"',
    ],
    [file([entry({ expires: '2026-02-30' })]), 'suppressions[0].expires must be a date "YYYY-MM-DD"'],
    [file([entry({ expiry: '2026-12-31' })]), 'suppressions[0] has an unknown key "expiry"'],
    [file([entry({ ruleId: '' })]), 'suppressions[0].ruleId must be a non-empty string'],
    [file([entry({ url: '(' })]), 'suppressions[0].url is not a valid regular expression'],
    [{ suppression: [] }, 'has an unknown key "suppression"'],
    [[], '(top level)'],
  ])('refuses %j naming the entry and the rule', (data, message) => {
    expect(refusal(data)).toContain(message);
  });

  it('is read from disk: a default file that does not exist is no suppressions; a named one must exist; bad JSON names the line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-a11y-supp-'));
    expect(loadSuppressions(join(dir, '.a11y-suppressions.json'), { required: false })).toBeUndefined();
    expect(() => loadSuppressions(join(dir, 'missing.json'), { required: true })).toThrow(
      /suppressions file: .*missing\.json cannot be read \(ENOENT\)/,
    );
    await writeFile(join(dir, 'bad.json'), '{\n  "suppressions": [,]\n}');
    expect(() => loadSuppressions(join(dir, 'bad.json'), { required: true })).toThrow(
      /bad\.json is not valid JSON \(line 2/,
    );
  });

  it('matches by rule id and each of URL pattern, selector and fingerprint that the entry gives', () => {
    const s = checkSuppressions(
      file([entry({ url: '/checkout$', target: '#email' }), entry({ ruleId: 'region', fingerprint: 'fp-region' })]),
      'f',
      TODAY,
    ).active;
    expect(findSuppression(s, { ruleId: 'label', url: CHECKOUT, target: '#email' })?.index).toBe(0);
    expect(findSuppression(s, { ruleId: 'label', url: HOME, target: '#email' })).toBeUndefined();
    expect(findSuppression(s, { ruleId: 'label', url: CHECKOUT, target: '#name' })).toBeUndefined();
    expect(findSuppression(s, { ruleId: 'region', fingerprint: 'fp-region' })?.index).toBe(1);
    expect(findSuppression(s, { ruleId: 'region', fingerprint: 'other' })).toBeUndefined();
  });
});

describe('a suppressed finding in every report', () => {
  // failReport: SERIOUS_OR_WORSE, 3 breaking findings (color-contrast, label, image-alt); `label` and `region` suppressed.
  const suppressions = checkSuppressions(
    file([
      entry({ url: '/checkout' }),
      entry({ ruleId: 'region', reason: 'Promo banner is decorative' }),
      entry({ ruleId: 'never-seen' }),
    ]),
    'f',
    TODAY,
  ).active;
  const report = prepareReport(failReport(), { suppressions });

  it('does not count toward the threshold, is counted separately, and the entry that matched nothing is not "used"', () => {
    expect(report.failures.map((v) => v.ruleId).sort()).toEqual(['color-contrast', 'image-alt']);
    expect(report.suppressed.map((f) => [f.violation.ruleId, f.suppression?.reason])).toEqual([
      ['label', 'Design system fix ships in v4 (A11Y-12)'],
      ['region', 'Promo banner is decorative'],
    ]);
    expect(report.suppressionsUsed).toEqual([0, 1]);
    expect(toText(report, { color: false })).toContain('Suppressed: 2 findings');
    expect(toMarkdown(report)).toContain(
      '| suppressed: Design system fix ships in v4 (A11Y-12) (until 2026-12-31) | new | serious | label |',
    );
  });

  it('a service FAIL that suppressed findings account for passes; one nothing accounts for still fails', () => {
    const all = checkSuppressions(
      file([entry({ ruleId: 'label' }), entry({ ruleId: 'image-alt' }), entry({ ruleId: 'color-contrast' })]),
      'f',
      TODAY,
    ).active;
    const passed = prepareReport(failReport(), { suppressions: all });
    expect(passed.verdict.outcome).toBe('PASS');
    expect(passed.verdict.reasons[0]).toMatch(/the service's FAIL comes from findings that are suppressed/);
    // No finding breaks the service's threshold: its FAIL is not explained, so the gate fails (fail closed).
    const unexplained = failReport();
    unexplained.violations = unexplained.violations.filter((v) => v.impact === 'minor');
    expect(prepareReport(unexplained, { suppressions: all }).verdict.outcome).toBe('FAIL');
  });

  it('SARIF: the suppressed failure is a result with suppressions kind external and the reason as justification; valid for the schema and GitHub', async () => {
    const log = toSarif(report, { toolVersion: '0.0.0' });
    expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
    const results = log.runs[0]!.results!;
    expect(results.map((r) => r.ruleId).sort()).toEqual(['color-contrast', 'image-alt', 'label']);
    const label = results.find((r) => r.ruleId === 'label')!;
    expect(label.suppressions).toEqual([
      {
        kind: 'external',
        status: 'accepted',
        justification: 'Design system fix ships in v4 (A11Y-12) (until 2026-12-31)',
      },
    ]);
    for (const r of results.filter((x) => x.ruleId !== 'label')) expect(r.suppressions).toBeUndefined();
    // `region` does not break SERIOUS_OR_WORSE: not an alert, suppressed or not.
    expect(results.some((r) => r.ruleId === 'region')).toBe(false);
    expect(log.runs[0]!.properties?.suppressedResults).toBe(1);
    const dir = await mkdtemp(join(tmpdir(), 'svc-a11y-supp-sarif-'));
    await writeFile(join(dir, 'suppressed.sarif'), JSON.stringify(log));
    const checked = await runMultitool([join(dir, 'suppressed.sarif')], dir);
    expect(checked.problems).toEqual([]);
    expect(checked.findings.filter((f) => f.level === 'error')).toEqual([]);
  }, 60_000);

  it('JUnit: suppressed findings are skipped with the reason; valid against junit-10.xsd', () => {
    const xml = toJUnit(report);
    const xsd = validateJUnitXsd({ suppressed: xml });
    expect(xsd.ok, xsd.output).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const cases = [doc.testsuites.testsuite]
      .flat()
      .flatMap((s: { testcase: unknown }) => [s.testcase].flat()) as Array<{
      name: string;
      skipped?: { type: string; message: string };
      failure?: unknown;
    }>;
    const label = cases.find((c) => c.name.startsWith('label '))!;
    expect(label.failure).toBeUndefined();
    expect(label.skipped).toMatchObject({
      type: 'suppressed',
      message: 'Suppressed until 2026-12-31: Design system fix ships in v4 (A11Y-12)',
    });
    expect(cases.filter((c) => c.failure)).toHaveLength(2);
    expect(cases.filter((c) => c.skipped?.type === 'suppressed')).toHaveLength(2);
  });

  it('per-URL thresholds: the first matching entry judges the page; the service FAIL they account for is judged from them', () => {
    const strict = prepareReport(failReport(), {
      failOn: 'NONE',
      failOnByUrl: [{ url: '/checkout$', failOn: 'ANY_CRITICAL' }],
    });
    expect(strict.failures.map((v) => v.ruleId)).toEqual(['image-alt']);
    expect(strict.findings.find((f) => f.violation.ruleId === 'image-alt')?.failOn).toBe('ANY_CRITICAL');
    expect(strict.verdict.outcome).toBe('FAIL');
    const lenient = prepareReport(failReport(), { failOnByUrl: [{ url: 'shop\\.example\\.com', failOn: 'NONE' }] });
    expect(lenient.failures).toEqual([]);
    expect(lenient.verdict.outcome).toBe('PASS');
  });
});

describe('svc-a11y ci with suppressions (in process, simulator)', () => {
  let sim: Simulator;
  let dir: string;
  const env = () => ({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url });
  const page = 'https://shop.example.com/clean/promo?regress=1';
  beforeAll(async () => {
    sim = await startSimulator({ durations: { ciCheck: 150 }, rateLimit: false });
    dir = await mkdtemp(join(tmpdir(), 'svc-a11y-supp-cli-'));
  });
  afterAll(() => sim.stop());

  it('a valid entry turns the FAIL into a PASS; SARIF and JUnit show it suppressed; a stale entry warns', async () => {
    const supp = join(dir, 'ok.json');
    await writeFile(
      supp,
      JSON.stringify(file([entry({ ruleId: 'image-alt', url: '/promo' }), entry({ ruleId: 'color-contrast' })])),
    );
    const failing = await runCliLikeBinary(['ci', page, '--quiet'], { env: env() });
    expect(failing.code).toBe(1);
    const sarif = join(dir, 'ok.sarif');
    const junit = join(dir, 'ok.xml');
    const r = await runCliLikeBinary(
      ['ci', page, '--suppressions', supp, '--report', `sarif=${sarif}`, '--report', `junit=${junit}`],
      { env: env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Suppressed: 1 finding');
    expect(r.stderr).toContain('warning: suppression #2 color-contrast, expires 2026-12-31 in');
    expect(r.stderr).toContain('is stale: it matched no finding');
    const log = JSON.parse(await readFile(sarif, 'utf8'));
    expect(validateSarif(log)).toBe(true);
    expect(log.runs[0].results[0].suppressions[0]).toMatchObject({
      kind: 'external',
      justification: expect.stringContaining('Design system fix'),
    });
    expect(await readFile(junit, 'utf8')).toContain('<skipped type="suppressed"');
  });

  it('an expired entry suppresses nothing and warns', async () => {
    const supp = join(dir, 'expired.json');
    await writeFile(supp, JSON.stringify(file([entry({ ruleId: 'image-alt', expires: '2020-01-31' })])));
    const r = await runCliLikeBinary(['ci', page, '--suppressions', supp, '--quiet'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('warning: suppression #1 image-alt, expires 2020-01-31 in');
    expect(r.stderr).toContain('has expired: it no longer suppresses anything');
  });

  it('an entry without a reason → exit 2 naming the file and the entry; nothing sent. The default file beside the config is read', async () => {
    const supp = join(dir, 'noreason.json');
    await writeFile(supp, JSON.stringify(file([{ ruleId: 'image-alt', expires: '2999-01-01' }])));
    const before = sim.requestCount();
    const r = await runCliLikeBinary(['ci', page, '--suppressions', supp], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`suppressions file ${supp}: suppressions[0].reason is required`);
    expect(sim.requestCount()).toBe(before);

    const project = join(dir, 'project');
    await (await import('node:fs/promises')).mkdir(project, { recursive: true });
    await writeFile(
      join(project, 'svc-a11y.config.json'),
      JSON.stringify({ urls: [page], failOnByUrl: [{ url: '/nowhere', failOn: 'NONE' }] }),
    );
    await writeFile(join(project, '.a11y-suppressions.json'), JSON.stringify(file([entry({ ruleId: 'image-alt' })])));
    const fromDefault = await runCliLikeBinary(['ci', '--quiet'], { env: env(), cwd: project });
    expect(fromDefault.code, fromDefault.stderr).toBe(0);
  });

  it('per-URL failOn in the config file: a stricter page fails a run the global threshold passes', async () => {
    const config = join(dir, 'strict.json');
    await writeFile(
      config,
      JSON.stringify({
        urls: [page, 'https://shop.example.com/clean/home'],
        failOn: 'NONE',
        failOnByUrl: [{ url: '/promo', failOn: 'ANY_CRITICAL' }],
      }),
    );
    const r = await runCliLikeBinary(['ci', '--config', config], { env: env() });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/1 finding breaks the threshold NONE/);
    const bad = join(dir, 'bad-strict.json');
    await writeFile(bad, JSON.stringify({ urls: [page], failOnByUrl: [{ url: '/promo', failOn: 'SOMETIMES' }] }));
    const refused = await runCliLikeBinary(['ci', '--config', bad], { env: env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('failOnByUrl[0].failOn must be one of NEW_CRITICAL');
  });
});
