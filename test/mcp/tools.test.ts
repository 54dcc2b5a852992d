// The eight tools against the simulator, through the built binary and the MCP SDK's own client: what tools/list
// shows (all six, or the three that start nothing with --read-only), every tool's structured result, and progress
// notifications while check_pages waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { mcpSessions, textOf } from './support.js';

let sim: Simulator;
beforeAll(async () => {
  // queuedShare 0: the check's pages move from its first poll, so progress has something to report.
  sim = await startSimulator({
    durations: { ciCheck: 1500, scan: 200, scanRun: 1500, fixVerification: 200 },
    queuedShare: 0,
    rateLimit: false,
  });
});
afterAll(() => sim.stop());

const start = mcpSessions();
// One server for the tool calls below (none reads another's logs or stderr): a server start is a Node process
// loading the CLI and the MCP SDK.
const shared = mcpSessions({ until: 'file' });
let session: ReturnType<typeof shared> | undefined;
const server = () => (session ??= shared(env()));
const env = () => ({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url });
const SHOP = 'https://shop.example.com';

const FINDING = {
  ruleId: expect.any(String),
  impact: expect.any(String),
  url: expect.stringMatching(/^https:\/\/shop\.example\.com\//),
  target: expect.any(String),
  helpUrl: expect.any(String),
  failureSummary: expect.any(String),
  wcagSc: expect.any(Array),
};
// A scan's finding: the same, with the element's HTML where the service gives it.
const scanFinding = (f: Record<string, unknown>) => ({
  ...FINDING,
  ...('htmlSnippet' in f ? { htmlSnippet: expect.any(String) } : {}),
});
// A CI check's finding: its identity across checks and whether the baseline lacks it, on every finding.
const CHECK_FINDING = { ...FINDING, fingerprint: expect.any(String), isNew: expect.any(Boolean) };

describe('tools/list', () => {
  it('lists the eight tools with JSON Schema inputs that take no other field, and readOnlyHint on the four that start nothing', async () => {
    const mcp = await start(env());
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'list_sites',
      'check_pages',
      'scan_page',
      'run_site_scan',
      'get_findings',
      'explain_root_causes',
      'list_fixes',
      'verify_fix',
    ]);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema, tool.name).toMatchObject({ type: 'object', additionalProperties: false });
      // Every tool declares its result (the official client then validates each structuredContent against it).
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object', properties: { error: { type: 'object' } } });
    }
    const readOnly = Object.fromEntries(tools.map((t) => [t.name, t.annotations?.readOnlyHint]));
    expect(readOnly).toEqual({
      list_sites: true,
      check_pages: false,
      scan_page: false,
      run_site_scan: false,
      get_findings: true,
      explain_root_causes: true,
      list_fixes: true,
      verify_fix: false,
    });
    const check = tools.find((t) => t.name === 'check_pages')!;
    expect(check.inputSchema.required).toEqual(['urls']);
    // The bounds are the description's (openapi.yaml's CreateCiCheckRequest and PageUrl), not typed again.
    expect(check.inputSchema.properties).toMatchObject({
      urls: { type: 'array', minItems: 1, maxItems: 20, items: { maxLength: 2048, pattern: expect.any(String) } },
      failOn: { enum: ['NEW_CRITICAL', 'ANY_CRITICAL', 'SERIOUS_OR_WORSE', 'NONE'] },
      timeoutMs: { type: 'integer', minimum: 1000, maximum: 600000, default: 600000 },
    });
  });

  it('--read-only lists only list_sites, get_findings, explain_root_causes and list_fixes, and refuses to run the others', async () => {
    const mcp = await start(env(), ['--read-only']);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['list_sites', 'get_findings', 'explain_root_causes', 'list_fixes']);
    const before = sim.requestCount();
    await expect(mcp.call('check_pages', { urls: [`${SHOP}/`] })).rejects.toThrow(/--read-only/);
    await expect(mcp.call('run_site_scan', { siteId: sim.ids.verifiedSite })).rejects.toThrow(
      /lists only list_sites, get_findings, explain_root_causes, list_fixes/,
    );
    expect(sim.requestCount()).toBe(before);
    expect((await mcp.call('list_sites')).isError).toBeFalsy();
  });
});

