// Every workflow of the repository and of the examples, the README's workflows and action.yml, checked offline by
// GitHub's own parser (@actions/workflow-parser: the schema and the model GitHub builds), then held to what makes
// them drop-in: current major versions of every action, checkout first, inputs the action has.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSimulator } from '../../src/testing/index.js';
import { actionErrors, workflowErrors } from '../support/workflow-parser.js';
import { root } from './run-action.js';

// The current major version of every action the workflows use (bump here, with the workflows, when one ships).
const CURRENT: Record<string, string> = {
  'actions/checkout': 'v7',
  'actions/setup-node': 'v7',
  'actions/upload-artifact': 'v7',
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
// The README's workflows in its GitHub Action section: the yaml blocks that hold jobs (a fragment without `on:` is
// read as a push workflow). The fleet section's matrix example is another section's, not covered here yet.
const readme = read('README.md');
const actionSection = readme.slice(
  readme.indexOf('## GitHub Action'),
  readme.indexOf('\n## ', readme.indexOf('## GitHub Action') + 1),
);
const readmeBlocks = [...actionSection.matchAll(/```ya?ml\n([\s\S]*?)```/g)]
  .map((m) => m[1]!)
  .filter((text) => /^jobs:/m.test(text));
const ownReadmeBlocks = readmeBlocks.filter((text) => /uses: svc\/a11y-sdk@/.test(text));
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
    expect(ownReadmeBlocks.length).toBeGreaterThan(0);
  });

  it.each(files)('accepts %s', async (file) => {
    expect(await workflowErrors(file, read(file))).toEqual([]);
  });

  it("accepts the README's workflows", async () => {
    for (const [i, text] of readmeBlocks.entries())
      expect(await workflowErrors(`README block ${i + 1}`, asWorkflow(text))).toEqual([]);
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
    ...ownReadmeBlocks.map((text, i) => [`README block ${i + 1}`, asWorkflow(text)] as const),
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
    '%s checks out first and gives the action only inputs it has (api-key always)',
    (_file, text) => {
      for (const steps of stepsOf(parse(text) as Workflow)) {
        const at = steps.findIndex((s) => isOurs(s.uses));
        if (at < 0) continue;
        expect(steps[0]!.uses).toBe(`actions/checkout@${CURRENT['actions/checkout']}`);
        for (const step of steps.filter((s) => isOurs(s.uses))) {
          for (const input of Object.keys(step.with ?? {}))
            expect(Object.keys(action.inputs), `input ${input}`).toContain(input);
          expect(step.with).toHaveProperty('api-key');
        }
      }
    },
  );

  it('examples and the README: reports uploaded on every outcome of a run that wrote them; the baseline kept on main', () => {
    for (const [file, text] of [
      ...files.filter((f) => f.startsWith('examples/')).map((f) => [f, read(f)] as const),
      ...ownReadmeBlocks.map((t) => ['README', t] as const),
    ]) {
      const workflow = parse(asWorkflow(text)) as Workflow & { on: { push?: { branches?: string[] } } };
      expect(workflow.on.push?.branches, file).toEqual(['main']);
      for (const steps of stepsOf(workflow)) {
        for (const upload of steps.filter((s) => /upload-(sarif|artifact)@/.test(s.uses ?? ''))) {
          expect((upload as { if?: string }).if, `${file}: ${upload.uses}`).toMatch(
            /^always\(\) && steps\.a11y\.outputs\.(sarif|junit)-file != ''$/,
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
