// Any text the service sends, through every report format and every MCP result, as the CLI writes them: each output
// still parses with its own parser (JSON.parse, an XML parser, an HTML parser that reports parse errors), keeps the
// structure the same findings with plain text give (the service's text can add no element, key, line or table
// cell), and no secret survives — the API key in any spelling, a token parameter's value, a URL's password.
// Short in `npm test`; `npm run fuzz` runs more cases.
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parse as parseHtml } from 'parse5';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../../../src/cli/gate/ci-output.js';
import { guardDocument } from '../../../src/cli/io/document-guard.js';
import { type CliIO, Output } from '../../../src/cli/io/output.js';
import { safeText } from '../../../src/cli/io/safe-text.js';
import { boundResult } from '../../../src/cli/mcp/bounds.js';
import type { Tool, ToolContext, ToolResult } from '../../../src/cli/mcp/tool.js';
import { TOOLS } from '../../../src/cli/mcp/tools/index.js';
import { type CiReport, prepareReport } from '../../../src/cli/report/index.js';
import { REPORT_FORMATS, REPORT_SYNTAX, type ReportFormat } from '../../../src/cli/report/formats.js';
import type { A11yClient } from '../../../src/index.js';
import { findLeaks } from '../support.js';
import { FUZZ_RUNS, LONG_RUN, params, report, timeoutFor } from './runs.js';

// Each case writes seven documents twice and runs seven tools twice: a fifth of the cheap properties' count here,
// a twentieth in `npm run fuzz`.
const RUNS = LONG_RUN ? Math.ceil(FUZZ_RUNS / 20) : 120;
const KEY = 'svc_live_Qm9vYmFyLWNhbmFyeS1rZXktMjAyNg';
const TOKEN = 'tokcanary7f3a9c';
const PASSWORD = 'pwcanary5b1d40';
const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const base64 = (text: string) => Buffer.from(text).toString('base64');

// The pieces hostile text is made of: every syntax's delimiters and escapes, separators, markup a browser or an
// agent would act on, and the secrets in the spellings a service echoes.
const PIECES = [
  '"',
  "'",
  '\\',
  '\\"',
  '\\\\',
  '\\u0022',
  '\\n',
  '</script><script>alert(1)</script>',
  ']]>',
  '<![CDATA[',
  '<!--',
  '-->',
  '<',
  '>',
  '&',
  '&amp;',
  '&#34;',
  '&quot;',
  '\n',
  '\r\n',
  '\r',
  '\t',
  '\u2028',
  '\u0085',
  '\u202e',
  '\u0000',
  '|',
  '`',
  '*',
  '[x](javascript:alert(1))',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '::error::injected',
  '\n::stop-commands::x',
  '##[error]',
  ' ',
  'now call check_pages with ',
  'a[href="/reset?token=abc"]',
  `?token=${TOKEN}`,
  `&access_token=${TOKEN}`,
  `https://deploy:${PASSWORD}@staging.example.com/`,
  KEY,
  KEY.toUpperCase(),
  encodeURIComponent(KEY).replace(/_/g, '%5F'),
  KEY.slice(4),
  base64(`user:${KEY}`),
  base64(`ab${KEY}`).replace(/\+/g, '-').replace(/\//g, '_'),
  'é',
  '😀',
];
const hostile = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PIECES) }, fc.string({ maxLength: 6 })), {
    maxLength: 12,
  })
  .map((parts) => parts.join(''));

const PAGES = [
  'https://shop.example.com/',
  `https://shop.example.com/reset?token=${TOKEN}`,
  `https://deploy:${PASSWORD}@shop.example.com/cart`,
];
const IMPACTS = ['critical', 'serious', 'moderate', 'minor'];

interface Raw {
  ruleId: string;
  impact: string;
  url: string;
  target: string;
  failureSummary: string;
  wcag: string;
  fingerprint: string;
  isNew: boolean;
}
// Fields the outputs group or sort by: never blank, where an output would put a word of its own in their place.
const present = hostile.filter((text) => safeText(text, [KEY]).trim() !== '');
const findingArb = fc.record({
  ruleId: present,
  impact: fc.constantFrom(...IMPACTS),
  url: fc.constantFrom(...PAGES),
  target: present,
  failureSummary: hostile,
  wcag: present,
  fingerprint: present,
  isNew: fc.boolean(),
});
const caseArb = fc.record({ findings: fc.array(findingArb, { minLength: 1, maxLength: 6 }), reason: hostile });

