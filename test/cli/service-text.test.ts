// Text from the service in everything the CLI prints (tables, JSON, errors, CI reports, annotations, the step
// summary): C0/C1 controls (ESC, CR, BEL, DEL) and invisible format characters (Unicode Cf: zero-width, bidi
// marks, soft hyphen, word joiner) are made visible or escaped, and no printed line starts a workflow command,
// even after a log viewer strips invisible characters.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandGuard, NEUTRALISER } from '../../src/cli/io/output.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { json, startLoopback, type Loopback } from '../support/loopback.js';

const ID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const SITE = 'e832d125-72cd-4720-9cc8-69615015f0d7';
const INVISIBLE = [
  '\u200B',
  '\u200C',
  '\u200D',
  '\u200E',
  '\u200F',
  '\u202A',
  '\u202E',
  '\u2066',
  '\u2069',
  '\u00AD',
  '\u2060',
  '\uFEFF',
  '\u180E',
];
// Each hides a workflow command from a guard that reads characters literally, or restyles a terminal.
const HOSTILE = [
  `\n\u200B::stop-commands::tok`,
  `\n:\u200B:error::x`,
  `\n\u2060\u00AD::warning::y`,
  `#\u200B#[error]z ##\u200Dvso[task.complete]`,
  `esc\u001b[2J bel\u0007 del\u007f cr\rover nel\u0085 csi\u009b31m`,
  `bidi \u202Egnp.exe\u202C and \u2066isolate\u2069`,
];
const text = (i: number) => `${HOSTILE[i % HOSTILE.length]} ${INVISIBLE[i % INVISIBLE.length]}end`;

let api: Loopback;
let dir: string;
const printed: Record<string, string> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-service-text-'));
  const violations = HOSTILE.map((_, i) => ({
    ruleId: `rule${text(i)}`,
    impact: 'critical',
    isNew: true,
    url: 'https://a.example/',
    target: text(i + 1),
    failureSummary: text(i + 2),
    wcagSc: ['1.1.1'],
  }));
  api = await startLoopback((req, res) => {
    const url = req.url;
    if (url.startsWith('/api/v1/sites/00000000-0000-4000-8000-00000000dead')) {
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      return void res.end(
        JSON.stringify({
          type: 'about:blank',
          title: text(0),
          status: 404,
          code: 'SITE_NOT_FOUND',
          detail: text(3),
          traceId: text(4),
        }),
      );
    }
    if (url === '/api/v1/sites')
      return json(200, [
        { id: SITE, name: text(0), rootUrl: 'https://a.example/', normalizedHost: text(5), verified: true },
      ])(req, res, 0);
    if (req.method === 'POST')
      return json(202, { id: ID, status: 'QUEUED' }, { location: `/api/v1/ci/checks/${ID}` })(req, res, 0);
    if (url.endsWith('/violations')) return json(200, violations)(req, res, 0);
    return json(200, {
      id: ID,
      status: 'COMPLETED',
      verdict: 'FAIL',
      failOn: 'ANY_CRITICAL',
      pages: [{ url: 'https://a.example/', status: 'DONE' }],
    })(req, res, 0);
  });
  const env = {
    SVC_API_KEY: 'svc_service_text_key',
    SVC_BASE_URL: api.url,
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
  };
  const runs: Record<string, string[]> = {
    sites: ['sites'],
    'sites --json': ['sites', '--json'],
    'site error': ['journeys', '00000000-0000-4000-8000-00000000dead'],
    ...Object.fromEntries(
      ['text', 'json', 'junit', 'sarif', 'markdown'].map((f) => [
        `ci --format ${f}`,
        ['ci', 'https://a.example/', '--format', f],
      ]),
    ),
  };
  for (const [name, args] of Object.entries(runs)) {
    const r = await runCliLikeBinary(args, { env });
    printed[`${name} stdout`] = r.stdout;
    printed[`${name} stderr`] = r.stderr;
  }
  printed['step summary'] = await readFile(env.GITHUB_STEP_SUMMARY, 'utf8');
}, 120_000);
afterAll(() => api?.close());

describe('service text as the CLI prints it', () => {
  it('the service text did reach every output (the test is live)', () => {
    expect(printed['sites stdout']).toContain('end');
    expect(printed['site error stderr']).toMatch(/error: API answered 404 SITE_NOT_FOUND/);
    expect(printed['ci --format text stdout']).toContain('isolate');
    expect(printed['ci --format text stderr']).toMatch(/^::error title=/m);
  });

  it('holds no C0/C1 control but line feed and tab, and no invisible format character', () => {
    for (const [name, out] of Object.entries(printed)) {
      expect(out, name).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
      expect(out, name).not.toMatch(/\p{Cf}/u);
    }
  });

  it("no line starts a workflow command, even once a viewer drops invisible characters, but the CLI's own annotations", () => {
    for (const [name, out] of Object.entries(printed)) {
      for (const raw of out.split('\n')) {
        // biome-ignore lint/suspicious/noMisleadingCharacterClass: each invisible character is removed on its own.
        const line = raw.replace(/[\p{Cf}\u034F\u115F\u1160\u3164\uFE00-\uFE0F\uFFA0]/gu, '');
        expect(line, name).not.toMatch(/##(vso)?\[/i);
        if (/^[\s\uFEFF]*::/.test(line)) expect(line, name).toMatch(/^::(error|warning|notice)( [^:\n]*)?::/);
      }
    }
  });

  it("JSON output escapes what it must not print raw and still parses to the service's data", () => {
    const sites = JSON.parse(printed['sites --json stdout']!);
    expect(sites[0].name).toBe(text(0));
    expect(printed['sites --json stdout']).toContain('\\u200b');
  });
});

describe('the command guard looks through invisible characters', () => {
  it.each([
    ['\u200B::stop-commands::x', `\u200B:${NEUTRALISER}:stop-commands::x`],
    [':\u200B:error::x', `:\u200B${NEUTRALISER}:error::x`],
    ['\u2060\u00AD ::warning::x', `\u2060\u00AD :${NEUTRALISER}:warning::x`],
    ['a #\u200B#[error]b', `a #\u200B#${NEUTRALISER}[error]b`],
    ['##\u200Dvso[task.complete]', `##\u200Dvso${NEUTRALISER}[task.complete]`],
    ['\uDB40\uDC20::tag', `\uDB40\uDC20:${NEUTRALISER}:tag`],
    ['plain a::b stays', 'plain a::b stays'],
  ])('%j', (input, output) => {
    expect(new CommandGuard().guard(input)).toBe(output);
  });
});
