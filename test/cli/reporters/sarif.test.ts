import type { Log, Result } from 'sarif';
import { validateSarif } from '../../support/sarif.js';
import { describe, expect, it } from 'vitest';
import { FINGERPRINT_KEY, sarifLevel, toSarif } from '../../../src/cli/reporters/index.js';
import type { CiReport } from '../../../src/cli/reporters/index.js';
import {
  adversarialReport,
  APP_URL,
  CHECKOUT,
  EVIL_HELP,
  EVIL_RULE,
  EVIL_TARGET,
  failedCheckReport,
  failReport,
  FAIL_BREAKING,
  HOME,
  manyFindingsReport,
  sparseReport,
  unreachableReport,
} from './fixtures.js';

const validate = validateSarif;

// Validates the log as the CLI writes it (serialised), so `undefined` members cannot hide problems.
function sarifOf(report: CiReport): Log {
  const log = JSON.parse(JSON.stringify(toSarif(report, { toolVersion: '0.1.0' }))) as Log;
  const valid = validate(log);
  expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
  expect(valid).toBe(true);
  return log;
}

const resultsOf = (log: Log): Result[] => log.runs[0]?.results ?? [];

describe('toSarif', () => {
  it('uses a validator that rejects invalid logs (so the checks below mean something)', () => {
    const bad = { version: '2.1.0', runs: [{ tool: { driver: { name: 'x', informationUri: 'not a uri' } }, results: [{ level: 'fatal', message: { text: 'm' } }] }] };
    expect(validate(bad)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(
      expect.arrayContaining(['/runs/0/tool/driver/informationUri', '/runs/0/results/0/level']),
    );
  });

  it.each([
    ['a FAIL check', failReport],
    ['a check with an unreachable page', unreachableReport],
    ['a check that failed', failedCheckReport],
    ['a check with missing fields', sparseReport],
    ['adversarial strings', adversarialReport],
    ['many findings', () => manyFindingsReport(500)],
  ])('is valid SARIF 2.1.0 for %s', (_, make) => {
    const log = sarifOf(make());
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]?.tool.driver.name).toBe('svc-a11y');
  });

  it('reports only the findings that break the threshold, new first', () => {
    const results = resultsOf(sarifOf(failReport()));
    expect(results.map((r) => r.partialFingerprints?.[FINGERPRINT_KEY])).toEqual(FAIL_BREAKING);
    expect(results.map((r) => [r.ruleId, r.level])).toEqual([
      ['color-contrast', 'error'],
      ['label', 'error'],
      ['image-alt', 'error'],
    ]);
  });

  it('builds one rule per reported rule id, with helpUri, WCAG tags and a correct ruleIndex', () => {
    const run = sarifOf(failReport()).runs[0]!;
    const rules = run.tool.driver.rules ?? [];
    expect(rules.map((r) => r.id)).toEqual(['color-contrast', 'image-alt', 'label']);
    for (const result of run.results ?? []) expect(rules[result.ruleIndex!]?.id).toBe(result.ruleId);
    const label = rules.find((r) => r.id === 'label')!;
    expect(label.helpUri).toBe('https://dequeuniversity.com/rules/axe/4.10/label');
    expect(label.shortDescription?.text).toContain('label');
    expect(label.properties?.tags).toEqual(['accessibility', '1.3.1', '4.1.2']);
  });

  it('locates a result by page URL and element selector, with baseline state and properties', () => {
    const [contrast, , img] = resultsOf(sarifOf(failReport()));
    expect(contrast?.locations).toEqual([
      {
        physicalLocation: { artifactLocation: { uri: HOME } },
        logicalLocations: [{ fullyQualifiedName: 'a.btn-primary', kind: 'element' }],
      },
    ]);
    expect(contrast?.baselineState).toBe('new');
    expect(contrast?.properties).toMatchObject({ isNew: true, wcagSc: ['1.4.3'], impact: 'critical' });
    expect(img?.baselineState).toBe('unchanged');
    expect(img?.properties?.isNew).toBe(false);
    expect(img?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe(CHECKOUT);
    expect(contrast?.message.text).toContain('color-contrast');
  });

  it('maps impacts to levels', () => {
    expect(['critical', 'serious', 'moderate', 'minor', undefined, 'blocker'].map(sarifLevel)).toEqual([
      'error',
      'error',
      'warning',
      'note',
      'warning',
      'warning',
    ]);
    const report = failReport();
    report.check.failOn = 'NONE';
    expect(resultsOf(sarifOf(report))).toEqual([]);
  });

  it('records the check in run properties and tool version', () => {
    const run = sarifOf(failReport()).runs[0]!;
    expect(run.properties).toMatchObject({
      checkId: failReport().check.id,
      verdict: 'FAIL',
      appUrl: APP_URL,
      failOn: 'SERIOUS_OR_WORSE',
    });
    expect(run.tool.driver.version).toBe('0.1.0');
    expect(run.tool.driver.informationUri).toMatch(/^https:\/\//);
    expect(run.invocations?.[0]?.executionSuccessful).toBe(true);
  });

  it('reports an unchecked page and a failed check as unsuccessful execution', () => {
    const unreachable = sarifOf(unreachableReport()).runs[0]!;
    expect(unreachable.invocations?.[0]?.executionSuccessful).toBe(false);
    expect(unreachable.invocations?.[0]?.toolExecutionNotifications?.[0]?.message.text).toContain('UNREACHABLE');
    const failed = sarifOf(failedCheckReport()).runs[0]!;
    expect(failed.invocations?.[0]?.executionSuccessful).toBe(false);
    expect(failed.invocations?.[0]?.toolExecutionNotifications?.[0]?.message.text).toContain('Site unreachable');
  });

  it('omits what the API did not send', () => {
    const [result] = resultsOf(sarifOf(sparseReport()));
    expect(result?.ruleId).toBe('unknown-rule');
    expect(result?.partialFingerprints).toBeUndefined();
    expect(result?.locations).toBeUndefined();
    expect(sarifOf(sparseReport()).runs[0]?.tool.driver.rules?.[0]?.helpUri).toBeUndefined();
  });

  it('keeps adversarial strings intact where they are data, and encodes them where they are URIs', () => {
    const run = sarifOf(adversarialReport()).runs[0]!;
    const [result] = run.results ?? [];
    expect(result?.ruleId).toBe(EVIL_RULE);
    expect(result?.locations?.[0]?.logicalLocations?.[0]?.fullyQualifiedName).toBe(EVIL_TARGET);
    const uri = result?.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? '';
    expect(uri).not.toMatch(/[|<>"\s]/);
    expect(decodeURI(uri)).toContain('evil.example.com/p|a%th');
    expect(run.tool.driver.rules?.[0]?.helpUri).toBe('https://help.example.com/rule?x=a%7Cb&y=(c)');
    expect(decodeURIComponent(run.tool.driver.rules?.[0]?.helpUri ?? '')).toBe(EVIL_HELP);
    expect(result?.partialFingerprints).toEqual({ [FINGERPRINT_KEY]: 'fp<&>"' });
  });
});
