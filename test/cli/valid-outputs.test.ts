// A finding axe writes for an ordinary link — `a[href="/reset?token=abc"]` — through `ci` on stdout in every format
// and in every report file: each still parses with its own parser and holds no token value (the last secret pass once
// ran over the serialised JSON, took the `\` of `\"` and left every JSON report unparseable), and `doctor --json`
// stays JSON when its lines carry such text.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { parse as parseHtml } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FORMATS } from '../../src/cli/report/formats.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { journeyService } from '../support/journey-service.js';
import { type Loopback, startLoopback } from '../support/loopback.js';

const KEY = 'svc_live_valid_outputs_canary_7c1d';
const ID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const PAGE = 'https://shop.example.com/account';
const TOKEN = 'tokcanary8e7f9a';
const selectors = [
  `a[href="/reset?token=${TOKEN}"]`,
  `a[href='/login?access_token=${TOKEN}&next=%2F']`,
  `a[href="https://h/?sig=${TOKEN}"] > span:nth-child(2)`,
  `\\"?token=${TOKEN}\\`,
  // A line break, a bell, a right-to-left override and a long tail: text a service may send, clipped or made visible.
  `a[title="one\ntwo\u0007\u202e"][href="/x?token=${TOKEN}"]${'>span'.repeat(5_000)}`,
];
const violations = selectors.map((target, i) => ({
  ruleId: 'link-name',
  impact: 'critical',
  url: PAGE,
  target,
  helpUrl: 'https://docs.example.com/link-name',
  failureSummary: `Fix any of the following: ${target}`,
  wcagSc: ['2.4.4'],
  fingerprint: `fp-${i}`,
  isNew: true,
}));
const counts = { critical: violations.length, serious: 0, moderate: 0, minor: 0 };
const check = {
  id: ID,
  status: 'COMPLETED',
  verdict: 'FAIL',
  failOn: 'NEW_CRITICAL',
  pages: [{ url: PAGE, status: 'DONE', counts }],
  counts,
  newCounts: counts,
};

let api: Loopback;
let dir: string;
beforeAll(async () => {
  api = await startLoopback((req, res) => {
    const body =
      req.method === 'POST' ? { id: ID, status: 'QUEUED' } : req.url.endsWith('/violations') ? violations : check;
    res.writeHead(req.method === 'POST' ? 202 : 200, {
      'content-type': 'application/json',
      ...(req.method === 'POST' ? { location: `/api/v1/ci/checks/${ID}` } : {}),
    });
    res.end(JSON.stringify(body));
  });
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-valid-outputs-'));
});
afterAll(() => api.close());

const FILE_FORMATS = REPORT_FORMATS.filter((f) => f !== 'text');
const parse: Record<string, (text: string) => unknown> = {
  json: JSON.parse,
  sarif: JSON.parse,
  codequality: JSON.parse,
  junit: (text) => {
    const valid = XMLValidator.validate(text);
    if (valid !== true) throw new Error(JSON.stringify(valid));
    return valid;
  },
  html: (text) => {
    const errors: string[] = [];
    parseHtml(text, { onParseError: (e) => errors.push(e.code) });
    if (errors.length) throw new Error(errors.join(', '));
    return errors;
  },
  markdown: (text) => text,
  text: (text) => text,
};

