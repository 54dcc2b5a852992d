// The SARIF logs `svc-a11y ci` writes, checked by Microsoft's SARIF validator with GitHub's ingestion rules
// (GH1001-GH2012 on top of the schema): what GitHub code scanning would reject or show wrongly. One validator run
// covers every log (it costs about 2 s); a broken canary log proves the run really reports problems.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceMapEntry } from '../../../src/cli/report/sarif.js';
import type { CiReport } from '../../../src/cli/report/index.js';
import type { RouteTable } from '../../../src/cli/routes/index.js';
import { runMultitool, type MultitoolReport } from '../../support/sarif-multitool.js';
import { validateSarif } from '../../support/sarif.js';
import {
  adversarialReport,
  failedCheckReport,
  failReport,
  manyFindingsReport,
  sparseReport,
  unreachableReport,
  v,
} from './fixtures.js';
import { sarifOf } from '../../support/reports.js';

const HUGE = 100 * 1024;
const huge = (seed: string): string => seed.repeat(Math.ceil(HUGE / seed.length)).slice(0, HUGE);

// Everything a page, a selector or a summary could carry that a consumer might choke on or mis-show.
const NASTY = [
  'ctrl\u0000\u0001\u0007\u0008\u000b\u000c\u001b[31m\u007f\u0085\u009b',
  ']]> <![CDATA[ x ]]> </testcase>',
  'line\n::error file=x.ts::injected\r\n::set-output name=x::y\r::warning::z',
  'embedded [link](https://evil.example/) and [here](0) and \\[escaped\\](1)',
  'unicode: 😀 👩🏽‍💻 é (e\u0301) ﷽ \u202Eevil\u202C \u200B zero-width \uFEFF bom, lone \uD800 and \uDC00 surrogates',
  '{0} {{1}} %s %n ${x} `x` <script>alert(1)</script> &amp; "q" \'s\'',
];

/** Findings with hostile values in every field, URLs of every odd shape, and findings with fields missing. */
function craftedReport(): CiReport {
  const urls = [
    'https://shop.example.com/checkout?x=1#top',
    'http://localhost:3000/a/b/',
    'http://[::1]:8080/ipv6',
    'https://user:secret@shop.example.com/private',
    'https://bücher.example/straße/ß?q=ü',
    'https://shop.example.com/%2e%2e/%2E%2E/etc/passwd',
    'https://shop.example.com/a/..%2f..%2f/b%5c..%5cc/%00/%ff/%zz',
    'https://shop.example.com//double//slash',
    `https://shop.example.com/${huge('long-segment-')}`,
    `https://shop.example.com/${'a/'.repeat(200)}deep`,
    'https://shop.example.com/p|a%th?q=<&"\'>',
    'mailto:someone@example.com',
    'data:text/html,<h1>x</h1>',
    'not a url at all',
    '../../etc/passwd',
    huge('x'),
    '',
  ];
  const violations = urls.map((url, i) =>
    v({
      ruleId: i === 0 ? huge('rule-') : `crafted-${i % 4}`,
      impact: ['critical', 'serious', 'Critical ', 'SERIOUS'][i % 4],
      url,
      target: NASTY[i % NASTY.length],
      failureSummary: i === 1 ? huge('Fix any of the following: ') : NASTY[(i + 1) % NASTY.length],
      helpUrl: [
        'https://help.example.com/rule?x=a|b&y=(c)',
        'javascript:alert(1)',
        'not a url',
        huge('https://h.example.com/'),
      ][i % 4],
      wcagSc: i === 2 ? Array.from({ length: 40 }, (_, n) => `1.${n}.1`) : [NASTY[i % NASTY.length]!, '2.4.7'],
      fingerprint: i === 3 ? huge('f') : `fp-${i}-${NASTY[i % NASTY.length]}`,
    }),
  );
  // Missing fields: no rule, no impact, no URL, no target, no fingerprint, no help.
  violations.push(
    { impact: 'critical' },
    { impact: 'serious', url: 'https://shop.example.com/only-url' },
    { impact: 'critical', target: 'main' },
  );
  return {
    check: {
      id: '3e0c1d2b-4a5f-4e6d-8c7b-9a0f1e2d3c4b',
      status: 'COMPLETED',
      verdict: 'FAIL',
      failOn: 'SERIOUS_OR_WORSE',
      pages: [{ url: urls[5], status: 'ERROR' }, { url: NASTY[2], status: 'TIMEOUT' }, { status: 'UNREACHABLE' }],
      appUrl: `https://app.example.com/${NASTY[0]}`,
    },
    violations,
  };
}

const SOURCE_MAP: SourceMapEntry[] = [
  { prefix: '/', file: 'src/pages/index.tsx' },
  { prefix: '/checkout', file: 'src/pages/checkout/[step].tsx' },
  { prefix: '/a', file: 'app/(shop)/a/page.tsx' },
  { prefix: '/straße', file: 'src/pages/straße ü/100% done.tsx' },
];

