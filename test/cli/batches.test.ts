// Batches of a run (src/cli/gate/batches.ts) and their one verdict (aggregateVerdicts, aggregateReports): as few
// checks as the 20-page limit allows per site, even sizes, stable whatever the order of the URLs; FAIL in any
// batch → exit 1, otherwise any batch not judged → exit 4; one merged report keeps each page's batch.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchLabel, planBatches } from '../../src/cli/gate/batches.js';
import { uniquePageUrls } from '../../src/cli/pages/page-urls.js';
import { aggregateReports, batchOfPage, prepareReport, toJUnit } from '../../src/cli/report/index.js';
import { aggregateVerdicts, type GateVerdict } from '../../src/cli/verdict/verdict.js';

const site = (origin: string, n: number) => Array.from({ length: n }, (_, i) => `${origin}/p/${i}`);

describe('planBatches', () => {
  it('45 pages of one site → 3 checks of 15; 21 → 11 + 10; 20 → one check', () => {
    expect(planBatches(site('https://a.example', 45)).map((b) => b.urls.length)).toEqual([15, 15, 15]);
    expect(planBatches(site('https://a.example', 21)).map((b) => b.urls.length)).toEqual([11, 10]);
    expect(planBatches(site('https://a.example', 20)).map((b) => [b.key, b.urls.length])).toEqual([
      ['https://a.example 1/1', 20],
    ]);
  });

  it('groups by origin (scheme, host and port): no batch mixes two', () => {
    const batches = planBatches([
      ...site('https://b.example', 25),
      ...site('http://b.example', 3),
      ...site('https://a.example:8443', 20),
    ]);
    expect(batches.map((b) => [b.key, b.urls.length])).toEqual([
      ['http://b.example 1/1', 3],
      ['https://a.example:8443 1/1', 20],
      ['https://b.example 1/2', 13],
      ['https://b.example 2/2', 12],
    ]);
    for (const b of batches) expect(new Set(b.urls.map((u) => new URL(u).origin))).toEqual(new Set([b.origin]));
    expect(batchLabel(batches[3]!)).toBe('b.example 2/2');
  });

  it('for any set of URLs and any order: the same batches, each URL once, at most 20 per check, ceil(n/20) per site', () => {
    const url = fc
      .tuple(
        fc.constantFrom('https://a.example', 'https://b.example', 'http://c.example:8080'),
        fc.stringMatching(/^[a-z0-9/]{0,12}$/),
      )
      .map(([o, p]) => `${o}/${p}`);
    fc.assert(
      fc.property(fc.uniqueArray(url, { maxLength: 130 }), fc.infiniteStream(fc.nat()), (raw, seeds) => {
        const urls = uniquePageUrls(raw, (i) => `url ${i}`);
        const shuffled = [...urls]
          .map((u) => [seeds.next().value, u] as const)
          .sort((a, b) => a[0] - b[0])
          .map(([, u]) => u);
        const batches = planBatches(urls);
        expect(planBatches(shuffled)).toEqual(batches);
        expect(batches.flatMap((b) => b.urls).sort()).toEqual([...urls].sort());
        for (const b of batches) expect(b.urls.length).toBeGreaterThan(0);
        for (const b of batches) expect(b.urls.length).toBeLessThanOrEqual(20);
        const perSite = new Map<string, number>();
        for (const u of urls) perSite.set(new URL(u).origin, (perSite.get(new URL(u).origin) ?? 0) + 1);
        for (const [origin, n] of perSite)
          expect(batches.filter((b) => b.origin === origin)).toHaveLength(Math.ceil(n / 20));
      }),
      { numRuns: 200 },
    );
  });

  it('normalises before de-duplicating: case of the host, default port, fragment', () => {
    expect(
      uniquePageUrls(['https://A.example:443/x#top', 'https://a.example/x', 'https://a.example/x?y'], String),
    ).toEqual(['https://a.example/x', 'https://a.example/x?y']);
    expect(() => uniquePageUrls(['ftp://a.example/'], (i) => `urls[${i}]`)).toThrow(
      /urls\[0\] must be an absolute http\(s\) URL/,
    );
  });
});

describe('one verdict over the batches', () => {
  const pass: GateVerdict = { outcome: 'PASS', exitCode: 0, reasons: ['ok'] };
  const fail: GateVerdict = { outcome: 'FAIL', exitCode: 1, reasons: ['2 findings break the threshold NEW_CRITICAL'] };
  const unknown: GateVerdict = { outcome: 'UNKNOWN', exitCode: 4, reasons: ['1 page of 20 was not checked'] };
  const of = (...verdicts: GateVerdict[]) =>
    aggregateVerdicts(
      verdicts.map((verdict, i) => ({ label: `a.example ${i + 1}/${verdicts.length}`, verdict, pages: 20 })),
    );

  it.each([
    [[pass, pass, pass], 'PASS', 0],
    [[pass, fail, pass], 'FAIL', 1],
    [[unknown, pass], 'UNKNOWN', 4],
    [[unknown, fail], 'FAIL', 1],
    [[fail, unknown, pass], 'FAIL', 1],
  ] as const)('%j → %s (exit %i)', (verdicts, outcome, exitCode) => {
    expect(of(...verdicts)).toMatchObject({ outcome, exitCode });
  });

  it('names the deciding batches; a FAIL also lists what could not be judged; one batch keeps its own verdict', () => {
    expect(of(unknown, fail).reasons).toEqual([
      'a.example 2/2: 2 findings break the threshold NEW_CRITICAL',
      'also not judged: a.example 1/2: 1 page of 20 was not checked',
    ]);
    expect(of(pass, pass).reasons).toEqual([
      'every one of 2 checks passed (40 pages checked), and no finding breaks its threshold',
    ]);
    expect(of(fail)).toBe(fail);
  });

  it('merges prepared batches into one report: pages, findings and counts of all, each page with its batch', () => {
    const check = (id: string, url: string, verdict: 'PASS' | 'FAIL') => ({
      check: {
        id,
        status: 'COMPLETED' as const,
        verdict,
        failOn: 'NEW_CRITICAL' as const,
        counts: { critical: verdict === 'FAIL' ? 1 : 0, serious: 0, moderate: 0, minor: 0 },
        pages: [{ url, status: 'DONE' as const }],
      },
      violations:
        verdict === 'FAIL'
          ? [{ ruleId: 'image-alt', impact: 'critical', isNew: true, url, target: 'img', fingerprint: `fp-${id}` }]
          : [],
    });
    const a = prepareReport(check('1', 'https://a.example/x', 'PASS'), {
      batch: { key: 'https://a.example 1/2', label: 'a.example 1/2', urls: ['https://a.example/x'] },
    });
    const b = prepareReport(check('2', 'https://a.example/y', 'FAIL'), {
      batch: { key: 'https://a.example 2/2', label: 'a.example 2/2', urls: ['https://a.example/y'] },
    });
    const merged = aggregateReports([a, b]);
    expect(merged.verdict).toMatchObject({ outcome: 'FAIL', exitCode: 1 });
    expect(merged.check).toMatchObject({
      id: '1, 2',
      status: 'COMPLETED',
      verdict: 'FAIL',
      counts: { critical: 1, serious: 0, moderate: 0, minor: 0 },
    });
    expect(merged.check.pages).toHaveLength(2);
    expect(merged.failures.map((v) => v.fingerprint)).toEqual(['fp-2']);
    expect(batchOfPage(merged, 'https://a.example/y')).toBe('a.example 2/2');
    expect(toJUnit(merged)).toContain('<property name="batch" value="a.example 2/2"/>');
    expect(aggregateReports([a])).toBe(a);
  });
});
