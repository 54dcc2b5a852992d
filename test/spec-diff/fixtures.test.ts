// Each mutation of openapi.yaml (test/spec-diff/mutations.mjs) is classified and bumped as the README's table says.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { diffSpecs, formatReport, requiredBump, worstClass } from '../../scripts/spec-diff.mjs';
import { mutations } from './mutations.mjs';

const base = YAML.parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));

describe('spec:diff classifies mutations of openapi.yaml', () => {
  it('covers every class, with at least 12 mutations', () => {
    expect(mutations.length).toBeGreaterThanOrEqual(12);
    expect(new Set(mutations.map((m) => m.class))).toEqual(new Set(['breaking', 'potentially breaking', 'additive', 'docs', 'none']));
  });

  it('finds no change between the description and itself', () => {
    expect(diffSpecs(base, structuredClone(base))).toEqual([]);
  });

  for (const m of mutations) {
    it(`${m.class}: ${m.name}`, () => {
      const head = structuredClone(base);
      m.mutate(head);
      const changes = diffSpecs(base, head);
      const report = formatReport(changes, { version: '0.1.0', from: 'base', to: 'head' });
      if (m.class === 'none') {
        expect(changes).toEqual([]);
      } else {
        // The expected change is there, with its class, and nothing worse was found beside it.
        expect(changes.filter((c) => c.class === m.class).map((c) => c.message)).toContainEqual(expect.stringMatching(m.expect));
        expect(worstClass(changes), report).toBe(m.class);
      }
      expect(report).toMatch(m.class === 'none' ? m.expect : new RegExp(`^${m.class.padEnd(20)}  ${m.expect.source.replace(/^\^/, '')}`, 'm'));
      expect(requiredBump(changes, '1.2.3')).toBe(m.semver);
      expect(requiredBump(changes, '0.1.0')).toBe(m.pre1);
      expect(report.split('\n').at(-1)).toBe(`required bump: ${m.pre1}`);
    });
  }

  it('reports a schema shared by several operations once, naming where it is used', () => {
    const head = structuredClone(base);
    head.components.schemas.V1SeverityCounts.properties.critical.type = 'string';
    const changes = diffSpecs(base, head);
    const change = changes.find((c) => c.message === 'response type changed: V1SeverityCounts.critical integer → string');
    expect(change?.class).toBe('breaking');
    expect(change?.at.length).toBeGreaterThan(3);
    expect(changes.filter((c) => c.message.includes('V1SeverityCounts.critical'))).toHaveLength(1);
  });

  it('treats a webhook payload as something the SDK receives', () => {
    const head = structuredClone(base);
    head.components.schemas.WebhookEventBody.additionalProperties = false;
    head.webhooks['scan_run.completed'].post.parameters.pop();
    const changes = diffSpecs(base, head);
    expect(changes).toContainEqual(expect.objectContaining({ class: 'breaking', message: 'response parameter removed: webhook scan_run.completed header.x-svc-signature' }));
    expect(changes).toContainEqual(expect.objectContaining({ class: 'additive', message: 'response no longer carries other fields: WebhookEventBody' }));
  });
});
