// explain_root_causes: a scan run's findings grouped by the cause they share (one component, one rule), each with
// the service's guidance and an example fix: where fixing one thing fixes many findings.
import { safeCopy } from '../../io/safe-text.js';
import { ID_SCHEMA, READ_TIMEOUT_SCHEMA } from '../input.js';
import { cap, one, result } from '../results.js';
import { defineTool } from '../tool.js';
import { OUTPUT_SCHEMAS } from '../schemas.js';

/** Clusters one result lists, and samples (pages, selectors) per cluster. */
const CLUSTERS_LIMIT = 20;
const SAMPLES_LIMIT = 5;
/** Clusters the result's text describes. */
const TEXT_CLUSTERS = 10;

/** `explain_root_causes`: `{ scanRunId }` → `{ clusters: [{ key, ruleId, impact, guidance, exampleFix, helpUrl, … }] }`. */
export const explainRootCauses = defineTool<{ scanRunId: string; timeoutMs?: number }>({
  name: 'explain_root_causes',
  title: 'Explain root causes',
  description:
    "Groups a full-site scan run's findings by root cause (one rule in one component or selector pattern), largest first as the service orders them, each with guidance, an example fix, the help URL, and sample pages and selectors: fix the cause once instead of each finding.",
  readOnly: true,
  inputSchema: {
    type: 'object',
    properties: {
      scanRunId: { ...ID_SCHEMA, description: 'A full-site scan run id.' },
      timeoutMs: READ_TIMEOUT_SCHEMA,
    },
    required: ['scanRunId'],
    additionalProperties: false,
  },
  outputSchema: OUTPUT_SCHEMAS.explain_root_causes!,
  needs: () => ({ scopes: ['scans:read'], features: ['API_ACCESS'] }),
  async run(input, ctx) {
    ctx.working(`scanRunId ${input.scanRunId}`);
    const rc = safeCopy(await ctx.client.scanRuns.getRootCauses(input.scanRunId, { signal: ctx.signal }), ctx.secrets);
    const { shown, omitted } = cap(rc.clusters, CLUSTERS_LIMIT);
    const clusters = shown.map((c) => ({
      key: c.key,
      ruleId: c.ruleId,
      impact: c.impact,
      wcagSc: c.wcagSc,
      pattern: c.pattern,
      selectorSignature: c.selectorSignature,
      component: c.component,
      nodesCount: c.nodesCount,
      pagesCount: c.pagesCount,
      samplePages: c.samplePages?.slice(0, SAMPLES_LIMIT),
      sampleSelectors: c.sampleSelectors?.slice(0, SAMPLES_LIMIT),
      guidance: c.guidance,
      exampleFix: c.exampleFix,
      helpUrl: c.helpUrl,
    }));
    const s = rc.summary ?? {};
    // The text stays short: the first clusters with their guidance; the data carries them all.
    const lines = clusters
      .slice(0, TEXT_CLUSTERS)
      .map(
        (c, i) =>
          `${i + 1}. [${one(c.impact ?? '?', 20)}] ${one(c.ruleId ?? '?', 80)}${c.component?.label ? ` in ${one(c.component.label)}` : ''}: ${one(c.nodesCount ?? 0)} elements on ${one(c.pagesCount ?? 0)} pages (key ${one(c.key ?? '?')})` +
          `${c.guidance ? `\n   Guidance: ${one(c.guidance, 200)}` : ''}${c.exampleFix ? `\n   Example fix: ${one(c.exampleFix, 200)}` : ''}${c.helpUrl ? `\n   Help: ${one(c.helpUrl)}` : ''}`,
      );
    return result(
      `${one(s.clustersTotal ?? clusters.length)} root causes cover ${one(s.clusteredFindings ?? 0)} of ${one(s.findingsTotal ?? 0)} findings on ${one(s.pagesTotal ?? 0)} pages${rc.truncated ? ' (the analysis was truncated)' : ''}${omitted ? `; the ${clusters.length} largest listed, ${omitted} more not in this result (the service's app shows them all)` : ''}.\n${lines.join('\n')}${clusters.length > lines.length ? `\n${clusters.length - lines.length} more in the structured result (clusters).` : ''}${rc.coverageDisclaimer ? `\n${one(rc.coverageDisclaimer, 500)}` : ''}`,
      {
        scanRunId: input.scanRunId,
        status: rc.status,
        summary: rc.summary,
        truncated: rc.truncated,
        clusters,
        omitted,
        coverageDisclaimer: rc.coverageDisclaimer,
      },
    );
  },
});
