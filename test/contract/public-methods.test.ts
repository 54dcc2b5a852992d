// Every operation of openapi.yaml has a public method: a regenerated description with a new endpoint fails here,
// naming the operation and where to add it, instead of as stack traces from the contract harness.
import { describe, expect, it } from 'vitest';
import { operations, spec } from '../support/spec.js';
import { mutations } from '../spec-diff/mutations.mjs';
import { type DescribedOperation, methodsByOperation, missingMethods } from './public-methods.js';

const described = (doc: { paths: Record<string, Record<string, { operationId: string }>> }): DescribedOperation[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'put', 'post', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, operationId: op.operationId })),
  );

describe('public methods', () => {
  it('every operation of openapi.yaml has a public method', async () => {
    const methods = await methodsByOperation();
    const all = described(spec);
    expect(all.map((o) => o.operationId).sort()).toEqual(operations.map((o) => o.operationId).sort());
    const missing = missingMethods(all, methods);
    expect(missing, missing.join('\n')).toEqual([]);
    // And nothing else: every method found sends an operation of the description.
    expect([...methods.keys()].filter((id) => !all.some((o) => o.operationId === id))).toEqual([]);
  });

  it('names the method each operation is sent by', async () => {
    const methods = await methodsByOperation();
    expect(methods.get('getScan')).toEqual(['scans.get', 'scans.waitForCompletion']);
    expect(methods.get('createCiCheck')).toEqual(['ciChecks.create', 'ciChecks.createAndWait']);
    expect(methods.get('getSiteTrend')).toEqual(['sites.getTrend']);
  });

  it('a new operation in the description (a real mutation of openapi.yaml) fails with what to add and where', async () => {
    const methods = await methodsByOperation();
    const mutation = mutations.find((m) => m.name === 'new operation beside an existing one')!;
    const doc = structuredClone(spec) as typeof spec;
    mutation.mutate(doc);
    expect(missingMethods(described(doc), methods)).toEqual([
      'POST /api/v1/sites (createSite) has no resource method: add it in src/resources/sites.ts (a row in src/core/operations.ts, then a method calling it) and a contract row in test/contract/operations.test.ts',
    ]);
    const other = mutations.find((m) => m.name === 'new operation')!;
    const doc2 = structuredClone(spec) as typeof spec;
    other.mutate(doc2);
    expect(missingMethods(described(doc2), methods)).toEqual([
      expect.stringMatching(
        /^GET \/api\/v1\/sites\/\{id\} \(getSite\) has no resource method: add it in src\/resources\/sites\.ts/,
      ),
    ]);
  });
});
