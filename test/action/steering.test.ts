// What a pull request controls cannot steer the Action, run as the runner runs the
// committed bundle: its config file never moves the baseline nor loosens a page under the fail-on input, the bot
// edits only its own comment and text from the service pings nobody, and a GitHub token the service echoes back is
// redacted in every form, in the log, the summary, the comment and the outputs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdWith, passingService, serveEach } from '../support/loopback.js';
import { type FakeGitHub, startFakeGitHub } from './fake-github.js';
import { type ActionRun, nodeForAction, runAction } from './run-action.js';

const TOKEN = 'ghs_steeringInstallationToken0123456789ab';
const KEY = 'svc_steering_action_key_1';
const MARKER = '<!-- svc-a11y-action -->';
const PAGE = 'https://shop.example.com/';
const serve = serveEach();
const describeRun = (run: ActionRun) => `exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;

const service = (violations: object[] = []) => serve(passingService(violations));
const created = createdWith;

let github: FakeGitHub;
beforeAll(async () => {
  nodeForAction();
  github = await startFakeGitHub({ repository: 'acme/shop', token: TOKEN });
}, 600_000);
afterAll(() => github?.close());

const run = (
  api: { url: string },
  options: {
    event: 'pull_request' | 'pull_request_target' | 'push';
    ref?: string;
    inputs?: Record<string, string>;
    files?: Record<string, string>;
    github?: FakeGitHub;
  },
) =>
  runAction({
    inputs: { 'api-key': KEY, 'base-url': api.url, urls: PAGE, comment: 'false', ...options.inputs },
    eventName: options.event,
    eventFile: options.event === 'push' ? 'push.main.json' : 'pull_request.opened.json',
    payload: options.ref ? (p) => (p.ref = options.ref) : undefined,
    apiUrl: (options.github ?? github).url,
    token: TOKEN,
    files: options.files,
  });

describe('the baseline moves only from the default branch', () => {
  const config = { 'svc-a11y.config.json': JSON.stringify({ setBaseline: true }) };
  it.each(['pull_request', 'pull_request_target'] as const)(
    '%s: neither the config file nor set-baseline: true saves it; the action says so',
    async (event) => {
      const api = await service();
      const r = await run(api, { event, inputs: { 'set-baseline': 'true' }, files: config });
      expect(r.code, describeRun(r)).toBe(0);
      expect(created(api).setBaseline).toBe(false);
      expect(r.stdout).toMatch(
        new RegExp(
          `^::warning title=Accessibility check baseline::the set-baseline input is ignored on a ${event} event`,
          'm',
        ),
      );
      expect(r.stdout).toMatch(
        /^::warning title=Accessibility check baseline::setBaseline in \S*svc-a11y\.config\.json is ignored on GitHub's pull_request event/m,
      );
    },
    120_000,
  );

  it('pull_request with set-baseline auto and the config file asking: false, with a warning', async () => {
    const api = await service();
    const r = await run(api, { event: 'pull_request', files: config });
    expect(r.code, describeRun(r)).toBe(0);
    expect(created(api).setBaseline).toBe(false);
    expect(r.stdout).toMatch(
      /^::warning title=Accessibility check baseline::setBaseline in \S*svc-a11y\.config\.json is ignored/m,
    );
  }, 120_000);

  it('a push to another branch with auto: false, explicitly, whatever the config file says; a push to main: true', async () => {
    const other = await service();
    const r = await run(other, { event: 'push', ref: 'refs/heads/feature', files: config });
    expect(r.code, describeRun(r)).toBe(0);
    expect(created(other).setBaseline).toBe(false);
    const main = await service();
    const m = await run(main, { event: 'push', files: config });
    expect(m.code, describeRun(m)).toBe(0);
    expect(created(main).setBaseline).toBe(true);
  }, 120_000);
});

describe('the fail-on input beats a config file, per page', () => {
  it('fail-on ANY_CRITICAL with failOnByUrl loosening every page to NONE: an existing critical finding fails the step', async () => {
    const api = await service([{ ruleId: 'image-alt', impact: 'critical', isNew: false, url: PAGE, target: 'img' }]);
    const r = await run(api, {
      event: 'pull_request',
      inputs: { 'fail-on': 'ANY_CRITICAL' },
      files: { 'svc-a11y.config.json': JSON.stringify({ failOnByUrl: [{ url: '.*', failOn: 'NONE' }] }) },
    });
    expect(r.code, describeRun(r)).toBe(1);
    expect(r.outputs.verdict).toBe('FAIL');
    expect(r.stdout).toMatch(/^::error::Accessibility check FAIL: 1 finding breaks the threshold ANY_CRITICAL/m);
  }, 120_000);
});

describe('the pull request comment is ours alone, and pings nobody', () => {
  const finding = {
    ruleId: 'image-alt',
    impact: 'critical',
    isNew: true,
    url: `${PAGE}team/@acme`,
    target: 'img[alt="@acme/team ping @someone"]',
    failureSummary: 'Fix #12 and GH-34 as in commit 1a2b3c4d5e6f, cc @dana-dev',
    helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/image-alt',
  };
  // A mention, an issue reference or a commit hash as GitHub would read them, outside links' destinations.
  const pings = (markdown: string) =>
    markdown
      // The footer names the pull request's head commit on purpose: it is the action's text, not the service's.
      .replace(/^<sub>.*<\/sub>$/m, '')
      .replace(/\]\([^)]*\)/g, '](…)')
      .match(/(?<![\w&])@[A-Za-z0-9]|(?<![\w&])#\d|\bGH-\d|\b[0-9a-f]{7,40}\b/gi) ?? [];

  for (const answers of ['viewer', 'user', 'none'] as const) {
    it(`another author's comment with the marker is left alone; the action's own is created, then edited (identity by ${answers})`, async () => {
      const login = answers === 'none' ? 'github-actions[bot]' : answers === 'user' ? 'ci-robot' : 'acme-a11y[bot]';
      const gh = await startFakeGitHub({ repository: 'acme/shop', token: TOKEN, identity: { login, answers } });
      try {
        const planted = gh.addComment(7, `${MARKER}\nI am the bot now`, 'mallory');
        const api = await service([finding]);
        const first = await run(api, { event: 'pull_request', inputs: { comment: 'true' }, github: gh });
        expect(first.code, describeRun(first)).toBe(1);
        const ours = () => gh.comments.get(7)!.filter((c) => c.user.login === login);
        expect(ours()).toHaveLength(1);
        expect(planted.body).toBe(`${MARKER}\nI am the bot now`);
        const second = await run(api, { event: 'pull_request', inputs: { comment: 'true' }, github: gh });
        expect(second.code, describeRun(second)).toBe(1);
        expect(ours()).toHaveLength(1);
        expect(gh.requests.filter((q) => q.method === 'PATCH').map((q) => q.path)).toEqual([
          `/repos/acme/shop/issues/comments/${ours()[0]!.id}`,
        ]);
        expect(planted.body).toBe(`${MARKER}\nI am the bot now`);
        // Text from the service forms no mention, reference or commit link, in the comment and the summary.
        const body = ours()[0]!.body;
        expect(body).toContain('acme/team ping');
        expect(pings(body)).toEqual([]);
        expect(pings(second.summary)).toEqual([]);
      } finally {
        await gh.close();
      }
    }, 120_000);
  }
});

describe('a GitHub token the service echoes is redacted in every form', () => {
  const forms = {
    'as is': TOKEN,
    'upper-case': TOKEN.toUpperCase(),
    'clipped after 12': TOKEN.slice(0, 12),
    'percent-encoded': [...TOKEN].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
    'JSON-escaped': [...TOKEN].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join(''),
    'Markdown-escaped': TOKEN.replace(/_/g, '\\_'),
  };
  it.each(Object.entries(forms))(
    '%s: in no line of the log, the summary, the comment or the outputs',
    async (_name, form) => {
      const api = await service([
        {
          ruleId: 'image-alt',
          impact: 'critical',
          isNew: true,
          url: `${PAGE}?t=${form}`,
          target: `img[data-token="${form}"]`,
          failureSummary: `token ${form} end`,
        },
      ]);
      const r = await run(api, { event: 'pull_request', inputs: { comment: 'true' } });
      expect(r.code, describeRun(r)).toBe(1);
      const comment = github.comments.get(7)!.find((c) => c.body.startsWith(MARKER))!.body;
      const seen = [
        r.stdout.replace(/^::add-mask::.*$/gm, ''),
        r.stderr,
        r.summary,
        JSON.stringify(r.outputs),
        comment,
      ];
      for (const text of seen) {
        expect(text).not.toContain(TOKEN.slice(0, 8));
        expect(text.toLowerCase()).not.toContain(TOKEN.slice(0, 8).toLowerCase());
        expect(text).not.toContain(forms['percent-encoded'].slice(0, 24));
        expect(text).not.toContain(forms['JSON-escaped'].slice(0, 48));
      }
      expect(r.stdout).toContain('[redacted]');
    },
    120_000,
  );
});
