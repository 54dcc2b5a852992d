// Findings an agent can act on, through the built binary and the MCP SDK's own client against the simulator: the
// service's fields as it names them (wcagSc, htmlSnippet, a CI check's fingerprint and isNew on every finding), the
// route file that renders the page where the server runs in a project whose routes it recognises (and none outside
// one), and text that says truthfully what the result holds and how to read the rest.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { mcpSessions, textOf } from './support.js';

let sim: Simulator;
let project: string;
beforeAll(async () => {
  sim = await startSimulator({ durations: { ciCheck: 300, scan: 200 }, queuedShare: 0, rateLimit: false });
  // A Next.js app router project in a repository of its own: `web/` under the repository root.
  const repo = mkdtempSync(join(tmpdir(), 'svc-a11y-mcp-routes-'));
  mkdirSync(join(repo, '.git'));
  project = join(repo, 'web');
  for (const dir of ['app', 'app/cart', 'app/product/[id]']) mkdirSync(join(project, dir), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ dependencies: { next: '15.0.0' } }));
  for (const page of ['app/page.tsx', 'app/cart/page.tsx', 'app/product/[id]/page.tsx'])
    writeFileSync(join(project, page), 'export default function Page() {\n  return null;\n}\n');
});
afterAll(() => sim.stop());

const start = mcpSessions({ until: 'file' });
// One server for the calls that need no project (a server start is a Node process loading the CLI and the MCP SDK).
let plainSession: ReturnType<typeof start> | undefined;
const plain = () => (plainSession ??= start({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url }));
const SHOP = 'https://shop.example.com';
type Finding = Record<string, unknown> & { url: string; source?: { file: string; line: number } };

describe('findings an agent can act on', () => {
  it('a CI check read by get_findings carries fingerprint and isNew on every finding, not only with onlyNew', async () => {
    const mcp = await plain();
    const check = await mcp.call('check_pages', { urls: [`${SHOP}/`, `${SHOP}/cart`] });
    const { checkId } = check.structuredContent as { checkId: string };
    const all = (await mcp.call('get_findings', { checkId })).structuredContent as { findings: Finding[] };
    expect(all.findings.length).toBeGreaterThan(0);
    for (const f of all.findings) {
      expect(f.fingerprint).toEqual(expect.any(String));
      expect(typeof f.isNew).toBe('boolean');
      expect(Array.isArray(f.wcagSc)).toBe(true);
      // No project here (the server's working directory is this repository's, which renders no shop pages).
      expect(f.source).toBeUndefined();
    }
  });

  it("a scan's findings carry the element's HTML (htmlSnippet) and WCAG criteria, no CI fields", async () => {
    const mcp = await plain();
    const scan = (await mcp.call('scan_page', { url: `${SHOP}/product/7` })).structuredContent as {
      findings: Finding[];
    };
    expect(scan.findings.length).toBeGreaterThan(0);
    for (const f of scan.findings) {
      expect(f.htmlSnippet).toEqual(expect.any(String));
      expect((f.wcagSc as string[]).length).toBeGreaterThan(0);
      expect(f).not.toHaveProperty('fingerprint');
      expect(f).not.toHaveProperty('isNew');
    }
  });

  it('in a recognised project (SVC_SOURCE_ROOT), each finding names the route file that renders its page, relative to the repository root; the text names it too', async () => {
    const mcp = await start({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url, SVC_SOURCE_ROOT: project });
    expect(mcp.stderr()).toContain('findings name the route files of web/app');
    const result = await mcp.call('check_pages', { urls: [`${SHOP}/cart`, `${SHOP}/product/3?ref=ad`] });
    const { findings } = result.structuredContent as { findings: Finding[] };
    expect(findings.length).toBeGreaterThan(0);
    const expected: Record<string, string> = {
      [`${SHOP}/cart`]: 'web/app/cart/page.tsx',
      // The query string is ignored when matching.
      [`${SHOP}/product/3?ref=ad`]: 'web/app/product/[id]/page.tsx',
    };
    for (const f of findings) expect(f.source).toEqual({ file: expected[f.url], line: 1 });
    expect(textOf(result)).toContain(` in ${findings[0]!.source!.file}:1`);
  });

  it('--source-root that names no project: one warning, no source, and the server serves all the same', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'svc-a11y-mcp-empty-'));
    const mcp = await start({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url }, ['--source-root', empty]);
    expect(mcp.stderr()).toMatch(/warning: findings carry no source file: .*no routes can be inferred/);
    const scan = (await mcp.call('scan_page', { url: `${SHOP}/cart` })).structuredContent as { findings: Finding[] };
    for (const f of scan.findings) expect(f.source).toBeUndefined();
  });
});

describe('text that tells the truth', () => {
  it('a capped list says how many the structured result holds beyond the text, how many neither holds, and how to read them', async () => {
    const mcp = await plain();
    const urls = [
      `${SHOP}/`,
      `${SHOP}/cart`,
      `${SHOP}/?regress=3`,
      ...[1, 2, 3, 4, 5].map((n) => `${SHOP}/product/${n}`),
    ];
    const check = await mcp.call('check_pages', { urls });
    const { checkId } = check.structuredContent as { checkId: string };
    const everything = (await mcp.call('get_findings', { checkId, limit: 500 })).structuredContent as {
      total: number;
    };
    // A limit under the total and over the ten findings the text lists.
    expect(everything.total).toBeGreaterThan(11);
    const limit = Math.min(everything.total - 1, 12);
    const capped = await mcp.call('get_findings', { checkId, limit });
    const data = capped.structuredContent as { findings: Finding[]; total: number; omitted: number };
    expect(data.findings).toHaveLength(limit);
    expect(data.omitted).toBe(data.total - limit);
    const text = textOf(capped);
    expect(text.split('\n').filter((line) => line.startsWith('- ['))).toHaveLength(10);
    expect(text).toContain(`${limit - 10} more in the structured result (findings).`);
    expect(text).toContain(
      `${data.omitted} more not in this result: call get_findings again with a higher limit (at most 500).`,
    );
  });
});
