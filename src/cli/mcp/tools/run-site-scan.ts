// run_site_scan: a full-site scan run of one site (a crawl), waited for with progress, answered with its counts and
// worst findings; its id is what explain_root_causes and get_findings take.
import { failureOf, type ScanRun } from '../../../index.js';
import { safeCopy } from '../../io/safe-text.js';
import { ID_SCHEMA, TIMEOUT_SCHEMA } from '../input.js';
import { capFindings, counts, DEFAULT_FINDINGS_LIMIT, finding, findingsText, one, result } from '../results.js';
import { defineTool } from '../tool.js';
import { OUTPUT_SCHEMAS } from '../schemas.js';
import { waitFor } from '../wait.js';

interface Input {
  siteId: string;
  timeoutMs?: number;
}

/** `run_site_scan`: `{ siteId, timeoutMs? }` → `{ scanRunId, status, counts, findings, omitted }`. */
export const runSiteScan = defineTool<Input>({
  name: 'run_site_scan',
  title: 'Scan a whole site',
  description:
    'Starts a full-site scan run of one registered site (the service crawls it) and waits for it, with progress (pages done of pages) when the request has a progressToken. Returns the run id (for explain_root_causes and get_findings), its status, counts by impact and its findings worst first, every critical one included.',
  readOnly: false,
  inputSchema: {
    type: 'object',
    properties: {
      siteId: { ...ID_SCHEMA, description: 'A site id (list_sites).' },
      timeoutMs: TIMEOUT_SCHEMA,
    },
    required: ['siteId'],
    additionalProperties: false,
  },
  outputSchema: OUTPUT_SCHEMAS.run_site_scan!,
  needs: () => ({ scopes: ['scans:write', 'scans:read'], features: ['API_ACCESS'] }),
  async run(input, ctx) {
    const raw = await ctx.client.scanRuns.createAndWait(
      { siteId: input.siteId },
      waitFor<ScanRun>(ctx, input.timeoutMs, (run) => ({
        done: run.pagesDone ?? 0,
        total: run.pagesTotal,
        message: `${run.pagesDone ?? 0} of ${run.pagesTotal ?? '?'} pages scanned (${run.status})`,
      })),
    );
    const run = safeCopy(raw, ctx.secrets);
    ctx.working(run.id);
    const failure = failureOf(run);
    const violations =
      run.status === 'COMPLETED'
        ? safeCopy(await ctx.client.scanRuns.listViolations(run.id, { signal: ctx.signal }), ctx.secrets)
        : [];
    // Every critical finding is listed (as far as the result's size allows), whatever the default limit.
    const critical = violations.filter((v) => v.impact === 'critical').length;
    const { shown: findings, omitted } = capFindings(
      violations.map((v) => finding(v, { locate: ctx.locate })),
      Math.max(DEFAULT_FINDINGS_LIMIT, critical),
    );
    return result(
      [
        `Scan run ${one(run.id)} of site ${input.siteId}: ${one(run.status)}${run.pagesTotal === undefined ? '' : `, ${one(run.pagesDone ?? 0)} of ${one(run.pagesTotal)} pages`}${failure ? ` — ${one(failure.message)}` : ''}.`,
        `Findings: ${counts(run.counts)}.`,
        findingsText(
          findings,
          omitted,
          `get_findings with {"scanRunId": "${one(run.id)}"} and a higher limit (at most 500) lists them`,
        ),
        `explain_root_causes with {"scanRunId": "${one(run.id)}"} groups them by cause.`,
      ].join('\n'),
      {
        scanRunId: run.id,
        status: run.status,
        pagesDone: run.pagesDone,
        pagesTotal: run.pagesTotal,
        counts: run.counts,
        findings,
        omitted,
        ...(run.failureReason ? { failureReason: run.failureReason } : {}),
      },
    );
  },
});
