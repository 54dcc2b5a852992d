// The GitHub Action's entry (action.yml → action/index.cjs, bundled by scripts/build-action.mjs): inputs → the
// CLI's settings by name → `svc-a11y ci` run in this process (the same check run, reporters and verdict as in any pipeline)
// → outputs, annotations, the pull request comment and the step summary, all from the one prepared report.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as core from '@actions/core';
import {
  annotationsOf,
  type CiRun,
  commentBody,
  commentMarker,
  EXIT_MEANINGS,
  type PreparedReport,
  processSecrets,
  redactText,
  runCiCheck,
  runMerge,
  urlPassword,
  version,
} from '../cli/index.js';
import { type ReportFiles, reportFiles } from './report-files.js';

import { readEvent, type EventInfo } from './event.js';
import { InputError, readInputs, type ActionInputs } from './inputs.js';
import { commentFailure, gitHubClient, tokenLogin, upsertComment } from './pr-comment.js';
import { restoreJourneyBaseline, saveJourneyBaseline } from './journey-cache.js';
import { notRunSummary, reportSummary } from './summary.js';

/** The action's outputs (action.yml), all strings; empty when unknown. */
interface ActionOutputs {
  verdict: 'PASS' | 'FAIL' | 'UNKNOWN';
  'check-id': string;
  'new-findings': string;
  'sarif-file': string;
  'junit-file': string;
  'json-file': string;
  'comment-url': string;
}

// GitHub shows 10 error annotations per step: the findings take 9, the step's failure message the last.
const MAX_ANNOTATIONS = 9;

/**
 * Runs the action with the runner's environment; the step fails through `core.setFailed` (exit code 1).
 * @example await runAction(process.env)
 */
export async function runAction(env: Record<string, string | undefined>): Promise<void> {
  const outputs: ActionOutputs = {
    verdict: 'UNKNOWN',
    'check-id': '',
    'new-findings': '',
    'sarif-file': '',
    'junit-file': '',
    'json-file': '',
    'comment-url': '',
  };
  try {
    let inputs: ActionInputs;
    try {
      inputs = readInputs((name) => core.getInput(name));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      core.setFailed(error.message);
      return;
    }
    const apiKey = inputs.apiKey ?? (env.SVC_API_KEY?.trim() || undefined);
    // The same secrets the CLI protects (the key, the GitHub token, the Redis and proxy passwords, the runner's
    // tokens), found by the same code, plus the inputs as read.
    const secrets = [
      ...new Set([
        ...processSecrets(env),
        ...[apiKey, urlPassword(stringOf(inputs.settings.redisUrl)), inputs.githubToken].filter(
          (s): s is string => !!s && s.length >= 4,
        ),
      ]),
    ];
    for (const secret of secrets) core.setSecret(secret);
    const event = readEvent(env);
    if (inputs.merge.length > 0) return await merge(env, inputs, event, secrets, outputs);
    if (!apiKey) return await noKey(inputs, event);
    await check(env, inputs, event, apiKey, secrets, outputs);
  } finally {
    for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
  }
}

async function check(
  env: Record<string, string | undefined>,
  inputs: ActionInputs,
  event: EventInfo,
  apiKey: string,
  secrets: string[],
  outputs: ActionOutputs,
): Promise<void> {
  const setBaseline = baselineOf(inputs, event);
  if (setBaseline)
    core.info(
      `set-baseline: this check is saved as the baseline${inputs.setBaseline === 'auto' ? ` (a push to the default branch ${event.defaultBranch})` : ''}`,
    );
  const dir = reportsDir(env, inputs);
  const files = reportFiles(dir);
  const shard = stringOf(inputs.settings.shard);
  const shardFile = shard === undefined ? undefined : join(dir, shardReportName(shard));
  // The settings go by name, `setBaseline` said explicitly either way (so a config file's never decides it) unless
  // left to the CLI; its report files come after what a config file names; the judged report comes back in memory.
  const journeyFile = {
    file: stringOf(inputs.settings.journeyBaseline),
    journeys: Array.isArray(inputs.settings.journeys) && inputs.settings.journeys.length > 0,
  };
  await restoreJourneyBaseline(journeyFile, env);
  const run = await runCiCheck(
    { ...inputs.settings, ...(setBaseline === undefined ? {} : { setBaseline }) },
    { stdout: process.stdout, stderr: process.stderr, env: { ...env, SVC_API_KEY: apiKey } },
    { reports: [...reportsOf(files), ...(shardFile ? [['json', shardFile] as const] : [])], writes: ACTION_WRITES },
  );
  await saveJourneyBaseline(journeyFile, run.options?.setBaseline === true, env);
  if (shardFile && existsSync(shardFile)) outputs['json-file'] = shardFile;
  // In a matrix the merge job writes the one comment; a shard comments only under its own comment-key.
  const commenting = shard === undefined || inputs.commentKey !== '';
  await publish(env, { ...inputs, comment: inputs.comment && commenting }, event, run, files, secrets, outputs, 'ci');
}

