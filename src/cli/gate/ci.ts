// `svc-a11y ci <url…>`: check a site's pages as one gate. Its options are read by ci/options.ts; the pages are
// collected (collect-urls.ts), split into CI checks of at most 20 pages of one site (batches.ts; fewer with
// --urls-per-check or on the Free plan), run under one deadline, rate budget and poll schedule (run-batches.ts), each prepared once (made safe, suppressions applied, judged),
// then aggregated into one report, which ci-output.ts formats, prints and writes; the exit code is its verdict.
import type { A11yClient } from '../../index.js';
import { type Batch, batchLabel, planBatches } from './batches.js';
import { type CiOptions, ciOptions, MAX_ARGUMENT_URLS, removingUnusedFolders } from './options.js';
import { collectUrls, tooManyUrls } from './collect-urls.js';
import { emptyShardReport } from './shard-report.js';
import { shardBatches, shardRecord } from './shards.js';
import { DEFAULT_FAIL_ON, FREE_PLAN_URLS_PER_CHECK } from '../../vocabulary/index.js';
import { safeCopy } from '../io/safe-text.js';
import { type Command, type CommandContext, version } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { removeEmptyFolders } from '../report/files.js';
import { outputReport, runInfo, warnAboutSuppressions } from './ci-output.js';
import { aggregateReports, prepareReport } from '../report/index.js';
import { type BatchResult, runBatches } from './run-batches.js';
import { baselineRecheckNote, recheckOf, withAttempts } from './rechecks.js';
import { optionsOf } from '../settings/flags.js';
import { DEFAULT_CONFIG_FILE, describeSource } from '../settings/settings.js';
import { CI_USAGE } from './ci-usage.js';
import { noteOnMergeRequest } from './gitlab-note.js';
import { trustedJourneyBaseline } from './journey-baseline.js';
import { journeyBaselineNotes, journeyReport } from './journey-report.js';
import { startJourneys } from './journeys.js';

/** Runs a CI check end to end with an already-built client (shared with `demo`): every batch, one verdict. */
export async function runCheck(
  ctx: CommandContext,
  client: A11yClient,
  options: CiOptions = ciOptions(ctx),
): Promise<number> {
  const { shard } = options;
  // A shard reads the whole list (its bound is its share's), then checks its share of it.
  const all = await collectUrls(shard ? { ...options, maxUrls: Number.POSITIVE_INFINITY } : options, {
    err: (line) => ctx.out.err(line),
    quiet: ctx.values.quiet === true,
    userAgent: `svc-a11y/${version}`,
    env: ctx.out.io.env,
  });
  // A shard runs its checks of the whole list's plan (their keys and labels too), so the merged reports read as one run's.
  const batches = shard
    ? shardBatches(all, shard, options.urlsPerCheck)
    : planBatches(all, { maxPerCheck: options.urlsPerCheck });
  const urls = batches.flatMap((b) => b.urls);
  if (shard) {
    if (urls.length > options.maxUrls)
      throw tooManyUrls(urls.length, options.maxUrls, ` (shard ${shard.index}/${shard.total})`);
    if (!ctx.values.quiet)
      ctx.out.err(`Shard ${shard.index}/${shard.total}: ${urls.length} of the ${all.length} pages.`);
  }
  const shardOfRun =
    shard &&
    shardRecord(shard, safeCopy(all, ctx.out.secrets), { ...options, suppressions: options.suppressions?.active });
  if (urls.length === 0 && shardOfRun) {
    // A shard with no check of its own (fewer checks than shards) still writes its reports: `merge` needs every
    // shard's JSON report to know the set is whole.
    const empty = emptyShardReport(shardOfRun, options.failOn ?? DEFAULT_FAIL_ON);
    const code = await outputReport(ctx, empty, options, runInfo(options, 0, 0, empty), { shard: shardOfRun });
    ctx.embed?.onResult?.({ report: undefined, options });
    return code;
  }
  // Each journey once: a second run of it would only meet the first (409) and wait it out.
  const journeyIds = [...new Set(options.journeys.map((id) => id.toLowerCase()))];
  if (urls.length === 0 && journeyIds.length === 0) {
    // --changed-since found nothing to check: a pass with nothing written.
    removeEmptyFolders(options.createdFolders);
    ctx.embed?.onResult?.({ report: undefined, options });
    return ExitCode.OK;
  }
  if (batches.length > 1) {
    const sites = new Set(batches.map((b) => b.origin)).size;
    if (!ctx.values.quiet)
      ctx.out.err(
        `${urls.length} pages on ${sites} site${sites === 1 ? '' : 's'}: ${batches.length} CI checks of at most ${options.urlsPerCheck} pages each.`,
      );
  }
  const { timeout } = options;
  const limitText = `${timeout.value} ms (${timeout.source.kind === 'default' ? 'the default --timeout' : describeSource(timeout.source)})`;
  // Read before anything is sent: a bad file is exit 2 with nothing started.
  const trusted = options.journeyBaseline ? trustedJourneyBaseline(options.journeyBaseline, ctx.out.io.env) : undefined;
  if (trusted?.warning) ctx.out.err(trusted.warning);
  const journeyBaseline = trusted?.baseline;
  await ctx.ready();
  // Journeys start first: one the service refuses (404, 422, 403) stops the run, exit 3, before any check is created.
  const journeys =
    journeyIds.length > 0
      ? await startJourneys(client, journeyIds, {
          endsAt: Date.now() + timeout.value,
          limitText,
          rerun: options.recheck > 0,
        })
      : undefined;
  const [scheduled, journeyOutcomes] = await Promise.all([
    batches.length > 0 ? runBatchesOf(ctx, client, batches, options, limitText) : Promise.resolve([]),
    journeys?.finish() ?? Promise.resolve([]),
  ]);
  ctx.progress.done();
  // Each page judged on its last attempt; a recheck's pages leave the check before.
  const results = withAttempts(scheduled);
  const lacking = options.setBaseline ? baselineRecheckNote(scheduled, ctx.out.secrets) : undefined;
  if (lacking) ctx.out.err(lacking);
  const prepared = [
    ...results.map((r) =>
      prepareReport(
        { check: r.check, violations: r.violations },
        {
          secrets: ctx.out.secrets,
          failOn: options.failOn,
          waitEnded: r.waitEnded,
          suppressions: options.suppressions?.active,
          failOnByUrl: options.failOnByUrl,
          failOnIsFloor: options.failOnIsFloor,
          batch: { key: r.batch.key, label: batchLabel(r.batch), urls: r.batch.urls },
        },
      ),
    ),
    ...journeyOutcomes.map((o) =>
      journeyReport(o, {
        secrets: ctx.out.secrets,
        failOn: options.failOn,
        suppressions: options.suppressions?.active,
        failOnByUrl: options.failOnByUrl,
        failOnIsFloor: options.failOnIsFloor,
        baseline: journeyBaseline,
      }),
    ),
  ];
  for (const line of journeyBaselineNotes(options, journeyOutcomes, journeyBaseline, ctx.out.secrets))
    ctx.out.err(line);
  const report = aggregateReports(prepared);
  warnAboutSuppressions(ctx, options.suppressions, report);
  // After a Free-plan re-split the checks hold fewer pages than asked for: the report says what they held.
  const perCheck =
    scheduled.filter((r) => !r.batch.recheck).length > batches.length ? FREE_PLAN_URLS_PER_CHECK : options.urlsPerCheck;
  const code = await outputReport(
    ctx,
    report,
    options,
    runInfo(options, urls.length, results.length, report, perCheck),
    { shard: shardOfRun },
  );
  ctx.embed?.onResult?.({ report, options });
  // A shard of a matrix leaves the note to the merge of the shards' reports.
  if (options.comment && !shard) await noteOnMergeRequest(ctx, report);
  for (const r of results)
    if (r.endedMessage) ctx.out.error(`${r.endedMessage} Its reports were written with what is known.`);
  const unjudged = prepared.filter((p, i) => p.verdict.outcome === 'UNKNOWN' && results[i]?.waitEnded === undefined);
  if (unjudged.length)
    ctx.out.error(`the check could not be judged: ${unjudged.flatMap((p) => p.verdict.reasons).join('; ')}`);
  return code;
}

