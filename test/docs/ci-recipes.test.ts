// Every CI recipe in the docs works as pasted: the GitLab CI job, the Jenkins stage and the Azure
// Pipelines steps parse, use only keys and steps that CI knows, run the CLI through `npx -p @svc/a11y-sdk` (the
// unscoped name is another package) with flags the CLI takes, and hand the CI the report files the command writes;
// run as they stand (the built binary, against a loopback service) they save the baseline on the default branch only.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ensureBuilt } from '../reliability/support.js';
import { cliPath, runCli } from '../support/cli.js';
import { createdWith, passingService, serveEach } from '../support/loopback.js';
import { CI_RECIPES, recipeOf } from './ci-recipes.js';
import { pagePaths, readPage } from './pages.js';

const blocks = pagePaths().flatMap((path) => readPage(path).blocks);
const recipe = (ci: string) => {
  const block = blocks.find((b) => recipeOf(b)?.ci === ci);
  if (!block) throw new Error(`the ${ci} recipe is missing from the docs`);
  return block.text;
};

// The report files a command line writes, by format.
const reportsOf = (command: string) =>
  Object.fromEntries([...command.matchAll(/--report (\w+)=(\S+)/g)].map(([, kind, file]) => [kind!, file!]));

// The command must be the package's bin by its scoped name, and the CLI must take every flag (its own parser, as the
// docs' sh blocks are checked: `--help` appended makes it parse and exit 0 without sending anything).
function checkCommand(command: string): void {
  const match = /^npx -p @svc\/a11y-sdk svc-a11y ((?:ci|merge) .*)$/.exec(command.trim());
  expect(match, command).not.toBeNull();
  ensureBuilt();
  const args = match![1]!.split(/\s+/);
  const run = spawnSync(process.execPath, [cliPath, ...args, '--help'], { encoding: 'utf8', env: { PATH: '' } });
  expect(run.status, run.stderr).toBe(0);
}

// GitLab CI's job keywords and artifact report types (docs.gitlab.com/ee/ci/yaml/), the ones a job may use.
const GITLAB_JOB_KEYS = new Set([
  'image',
  'services',
  'variables',
  'before_script',
  'script',
  'after_script',
  'artifacts',
  'rules',
  'stage',
  'needs',
  'cache',
  'tags',
  'when',
  'allow_failure',
  'timeout',
  'retry',
  'interruptible',
  'dependencies',
  'parallel',
]);
const GITLAB_ARTIFACT_KEYS = new Set(['when', 'reports', 'paths', 'expire_in', 'name', 'expose_as', 'untracked']);
const GITLAB_REPORTS = new Set(['junit', 'codequality', 'sast', 'dotenv', 'coverage_report', 'terraform', 'metrics']);