// Merge mode: the shards' JSON reports (files, or folders of them) merged by `svc-a11y merge` in this process,
// then published as one run's: outputs, annotations, one comment, one summary.
async function merge(
  env: Record<string, string | undefined>,
  inputs: ActionInputs,
  event: EventInfo,
  secrets: string[],
  outputs: ActionOutputs,
): Promise<void> {
  const dir = reportsDir(env, inputs);
  const files = reportFiles(dir);
  const shards = inputs.merge.flatMap((entry) => {
    const path = resolve(entry);
    // A folder stands for its JSON files (download-artifact's folder of every shard's report).
    return existsSync(path) && statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => join(path, name))
      : [path];
  });
  if (shards.length === 0) {
    core.setFailed(`input merge names no JSON report: ${inputs.merge.join(', ')} holds no .json file`);
    return;
  }
  const { sourceMap, sourceRoot, basePath } = inputs.settings;
  const run = await runMerge(
    shards,
    { sourceMap, sourceRoot, basePath },
    { stdout: process.stdout, stderr: process.stderr, env },
    { reports: reportsOf(files), writes: ACTION_WRITES },
  );
  await publish(env, inputs, event, run, files, secrets, outputs, 'merge');
}

// The action writes the annotations (with files) and the summary (with the comment's link) itself: the CLI is told
// not to.
const ACTION_WRITES = { annotations: false, summary: false } as const;

// A setting given as one text (the inputs of single values).
const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

// The reports the action always has the CLI write (its `sarif-file` and `junit-file` outputs).
const reportsOf = (files: ReportFiles) =>
  [
    ['sarif', files.sarif],
    ['junit', files.junit],
  ] as const;