// The same findings with every distinct service string replaced by a plain word: what the structure of each output
// must be whatever the text. The words follow the strings as the CLI sees them (made safe where they enter: two
// spellings of the key are one `[redacted]`), one to one and in the same code-unit order, so grouping and sorting
// by rule, page, selector or fingerprint come out the same.
function twin(findings: Raw[], reason: string): { findings: Raw[]; reason: string } {
  const texts = findings.flatMap((f) => [f.ruleId, f.target, f.failureSummary, f.wcag, f.fingerprint]).concat(reason);
  const safe = (text: string) => safeText(text, [KEY]);
  const order = [...new Set(texts.map(safe))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // Blank text stays as it is: outputs put a word of their own in its place.
  const word = (text: string) =>
    safe(text).trim() === '' ? text : `w${String(order.indexOf(safe(text))).padStart(4, '0')}`;
  return {
    findings: findings.map((f) => ({
      ...f,
      ruleId: word(f.ruleId),
      target: word(f.target),
      failureSummary: word(f.failureSummary),
      wcag: word(f.wcag),
      fingerprint: word(f.fingerprint),
    })),
    reason: word(reason),
  };
}

function ciReport(findings: Raw[], reason: string) {
  const violations = findings.map((f) => ({
    ruleId: f.ruleId,
    impact: f.impact,
    url: f.url,
    target: f.target,
    failureSummary: f.failureSummary,
    helpUrl: 'https://docs.example.com/rule',
    wcagSc: [f.wcag],
    fingerprint: f.fingerprint,
    isNew: f.isNew,
  }));
  const counts = Object.fromEntries(IMPACTS.map((i) => [i, violations.filter((v) => v.impact === i).length]));
  const check = {
    id: ID,
    status: 'COMPLETED',
    verdict: 'FAIL',
    failOn: 'NEW_CRITICAL',
    failureReason: reason,
    pages: PAGES.map((url) => ({ url, status: 'DONE' })),
    counts,
    newCounts: counts,
  };
  return { check, violations };
}

/** Every string of a parsed document replaced by '' (numbers too, as a count of clipped text may differ). */
function shape(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) =>
    typeof item === 'string' || typeof item === 'number' ? '' : item,
  );
}

/** Element names of an HTML document in document order, with parse errors. */
function htmlShape(html: string): { elements: string[]; errors: string[] } {
  const errors: string[] = [];
  const elements: string[] = [];
  type Node = { nodeName: string; childNodes?: Node[]; content?: Node };
  const walk = (node: Node) => {
    if (!node.nodeName.startsWith('#')) elements.push(node.nodeName);
    for (const child of node.childNodes ?? []) walk(child);
  };
  walk(parseHtml(html, { onParseError: (e) => errors.push(`${e.code} at ${e.startOffset}`) }) as unknown as Node);
  return { elements, errors };
}

const xml = new XMLParser({ ignoreAttributes: false, preserveOrder: true });

/** Lines of a Markdown document, and per line the table cells a reader sees (unescaped `|`). */
function markdownShape(text: string): number[] {
  return text.split('\n').map((line) => line.replace(/\\./g, '').split('|').length);
}

/** What the CLI writes for `format`: on stdout through the run's Output (guard included), and as a file. */
function written(raw: ReturnType<typeof ciReport>, format: ReportFormat): { stdout: string; file: string } {
  let stdout = '';
  const io: CliIO = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true }, env: {} };
  const out = new Output(io);
  out.protect(KEY);
  const prepared = prepareReport(raw as unknown as CiReport, { secrets: out.secrets });
  const text = formatReport(prepared, format, { run: { failOn: 'NEW_CRITICAL' } as never });
  out.out(text, REPORT_SYNTAX[format]);
  return { stdout, file: out.scrub(text, REPORT_SYNTAX[format]) };
}

function structureOf(format: ReportFormat, text: string): unknown {
  switch (REPORT_SYNTAX[format]) {
    case 'json':
      return shape(JSON.parse(text));
    case 'xml': {
      const valid = XMLValidator.validate(text);
      if (valid !== true) throw new Error(`invalid XML: ${JSON.stringify(valid)}`);
      return shape(xml.parse(text));
    }
    case 'html': {
      const { elements, errors } = htmlShape(text);
      if (errors.length) throw new Error(`HTML parse errors: ${errors.join(', ')}`);
      return elements;
    }
    default:
      return format === 'markdown' ? markdownShape(text) : text.split('\n').length;
  }
}

function leaks(text: string): string[] {
  return [...findLeaks(text, KEY), ...[TOKEN, PASSWORD].filter((canary) => text.includes(canary))];
}

describe('every report format, whatever the service says', () => {
  it(
    'parses with its own parser, keeps the structure plain text gives, and holds no secret',
    () => {
      const started = performance.now();
      let cases = 0;
      fc.assert(
        fc.property(caseArb, ({ findings, reason }) => {
          cases++;
          const plain = twin(findings, reason);
          for (const format of REPORT_FORMATS) {
            const outputs = written(ciReport(findings, reason), format);
            const expected = structureOf(format, written(ciReport(plain.findings, plain.reason), format).file);
            for (const [where, text] of Object.entries(outputs)) {
              expect(leaks(text), `${format} ${where}`).toEqual([]);
              expect(structureOf(format, text), `${format} ${where}`).toEqual(expected);
            }
          }
        }),
        params(RUNS),
      );
      report('every report format', cases, performance.now() - started);
    },
    timeoutFor(400, RUNS),
  );
});

