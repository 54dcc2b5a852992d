// `svc-a11y merge FILE…`: one verdict and one set of reports from the JSON reports of a matrix's shards
// (`ci --shard I/N --report json=FILE`), as one run of the whole list would give them: any check FAIL → exit 1;
// otherwise any check or shard not judged → exit 4 (a missing shard is named); else 0. Reports of different
// matrices, lists or settings, or a shard given twice, are a usage error (exit 2) and nothing is written.
import { readShardReport } from './shard-report.js';
import { mergeOptions } from './merge-options.js';
import { mergeShards } from './merge-shards.js';
import { removingUnusedFolders } from './options.js';
import type { Command } from '../context.js';
import { readTextFile } from '../io/read-file.js';
import { optionsHelp, optionsOf } from '../settings/flags.js';
import { outputReport } from './ci-output.js';
import { noteOnMergeRequest } from './gitlab-note.js';

/** The cap on one shard's JSON report: a shard of a few thousand pages with their findings is tens of MB at most. */
const MAX_SHARD_REPORT_BYTES = 256 * 1024 * 1024;

/** Most shard reports one merge reads (the most shards `--shard` allows). */
const MAX_FILES = 1000;

const MERGE_USAGE = `svc-a11y merge <shard.json…> [options]

  Reads the JSON reports of a matrix's shards (each written by ci --shard I/N --report json=FILE) and writes the
  reports of the whole run (--report sarif=… junit=… codequality=… html=… markdown=…, and stdout), each finding once,
  with the exit code one run of the whole list would give: any check FAIL → 1; otherwise any check not judged, or a
  shard whose report is missing → 4 (naming it); else 0. Reports of another matrix, list or judging settings, or a
  shard given twice → 2, and nothing is written. No API key is needed: nothing is sent.

${optionsHelp('merge', 23)}

  With $GITHUB_STEP_SUMMARY set, a markdown summary is appended to it; with GITHUB_ACTIONS=true, up to 10 error
  annotations are printed for findings that break the threshold.`;

/** `svc-a11y merge`. */
export const mergeCommand: Command = {
  name: 'merge',
  summary: "Merge the JSON reports of a matrix's shards (ci --shard) into one verdict and one set of reports",
  args: { min: 1, max: MAX_FILES, names: '<shard.json…>', note: 'one JSON report per shard' },
  options: optionsOf('merge'),
  usage: MERGE_USAGE,
  run: async (ctx) => {
    const options = mergeOptions(ctx);
    return removingUnusedFolders(options, async () => {
      const shards = options.files.map((file) =>
        readShardReport(
          file,
          readTextFile(file, { what: 'shard report', maxBytes: MAX_SHARD_REPORT_BYTES }),
          ctx.out.secrets,
        ),
      );
      const { report, total, given, missing } = mergeShards(shards);
      const pages = report.batches.reduce((n, b) => n + b.urls.length, 0);
      if (!ctx.values.quiet)
        ctx.out.err(`Merged ${given.length} of ${total} shards: ${pages} pages in ${report.batches.length} CI checks.`);
      const code = await outputReport(
        ctx,
        report,
        options,
        {
          settings: [
            ['Pages checked', String(pages)],
            ['CI checks', String(report.batches.length)],
            [
              'Shards',
              missing.length ? `${given.length} of ${total} (missing: ${missing.join(', ')})` : `${total} of ${total}`,
            ],
            ['Threshold (--fail-on)', report.failOn],
          ],
          expired: [],
          stale: [],
        },
        { merged: { total, given, missing } },
      );
      ctx.embed?.onResult?.({ report, options });
      if (options.comment) await noteOnMergeRequest(ctx, report);
      for (const i of missing) ctx.out.error(`shard ${i}/${total}'s report was not given: its pages were not judged`);
      return code;
    });
  },
};
