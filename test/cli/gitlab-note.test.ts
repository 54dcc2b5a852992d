// The merge request note of a GitLab pipeline, against a fake GitLab API v4 on loopback: one note with the verdict and
// the new findings, edited in place on later runs; only the token's own user's note carrying the marker is edited; no
// note outside a merge request pipeline, with --no-comment, or with CI_JOB_TOKEN alone; no mention or reference from
// the service's text becomes live; the token never appears in any output; a failed note is a warning and the exit
// code stays the verdict's.
import { mkdtempSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { startSilentServer } from '../support/silent-tcp.js';
import { type Loopback, passingService, type Seen, serveEach, startLoopback } from '../support/loopback.js';

const TOKEN = 'glpat-note-canary-4d1f2e';
const ME = 7;
const PAGE = 'https://shop.example.com/checkout';
const MARKER = '<!-- svc-a11y-ci -->';
const hostile = {
  ruleId: 'link-name',
  impact: 'critical',
  url: PAGE,
  target: 'a[title="@everyone #12 !34 $5"]',
  failureSummary: 'Ping @everyone and @acme/team about #12, !34 and $5',
  helpUrl: 'https://docs.example.com/link-name',
  isNew: true,
  fingerprint: 'fp-1',
};

interface Note {
  id: number;
  body: string;
  system?: boolean;
  author: { id: number };
}
// A fake GitLab: its notes, and whether a write fails.
let notes: Note[] = [];
let failWrites = false;
let gitlab: Loopback;
const reply = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
beforeAll(async () => {
  gitlab = await startLoopback((req: Seen, res) => {
    if (req.headers['private-token'] !== TOKEN) return reply(res, 401, { message: '401 Unauthorized' });
    const path = req.url.split('?')[0]!;
    if (req.method === 'GET' && path === '/api/v4/user') return reply(res, 200, { id: ME, username: 'a11y-bot' });
    const m = /^\/api\/v4\/projects\/42\/merge_requests\/3\/notes(?:\/(\d+))?$/.exec(path);
    if (!m) return reply(res, 404, { message: '404 Not Found' });
    if (req.method === 'GET') return reply(res, 200, notes);
    if (failWrites) return reply(res, 500, { message: '500 Internal Server Error' });
    const { body } = JSON.parse(req.body) as { body: string };
    if (req.method === 'POST') {
      const note = { id: 100 + notes.length, body, author: { id: ME } };
      notes.push(note);
      return reply(res, 201, note);
    }
    const note = notes.find((n) => n.id === Number(m[1]));
    if (!note) return reply(res, 404, { message: '404 Not found' });
    note.body = body;
    return reply(res, 200, note);
  });
});
afterAll(() => gitlab.close());

const serve = serveEach();
const mergeRequest = (extra: Record<string, string> = {}) => ({
  GITLAB_CI: 'true',
  CI_API_V4_URL: `${gitlab.url}/api/v4`,
  CI_PROJECT_ID: '42',
  CI_MERGE_REQUEST_IID: '3',
  CI_JOB_URL: 'https://gitlab.example.com/acme/shop/-/jobs/9',
  SVC_GITLAB_TOKEN: TOKEN,
  ...extra,
});
const run = async (env: Record<string, string>, args: string[] = []) => {
  const api = await serve(passingService([hostile]));
  const before = gitlab.requests.length;
  const r = await runCliInProcess(['ci', PAGE, '--fail-on', 'NONE', ...args], {
    SVC_API_KEY: 'svc_gitlab_note_key_1',
    SVC_BASE_URL: api.url,
    ...env,
  });
  return { ...r, calls: gitlab.requests.slice(before) };
};

describe('the merge request note on GitLab', () => {
  it('is written once, then edited in place; its text is the verdict and the new findings, none of them live', async () => {
    notes = [{ id: 1, body: `${MARKER}\nsomeone else's copy`, author: { id: 99 } }];
    const first = await run(mergeRequest());
    expect(first.code, first.stderr).toBe(0);
    expect(first.calls.map((c) => `${c.method} ${c.url.split('?')[0]}`)).toEqual([
      'GET /api/v4/user',
      'GET /api/v4/projects/42/merge_requests/3/notes',
      'POST /api/v4/projects/42/merge_requests/3/notes',
    ]);
    // Another user's note with the marker is left alone.
    expect(notes[0]!.body).toBe(`${MARKER}\nsomeone else's copy`);
    const ours = notes[1]!;
    expect(ours.body.startsWith(MARKER)).toBe(true);
    expect(ours.body).toContain('Accessibility check: PASS');
    expect(ours.body).toContain('link-name');
    expect(ours.body).toContain('[pipeline job](https://gitlab.example.com/acme/shop/-/jobs/9)');
    // No mention or reference from the service's text is live.
    expect(ours.body).not.toMatch(/@everyone|@acme|#12|!34|\$5/);
    expect(ours.body).toContain('@&#8203;everyone');
    expect(ours.body).toContain('!&#8203;34');
    expect(first.stderr).toContain(`wrote the merge request note ${ours.id}`);

    const second = await run(mergeRequest());
    expect(second.code, second.stderr).toBe(0);
    expect(second.calls.at(-1)!.method).toBe('PUT');
    expect(second.calls.at(-1)!.url).toBe(`/api/v4/projects/42/merge_requests/3/notes/${ours.id}`);
    expect(notes).toHaveLength(2);
    for (const r of [first, second]) expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it('GITLAB_TOKEN serves too; CI_JOB_TOKEN alone, no merge request, or --no-comment: no call to GitLab', async () => {
    notes = [];
    const byGitLabToken = await run(mergeRequest({ SVC_GITLAB_TOKEN: '', GITLAB_TOKEN: TOKEN }));
    expect(byGitLabToken.calls.map((c) => c.method)).toEqual(['GET', 'GET', 'POST']);
    for (const env of [
      mergeRequest({ SVC_GITLAB_TOKEN: '', CI_JOB_TOKEN: TOKEN }),
      mergeRequest({ CI_MERGE_REQUEST_IID: '' }),
    ]) {
      const r = await run(env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.calls).toEqual([]);
    }
    const off = await run(mergeRequest(), ['--no-comment']);
    expect(off.calls).toEqual([]);
    expect(off.stderr).not.toContain('merge request note');
  });

  it('in a matrix the shards write no note, and the merge of their reports writes the one note', async () => {
    notes = [];
    const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-gitlab-shards-'));
    const shard = join(dir, 'shard-1-of-1.json');
    const sharded = await run(mergeRequest(), ['--shard', '1/1', '--report', `json=${shard}`]);
    expect(sharded.code, sharded.stderr).toBe(0);
    expect(sharded.calls).toEqual([]);
    const before = gitlab.requests.length;
    const merged = await runCliInProcess(['merge', shard], mergeRequest());
    expect(merged.code, merged.stderr).toBe(0);
    expect(gitlab.requests.slice(before).map((c) => c.method)).toEqual(['GET', 'GET', 'POST']);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain('Accessibility check: PASS');
  });

  it('a note GitLab refuses is one warning on stderr, and the exit code stays the verdict', async () => {
    notes = [];
    failWrites = true;
    try {
      const r = await run(mergeRequest());
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(
        'warning: could not write the merge request note (writing the merge request note: GitLab answered 500); the exit code is unchanged',
      );
      const wrongToken = await run(mergeRequest({ SVC_GITLAB_TOKEN: 'glpat-wrong-token-0000' }));
      expect(wrongToken.code).toBe(0);
      expect(wrongToken.stderr).toMatch(
        /warning: could not write the merge request note \(reading the token.s user \(GET \/user\): GitLab answered 401\)/,
      );
      expect(wrongToken.stderr).not.toContain('glpat-wrong-token-0000');
    } finally {
      failWrites = false;
    }
  });

  it('a GitLab that accepts and never answers: the run ends with the warning (each call bounded at 15 s)', async () => {
    const silent = await startSilentServer();
    try {
      const r = await run(mergeRequest({ CI_API_V4_URL: `${silent.url.replace(/^\w+:/, 'http:')}/api/v4` }));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/warning: could not write the merge request note \(.*\); the exit code is unchanged/);
    } finally {
      await silent.close();
    }
  }, 45_000);

  it('a GitLab slow on every page of notes: the whole note is bounded at 30 s, then the warning (the requests counted)', async () => {
    // Each page full of other authors' notes, each answered after 8 s (under the 15 s a call may take).
    const page = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, body: 'hello', author: { id: 99 } }));
    const slow = await startLoopback(async (req, res) => {
      if (req.url.startsWith('/api/v4/user')) return reply(res, 200, { id: ME });
      await new Promise((done) => setTimeout(done, 8_000));
      if (!res.destroyed) reply(res, 200, page);
    });
    try {
      const r = await run(mergeRequest({ CI_API_V4_URL: `${slow.url}/api/v4` }));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/warning: could not write the merge request note \(.*\); the exit code is unchanged/);
      // /user, then the pages that fit in 30 s (3 answered, the 4th cut): never the 20 pages a slow GitLab would take.
      const pages = slow.requests.filter((q) => q.url.includes('/notes'));
      expect(pages.length).toBeLessThanOrEqual(5);
      expect(slow.requests.some((q) => q.method === 'POST' || q.method === 'PUT')).toBe(false);
    } finally {
      await slow.close();
    }
  }, 60_000);
});
