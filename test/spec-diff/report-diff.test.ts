// The API report step and spec:diff agree: for real mutations of openapi.yaml, the regenerated record types (the
// `components` interface that api/index.api.md shows, produced by the same openapi-typescript call as
// `npm run generate`) change the report in a way classified like the description's change — a request field that
// becomes required is breaking in both, a response field that becomes required additive in both.
import { readFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { diffSpecs, worstClass } from '../../scripts/spec-diff.mjs';
import { mergeSides, schemaSides } from '../../scripts/spec-diff/directions.mjs';
import { classifyReportChange } from '../../scripts/spec-diff/report-diff.mjs';
import { mutations } from './mutations.mjs';

const specText = readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8');
const report = readFileSync(new URL('../../api/index.api.md', import.meta.url), 'utf8');

// Most mutations share their `before` (the description as it is): each description is generated once.
const reports = new Map<string, Promise<string>>();
/** The report with its `components` interface replaced by the one generated from `doc`, as api:update would write it. */
function reportFor(doc: unknown): Promise<string> {
  const key = JSON.stringify(doc);
  if (!reports.has(key)) reports.set(key, generatedReport(doc));
  return reports.get(key)!;
}
async function generatedReport(doc: unknown): Promise<string> {
  const generated = astToString(await openapiTS(YAML.stringify(doc), { alphabetize: false }));
  const start = generated.indexOf('export interface components {');
  const end = generated.indexOf('\n}\n', start);
  const block = generated
    .slice(start, end + 2)
    .replace(/\/\*\*[\s\S]*?\*\/\n?/g, '')
    .replace(/^export interface/, 'interface');
  const lines = report.replace(/\r\n/g, '\n');
  const from = lines.indexOf('interface components {');
  const to = lines.indexOf('\n}\n', from);
  return `${lines.slice(0, from)}${block.trimEnd()}${lines.slice(to + 2)}`;
}

// Mutations whose change shows in the generated record types (the report holds no operations or constraints).
const shown = [
  'new required request field',
  'request field newly required',
  'new optional request field',
  'response field no longer required',
  'response field now always present',
  'new required response field',
  'new response field',
  'response enum widened',
  'response enum value removed',
  'response field removed',
];

describe('the API report step classifies like spec:diff', () => {
  it('the regenerated components, unchanged, are no change in the report', async () => {
    const same = await reportFor(YAML.parse(specText));
    expect(same).not.toBe(report.replace(/\r\n/g, '\n')); // rebuilt from the generator, not copied
    expect(classifyReportChange(report, same)).toMatchObject({ class: undefined, changes: [] });
  });

  for (const name of shown) {
    it(name, async () => {
      const m = mutations.find((x) => x.name === name)!;
      expect(m, name).toBeDefined();
      const before = YAML.parse(specText);
      m.prepare?.(before);
      const after = structuredClone(before);
      m.mutate(after);
      const specClass = worstClass(diffSpecs(before, after));
      const sides = mergeSides(schemaSides(before), schemaSides(after));
      const change = classifyReportChange(await reportFor(before), await reportFor(after), { sides });
      expect(change.class, change.changes.map((c) => `${c.class}: ${c.message}`).join('\n')).toBe(specClass);
    });
  }

  it('without the description, a record type is taken as written and read (the safe side)', async () => {
    const before = YAML.parse(specText);
    const after = structuredClone(before);
    after.components.schemas.V1CiCheckResponse.required.push('verdict');
    const change = classifyReportChange(await reportFor(before), await reportFor(after));
    expect(change.changes).toEqual([
      {
        class: 'breaking',
        message: 'components.schemas.V1CiCheckResponse.verdict: now required (written by users and read by users)',
      },
    ]);
  });
});
