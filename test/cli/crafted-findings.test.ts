// Crafted findings (control characters, `]]>`, `::` after newlines, `##vso[`, 100 kB strings, the API key) through
// every format on stdout and every file the CLI writes, checked by each output's real consumer: Jenkins' JUnit
// schema (xmllint), Microsoft's SARIF validator with GitHub's rules, and the GitHub runner's command rule.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { validateJUnitXsd } from '../support/junit-xsd.js';
import { json, startLoopback, type Loopback } from '../support/loopback.js';
import { runMultitool } from '../support/sarif-multitool.js';

const KEY = 'svc_crafted_canary_key_7f3e9a';
const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const page = 'https://shop.example.com/checkout';
const evil = [
  `echo ${KEY}`,
  'ctl\u0000\u0007\u001b[31mred\u001b[0m\u007f',
  'cdata ]]> <![CDATA[ x ]]> </testcase>',
  'line\n::stop-commands::pwned\n::error::injected',
  'cr\r::warning file=x::injected',
  '  ::notice::indented\t##vso[task.setvariable variable=x]1 ##[error]old',
  'lone \ud800 surrogate',
  // A long run of scheme-like characters: redacting URL credentials must stay linear on it.
  `${'x.'.repeat(40_000)}://`,
];
// A staging site behind basic auth: the API echoes the URL as sent, password and all. WHATWG URL parsers take a
// raw @ (the last one ends the userinfo), ^ { } | and non-ASCII there unencoded.
const PASSWORD = 'Pa_ss%40w0rd@raw^{ü}|-pw-canary';
const withCredentials = `https://deploy:${PASSWORD}@staging.example.com/login`;
const finding = (i: number, text: string) => ({
  ruleId: i % 2 ? 'color-contrast' : `rule-${text}`,
  impact: 'critical',
  wcagSc: ['1.4.3', text.slice(0, 30)],
  url: i === 0 ? `${page}?token=${KEY}` : i === 4 ? withCredentials : page,
  helpUrl: i === 1 ? `javascript:alert(1)` : 'https://docs.example.com/rule',
  target: `#el-${i} ${text}`,
  failureSummary: i === 2 ? `${'x'.repeat(100_000)} ${text}` : text,
  fingerprint: `fp-${i}`,
  isNew: true,
});
const violations = evil.map((text, i) => finding(i, text));
const check = {
  id: ID,
  status: 'COMPLETED',
  verdict: 'FAIL',
  failOn: 'NEW_CRITICAL',
  pages: [
    { url: page, status: 'DONE', counts: { critical: violations.length, serious: 0, moderate: 0, minor: 0 } },
    {
      url: 'https://shop.example.com/clean',
      status: 'DONE',
      counts: { critical: 0, serious: 0, moderate: 0, minor: 0 },
    },
    { url: withCredentials, status: 'DONE', counts: { critical: 1, serious: 0, moderate: 0, minor: 0 } },
  ],
  counts: { critical: violations.length, serious: 0, moderate: 0, minor: 0 },
};

let api: Loopback;
let dir: string;
const outputs: Record<string, string> = {};
const files: Record<string, string> = {};
beforeAll(async () => {
  api = await startLoopback((req, res) => {
    if (req.method === 'POST')
      return json(202, { id: ID, status: 'QUEUED' }, { location: `/api/v1/ci/checks/${ID}` })(req, res, 0);
    if (req.url.endsWith('/violations')) return json(200, violations)(req, res, 0);
    return json(200, check)(req, res, 0);
  });
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-crafted-'));
  const env = {
    SVC_API_KEY: KEY,
    SVC_BASE_URL: api.url,
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
  };
  const reports = ['junit', 'sarif', 'markdown', 'json', 'text'].flatMap((f) => [
    '--report',
    `${f}=${join(dir, `report.${f}`)}`,
  ]);
  for (const format of ['text', 'json', 'junit', 'sarif', 'markdown']) {
    const r = await runCliLikeBinary(
      ['ci', page, '--format', format, '--sarif-map', '/checkout=src/pages/checkout.tsx', ...reports],
      { env, timeoutMs: 30_000 },
    );
    expect(r.code, r.stderr).toBe(1);
    outputs[`stdout ${format}`] = r.stdout;
    outputs[`stderr ${format}`] = r.stderr;
  }
  for (const f of ['junit', 'sarif', 'markdown', 'json', 'text'])
    files[f] = await readFile(join(dir, `report.${f}`), 'utf8');
  files.summary = await readFile(join(dir, 'summary.md'), 'utf8');
}, 120_000);
afterAll(() => api.close());

