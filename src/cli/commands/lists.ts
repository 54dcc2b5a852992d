// The read-only commands: sites, journeys, fixes, root causes and the violation trend.
import { ExitCode } from '../exit-codes.js';
import { type Command, printJson } from '../context.js';
import { SETTINGS, settingOf } from '../settings/settings.js';
import { optionsHelp, optionsOf } from '../settings/flags.js';
import { barChart, table } from '../io/tables.js';

/** `svc-a11y sites`. */
export const sitesCommand: Command = {
  name: 'sites',
  summary: "List the organization's sites",
  args: { min: 0, max: 0, names: '' },
  options: {},
  usage: 'svc-a11y sites [--json]',
  async run(ctx) {
    const sites = await ctx.client().sites.list();
    if (ctx.json) printJson(ctx, sites);
    else
      ctx.out.out(
        table(
          ['ID', 'NAME', 'ROOT URL', 'VERIFIED'],
          sites.map((s) => [s.id, s.name, s.rootUrl, s.verified]),
        ),
      );
    return ExitCode.OK;
  },
};

/** `svc-a11y journeys <siteId>`. */
export const journeysCommand: Command = {
  name: 'journeys',
  summary: "List a site's saved journeys",
  args: { min: 1, max: 1, names: '<siteId>' },
  options: {},
  usage: 'svc-a11y journeys <siteId> [--json]',
  async run(ctx) {
    const journeys = await ctx.client().sites.listJourneys(ctx.args[0]!);
    if (ctx.json) printJson(ctx, journeys);
    else
      ctx.out.out(
        table(
          ['ID', 'NAME', 'USES AUTH', 'CREATED'],
          journeys.map((j) => [j.id, j.name, j.usesAuth, j.createdAt]),
        ),
      );
    return ExitCode.OK;
  },
};

/** `svc-a11y fixes <siteId>`. */
export const fixesCommand: Command = {
  name: 'fixes',
  summary: "List a site's tracked fixes",
  args: { min: 1, max: 1, names: '<siteId>' },
  options: {},
  usage: 'svc-a11y fixes <siteId> [--json]',
  async run(ctx) {
    const fixes = await ctx.client().sites.listFixes(ctx.args[0]!);
    if (ctx.json) printJson(ctx, fixes);
    else
      ctx.out.out(
        table(
          ['ID', 'RULE', 'IMPACT', 'COMPONENT', 'STATUS', 'VERIFIABLE'],
          fixes.map((f) => [f.id, f.ruleId, f.impact, f.componentLabel, f.status, f.verifiable]),
        ),
      );
    return ExitCode.OK;
  },
};

/** `svc-a11y root-causes <scanRunId>`. */
export const rootCausesCommand: Command = {
  name: 'root-causes',
  summary: "Print a scan run's root-cause groups",
  args: { min: 1, max: 1, names: '<scanRunId>' },
  options: {},
  usage: 'svc-a11y root-causes <scanRunId> [--json]',
  async run(ctx) {
    const rc = await ctx.client().scanRuns.getRootCauses(ctx.args[0]!);
    if (ctx.json) printJson(ctx, rc);
    else {
      const s = rc.summary ?? {};
      ctx.out.out(
        `${s.clustersTotal ?? 0} groups cover ${s.clusteredFindings ?? 0} of ${s.findingsTotal ?? 0} findings on ${s.pagesTotal ?? 0} pages${rc.truncated ? ' (truncated)' : ''}\n` +
          table(
            ['IMPACT', 'RULE', 'COMPONENT', 'NODES', 'PAGES', 'PATTERN'],
            (rc.clusters ?? []).map((c) => [
              c.impact,
              c.ruleId,
              c.component?.label,
              c.nodesCount,
              c.pagesCount,
              c.pattern,
            ]),
          ) +
          (rc.coverageDisclaimer ? `\n${rc.coverageDisclaimer}\n` : ''),
      );
    }
    return ExitCode.OK;
  },
};

/** `svc-a11y trend <siteId> [--limit N]`. */
export const trendCommand: Command = {
  name: 'trend',
  summary: "Print a site's violation trend as a table and a chart",
  args: { min: 1, max: 1, names: '<siteId>' },
  options: optionsOf('trend'),
  usage: `svc-a11y trend <siteId> [--limit N] [--json]\n\n${optionsHelp('trend', 12)}`,
  async run(ctx) {
    const limit = settingOf(ctx, SETTINGS.trendLimit).value;
    const trend = await ctx.client().sites.getTrend(ctx.args[0]!, { limit });
    if (ctx.json) {
      printJson(ctx, trend);
      return ExitCode.OK;
    }
    const points = trend.points ?? [];
    ctx.out.out(
      `Trend of ${trend.siteId ?? ctx.args[0]} (${trend.standard ?? 'standard not given'})\n` +
        table(
          ['FINISHED', 'STATUS', 'PAGES', 'TOTAL', 'ADDED', 'RESOLVED'],
          points.map((p) => [p.finishedAt, p.status, p.pagesScanned, p.totalViolations, p.addedCount, p.resolvedCount]),
        ) +
        // Printed as the service sent them: a negative or absurd count is shown, not a reason to stop.
        `\n${barChart(points.map((p) => ({ label: dayOf(p.finishedAt), value: p.totalViolations ?? 0 })))}`,
    );
    return ExitCode.OK;
  },
};

// The chart's label: the date part of a finish time (typed a string; without response validation, whatever came).
function dayOf(finishedAt: unknown): string {
  return (typeof finishedAt === 'string' && finishedAt.slice(0, 10)) || '?';
}
