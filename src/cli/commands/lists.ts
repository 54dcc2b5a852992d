// The read-only commands: sites, journeys, fixes, root causes and the violation trend. Each one reads one resource
// and prints it, as JSON with --json, else as text: one shape (`readCommand`), five declarations.
import { ExitCode } from '../exit-codes.js';
import { type Command, type CommandContext, printJson } from '../context.js';
import { SETTINGS, settingOf } from '../settings/settings.js';
import { optionsHelp, optionsOf } from '../settings/flags.js';
import { barChart, table } from '../io/tables.js';

// A command that reads one thing (of the id its one argument names, if it takes one) and prints it.
function readCommand<T>(spec: {
  name: string;
  summary: string;
  /** The argument's name (`<siteId>`), for a command that takes one. */
  id?: string;
  options?: Command['options'];
  /** What follows the usage line (the options' help). */
  more?: string;
  read(ctx: CommandContext, id: string): Promise<T>;
  text(value: T, id: string): string;
}): Command {
  const id = spec.id;
  return {
    name: spec.name,
    summary: spec.summary,
    args: id ? { min: 1, max: 1, names: id } : { min: 0, max: 0, names: '' },
    options: spec.options ?? {},
    usage: `svc-a11y ${spec.name}${id ? ` ${id}` : ''}${spec.more ? ` ${spec.more}` : ' [--json]'}`,
    async run(ctx) {
      const arg = ctx.args[0] ?? '';
      const value = await spec.read(ctx, arg);
      if (ctx.json) printJson(ctx, value);
      else ctx.out.out(spec.text(value, arg));
      return ExitCode.OK;
    },
  };
}

/** `svc-a11y sites`. */
export const sitesCommand = readCommand({
  name: 'sites',
  summary: "List the organization's sites",
  read: (ctx) => ctx.client().sites.list(),
  text: (sites) =>
    table(
      ['ID', 'NAME', 'ROOT URL', 'VERIFIED'],
      sites.map((s) => [s.id, s.name, s.rootUrl, s.verified]),
    ),
});

/** `svc-a11y journeys <siteId>`. */
export const journeysCommand = readCommand({
  name: 'journeys',
  summary: "List a site's saved journeys",
  id: '<siteId>',
  read: (ctx, siteId) => ctx.client().sites.listJourneys(siteId),
  text: (journeys) =>
    table(
      ['ID', 'NAME', 'USES AUTH', 'CREATED'],
      journeys.map((j) => [j.id, j.name, j.usesAuth, j.createdAt]),
    ),
});

/** `svc-a11y fixes <siteId>`. */
export const fixesCommand = readCommand({
  name: 'fixes',
  summary: "List a site's tracked fixes",
  id: '<siteId>',
  read: (ctx, siteId) => ctx.client().sites.listFixes(siteId),
  text: (fixes) =>
    table(
      ['ID', 'RULE', 'IMPACT', 'COMPONENT', 'STATUS', 'VERIFIABLE'],
      fixes.map((f) => [f.id, f.ruleId, f.impact, f.componentLabel, f.status, f.verifiable]),
    ),
});

/** `svc-a11y root-causes <scanRunId>`. */
export const rootCausesCommand = readCommand({
  name: 'root-causes',
  summary: "Print a scan run's root-cause groups",
  id: '<scanRunId>',
  read: (ctx, scanRunId) => ctx.client().scanRuns.getRootCauses(scanRunId),
  text: (rc) => {
    const s = rc.summary ?? {};
    return (
      `${s.clustersTotal ?? 0} groups cover ${s.clusteredFindings ?? 0} of ${s.findingsTotal ?? 0} findings on ${s.pagesTotal ?? 0} pages${rc.truncated ? ' (truncated)' : ''}\n` +
      table(
        ['IMPACT', 'RULE', 'COMPONENT', 'NODES', 'PAGES', 'PATTERN'],
        (rc.clusters ?? []).map((c) => [c.impact, c.ruleId, c.component?.label, c.nodesCount, c.pagesCount, c.pattern]),
      ) +
      (rc.coverageDisclaimer ? `\n${rc.coverageDisclaimer}\n` : '')
    );
  },
});

/** `svc-a11y trend <siteId> [--limit N]`. */
export const trendCommand = readCommand({
  name: 'trend',
  summary: "Print a site's violation trend as a table and a chart",
  id: '<siteId>',
  options: optionsOf('trend'),
  more: `[--limit N] [--json]\n\n${optionsHelp('trend', 12)}`,
  read: (ctx, siteId) => ctx.client().sites.getTrend(siteId, { limit: settingOf(ctx, SETTINGS.trendLimit).value }),
  text: (trend, siteId) => {
    const points = trend.points ?? [];
    return (
      `Trend of ${trend.siteId ?? siteId} (${trend.standard ?? 'standard not given'})\n` +
      table(
        ['FINISHED', 'STATUS', 'PAGES', 'TOTAL', 'ADDED', 'RESOLVED'],
        points.map((p) => [p.finishedAt, p.status, p.pagesScanned, p.totalViolations, p.addedCount, p.resolvedCount]),
      ) +
      // Printed as the service sent them: a negative or absurd count is shown, not a reason to stop.
      `\n${barChart(points.map((p) => ({ label: dayOf(p.finishedAt), value: p.totalViolations ?? 0 })))}`
    );
  },
});

// The chart's label: the date part of a finish time (typed a string; without response validation, whatever came).
function dayOf(finishedAt: unknown): string {
  return (typeof finishedAt === 'string' && finishedAt.slice(0, 10)) || '?';
}
