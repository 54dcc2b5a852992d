// Every workflow of the repository and of the examples, the documentation's workflows and action.yml, checked offline by
// GitHub's own parser (@actions/workflow-parser: the schema and the model GitHub builds), then held to what makes
// them drop-in: current major versions of every action, checkout first, inputs the action has.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSimulator } from '../../src/testing/index.js';
import { actionErrors, workflowErrors } from '../support/workflow-parser.js';
import { pagePaths, readPage } from '../docs/pages.js';
import { root } from './run-action.js';

// The current major version of every action the workflows use (bump here, with the workflows, when one ships).
const CURRENT: Record<string, string> = {
  'actions/checkout': 'v7',
  'actions/setup-node': 'v7',
  'actions/upload-artifact': 'v7',
  'actions/download-artifact': 'v8',
  'github/codeql-action/upload-sarif': 'v4',
  'changesets/action': 'v1',
  // This repository's action, at its release line's tag (see release.yml).
  'svc/a11y-sdk': 'v0.1',
};

const read = (path: string) => readFileSync(join(root, path), 'utf8');
const files = [
  ...readdirSync(join(root, '.github/workflows')).map((f) => `.github/workflows/${f}`),
  ...readdirSync(join(root, 'examples'))
    .filter((f) => f.endsWith('.yml'))
    .map((f) => `examples/${f}`),
];
// The workflows of every page (README, docs/, …): the yaml blocks that hold jobs (a fragment without `on:` is read as
// a push workflow), named by page and line. Those using this action are held to the drop-in rules too.
const docBlocks = pagePaths()
  .flatMap((path) => readPage(path).blocks)
  .filter((b) => ['yaml', 'yml'].includes(b.lang) && /^jobs:/m.test(b.text))
  .map((b) => [`${b.page}:${b.line}`, b.text] as const);
const ownDocBlocks = docBlocks.filter(([, text]) => /uses: svc\/a11y-sdk@/.test(text));
const asWorkflow = (text: string) => (/^on:/m.test(text) ? text : `on: push\n${text}`);

type Step = { uses?: string; with?: Record<string, unknown>; run?: string };
type Workflow = {
  on?: unknown;
  permissions?: Record<string, string>;
  jobs: Record<
    string,
    {
      steps?: Step[];
      permissions?: Record<string, string>;
      strategy?: { matrix?: Record<string, unknown> };
      services?: Record<string, unknown>;
    }
  >;
};
const stepsOf = (workflow: Workflow) => Object.values(workflow.jobs).map((job) => job.steps ?? []);
const action = parse(read('action.yml')) as {
  inputs: Record<string, { required?: boolean }>;
  runs: { using: string; main: string };
};
const isOurs = (uses: string | undefined) => uses === './' || uses?.startsWith('svc/a11y-sdk@') === true;

describe("GitHub's workflow parser", () => {
  beforeAll(() => {
    expect(files).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        '.github/workflows/release.yml',
        '.github/workflows/accessibility.yml',
        'examples/github-actions.yml',
        'examples/github-actions-matrix.yml',
      ]),
    );
    // The page's workflow, its journeys (their baseline kept by the action), and its matrix with a merge job.
    expect(ownDocBlocks.map(([name]) => name)).toEqual([
      expect.stringMatching(/^docs\/github-action\.md:/),
      expect.stringMatching(/^docs\/github-action\.md:/),
      expect.stringMatching(/^docs\/github-action\.md:/),
    ]);
    expect(docBlocks.map(([name]) => name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^docs\/fleet\.md:/)]),
    );
  });

  it.each(files)('accepts %s', async (file) => {
    expect(await workflowErrors(file, read(file))).toEqual([]);
  });

  it.each(docBlocks)('accepts the workflow of %s', async (name, text) => {
    expect(await workflowErrors(name, asWorkflow(text))).toEqual([]);
  });

  it('accepts action.yml: node24, the bundled entry', async () => {
    expect(await actionErrors('action.yml', read('action.yml'))).toEqual([]);
    expect(action.runs).toEqual({ using: 'node24', main: 'action/index.cjs' });
  });

  it('refuses what GitHub refuses (the validator is not a no-op)', async () => {
    expect(await actionErrors('action.yml', read('action.yml').replace('using: node24', 'using: node22'))).toEqual([
      expect.stringContaining("Unexpected value 'node22'"),
    ]);
    expect(
      await actionErrors('action.yml', read('action.yml').replace('main: action/index.cjs', 'mian: action/index.cjs')),
    ).not.toEqual([]);
    const ci = read('.github/workflows/ci.yml');
    expect(
      await workflowErrors('ci.yml', ci.replace('permissions:\n  contents: read', 'permissions:\n  content: read')),
    ).toEqual([expect.stringContaining("Unexpected value 'content'")]);
    expect(
      await workflowErrors('ci.yml', ci.replace('runs-on: ubuntu-latest', 'runs-on: ubuntu-latest\n    needs: lint')),
    ).not.toEqual([]);
    expect(await workflowErrors('ci.yml', ci.replace('${{ matrix.node }}', '${{ matrix.node ) }}'))).not.toEqual([]);
  });
});

