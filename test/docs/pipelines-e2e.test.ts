// The docs' pipelines end to end against the simulator: the GitLab CI recipe of docs/cli.md (its script line as it
// stands, the built binary in a scratch checkout) on the default branch and then in a merge request pipeline with a
// fake GitLab API, and the GitHub workflow of docs/github-action.md's journeys section (the action's step with the
// inputs it shows, the committed bundle, a fake Actions cache) on a push to main, which saves the journeys' baseline,
// and then on a pull request, which restores it. A flaky page (`?flaky=1`) is checked again on the way; outputs are printed for the record.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Simulator, startSimulator } from '../../src/testing/index.js';
import { type FakeCache, startFakeCache } from '../action/fake-cache.js';
import { type FakeGitHub, startFakeGitHub } from '../action/fake-github.js';
import { nodeForAction, runAction } from '../action/run-action.js';
import { ensureBuilt } from '../reliability/support.js';
import { runCli } from '../support/cli.js';
import { type Loopback, type Seen, startLoopback } from '../support/loopback.js';
import { recipeOf } from './ci-recipes.js';
import { pagePaths, readPage } from './pages.js';

const blocks = pagePaths().flatMap((path) => readPage(path).blocks);
const record = (title: string, text: string) => console.log(`----- ${title}\n${text.trimEnd()}\n`);

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ durations: { ciCheck: 200, journeyRun: 300, scan: 100 }, rateLimit: false });
});
afterAll(() => sim.stop());

describe('the GitLab CI recipe of docs/cli.md', () => {
  const TOKEN = 'glpat-e2e-canary-9b1c';
  const notes: Array<{ id: number; body: string; author: { id: number } }> = [];
  let gitlab: Loopback;
  const reply = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  beforeAll(async () => {
    ensureBuilt();
    gitlab = await startLoopback((req: Seen, res) => {
      if (req.headers['private-token'] !== TOKEN) return reply(res, 401, { message: '401 Unauthorized' });
      const path = req.url.split('?')[0]!;
      if (path === '/api/v4/user') return reply(res, 200, { id: 7, username: 'a11y-bot' });
      if (path !== '/api/v4/projects/42/merge_requests/3/notes') return reply(res, 404, { message: '404 Not Found' });
      if (req.method === 'GET') return reply(res, 200, notes);
      const note = { id: 100 + notes.length, body: (JSON.parse(req.body) as { body: string }).body, author: { id: 7 } };
      notes.push(note);
      return reply(res, 201, note);
    });
  });
  afterAll(() => gitlab.close());

  it('runs as it stands: a baseline on the default branch, then a merge request pipeline with its note', async () => {
    const block = blocks.find((b) => recipeOf(b)?.ci === 'gitlab')!;
    const job = (parse(block.text) as Record<string, { script: string[]; variables: Record<string, string> }>)
      .accessibility!;
    const args = job.script[0]!.replace(/^npx -p @svc\/a11y-sdk svc-a11y /, '').split(/\s+/);
    const checkout = mkdtempSync(join(tmpdir(), 'svc-a11y-gitlab-e2e-'));
    const pages = [
      'https://shop.example.com/',
      'https://shop.example.com/checkout',
      'https://shop.example.com/account?flaky=1',
    ];
    writeFileSync(join(checkout, 'a11y-urls.txt'), `${pages.join('\n')}\n`);
    const gitlabEnv = {
      ...job.variables,
      SVC_BASE_URL: sim.url,
      SVC_API_KEY: sim.keys.full,
      CI: 'true',
      GITLAB_CI: 'true',
      CI_DEFAULT_BRANCH: 'main',
      CI_PROJECT_ID: '42',
      CI_API_V4_URL: `${gitlab.url}/api/v4`,
      CI_JOB_URL: 'https://gitlab.example.com/acme/shop/-/jobs/1',
    };
    const main = await runCli(args, { cwd: checkout, env: { ...gitlabEnv, CI_COMMIT_BRANCH: 'main' } });
    record(`GitLab, default branch: exit ${main.code}; stderr`, main.stderr);
    record('GitLab, default branch: stdout', main.stdout);
    expect(main.stderr).toContain(
      'note: set-baseline auto: saving the baseline: CI_COMMIT_BRANCH main is the default branch',
    );
    expect(main.stderr).toContain('note: the baseline saved by this run lacks 1 page');
    expect(main.stdout).toContain('UNREACHABLE, then DONE on recheck 1');
    expect(notes).toHaveLength(0); // no note outside a merge request pipeline

    writeFileSync(
      join(checkout, 'a11y-urls.txt'),
      `${pages.slice(0, 2).join('\n')}\nhttps://shop.example.com/checkout?regress=1\n`,
    );
    const mr = await runCli(args, {
      cwd: checkout,
      env: {
        ...gitlabEnv,
        CI_MERGE_REQUEST_IID: '3',
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_COMMIT_REF_NAME: 'fix-banner',
        SVC_GITLAB_TOKEN: TOKEN,
      },
    });
    record(`GitLab, merge request: exit ${mr.code}; stderr`, mr.stderr);
    record('GitLab, merge request: stdout', mr.stdout);
    expect(mr.code).toBe(1);
    expect(mr.stderr).not.toContain('saving the baseline');
    expect(notes).toHaveLength(1);
    record('GitLab, merge request: the note', notes[0]!.body);
    expect(notes[0]!.body).toContain('<!-- svc-a11y-ci -->');
    const quality = JSON.parse(readFileSync(join(checkout, 'gl-code-quality.json'), 'utf8')) as unknown[];
    expect(quality.length).toBeGreaterThan(0);
    expect(XMLValidator.validate(readFileSync(join(checkout, 'a11y-junit.xml'), 'utf8'))).toBe(true);
    expect(mr.stdout + mr.stderr).not.toContain(TOKEN);
  }, 120_000);
});

