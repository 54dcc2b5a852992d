// scan_page: one page of any registered site scanned and waited for, answered with its findings.
import { failureOf, type Scan } from '../../../index.js';
import { safeCopy } from '../../io/safe-text.js';
import { TIMEOUT_SCHEMA, URL_SCHEMA } from '../input.js';
import { capFindings, counts, DEFAULT_FINDINGS_LIMIT, finding, findingsText, one, result } from '../results.js';
import { defineTool } from '../tool.js';
import { OUTPUT_SCHEMAS } from '../schemas.js';
import { isDone, waitFor } from '../wait.js';

interface Input {
  url: string;
  timeoutMs?: number;
}

/** `scan_page`: `{ url, timeoutMs? }` → `{ scanId, status, counts, findings, omitted }`. */
export const scanPage = defineTool<Input>({
  name: 'scan_page',
  title: 'Scan one page',
  description:
    'Scans one page of a registered site (list_sites) and waits for the result: its counts by impact and its findings, worst first, each with its rule, CSS selector (target), summary and help URL. The page must be reachable by the service (never localhost).',
  readOnly: false,
  inputSchema: {
    type: 'object',
    properties: {
      url: { ...URL_SCHEMA, description: 'Absolute http(s) URL of the page, at most 2048 characters.' },
      timeoutMs: TIMEOUT_SCHEMA,
    },
    required: ['url'],
    additionalProperties: false,
  },
  outputSchema: OUTPUT_SCHEMAS.scan_page!,
  needs: () => ({ scopes: ['scans:write', 'scans:read'], features: ['API_ACCESS'] }),
  async run(input, ctx) {
    const raw = await ctx.client.scans.createAndWait(
      { url: input.url },
      waitFor<Scan>(ctx, input.timeoutMs, (scan) => ({
        done: isDone(scan.status) ? 1 : 0,
        total: 1,
        message: `scan ${scan.status}`,
      })),
    );
    const scan = safeCopy(raw, ctx.secrets);
    ctx.working(scan.id);
    const failure = failureOf(scan);
    const violations =
      scan.status === 'COMPLETED' && !failure
        ? safeCopy(await ctx.client.scans.listViolations(scan.id, { signal: ctx.signal }), ctx.secrets)
        : [];
    const { shown: findings, omitted } = capFindings(
      violations.map((v) => finding(v, { locate: ctx.locate })),
      DEFAULT_FINDINGS_LIMIT,
    );
    return result(
      [
        `Scan ${one(scan.id)} of ${one(scan.requestedUrl ?? input.url)}: ${one(scan.status)}${failure ? ` — ${one(failure.message)}` : ''}.`,
        `Findings: ${counts(scan.counts)}.`,
        findingsText(
          findings,
          omitted,
          `get_findings with {"scanId": "${one(scan.id)}"} and a higher limit (at most 500) lists them`,
        ),
      ].join('\n'),
      {
        scanId: scan.id,
        status: scan.status,
        url: scan.requestedUrl,
        counts: scan.counts,
        findings,
        omitted,
        ...(scan.failureReason ? { failureReason: scan.failureReason } : {}),
      },
    );
  },
});
