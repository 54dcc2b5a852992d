// Deterministic root-cause groups of a scan run (endpoint 8): findings grouped by rule and selector
// signature; a group is a root cause when it spans more than one node.
import { type Finding, type Impact, RULES, selectorSignature } from './findings.js';
import { phaseOf } from './jobs.js';
import { readRun, runFindings, runOutcome } from './scan-runs.js';
import { type Ctx, type Reply, ok } from './world.js';

const IMPACT_RANK: Record<Impact, number> = { critical: 0, serious: 1, moderate: 2, minor: 3 };
const DISCLAIMER =
  'Automated checks cover only part of WCAG; these groups are evidence from automated testing, not a compliance verdict.';

/**
 * A human label for the component a selector names: its last class or id, humanized.
 * @example componentLabel('main img.card-image') // 'Card image'
 */
function componentLabel(signature: string): string {
  const last = signature.split(/\s+/).pop() ?? signature;
  const name = /[.#]([\w-]+)(?!.*[.#])/.exec(last)?.[1] ?? /^[a-z0-9]+/i.exec(last)?.[0] ?? last;
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** GET /scan-runs/{id}/root-causes. Before the run completes: its status, no clusters. */
export function getRootCauses(ctx: Ctx): Reply {
  const run = readRun(ctx);
  const outcome = runOutcome(run, ctx.now);
  const base = { scope: 'SCAN_RUN', signatureVersion: 'v1', truncated: false, coverageDisclaimer: DISCLAIMER };
  if (outcome !== 'COMPLETED') {
    const status = outcome ?? phaseOf(run, ctx.now).stage;
    const summary = {
      findingsTotal: 0,
      analyzedFindings: 0,
      clustersTotal: 0,
      clusteredFindings: 0,
      pagesTotal: run.pages.length,
    };
    return ok({ ...base, status, summary, clusters: [] });
  }
  const findings = runFindings(run);
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = `${f.ruleId}:${selectorSignature(f.target)}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const clusters = [...groups.entries()]
    .filter(([, nodes]) => nodes.length > 1)
    .map(([key, nodes]) => {
      const first = nodes[0]!;
      const rule = RULES[first.ruleId]!;
      const signature = selectorSignature(first.target);
      const pages = [...new Set(nodes.map((n) => n.url))];
      return {
        key,
        ruleId: first.ruleId,
        impact: first.impact,
        wcagSc: [...first.wcagSc],
        pattern: `${signature} fails ${first.ruleId}`,
        selectorSignature: signature,
        component: { label: componentLabel(signature), source: 'css-class', platform: 'web' },
        nodesCount: nodes.length,
        pagesCount: pages.length,
        samplePages: pages.slice(0, 3),
        sampleSelectors: [...new Set(nodes.map((n) => n.target))].slice(0, 3),
        guidance: rule.guidance,
        exampleFix: rule.exampleFix,
        helpUrl: first.helpUrl,
      };
    })
    // Worst impact first, then the widest spread; the key breaks ties so the order is stable.
    .sort(
      (a, b) =>
        IMPACT_RANK[a.impact] - IMPACT_RANK[b.impact] || b.nodesCount - a.nodesCount || a.key.localeCompare(b.key),
    );
  const summary = {
    findingsTotal: findings.length,
    analyzedFindings: findings.length,
    clustersTotal: clusters.length,
    clusteredFindings: clusters.reduce((n, c) => n + c.nodesCount, 0),
    pagesTotal: run.pages.length,
  };
  return ok({ ...base, status: 'COMPLETED', summary, clusters });
}