describe("the GitHub workflow of docs/github-action.md's journeys section", () => {
  const TOKEN = 'ghs_e2e_canary_5f2a';
  let github: FakeGitHub;
  let cache: FakeCache;
  beforeAll(async () => {
    nodeForAction();
    github = await startFakeGitHub({ repository: 'acme/shop', token: TOKEN });
    cache = await startFakeCache();
  });
  afterAll(async () => {
    await github.close();
    await cache.close();
  });

  it('a push to main saves the journeys baseline in the Actions cache; a pull request restores it and judges them NEW_CRITICAL', async () => {
    const block = blocks.find((b) => b.page === 'docs/github-action.md' && b.text.includes('journey-baseline:'))!;
    const workflow = parse(block.text) as {
      jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, string> }> }>;
    };
    const step = Object.values(workflow.jobs)[0]!.steps.find((s) => s.uses?.startsWith('svc/a11y-sdk@'))!;
    // The step's inputs as the docs show them, pointed at the simulator: its key, its site, its seeded journey.
    const inputs = {
      ...step.with,
      'api-key': sim.keys.full,
      'base-url': sim.url,
      urls: 'https://shop.example.com/clean\nhttps://shop.example.com/clean/news?flaky=1',
      journeys: sim.ids.guestJourney,
    };
    const baselineFile = step.with!['journey-baseline']!;
    const push = await runAction({
      inputs,
      eventName: 'push',
      eventFile: 'push.main.json',
      apiUrl: github.url,
      token: TOKEN,
      env: cache.env,
    });
    record(`GitHub, push to main: exit ${push.code}; the log`, push.stdout + push.stderr);
    record('GitHub, push to main: outputs', JSON.stringify(push.outputs, null, 2));
    const saved = readFileSync(join(push.workspace, baselineFile), 'utf8');
    record(`GitHub, push to main: ${baselineFile}`, saved);
    expect(JSON.parse(saved).journeys[sim.ids.guestJourney].fingerprints.length).toBeGreaterThan(0);
    expect(push.stdout).toContain('journey-baseline: none in the Actions cache yet');
    expect(cache.entries()).toHaveLength(1);
    expect(push.stdout).toContain(
      `journey-baseline: ${baselineFile} saved to the Actions cache (${cache.entries()[0]!.key})`,
    );

    // A new workspace, as a pull request's job has: the file comes back from the cache.
    const pr = await runAction({
      inputs,
      eventName: 'pull_request',
      eventFile: 'pull_request.opened.json',
      apiUrl: github.url,
      token: TOKEN,
      env: cache.env,
    });
    record(`GitHub, pull request: exit ${pr.code}; the log`, pr.stdout + pr.stderr);
    record('GitHub, pull request: outputs', JSON.stringify(pr.outputs, null, 2));
    record('GitHub, pull request: the job summary', pr.summary);
    expect(pr.code).toBe(0);
    expect(pr.stdout).toContain(`journey-baseline: ${baselineFile} restored from the Actions cache`);
    expect(pr.outputs.verdict).toBe('PASS');
    expect(pr.stdout + pr.stderr).not.toContain('judged as ANY_CRITICAL');
    expect(readFileSync(join(pr.workspace, baselineFile), 'utf8')).toBe(saved);
    // A pull request never saves: one entry still, the push's.
    expect(cache.entries()).toHaveLength(1);
    const comments = github.comments.get(7) ?? [];
    expect(comments).toHaveLength(1);
    record('GitHub, pull request: the comment', comments[0]!.body);
    expect(comments[0]!.body).toContain(
      '> Journey Guest checkout: PASS; 3 checkpoints (Cart, Shipping, Payment); judged NEW_CRITICAL against the journey baseline',
    );
  }, 180_000);
});