function reportsDir(env: Record<string, string | undefined>, inputs: ActionInputs): string {
  const dir = inputs.reportsDir
    ? resolve(inputs.reportsDir)
    : mkdtempSync(join(env.RUNNER_TEMP || tmpdir(), 'svc-a11y-'));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The file name of a shard's JSON report in reports-dir: one per shard, so that the matrix's artifacts can be
 * downloaded into one folder.
 * @example shardReportName('2/4') // 'a11y-shard-2-of-4.json'
 */
function shardReportName(shard: string): string {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(shard);
  return m ? `a11y-shard-${Number(m[1])}-of-${Number(m[2])}.json` : 'a11y-shard.json';
}

// Outputs, annotations, the comment and the summary of a run or a merge, and the step's verdict.
async function publish(
  env: Record<string, string | undefined>,
  inputs: ActionInputs,
  event: EventInfo,
  run: CiRun,
  files: ReportFiles,
  secrets: string[],
  outputs: ActionOutputs,
  command: 'ci' | 'merge',
): Promise<void> {
  const { report } = run;
  if (run.options?.baselineWarning)
    core.warning(run.options.baselineWarning.replace(/^warning: /, ''), { title: 'Accessibility check baseline' });

  if (report) {
    outputs.verdict = report.verdict.outcome;
    outputs['check-id'] = report.check.id ?? '';
    outputs['new-findings'] = newFindings(report);
    for (const a of annotationsOf(report, {
      max: MAX_ANNOTATIONS,
      sourceMap: run.options?.sourceMap ?? [],
      routes: run.options?.routes,
    })) {
      const properties = { title: a.title, file: a.file, startLine: a.line };
      if (a.kind === 'error') core.error(a.message, properties);
      else if (a.kind === 'warning') core.warning(a.message, properties);
      else core.notice(a.message);
    }
  }
  if (existsSync(files.sarif)) outputs['sarif-file'] = files.sarif;
  if (existsSync(files.junit)) outputs['junit-file'] = files.junit;

  const safe = (text: string) => redactText(text, secrets);
  const commentUrl = await comment(env, inputs, event, report, run, safe);
  outputs['comment-url'] = commentUrl ?? '';
  await writeSummary(safe(report ? reportSummary(report, commentUrl) : notRunSummary(run.errors, false)));

  if (run.code === 0) core.info(`Accessibility check: PASS (${report?.verdict.reasons.join('; ') ?? 'no report'})`);
  else if (report && (run.code === 1 || run.code === 4))
    core.setFailed(safe(`Accessibility check ${report.verdict.outcome}: ${report.verdict.reasons.join('; ')}`));
  else
    core.setFailed(
      safe(
        `svc-a11y ${command} exited ${run.code}${EXIT_MEANINGS[run.code] ? ` (${EXIT_MEANINGS[run.code]})` : ''}: ${run.errors.join('; ') || 'see the log above'}`,
      ),
    );
}

// The baseline moves only from the default branch: `auto` saves it on a push there alone. On a pull request the
// input never saves it (the action warns when asked to) and the CLI is left to decide, which ignores a config file's
// `setBaseline` there (the pull request may have written it) and says so; elsewhere the action says true or false.
function baselineOf(inputs: ActionInputs, event: EventInfo): boolean | undefined {
  if (event.pullRequest !== undefined || event.name.startsWith('pull_request')) {
    if (inputs.setBaseline === 'true')
      core.warning(
        `the set-baseline input is ignored on a ${event.name || 'pull request'} event: a pull request cannot move the baseline other changes are compared with. It is saved on a push to the default branch (set-baseline: auto).`,
        { title: 'Accessibility check baseline' },
      );
    return inputs.setBaseline === 'false' ? false : undefined;
  }
  return inputs.setBaseline === 'auto' ? event.pushToDefaultBranch : inputs.setBaseline === 'true';
}

// New findings relative to the baseline, all impacts: the check's own count, else the findings marked new.
function newFindings(report: PreparedReport): string {
  const counts = report.check.newCounts;
  const values = counts
    ? Object.values(counts).filter((n): n is number => typeof n === 'number' && Number.isFinite(n))
    : [];
  if (values.length) return String(values.reduce((a, b) => a + b, 0));
  return report.check.status === 'COMPLETED'
    ? String(report.findings.filter((f) => f.violation.isNew === true).length)
    : '';
}

async function comment(
  env: Record<string, string | undefined>,
  inputs: ActionInputs,
  event: EventInfo,
  report: PreparedReport | undefined,
  run: CiRun,
  safe: (text: string) => string,
): Promise<string | undefined> {
  const pr = event.pullRequest;
  if (!inputs.comment || !pr) return undefined;
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  if (!inputs.githubToken || !owner || !repo) {
    core.info('No pull request comment: github-token or GITHUB_REPOSITORY is empty.');
    return undefined;
  }
  const marker = commentMarker(inputs.commentKey);
  const runUrl =
    env.GITHUB_RUN_ID && env.GITHUB_REPOSITORY
      ? `${env.GITHUB_SERVER_URL || 'https://github.com'}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : undefined;
  const body = safe(commentBody(report, { marker, runUrl, headSha: pr.headSha, errors: run.errors }));
  try {
    const client = gitHubClient(inputs.githubToken, env.GITHUB_API_URL, `svc-a11y-action/${version}`, env);
    const author = await tokenLogin(client);
    const result = await upsertComment(client, { owner, repo, issueNumber: pr.number, marker, body, author });
    core.info(`Pull request comment ${result.action}: ${result.url ?? result.id}`);
    return result.url;
  } catch (error) {
    core.warning(safe(`No pull request comment: ${commentFailure(error)}.`), { title: 'Accessibility check comment' });
    return undefined;
  }
}

async function noKey(inputs: ActionInputs, event: EventInfo): Promise<void> {
  const pr = event.pullRequest;
  const why = pr?.fork
    ? `this pull request comes from the fork ${pr.headRepository ?? '(deleted)'}, and GitHub passes no secrets to workflows run for pull requests from forks`
    : 'is the secret set in this repository, and passed as `api-key: ${{ secrets.SVC_API_KEY }}`?';
  if (inputs.ifNoKey === 'skip') {
    const message = `The accessibility check did not run: the api-key input is empty (${why}). The step passes because if-no-key is skip.`;
    core.warning(message, { title: 'Accessibility check skipped' });
    await writeSummary(notRunSummary([message], true));
    return;
  }
  const message = `No API key: the api-key input is empty; ${why}. To let such runs pass with a warning and a summary instead, set \`if-no-key: skip\` on this step.`;
  await writeSummary(notRunSummary([message], false));
  core.setFailed(message);
}

async function writeSummary(markdown: string): Promise<void> {
  try {
    await core.summary.addRaw(markdown).write();
  } catch (error) {
    // No summary file (a local run) or one that cannot be written: the verdict is what the step reports.
    core.warning(`The step summary could not be written (${error instanceof Error ? error.message : String(error)}).`);
  }
}