describe('a selector with a quote and a token parameter', () => {
  it.each(REPORT_FORMATS)(
    'ci --format %s on stdout, and every report file, parse and hold no token value',
    async (format) => {
      const files = Object.fromEntries(FILE_FORMATS.map((f) => [f, join(dir, `${format}-report.${f}`)]));
      const r = await runCliLikeBinary(
        ['ci', PAGE, '--format', format, ...Object.entries(files).flatMap(([f, file]) => ['--report', `${f}=${file}`])],
        { env: { SVC_API_KEY: KEY, SVC_BASE_URL: api.url }, timeoutMs: 30_000 },
      );
      expect(r.code, r.stderr).toBe(1);
      expect(() => parse[format]!(r.stdout), `stdout ${format}`).not.toThrow();
      expect(r.stdout).not.toContain(TOKEN);
      expect(r.stderr).not.toContain(TOKEN);
      if (format === 'json') {
        const report = JSON.parse(r.stdout) as { violations: Array<{ target: string }> };
        expect(report.violations.map((v) => v.target)).toContain('a[href="/reset?token=[redacted]"]');
      }
      for (const [f, file] of Object.entries(files)) {
        const text = await readFile(file, 'utf8');
        expect(() => parse[f]!(text), `${f} file`).not.toThrow();
        expect(text, `${f} file`).not.toContain(TOKEN);
      }
    },
  );

  it('merge of a shard report holding that text: every merged report parses and holds no token value', async () => {
    const shard = join(dir, 'shard-1-of-1.json');
    const ran = await runCliLikeBinary(['ci', PAGE, '--shard', '1/1', '-q', '--report', `json=${shard}`], {
      env: { SVC_API_KEY: KEY, SVC_BASE_URL: api.url },
      timeoutMs: 30_000,
    });
    expect(ran.code, ran.stderr).toBe(1);
    const files = Object.fromEntries(FILE_FORMATS.map((f) => [f, join(dir, `merged.${f}`)]));
    // merge reads files only: no key, no service.
    const r = await runCliLikeBinary(
      ['merge', shard, ...Object.entries(files).flatMap(([f, file]) => ['--report', `${f}=${file}`])],
      { env: {}, timeoutMs: 30_000 },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
    for (const [f, file] of Object.entries(files)) {
      const text = await readFile(file, 'utf8');
      expect(() => parse[f]!(text), `merged ${f}`).not.toThrow();
      expect(text, `merged ${f}`).not.toContain(TOKEN);
      expect(text, `merged ${f}`).not.toContain('\u202e');
    }
  });

  it("doctor --json stays JSON when its lines carry the service's text", async () => {
    // The service refuses the key with a problem whose detail is such a selector: doctor's line quotes it.
    const refusing = await startLoopback((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/problem+json' });
      res.end(
        JSON.stringify({
          type: 'about:blank',
          title: 'Unauthorized',
          status: 401,
          code: 'API_KEY_INVALID',
          detail: `key refused at a[href="/reset?token=${TOKEN}"] \\"`,
        }),
      );
    });
    try {
      const r = await runCliLikeBinary(['doctor', '--json'], {
        env: { SVC_API_KEY: KEY, SVC_BASE_URL: refusing.url },
        timeoutMs: 30_000,
      });
      expect(() => JSON.parse(r.stdout), r.stdout).not.toThrow();
      expect(r.stdout).toContain('token=[redacted]');
      expect(r.stdout).not.toContain(TOKEN);
    } finally {
      await refusing.close();
    }
  });
});

describe('a journey whose name, checkpoint labels, URLs and findings carry that text', () => {
  const JOURNEY = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
  const SITE = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';
  const SCAN = '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
  const RUN = '3d4e5f6a-7b8c-4d9e-8f0a-2b3c4d5e6f7a';
  const hostile = `Sign "in" <b>&amp; '/reset?token=${TOKEN}' \\ one\ntwo\u0007\u202e${'x'.repeat(3_000)}`;
  const run = {
    id: RUN,
    journeyId: JOURNEY,
    siteId: SITE,
    status: 'COMPLETED',
    checkpoints: [{ scanId: SCAN, label: hostile, url: `${PAGE}?token=${TOKEN}`, status: 'COMPLETED' }],
  };
  let journeys: Loopback;
  beforeAll(async () => {
    journeys = await startLoopback(
      journeyService({
        run,
        journeys: [{ id: JOURNEY, siteId: SITE, name: hostile, usesAuth: true }],
        violations: violations.map(({ fingerprint: _f, isNew: _n, ...v }) => v),
        scan: () => ({ id: SCAN, status: 'COMPLETED', url: PAGE, counts }),
      }),
    );
  });
  afterAll(() => journeys.close());

  it.each(REPORT_FORMATS)(
    'ci --journey --format %s: stdout and every report file parse, no token value, no override',
    async (format) => {
      const files = Object.fromEntries(FILE_FORMATS.map((f) => [f, join(dir, `journey-${format}.${f}`)]));
      const r = await runCliLikeBinary(
        [
          'ci',
          '--journey',
          JOURNEY,
          '--format',
          format,
          ...Object.entries(files).flatMap(([f, file]) => ['--report', `${f}=${file}`]),
        ],
        { env: { SVC_API_KEY: KEY, SVC_BASE_URL: journeys.url }, timeoutMs: 30_000 },
      );
      // Five critical findings, no baseline: judged as ANY_CRITICAL, a FAIL.
      expect(r.code, r.stderr).toBe(1);
      expect(() => parse[format]!(r.stdout), `stdout ${format}`).not.toThrow();
      expect(r.stdout + r.stderr).not.toContain(TOKEN);
      expect(r.stdout).not.toContain('\u202e');
      for (const [f, file] of Object.entries(files)) {
        const text = await readFile(file, 'utf8');
        expect(() => parse[f]!(text), `${f} file`).not.toThrow();
        expect(text, `${f} file`).not.toContain(TOKEN);
        expect(text, `${f} file`).not.toContain('\u202e');
      }
      const json = JSON.parse(await readFile(files.json!, 'utf8'));
      expect(json.journeys[0].failOn).toBe('ANY_CRITICAL');
    },
  );
});