describe('crafted findings through every format and file', () => {
  it('the API key is in no output and no file', () => {
    for (const [name, text] of Object.entries({ ...outputs, ...files })) expect(text, name).not.toContain(KEY);
  });

  it("a page URL's user:password@ is in no output and no file; the rest of the URL is", () => {
    for (const [name, text] of Object.entries({ ...outputs, ...files })) {
      expect(text, name).not.toContain('pw-canary');
      expect(text, name).not.toContain('Pa_ss');
      expect(text, name).not.toContain('deploy:');
    }
    for (const name of ['stdout json', 'stdout text', 'stdout junit', 'stdout markdown'])
      expect(outputs[name], name).toContain('[redacted]@staging.example.com/login');
    expect(JSON.parse(files.json!).check.pages[2].url).toBe('https://[redacted]@staging.example.com/login');
  });

  it("no line of stdout or stderr starts a workflow command, except the CLI's own annotations", () => {
    for (const [name, text] of Object.entries(outputs)) {
      for (const line of text.split(/\r\n|\r|\n/)) {
        const trimmed = line.replace(/^[\s\uFEFF]+/, '');
        if (!trimmed.startsWith('::')) continue;
        expect(name, line).toMatch(/^stderr/);
        // The CLI's annotations: one escaped line each, never the injected text as a command of its own.
        expect(trimmed, `${name}: ${line}`).toMatch(/^::(error|warning|notice)( [^:]*)?::/);
        expect(trimmed).not.toMatch(/^::(stop-commands|error::injected|warning file=x::injected|notice::indented)/);
      }
      expect(text, name).not.toMatch(/##(vso)?\[/);
    }
  });

  it("JUnit (stdout and file) is valid against Jenkins' junit-10.xsd", () => {
    const result = validateJUnitXsd({ stdout: outputs['stdout junit']!, file: files.junit! });
    expect(result.valid, result.output).toEqual({ stdout: true, file: true });
  });

  it("SARIF (stdout and file) passes Microsoft's validator with GitHub's rules; mapped pages point at the source file", {
    timeout: 60_000,
  }, async () => {
    const stdoutFile = join(dir, 'stdout.sarif');
    await (await import('node:fs/promises')).writeFile(stdoutFile, outputs['stdout sarif']!);
    const report = await runMultitool([stdoutFile, join(dir, 'report.sarif')], dir);
    expect(report.problems).toEqual([]);
    expect(report.findings.filter((f) => f.level === 'error')).toEqual([]);
    const log = JSON.parse(files.sarif!);
    const uris = log.runs[0].results.map(
      (r: { locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }) =>
        r.locations[0]!.physicalLocation.artifactLocation.uri,
    );
    expect(new Set(uris)).toEqual(new Set(['src/pages/checkout.tsx', 'staging.example.com/login']));
  });

  it("JSON on stdout and in the file parses, and keeps the findings' text (redacted only where it held the key)", () => {
    for (const text of [outputs['stdout json']!, files.json!]) {
      const parsed = JSON.parse(text);
      expect(parsed.violations).toHaveLength(violations.length);
      expect(parsed.violations[3].failureSummary).toContain('stop-commands');
    }
  });
});
