// The API key and URL credentials in every spelling an encoder or a clipper can give them, through every
// `--format` on stdout, every `--report` kind, the step summary, the annotations and stderr: the report is made
// safe where it enters the CLI, so no output's own escaping (Markdown `\_`, annotation `%3A`, XML references) or
// clipping (Markdown cells at 300 characters, SARIF messages at 4000, rule names at 200) can bring part of a
// secret back. Keys with `_` and `-`, as the service issues them.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { json, startLoopback, type Loopback } from '../support/loopback.js';

const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa7';
const PAGE = 'https://shop.example.com/checkout';
const KEYS = ['svc_live_Q7x-9kPz_Lm2-Wd4Rt8y', 'svc-test_k3Y_9-zz-QWERTYabc_12'];
const FORMATS = ['text', 'json', 'junit', 'sarif', 'markdown'] as const;
// A password holding the characters that end a JSON string, an XML attribute or a Markdown link.
const PASSWORD = 'p"w<o>r[d]-canaryPW';

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');
/** The key as given and in every spelling an encoder produces. */
function spellings(key: string): string[] {
  return [
    key,
    key.toLowerCase(),
    key.toUpperCase(),
    encodeURIComponent(key),
    [...key].map((c) => `%${hex(c).toUpperCase()}`).join(''),
    key.replace(/[_-]/g, '\\$&'),
    [...key].map((c) => `\\u00${hex(c)}`).join(''),
    [...key].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    [...key].map((c) => `&#x${hex(c)};`).join(''),
    key.replace(/_/g, '&lowbar;'),
  ];
}

/** Findings whose every field holds the key in one spelling, padded so each output's clip cuts through it. */
function findingsFor(key: string) {
  const forms = spellings(key);
  const out = [];
  for (let i = 0; i < forms.length; i++) {
    const form = forms[i]!;
    out.push({
      ruleId: `rule-${'r'.repeat(190 + (i % 10))}${form}`,
      impact: 'critical',
      wcagSc: ['1.4.3'],
      url:
        i % 3 === 0
          ? `${PAGE}?token=${form}`
          : i % 3 === 1
            ? `https://deploy:${PASSWORD}@staging.example.com/x${i}`
            : `https://${form.toLowerCase()}.example.com/p`,
      helpUrl: `https://docs.example.com/r?api_key=${form}`,
      // Markdown clips cells at 300 characters: the key straddles the cut at a different place for each form.
      target: `${'t'.repeat(300 - 8 - i)}${form}`,
      // SARIF clips messages at 4000 characters.
      failureSummary: `${'s'.repeat(3_700 + i * 7)}${form} ${form}`,
      fingerprint: `fp-${i}`,
      isNew: true,
    });
  }
  // Cut short after 8 characters and more, as a clipping service would leave it.
  for (let n = 8; n < key.length; n += 3)
    out.push({
      ruleId: 'cut',
      impact: 'critical',
      isNew: true,
      url: PAGE,
      target: `#cut-${n}`,
      failureSummary: `cut ${key.slice(0, n)}`,
    });
  return out;
}

// Decodes what the outputs may have encoded, so a key that survived in any spelling is found.
function decoded(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCharCode(Number(d)))
    .replace(/&lowbar;|&UnderBar;/gi, '_')
    .replace(/\\u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/(?:%25)?%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\/g, '')
    .toLowerCase();
}

let api: Loopback;
let dir: string;
const outputs = new Map<string, Map<string, string>>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-secret-forms-'));
  let key = KEYS[0]!;
  api = await startLoopback((req, res) => {
    if (req.method === 'POST')
      return json(202, { id: ID, status: 'QUEUED' }, { location: `/api/v1/ci/checks/${ID}` })(req, res, 0);
    const violations = findingsFor(key);
    if (req.url.endsWith('/violations')) return json(200, violations)(req, res, 0);
    return json(200, {
      id: ID,
      status: 'COMPLETED',
      verdict: 'FAIL',
      failOn: 'NEW_CRITICAL',
      appUrl: `https://app.example.com/c/${ID}?access_token=${key}`,
      pages: [
        { url: `${PAGE}?session=${key.toLowerCase()}`, status: 'DONE' },
        { url: `https://deploy:${PASSWORD}@staging.example.com/x1`, status: 'UNREACHABLE' },
      ],
    })(req, res, 0);
  });
  for (const k of KEYS) {
    key = k;
    const seen = new Map<string, string>();
    outputs.set(k, seen);
    for (const format of FORMATS) {
      const sub = join(dir, `${KEYS.indexOf(k)}-${format}`);
      const reports = FORMATS.flatMap((f) => ['--report', `${f}=${join(sub, `report.${f}`)}`]);
      const env = {
        SVC_API_KEY: k,
        SVC_BASE_URL: api.url,
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: join(dir, `summary-${KEYS.indexOf(k)}-${format}.md`),
      };
      const r = await runCliLikeBinary(['ci', PAGE, '--format', format, ...reports], { env, timeoutMs: 30_000 });
      expect(r.code, r.stderr).toBe(1);
      seen.set(`stdout --format ${format}`, r.stdout);
      seen.set(`stderr --format ${format}`, r.stderr);
      for (const f of FORMATS)
        seen.set(`--report ${f} (run ${format})`, await readFile(join(sub, `report.${f}`), 'utf8'));
      seen.set(`step summary (run ${format})`, await readFile(env.GITHUB_STEP_SUMMARY, 'utf8'));
    }
  }
}, 180_000);
afterAll(() => api?.close());

describe('secrets in every spelling, through every output', () => {
  it.each(KEYS)('no output holds any 8 characters of the start of %s, in any spelling or case', (key) => {
    const prefix = key.slice(0, 8).toLowerCase();
    const seen = outputs.get(key)!;
    expect(seen.size).toBe(FORMATS.length * (2 + FORMATS.length + 1));
    for (const [name, text] of seen) {
      expect(text.length, name).toBeGreaterThan(0);
      expect(decoded(text), name).not.toContain(prefix);
    }
  });

  it.each(KEYS)('the findings are still reported, with [redacted] where the key was (%s)', (key) => {
    const seen = outputs.get(key)!;
    const parsed = JSON.parse(seen.get('stdout --format json')!);
    expect(parsed.violations.length).toBe(findingsFor(key).length);
    expect(parsed.verdict.outcome).toBe('FAIL');
    for (const v of parsed.violations) expect(`${v.ruleId} ${v.target} ${v.failureSummary}`).toContain('[redacted]');
    expect(seen.get('stderr --format text')).toMatch(/^::error title=/m);
  });

  it('a URL password with ", <, >, [ or ] is in no output; the host stays', () => {
    for (const seen of outputs.values()) {
      for (const [name, text] of seen) {
        expect(decoded(text), name).not.toContain('canarypw');
        expect(decoded(text), name).not.toContain('deploy:');
      }
      expect(seen.get('stdout --format text')).toContain('https://[redacted]@staging.example.com/x1');
    }
  });

  it('token-like query parameters keep their name and lose their value', () => {
    const text = outputs.get(KEYS[0]!)!.get('stdout --format text')!;
    expect(text).toContain('?session=[redacted]');
    expect(text).toContain('?access_token=[redacted]');
    expect(text).toContain('?api_key=[redacted]');
  });
});
