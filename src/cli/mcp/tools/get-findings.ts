// get_findings: the findings of a CI check, a scan or a scan run already started (by check_pages, scan_page, a
// wait that ran out, or the CLI), filtered and capped. A job still running answers with its status and no findings.
import { ID_SCHEMA, READ_TIMEOUT_SCHEMA } from '../input.js';
import { safeCopy } from '../../io/safe-text.js';
import {
  capFindings,
  DEFAULT_FINDINGS_LIMIT,
  type Finding,
  finding,
  findingsText,
  IMPACTS,
  isAtLeast,
  one,
  result,
} from '../results.js';
import { defineTool, type ToolContext } from '../tool.js';
import { OUTPUT_SCHEMAS } from '../schemas.js';
import { isDone } from '../wait.js';

interface Input {
  checkId?: string;
  scanId?: string;
  scanRunId?: string;
  onlyNew?: boolean;
  impact?: (typeof IMPACTS)[number];
  limit?: number;
  timeoutMs?: number;
}

const IDS = ['checkId', 'scanId', 'scanRunId'] as const;

type Source = { status: string | undefined; findings: Finding[] };

// Each job: read it first, since findings are read only after it is done (document §1).
async function read(input: Input, ctx: ToolContext): Promise<Source> {
  const { client, signal, secrets } = ctx;
  const options = { signal };
  if (input.checkId !== undefined) {
    const check = safeCopy(await client.ciChecks.get(input.checkId, options), secrets);
    if (check.status !== 'COMPLETED') return { status: check.status, findings: [] };
    const list = safeCopy(await client.ciChecks.listViolations(input.checkId, options), secrets);
    return { status: check.status, findings: list.map((v) => finding(v, { ci: true, locate: ctx.locate })) };
  }
  if (input.scanId !== undefined) {
    const scan = safeCopy(await client.scans.get(input.scanId, options), secrets);
    if (scan.status !== 'COMPLETED') return { status: scan.status, findings: [] };
    const list = safeCopy(await client.scans.listViolations(input.scanId, options), secrets);
    return { status: scan.status, findings: list.map((v) => finding(v, { locate: ctx.locate })) };
  }
  const run = safeCopy(await client.scanRuns.get(input.scanRunId!, options), secrets);
  if (run.status !== 'COMPLETED') return { status: run.status, findings: [] };
  const list = safeCopy(await client.scanRuns.listViolations(input.scanRunId!, options), secrets);
  return { status: run.status, findings: list.map((v) => finding(v, { locate: ctx.locate })) };
}

/** `get_findings`: exactly one of `checkId`, `scanId`, `scanRunId` → `{ findings, total, omitted }`. */
export const getFindings = defineTool<Input>({
  name: 'get_findings',
  title: 'Get findings',
  description:
    "Reads the findings of a CI check (checkId), a single-page scan (scanId) or a full-site scan run (scanRunId): give exactly one id. Worst first, each with its rule, page, CSS selector (target), summary and help URL; a CI check's carry isNew. A job still QUEUED or RUNNING answers with its status and no findings: call again later.",
  readOnly: true,
  inputSchema: {
    type: 'object',
    properties: {
      checkId: { ...ID_SCHEMA, description: 'A CI check id (check_pages).' },
      scanId: { ...ID_SCHEMA, description: 'A single-page scan id (scan_page).' },
      scanRunId: { ...ID_SCHEMA, description: 'A full-site scan run id.' },
      onlyNew: { type: 'boolean', description: 'With checkId: only the findings new against the baseline.' },
      impact: {
        type: 'string',
        enum: [...IMPACTS],
        description: 'Only findings of this impact or worse (critical > serious > moderate > minor).',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: 500,
        default: DEFAULT_FINDINGS_LIMIT,
        description: `How many findings to list (1–500, default ${DEFAULT_FINDINGS_LIMIT}); omitted counts the rest.`,
      },
      timeoutMs: READ_TIMEOUT_SCHEMA,
    },
    additionalProperties: false,
  },
  refine(input) {
    const given = IDS.filter((id) => input[id] !== undefined);
    if (given.length !== 1)
      return {
        field: given.length ? given.join(' and ') : 'checkId, scanId or scanRunId',
        rule: given.length ? 'were both given; give exactly one id' : 'is required: give exactly one id',
      };
    if (input.onlyNew !== undefined && input.checkId === undefined)
      return { field: 'onlyNew', rule: 'applies to checkId only (scans carry no baseline marker)' };
    return undefined;
  },
  outputSchema: OUTPUT_SCHEMAS.get_findings!,
  needs: (input) =>
    input.checkId !== undefined
      ? { scopes: ['ci:check'], features: ['API_ACCESS'] }
      : { scopes: ['scans:read'], features: ['API_ACCESS'] },
  async run(input, ctx) {
    const id = IDS.map((name) => input[name] && `${name} ${input[name]}`).find(Boolean)!;
    ctx.working(id);
    const source = await read(input, ctx);
    if (source.status !== 'COMPLETED') {
      const running = !isDone(source.status);
      return result(
        running
          ? `The job (${id}) is still ${one(source.status)}: its findings are read once it is done. Call get_findings again later.`
          : `The job (${id}) ended ${one(source.status)}: it has no findings to read.`,
        { status: source.status, findings: [], total: 0, omitted: 0 },
      );
    }
    const kept = source.findings.filter(
      (f) => (input.onlyNew ? f.isNew === true : true) && (input.impact ? isAtLeast(f.impact, input.impact) : true),
    );
    const { shown, omitted } = capFindings(kept, input.limit ?? DEFAULT_FINDINGS_LIMIT);
    const filters = [input.onlyNew && 'new', input.impact && `${input.impact} or worse`].filter(Boolean).join(', ');
    return result(
      `${kept.length} finding${kept.length === 1 ? '' : 's'}${filters ? ` (${filters})` : ''} of ${id}${omitted ? `, ${shown.length} shown` : ''}:\n${findingsText(shown, omitted, `call get_findings again with a higher limit (at most 500)${input.limit === 500 ? ' or a narrower impact' : ''}`)}`,
      { status: source.status, findings: shown, total: kept.length, omitted },
    );
  },
});