// The pages' checks under one schedule (run-batches.ts), with their rechecks.
function runBatchesOf(
  ctx: CommandContext,
  client: A11yClient,
  batches: Batch[],
  options: CiOptions,
  limitText: string,
): Promise<BatchResult[]> {
  return runBatches(client, batches, {
    failOn: options.failOn,
    setBaseline: options.setBaseline,
    context: options.context,
    timeoutMs: options.timeout.value,
    limitText,
    maxChecks: options.maxChecks,
    recheck: options.recheck > 0 ? (batch, end) => recheckOf(batch, end, options.recheck) : undefined,
    // The schedule keeps under the key's rate: the one set for the client, else the service's default.
    requestsPerMinute: options.requestsPerMinute,
    onProgress: (state) => ctx.progress.update(state),
    // Said whatever --quiet says: the run goes on differently than asked.
    onWarning: (line) => ctx.out.err(line),
  });
}

/** `svc-a11y ci`. */
export const ciCommand: Command = {
  name: 'ci',
  summary: 'Check pages (URLs, a URL file, sitemaps) as one gate and exit with its verdict',
  // Zero when the config file, --urls-file or --sitemap names them; --max-urls bounds the total. A command line
  // holds a few thousand URLs at most anyway (the OS limits its length): more go in a file.
  args: { min: 0, max: MAX_ARGUMENT_URLS, names: '[url…]', note: `more URLs go in --urls-file or a sitemap` },
  options: optionsOf('ci'),
  usage: CI_USAGE,
  run: (ctx) => {
    const options = ciOptions(ctx); // every flag, the config file, suppressions and report paths, before anything is sent
    return removingUnusedFolders(options, async () => {
      if (options.urls.length === 0 && options.sitemaps.length === 0 && options.journeys.length === 0) {
        throw new UsageError(
          `no URLs to check: pass them as arguments, with --urls-file, --sitemap or --journey, or as "urls", "sitemap" or "journeys" in ${DEFAULT_CONFIG_FILE}`,
          'ci',
        );
      }
      // A journey is one run on the service: a matrix's shards would each run it, and the merge would see it N times.
      if (options.shard && options.journeys.length > 0)
        throw new UsageError(
          'journeys cannot be sharded (each shard would run every journey): run them in a job of their own, without --shard',
          'ci',
        );
      return runCheck(ctx, ctx.client(), options);
    });
  },
};
