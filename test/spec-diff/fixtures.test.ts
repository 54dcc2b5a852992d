// Each mutation of openapi.yaml (test/spec-diff/mutations.mjs) is classified and bumped as CONTRIBUTING.md's table ("Classes and bumps") says.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { CLASSES, diffSpecs, formatReport, requiredBump, worstClass } from '../../scripts/spec-diff.mjs';
import { mutations } from './mutations.mjs';

const base = YAML.parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));

/** The base (after `prepare`) and the mutated head of one fixture. */
function pair(m: (typeof mutations)[number]) {
  const before = structuredClone(base);
  m.prepare?.(before);
  const after = structuredClone(before);
  m.mutate(after);
  return { before, after };
}

describe('spec:diff classifies mutations of openapi.yaml', () => {
  it('has at least two fixtures for every class of the table, and for "no change"', () => {
    const count = (cls: string) => mutations.filter((m) => m.class === cls).length;
    for (const cls of [...CLASSES, 'none']) expect(count(cls), cls).toBeGreaterThanOrEqual(2);
    expect(new Set(mutations.map((m) => m.name)).size, 'fixture names are unique').toBe(mutations.length);
  });

  it('finds no change between the description and itself', () => {
    expect(diffSpecs(base, structuredClone(base))).toEqual([]);
  });

  for (const m of mutations) {
    it(`${m.class}: ${m.name}`, () => {
      const { before, after } = pair(m);
      const changes = diffSpecs(before, after);
      const report = formatReport(changes, { version: '0.1.0', from: 'base', to: 'head' });
      if (m.class === 'none') {
        expect(changes).toEqual([]);
      } else {
        // The expected change is there, with its class, and nothing worse was found beside it.
        expect(changes.filter((c) => c.class === m.class).map((c) => c.message)).toContainEqual(
          expect.stringMatching(m.expect),
        );
        expect(worstClass(changes), report).toBe(m.class);
      }
      expect(report).toMatch(
        m.class === 'none'
          ? m.expect
          : new RegExp(`^${m.class.padEnd(20)}  ${m.expect.source.replace(/^\^/, '')}`, 'm'),
      );
      expect(requiredBump(changes, '1.2.3')).toBe(m.semver);
      expect(requiredBump(changes, '0.1.0')).toBe(m.pre1);
      expect(report.split('\n').at(-1)).toBe(`required bump: ${m.pre1}`);
    });
  }

  it('reports a schema shared by several operations once, naming where it is used', () => {
    const head = structuredClone(base);
    head.components.schemas.V1SeverityCounts.properties.critical.type = 'string';
    const changes = diffSpecs(base, head);
    const change = changes.find(
      (c) => c.message === 'response type changed: V1SeverityCounts.critical integer → string',
    );
    expect(change?.class).toBe('breaking');
    expect(change?.at.length).toBeGreaterThan(3);
    expect(changes.filter((c) => c.message.includes('V1SeverityCounts.critical'))).toHaveLength(1);
  });

  it('reads a webhook the other way round: receivers read its payload and write its answer', () => {
    const head = structuredClone(base);
    // A payload field that becomes optional is one receivers may no longer find (like a response field).
    head.components.schemas.WebhookEventBody.properties = { id: { type: 'string' } };
    head.components.schemas.WebhookEventBody.required = ['id'];
    const next = structuredClone(head);
    next.components.schemas.WebhookEventBody.required = [];
    expect(diffSpecs(head, next)).toContainEqual(
      expect.objectContaining({ class: 'breaking', message: 'webhook field no longer required: WebhookEventBody.id' }),
    );
    // A status dropped while a range that covers it stays listed is no change for receivers.
    const ranged = structuredClone(base);
    ranged.webhooks['scan_run.completed'].post.responses['204'] = { description: 'No content.' };
    expect(diffSpecs(base, ranged)).toEqual([
      expect.objectContaining({ class: 'additive', message: 'receiver answer added: webhook scan_run.completed 204' }),
    ]);
    expect(diffSpecs(ranged, base)).toEqual([]);
  });
});