describe('every tool against the simulator', () => {
  it('list_sites: { sites: [{ id, name, rootUrl, verified }], omitted }', async () => {
    const mcp = await server();
    const result = await mcp.call('list_sites');
    expect(result.isError).toBeFalsy();
    const { sites, omitted } = result.structuredContent as { sites: unknown[]; omitted: number };
    expect(omitted).toBe(0);
    expect(sites).toContainEqual({
      id: sim.ids.verifiedSite,
      name: expect.any(String),
      rootUrl: `${SHOP}/`,
      verified: true,
    });
    expect(sites).toContainEqual(expect.objectContaining({ id: sim.ids.unverifiedSite, verified: false }));
    for (const site of sites) expect(Object.keys(site as object).sort()).toEqual(['id', 'name', 'rootUrl', 'verified']);
    expect(textOf(result)).toContain(sim.ids.verifiedSite);
  });

  it('check_pages: verdict, counts, pages and the new findings only, with progress notifications (pages done of pages) before the result', async () => {
    const mcp = await server();
    const urls = [`${SHOP}/`, `${SHOP}/cart`, `${SHOP}/?regress=2`];
    const progress: Array<{ progress: number; total?: number | undefined; message?: string | undefined }> = [];
    const result = await mcp.call(
      'check_pages',
      { urls, failOn: 'NEW_CRITICAL' },
      { onprogress: (p) => progress.push(p) },
    );
    // Notifications of a request arrive before its response: all of them are here once the call returned.
    const seen = progress.length;
    expect(seen).toBeGreaterThan(0);
    // Each notification says more than the one before (the protocol's rule), and the last one says all pages.
    for (let i = 1; i < seen; i++) expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
    expect(progress.at(-1)).toMatchObject({ progress: 3, total: 3, message: expect.stringContaining('3 of 3 pages') });
    expect(progress.every((p) => p.total === 3)).toBe(true);

    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as Record<string, unknown> & { findings: Array<Record<string, unknown>> };
    expect(data).toMatchObject({
      checkId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'COMPLETED',
      verdict: expect.stringMatching(/^(PASS|FAIL)$/),
      counts: { critical: expect.any(Number), serious: expect.any(Number) },
      newCounts: { critical: expect.any(Number) },
      pages: urls.map((url) => ({ url, status: 'DONE' })),
      omitted: expect.any(Number),
    });
    expect(data.findings.length).toBeGreaterThan(0);
    for (const f of data.findings) expect(f).toEqual({ ...CHECK_FINDING, isNew: true });
    // Only the new ones: as many as the check counts new (none left out at this size).
    const n = data.newCounts as Record<string, number>;
    expect(data.findings.length + (data.omitted as number)).toBe(n.critical! + n.serious! + n.moderate! + n.minor!);
    expect(textOf(result)).toMatch(/^CI check [0-9a-f-]{36}: COMPLETED, verdict (PASS|FAIL)/);

    // The check's findings, read again: get_findings with its id, new ones only, worst first.
    const again = await mcp.call('get_findings', { checkId: data.checkId, onlyNew: true, limit: 2 });
    expect(again.isError).toBeFalsy();
    const read = again.structuredContent as {
      findings: Array<Record<string, unknown>>;
      total: number;
      omitted: number;
    };
    expect(read.total).toBe(data.findings.length + (data.omitted as number));
    expect(read.findings).toHaveLength(Math.min(2, read.total));
    expect(read.omitted).toBe(read.total - read.findings.length);
    for (const f of read.findings) expect(f).toEqual({ ...CHECK_FINDING, isNew: true });
  });

  it('scan_page: { scanId, status, counts, findings, omitted }', async () => {
    const mcp = await server();
    const result = await mcp.call('scan_page', { url: `${SHOP}/product/1`, timeoutMs: 60_000 });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as { findings: unknown[]; scanId: string };
    expect(data).toMatchObject({
      scanId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'COMPLETED',
      counts: { critical: expect.any(Number) },
      omitted: 0,
    });
    expect(data.findings.length).toBeGreaterThan(0);
    for (const f of data.findings as Array<Record<string, unknown>>) expect(f).toEqual(scanFinding(f));

    const read = await mcp.call('get_findings', { scanId: data.scanId, impact: 'serious' });
    const kept = read.structuredContent as { findings: Array<{ impact: string }>; total: number };
    expect(kept.findings.every((f) => ['critical', 'serious'].includes(f.impact))).toBe(true);
    expect(kept.total).toBeLessThanOrEqual(data.findings.length);
  });

  it('get_findings of a scan run, and explain_root_causes: clusters with guidance and an example fix', async () => {
    const mcp = await server();
    const findings = await mcp.call('get_findings', { scanRunId: sim.ids.lastScanRun, limit: 3 });
    expect(findings.isError).toBeFalsy();
    const read = findings.structuredContent as { findings: unknown[]; total: number; omitted: number };
    expect(read.findings.length).toBe(Math.min(3, read.total));
    expect(read.omitted).toBe(read.total - read.findings.length);

    const result = await mcp.call('explain_root_causes', { scanRunId: sim.ids.lastScanRun });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as { clusters: Array<Record<string, unknown>>; omitted: number };
    expect(data.clusters.length).toBeGreaterThan(0);
    for (const c of data.clusters)
      expect(c).toMatchObject({
        key: expect.any(String),
        ruleId: expect.any(String),
        impact: expect.any(String),
        guidance: expect.any(String),
        exampleFix: expect.any(String),
        helpUrl: expect.any(String),
        nodesCount: expect.any(Number),
        pagesCount: expect.any(Number),
      });
    expect(textOf(result)).toMatch(/root causes cover \d+ of \d+ findings/);
    expect(textOf(result)).toContain('Example fix:');
  });

  it('list_fixes: the ids verify_fix takes, with rule, impact, status, verifiable and component', async () => {
    const mcp = await server();
    const result = await mcp.call('list_fixes', { siteId: sim.ids.verifiedSite });
    expect(result.isError).toBeFalsy();
    const { fixes, omitted } = result.structuredContent as { fixes: Array<Record<string, unknown>>; omitted: number };
    expect(omitted).toBe(0);
    const ids = fixes.map((f) => f.id);
    expect(ids).toEqual(expect.arrayContaining([sim.ids.fix, sim.ids.unverifiableFix]));
    for (const f of fixes)
      expect(Object.keys(f).sort()).toEqual(['componentLabel', 'id', 'impact', 'ruleId', 'status', 'verifiable']);
    expect(fixes.find((f) => f.id === sim.ids.fix)!.verifiable).toBe(true);
    expect(fixes.find((f) => f.id === sim.ids.unverifiableFix)!.verifiable).toBe(false);
    expect(textOf(result)).toContain(`(id ${sim.ids.fix})`);
    expect(textOf(result)).toContain('verify_fix with {"remediationItemId": "<id>"}');
  });

  it('run_site_scan: progress from pagesDone of pagesTotal, then its id, counts and worst findings (every critical one)', async () => {
    const mcp = await server();
    const progress: Array<{ progress: number; total?: number | undefined }> = [];
    const result = await mcp.call(
      'run_site_scan',
      { siteId: sim.ids.verifiedSite },
      { onprogress: (p) => progress.push(p), timeout: 60_000 },
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    const data = result.structuredContent as {
      scanRunId: string;
      status: string;
      pagesDone: number;
      pagesTotal: number;
      counts: Record<string, number>;
      findings: Array<Record<string, unknown>>;
      omitted: number;
    };
    expect(data).toMatchObject({ scanRunId: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'COMPLETED' });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ progress: data.pagesDone, total: data.pagesTotal });
    const critical = data.findings.filter((f) => f.impact === 'critical').length;
    expect(critical + data.omitted).toBeGreaterThanOrEqual(data.counts.critical! > 0 ? 1 : 0);
    // Worst first, and no critical finding left out for a lesser one.
    const ranks = data.findings.map((f) => ['critical', 'serious', 'moderate', 'minor'].indexOf(f.impact as string));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    // Its id is what explain_root_causes takes.
    const causes = await mcp.call('explain_root_causes', { scanRunId: data.scanRunId });
    expect(causes.isError, textOf(causes)).toBeFalsy();
  });

  it('verify_fix: { verificationId, status, outcome, … }', async () => {
    const mcp = await server();
    const result = await mcp.call('verify_fix', { remediationItemId: sim.ids.fix });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      verificationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      remediationItemId: sim.ids.fix,
      status: 'COMPLETED',
      outcome: 'FIXED',
      pagesRequested: expect.any(Number),
      pagesScanned: expect.any(Number),
      pages: expect.arrayContaining([{ url: expect.any(String), status: 'DONE' }]),
      omitted: 0,
    });
    expect(textOf(result)).toContain('outcome FIXED');
  });
});
