// check_pages: a CI check of up to 20 pages of one verified site, waited for with progress, answered with its
// verdict and the findings new against the baseline (the ones this change brought).
import type { CiCheck, FailOn } from '../../../index.js';
import { pagesDone } from '../../../vocabulary/index.js';
import { safeCopy } from '../../io/safe-text.js';
import { TIMEOUT_SCHEMA } from '../input.js';
import { capFindings, counts, DEFAULT_FINDINGS_LIMIT, finding, findingsText, one, result } from '../results.js';
import { defineTool } from '../tool.js';
import { FAIL_ON_INPUT, OUTPUT_SCHEMAS, URLS_INPUT } from '../schemas.js';
import { waitFor } from '../wait.js';

interface Input {
  urls: string[];
  failOn?: FailOn;
  timeoutMs?: number;
}

/** The pages of a check that are done (the SDK's `pagesDone`), of all. */
function progressOf(check: CiCheck, asked: number): { done: number; total: number } {
  return { done: pagesDone(check.pages), total: check.pages?.length || asked };
}

/**
 * `check_pages`: `{ urls, failOn?, timeoutMs? }` → `{ checkId, status, verdict, counts, newCounts, pages, findings,
 * omitted }`; `findings` holds the new findings only.
 */
export const checkPages = defineTool<Input>({
  name: 'check_pages',
  title: 'Check pages (CI check)',
  description:
    "Checks 1–20 pages of one verified site against its baseline and waits for the verdict (PASS or FAIL by failOn). Returns the counts, each page's status and the findings that are NEW against the baseline, worst first, each with its rule, CSS selector (target), summary and help URL. Never moves the baseline. Sends progress (pages done of pages) when the request has a progressToken. Pages must be reachable by the service (never localhost).",
  readOnly: false,
  inputSchema: {
    type: 'object',
    properties: {
      urls: {
        ...URLS_INPUT,
        description: 'Absolute http(s) URLs of pages on one verified site (list_sites), at most 2048 characters each.',
      },
      failOn: {
        ...FAIL_ON_INPUT,
        description: "What makes the verdict FAIL; the service's default (NEW_CRITICAL) when omitted.",
      },
      timeoutMs: TIMEOUT_SCHEMA,
    },
    required: ['urls'],
    additionalProperties: false,
  },
  outputSchema: OUTPUT_SCHEMAS.check_pages!,
  needs: () => ({ scopes: ['ci:check'], features: ['API_ACCESS', "the plan's CI quota"] }),
  async run(input, ctx) {
    const raw = await ctx.client.ciChecks.createAndWait(
      { urls: input.urls, ...(input.failOn ? { failOn: input.failOn } : {}) },
      waitFor<CiCheck>(ctx, input.timeoutMs, (check) => {
        const { done, total } = progressOf(check, input.urls.length);
        return { done, total, message: `${done} of ${total} pages checked (${check.status})` };
      }),
    );
    const check = safeCopy(raw, ctx.secrets);
    ctx.working(check.id);
    // Findings are read only once the check COMPLETED (document §1); a FAILED check has none to read.
    const violations =
      check.status === 'COMPLETED'
        ? safeCopy(await ctx.client.ciChecks.listViolations(check.id, { signal: ctx.signal }), ctx.secrets)
        : [];
    const fresh = violations.filter((v) => v.isNew === true);
    const { shown: findings, omitted } = capFindings(
      fresh.map((v) => finding(v, { ci: true, locate: ctx.locate })),
      DEFAULT_FINDINGS_LIMIT,
    );
    const pages = (check.pages ?? []).map((p) => ({ url: p.url, status: p.status }));
    const head =
      `CI check ${one(check.id)}: ${one(check.status)}${check.verdict ? `, verdict ${one(check.verdict)}` : ''}${check.failOn ? ` (failOn ${one(check.failOn)})` : ''}` +
      `${check.failureReason ? ` — ${one(check.failureReason)}` : ''}${check.baselineMissing ? '; no baseline yet, so every finding counts as new' : ''}.`;
    const notDone = pages.filter((p) => p.status !== 'DONE');
    return result(
      [
        head,
        `Pages: ${pages.length}${notDone.length ? ` (${notDone.map((p) => `${one(p.url)} ${one(p.status)}`).join(', ')})` : ', all DONE'}.`,
        `All findings: ${counts(check.counts)}. New: ${counts(check.newCounts)}; fixed ${check.fixedCount ?? 0}.`,
        fresh.length
          ? `New findings:\n${findingsText(findings, omitted, `get_findings with {"checkId": "${one(check.id)}", "onlyNew": true} and a higher limit (at most 500) lists them`)}`
          : 'No new findings.',
      ].join('\n'),
      {
        checkId: check.id,
        status: check.status,
        verdict: check.verdict,
        failOn: check.failOn,
        baselineMissing: check.baselineMissing,
        counts: check.counts,
        newCounts: check.newCounts,
        fixedCount: check.fixedCount,
        pages,
        findings,
        omitted,
        ...(check.failureReason ? { failureReason: check.failureReason } : {}),
      },
    );
  },
});