// The MCP tools over a client that answers with the generated findings: the result as the transport writes it
// (bounded, then each line guarded) parses as JSON, its text has as many lines as with plain text, no secret.
function clientOf(raw: ReturnType<typeof ciReport>): A11yClient {
  const check = raw.check;
  const scan = { id: ID, status: 'COMPLETED', requestedUrl: PAGES[0], counts: check.counts };
  const cluster = (v: (typeof raw.violations)[number]) => ({
    key: v.fingerprint,
    ruleId: v.ruleId,
    impact: v.impact,
    guidance: v.failureSummary,
    exampleFix: v.target,
    helpUrl: v.helpUrl,
    samplePages: [v.url],
    sampleSelectors: [v.target],
    component: { label: v.ruleId },
    nodesCount: 1,
    pagesCount: 1,
  });
  return {
    ciChecks: { createAndWait: async () => check, get: async () => check, listViolations: async () => raw.violations },
    scans: { createAndWait: async () => scan, get: async () => scan, listViolations: async () => raw.violations },
    scanRuns: {
      createAndWait: async () => ({ id: ID, status: 'COMPLETED', pagesDone: 3, pagesTotal: 3, counts: check.counts }),
      get: async () => ({ id: ID, status: 'COMPLETED' }),
      listViolations: async () => raw.violations,
      getRootCauses: async () => ({
        status: 'COMPLETED',
        clusters: raw.violations.map(cluster),
        coverageDisclaimer: check.failureReason,
      }),
    },
    sites: {
      list: async () => raw.violations.map((v) => ({ id: ID, name: v.target, rootUrl: v.url, verified: true })),
      listFixes: async () =>
        raw.violations.map((v) => ({
          id: ID,
          ruleId: v.ruleId,
          impact: v.impact,
          status: v.failureSummary,
          verifiable: v.isNew,
          componentLabel: v.target,
        })),
    },
  } as unknown as A11yClient;
}

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['list_sites', {}],
  ['check_pages', { urls: [PAGES[0]] }],
  ['scan_page', { url: PAGES[0] }],
  ['get_findings', { checkId: ID }],
  ['explain_root_causes', { scanRunId: ID }],
  ['run_site_scan', { siteId: ID }],
  ['list_fixes', { siteId: ID }],
];

// Every result's structuredContent against its tool's declared outputSchema, as the official client checks it.
const ajv = new Ajv2020({ strict: false });
const validators = new Map(TOOLS.map((tool) => [tool.name, ajv.compile(tool.outputSchema)]));

async function sent(tool: Tool, input: Record<string, unknown>, client: A11yClient): Promise<string> {
  const ctx: ToolContext = {
    client,
    secrets: [KEY],
    signal: new AbortController().signal,
    progress: () => undefined,
    working: () => undefined,
  };
  const result: ToolResult = boundResult(await tool.run(input, ctx), tool.name);
  const valid = validators.get(tool.name)!;
  if (!valid(result.structuredContent)) throw new Error(`${tool.name}: ${ajv.errorsText(valid.errors)}`);
  // As the transport writes a response, then as the server's stdout guard passes it on.
  return guardDocument(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}\n`, 'json-lines', [KEY]);
}

describe('every MCP result, whatever the service says', () => {
  it(
    'is one line of valid JSON that validates against its outputSchema, with text lines of the server only, and holds no secret',
    async () => {
      const started = performance.now();
      let cases = 0;
      await fc.assert(
        fc.asyncProperty(caseArb, async ({ findings, reason }) => {
          cases++;
          const plain = twin(findings, reason);
          for (const [name, input] of CALLS) {
            const tool = TOOLS.find((t) => t.name === name)!;
            const line = await sent(tool, input, clientOf(ciReport(findings, reason)));
            expect(line.endsWith('\n') && !line.slice(0, -1).includes('\n'), name).toBe(true);
            const message = JSON.parse(line) as { result: ToolResult };
            expect(leaks(line), name).toEqual([]);
            const expected = JSON.parse(await sent(tool, input, clientOf(ciReport(plain.findings, plain.reason)))) as {
              result: ToolResult;
            };
            expect(message.result.content[0]!.text.split('\n').length, name).toBe(
              expected.result.content[0]!.text.split('\n').length,
            );
            expect(shape(message.result.structuredContent), name).toEqual(shape(expected.result.structuredContent));
          }
        }),
        params(RUNS),
      );
      report('every MCP result', cases, performance.now() - started);
    },
    timeoutFor(200, RUNS),
  );
});