describe('drop-in workflows', () => {
  const ownWorkflows = [
    ...files.map((f) => [f, read(f)] as const),
    ...ownDocBlocks.map(([name, text]) => [name, asWorkflow(text)] as const),
  ];

  it.each(ownWorkflows)('%s uses the current major version of every action', (_file, text) => {
    for (const steps of stepsOf(parse(text) as Workflow)) {
      for (const { uses } of steps) {
        if (uses === undefined || uses === './') continue;
        const [name, version] = uses.split('@');
        expect(CURRENT[name!], `${uses}: not in the table of current versions`).toBeDefined();
        expect(version, uses).toBe(CURRENT[name!]);
      }
    }
  });

  it.each(ownWorkflows)(
    '%s checks out first and gives the action only inputs it has (api-key always, but to a merge)',
    (_file, text) => {
      for (const steps of stepsOf(parse(text) as Workflow)) {
        const at = steps.findIndex((s) => isOurs(s.uses));
        if (at < 0) continue;
        expect(steps[0]!.uses).toBe(`actions/checkout@${CURRENT['actions/checkout']}`);
        for (const step of steps.filter((s) => isOurs(s.uses))) {
          for (const input of Object.keys(step.with ?? {}))
            expect(Object.keys(action.inputs), `input ${input}`).toContain(input);
          // A merge job sends nothing: its step has the shards' reports instead of a key.
          expect(step.with).toHaveProperty(step.with?.merge === undefined ? 'api-key' : 'merge');
        }
      }
    },
  );

  it('examples and the docs: reports uploaded on every outcome of a run that wrote them; the baseline kept on main', () => {
    for (const [file, text] of [
      ...files.filter((f) => f.startsWith('examples/')).map((f) => [f, read(f)] as const),
      ...ownDocBlocks,
    ]) {
      const workflow = parse(asWorkflow(text)) as Workflow & { on: { push?: { branches?: string[] } } };
      expect(workflow.on.push?.branches, file).toEqual(['main']);
      for (const steps of stepsOf(workflow)) {
        for (const upload of steps.filter((s) => /upload-(sarif|artifact)@/.test(s.uses ?? ''))) {
          expect((upload as { if?: string }).if, `${file}: ${upload.uses}`).toMatch(
            /^always\(\) && steps\.a11y\.outputs\.(sarif|junit|json)-file != ''$/,
          );
        }
      }
    }
  });

  it('the matrix example pairs a Redis service with redis-url, and each job keeps its own comment', () => {
    const workflow = parse(read('examples/github-actions-matrix.yml')) as Workflow;
    const job = workflow.jobs.a11y!;
    expect(job.services).toHaveProperty('redis');
    const step = job.steps!.find((s) => isOurs(s.uses))!;
    expect(step.with!['redis-url']).toContain('redis://localhost:6379');
    expect(step.with!['comment-key']).toBe('${{ matrix.pages }}');
  });

  it('ci.yml runs npm test on Node 22 and 24; release.yml publishes with provenance through trusted publishing', () => {
    const ci = parse(read('.github/workflows/ci.yml')) as Workflow;
    expect(ci.jobs.test!.strategy!.matrix!.node).toEqual([22, 24]);
    expect(ci.jobs.test!.steps!.map((s) => s.run)).toContain('npm test');
    const release = parse(read('.github/workflows/release.yml')) as Workflow;
    expect(release.jobs.release!.permissions).toMatchObject({
      'id-token': 'write',
      contents: 'write',
      'pull-requests': 'write',
    });
    expect(
      release.jobs.release!.steps!.some((s) => s.uses === `changesets/action@${CURRENT['changesets/action']}`),
    ).toBe(true);
    const pkg = JSON.parse(read('package.json')) as { repository?: { type: string; url: string } };
    // npm's provenance check compares this with the repository that ran the workflow.
    expect(pkg.repository).toEqual({ type: 'git', url: 'git+https://github.com/svc/a11y-sdk.git' });
  });

  it("accessibility.yml uses ./ against the simulator with the simulator's seeded key", async () => {
    const workflow = parse(read('.github/workflows/accessibility.yml')) as Workflow;
    const steps = workflow.jobs.a11y!.steps!;
    const sim = await startSimulator({ rateLimit: false });
    try {
      for (const step of steps.filter((s) => s.uses === './')) expect(step.with!['api-key']).toBe(sim.keys.full);
    } finally {
      await sim.stop();
    }
    expect(steps.filter((s) => s.uses === './')).toHaveLength(2);
  });
});