// A route table as `--sarif-map auto` infers it: one optional catch-all that renders every page.
const ROUTES: RouteTable = {
  framework: 'next',
  folders: ['app'],
  basePath: [],
  routes: [
    {
      file: 'app/(shop)/[[...all]]/page.tsx',
      line: 7,
      pattern: '/[[...all]]',
      segments: [{ kind: 'catch-all', name: 'all', min: 0 }],
    },
  ],
  truncated: false,
};

// The log as the CLI writes it: serialised with two-space indentation.
const serialise = (report: CiReport, sourceMap?: SourceMapEntry[]): string =>
  `${JSON.stringify(sarifOf(report, { toolVersion: '0.1.0', ...(sourceMap ? { sourceMap } : {}) }), null, 2)}\n`;

const LOGS: Record<string, () => string> = {
  'fail.sarif': () => serialise(failReport()),
  'fail-mapped.sarif': () => serialise(failReport(), [{ prefix: '/checkout', file: 'src/pages/checkout.tsx' }]),
  'unreachable.sarif': () => serialise(unreachableReport()),
  'failed-check.sarif': () => serialise(failedCheckReport()),
  'sparse.sarif': () => serialise(sparseReport()),
  'adversarial.sarif': () => serialise(adversarialReport()),
  'many.sarif': () => serialise(manyFindingsReport(500)),
  'crafted.sarif': () => serialise(craftedReport()),
  'crafted-mapped.sarif': () => serialise(craftedReport(), SOURCE_MAP),
  // `--sarif-map auto`: every page on a route file, at its default export's line, the pattern in properties.
  'crafted-routes.sarif': () =>
    `${JSON.stringify(sarifOf(craftedReport(), { toolVersion: '0.1.0', routes: ROUTES }), null, 2)}\n`,
};

// What the reporter wrote before it was checked by the consumers' validators: page URLs as https artifacts, rules without fullDescription or help,
// no region. The validator must flag it, or a clean run of the files above proves nothing.
const CANARY = {
  $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
  version: '2.1.0',
  runs: [
    {
      tool: {
        driver: { name: 'svc-a11y', rules: [{ id: 'label', shortDescription: { text: 'Accessibility rule label' } }] },
      },
      results: [
        {
          ruleId: 'label',
          ruleIndex: 0,
          level: 'error',
          message: { text: 'label at #email' },
          locations: [{ physicalLocation: { artifactLocation: { uri: 'https://shop.example.com/checkout' } } }],
        },
        { ruleId: 'label', ruleIndex: 0, level: 'error', message: { text: 'no location' } },
      ],
    },
  ],
};

describe('SARIF logs against Microsoft’s validator with GitHub’s rules', () => {
  let dir: string;
  let report: MultitoolReport;
  const texts: Record<string, string> = {};

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sarif-validator-'));
    for (const [name, render] of Object.entries(LOGS)) {
      texts[name] = render();
      await writeFile(join(dir, name), texts[name]);
    }
    await writeFile(join(dir, 'canary.sarif'), JSON.stringify(CANARY, null, 2));
    report = await runMultitool([...Object.keys(LOGS), 'canary.sarif'], dir);
  }, 60_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs once over every file, without tool problems', () => {
    expect(report.problems).toEqual([]);
    expect(report.scanned).toBe(Object.keys(LOGS).length + 1);
  });

  it('flags the canary: missing fullDescription and help, https artifact, no region, no location', () => {
    const canary = report.findings.filter((f) => f.file === 'canary.sarif' && f.level === 'error').map((f) => f.ruleId);
    expect(new Set(canary)).toEqual(new Set(['GH1001', 'GH1003', 'GH1005', 'GH1015', 'GH1017', 'GH2012']));
  });

  it.each(Object.keys(LOGS))('%s: 0 errors, 0 warnings, 0 notes', (name) => {
    const findings = report.findings.filter((f) => f.file === name);
    expect(findings.map((f) => `${f.level} ${f.ruleId}: ${f.text.slice(0, 400)}`)).toEqual([]);
  });

  it.each(Object.keys(LOGS))(
    '%s: valid against the SARIF 2.1.0 schema, and no line can be read as a workflow command',
    (name) => {
      const text = texts[name]!;
      expect(validateSarif(JSON.parse(text)), JSON.stringify(validateSarif.errors?.slice(0, 5))).toBe(true);
      // Printed with `--format sarif` in a GitHub Actions step, a line starting with `::` would be a command.
      expect(text.split(/\r\n|\r|\n|\u2028|\u2029/).filter((line) => line.trimStart().startsWith('::'))).toEqual([]);
      expect(text).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
    },
  );
});