describe('CI recipes in the docs', () => {
  it('every recipe listed is in the docs', () => {
    for (const r of CI_RECIPES)
      expect(
        blocks.some((b) => recipeOf(b) === r),
        r.startsWith,
      ).toBe(true);
  });

  it('GitLab CI: a job of known keys whose artifacts declare the JUnit and Code Quality files the command writes', () => {
    const doc = parse(recipe('gitlab')) as Record<string, Record<string, unknown>>;
    const job = doc.accessibility!;
    for (const key of Object.keys(job)) expect(GITLAB_JOB_KEYS, key).toContain(key);
    const script = job.script as string[];
    expect(Array.isArray(script)).toBe(true);
    const command = script.find((line) => line.includes('svc-a11y'))!;
    checkCommand(command);
    const artifacts = job.artifacts as { when?: string; reports: Record<string, string> };
    for (const key of Object.keys(artifacts)) expect(GITLAB_ARTIFACT_KEYS, key).toContain(key);
    for (const key of Object.keys(artifacts.reports)) expect(GITLAB_REPORTS, key).toContain(key);
    expect(artifacts.when).toBe('always');
    const written = reportsOf(command);
    expect(artifacts.reports).toEqual({ junit: written.junit, codequality: written.codequality });
  });

  it('GitLab CI matrix: `parallel` shards keep their JSON reports; the merge job runs always and declares the reports it writes', () => {
    const doc = parse(recipe('gitlab-matrix')) as Record<string, Record<string, unknown>>;
    const shard = doc['a11y-shard']!;
    const merge = doc['a11y-merge']!;
    for (const job of [shard, merge]) for (const key of Object.keys(job)) expect(GITLAB_JOB_KEYS, key).toContain(key);
    const shardCommand = (shard.script as string[]).find((line) => line.includes('svc-a11y'))!;
    // GitLab sets CI_NODE_INDEX (1-based) and CI_NODE_TOTAL in each of the `parallel` copies.
    expect(shardCommand).toContain('--shard "$CI_NODE_INDEX/$CI_NODE_TOTAL"');
    checkCommand(shardCommand.replace(/"/g, ''));
    const json = reportsOf(shardCommand.replace(/"/g, '')).json!;
    expect((shard.artifacts as { when: string; paths: string[] }).paths).toEqual([
      json.slice(0, json.indexOf('/') + 1),
    ]);
    expect((shard.artifacts as { when: string }).when).toBe('always');
    expect(merge.when).toBe('always');
    expect(merge.needs).toEqual(['a11y-shard']);
    const mergeCommand = (merge.script as string[]).find((line) => line.includes('svc-a11y'))!;
    checkCommand(mergeCommand);
    const artifacts = merge.artifacts as { when?: string; reports: Record<string, string> };
    expect(artifacts.when).toBe('always');
    expect(artifacts.reports).toEqual(reportsOf(mergeCommand));
  });

  it('Jenkins: a declarative stage whose junit step reads the file the command writes, on every outcome', () => {
    const text = recipe('jenkins');
    expect(text).toMatch(/^stage\('[^']+'\) \{\n/);
    // Balanced braces: a stage that pastes into a pipeline as a whole.
    expect([...text].filter((c) => c === '{').length).toBe([...text].filter((c) => c === '}').length);
    const command = /\bsh '([^']+)'/.exec(text)?.[1];
    expect(command).toBeDefined();
    checkCommand(command!);
    const junit = /post \{\s*always \{\s*junit '([^']+)'\s*\}\s*\}/.exec(text)?.[1];
    expect(junit).toBe(reportsOf(command!).junit);
    expect(text).toMatch(/SVC_API_KEY = credentials\('[^']+'\)/);
    // Only the directives and steps a declarative stage with the NodeJS and JUnit plugins knows.
    for (const [, word] of text.matchAll(/^\s*(\w+)\s*(?:\{|'|\()/gm))
      expect(['stage', 'environment', 'steps', 'sh', 'post', 'always', 'junit'], word).toContain(word);
  });

  it('Azure Pipelines: steps of known tasks; PublishTestResults@2 reads the JUnit file the command writes, always', () => {
    const doc = parse(recipe('azure')) as { steps: Array<Record<string, unknown>> };
    const tasks = doc.steps.flatMap((s) => (typeof s.task === 'string' ? [s.task] : []));
    expect(tasks).toEqual(['NodeTool@0', 'PublishTestResults@2']);
    const script = doc.steps.find((s) => typeof s.script === 'string')!;
    for (const key of Object.keys(script)) expect(['script', 'displayName', 'env']).toContain(key);
    checkCommand(script.script as string);
    const publish = doc.steps.find((s) => s.task === 'PublishTestResults@2')!;
    expect(publish.condition).toBe('always()');
    expect(publish.inputs).toEqual({
      testResultsFormat: 'JUnit',
      testResultsFiles: reportsOf(script.script as string).junit,
    });
  });
});

// The command of each recipe, as it stands in the docs (the part after `svc-a11y`).
const commandOf: Record<string, () => string> = {
  gitlab: () => (parse(recipe('gitlab')) as { accessibility: { script: string[] } }).accessibility.script[0]!,
  jenkins: () => /\bsh '([^']+)'/.exec(recipe('jenkins'))![1]!,
  azure: () => (parse(recipe('azure')) as { steps: Array<{ script?: string }> }).steps.find((s) => s.script)!.script!,
};
// Each CI's variables on the default branch, on another branch, and on a pull or merge request.
const RUNS: Array<[ci: string, where: string, env: Record<string, string>, saves: boolean]> = [
  ['gitlab', 'the default branch', { GITLAB_CI: 'true', CI_COMMIT_BRANCH: 'main', CI_DEFAULT_BRANCH: 'main' }, true],
  ['gitlab', 'another branch', { GITLAB_CI: 'true', CI_COMMIT_BRANCH: 'fix', CI_DEFAULT_BRANCH: 'main' }, false],
  ['gitlab', 'a merge request', { GITLAB_CI: 'true', CI_MERGE_REQUEST_IID: '4', CI_DEFAULT_BRANCH: 'main' }, false],
  ['jenkins', 'the default branch', { JENKINS_URL: 'http://ci/', BRANCH_NAME: 'main' }, true],
  ['jenkins', 'another branch', { JENKINS_URL: 'http://ci/', BRANCH_NAME: 'fix' }, false],
  ['jenkins', 'a change request', { JENKINS_URL: 'http://ci/', BRANCH_NAME: 'PR-4', CHANGE_ID: '4' }, false],
  ['azure', 'the default branch', { TF_BUILD: 'True', BUILD_SOURCEBRANCH: 'refs/heads/main' }, true],
  ['azure', 'another branch', { TF_BUILD: 'True', BUILD_SOURCEBRANCH: 'refs/heads/fix' }, false],
  [
    'azure',
    'a pull request',
    { TF_BUILD: 'True', BUILD_REASON: 'PullRequest', BUILD_SOURCEBRANCH: 'refs/pull/4/merge' },
    false,
  ],
];

describe('the recipes save a baseline on the default branch only, run as they stand', () => {
  const serve = serveEach();
  it.each(RUNS)('%s on %s', async (ci, _where, env, saves) => {
    ensureBuilt();
    const api = await serve(passingService());
    const dir = mkdtempSync(join(tmpdir(), `svc-a11y-recipe-${ci}-`));
    writeFileSync(join(dir, 'a11y-urls.txt'), 'https://shop.example.com/\n');
    const args = /svc-a11y (.*)$/.exec(commandOf[ci]!().trim())![1]!.split(/\s+/);
    const r = await runCli(args, {
      cwd: dir,
      env: { SVC_API_KEY: 'svc_recipe_key_1', SVC_BASE_URL: api.url, ...env },
      timeoutMs: 30_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(createdWith(api).setBaseline).toBe(saves);
  });
});
