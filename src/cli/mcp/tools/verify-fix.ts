// verify_fix: a tracked fix re-checked on the pages it was found on, waited for, answered with its outcome.
import { failureOf, type FixVerification } from '../../../index.js';
import { safeCopy } from '../../io/safe-text.js';
import { ID_SCHEMA, TIMEOUT_SCHEMA } from '../input.js';
import { cap, one, result } from '../results.js';
import { defineTool } from '../tool.js';
import { OUTPUT_SCHEMAS } from '../schemas.js';
import { waitFor } from '../wait.js';

/** Pages one result lists. */
const PAGES_LIMIT = 50;

interface Input {
  remediationItemId: string;
  timeoutMs?: number;
}

/** `verify_fix`: `{ remediationItemId, timeoutMs? }` → `{ verificationId, status, outcome, … }`. */
export const verifyFix = defineTool<Input>({
  name: 'verify_fix',
  title: 'Verify a fix',
  description:
    'Re-checks a tracked fix (a remediation item: the id the service gives a root cause being fixed) on the pages it was found on, and waits for the outcome (e.g. FIXED or NOT_FIXED) with the elements still found. Sends progress (pages scanned of pages) when the request has a progressToken.',
  readOnly: false,
  inputSchema: {
    type: 'object',
    properties: {
      remediationItemId: { ...ID_SCHEMA, description: "The tracked fix's id (remediation item)." },
      timeoutMs: TIMEOUT_SCHEMA,
    },
    required: ['remediationItemId'],
    additionalProperties: false,
  },
  outputSchema: OUTPUT_SCHEMAS.verify_fix!,
  needs: () => ({ scopes: ['scans:write', 'scans:read'], features: ['API_ACCESS', 'remediation tracking'] }),
  async run(input, ctx) {
    const raw = await ctx.client.fixes.verifyAndWait(
      input.remediationItemId,
      waitFor<FixVerification>(ctx, input.timeoutMs, (v) => ({
        done: v.pagesScanned ?? 0,
        total: v.pagesRequested,
        message: `${v.pagesScanned ?? 0} of ${v.pagesRequested ?? '?'} pages re-checked (${v.status})`,
      })),
    );
    const v = safeCopy(raw, ctx.secrets);
    const { shown, omitted } = cap(v.pages, PAGES_LIMIT);
    const pages = shown.map((p) => ({ url: p.url, status: p.status }));
    const failure = failureOf(v);
    return result(
      `Fix verification ${one(v.id)} of ${one(v.remediationItemId ?? input.remediationItemId)}: ${one(v.status)}, outcome ${one(v.outcome ?? 'none')}${failure ? ` — ${one(failure.message)}` : ''}.\n` +
        `Pages re-checked ${one(v.pagesScanned ?? 0)} of ${one(v.pagesRequested ?? 0)} (failed ${one(v.pagesFailed ?? 0)}); elements still found ${one(v.nodesFound ?? 0)}${v.ruleNodesFound === undefined ? '' : ` (${one(v.ruleNodesFound)} by the rule)`}.`,
      {
        verificationId: v.id,
        remediationItemId: v.remediationItemId,
        status: v.status,
        outcome: v.outcome,
        rootCauseKey: v.rootCauseKey,
        scopeGranularity: v.scopeGranularity,
        pagesRequested: v.pagesRequested,
        pagesScanned: v.pagesScanned,
        pagesFailed: v.pagesFailed,
        nodesFound: v.nodesFound,
        ruleNodesFound: v.ruleNodesFound,
        pages,
        omitted,
        ...(v.failureReasonCode ? { failureReasonCode: v.failureReasonCode } : {}),
      },
    );
  },
});
