// The CLI ends within --timeout plus a few seconds whatever the service does, with its reports written and exit 4:
// a service that accepts the connection and never answers the request creating the check, or one that creates the
// check and then never answers a poll. The bounds asserted are upper ones with room for a slow machine (the last
// look at the check is itself bounded at 5 s). A pause longer than the limit ends the wait at once.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { hang, json, serveEach } from '../support/loopback.js';

const ID = '5b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const serve = serveEach();

describe('a service that never answers', () => {
  it.each([
    ['the request creating the check', [hang], 1500, /before the service answered the request starting the check/],
    [
      'every poll after the check was created',
      [json(202, { id: ID, status: 'QUEUED' }, { location: `/api/v1/ci/checks/${ID}` }), hang],
      1500,
      new RegExp(`CI check ${ID} did not finish within 1500 ms \\(--timeout\\)`),
    ],
    [
      'a poll answered with a pause of an hour (429, Retry-After: 3600)',
      [
        json(202, { id: ID, status: 'QUEUED' }, { location: `/api/v1/ci/checks/${ID}` }),
        json(
          429,
          { type: 'about:blank', title: 'Too Many Requests', status: 429, code: 'RATE_LIMITED' },
          { 'retry-after': '3600', 'content-type': 'application/problem+json' },
        ),
      ],
      // The pause is only heard from the first poll, ~1 s after the create: a limit of 1.5 s left a busy machine
      // (two CPU burners on a slow one) no time to send it, and the check simply timed out QUEUED.
      6000,
      new RegExp(
        `CI check ${ID} was paused by the service for 3600 s, past the wait's limit of 6000 ms \\(--timeout\\); its status could not be read`,
      ),
    ],
  ])('%s: exit 4 within the limit plus a few seconds, reports written', async (_name, handlers, limitMs, says) => {
    const api = await serve(handlers);
    const dir = await mkdtemp(join(tmpdir(), 'svc-a11y-bounded-'));
    const started = Date.now();
    const r = await runCli(
      [
        'ci',
        'https://shop.example.com/',
        '--timeout',
        `${limitMs}ms`,
        '--report',
        `junit=${join(dir, 'a.xml')}`,
        '--report',
        `markdown=${join(dir, 'a.md')}`,
      ],
      {
        env: { SVC_API_KEY: 'svc_bounded_run_key', SVC_BASE_URL: api.url },
        timeoutMs: 60_000,
      },
    );
    const elapsed = Date.now() - started;
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(says);
    // The wait's limit, at most 5 s for the last look, and the process's own start and end.
    expect(elapsed).toBeLessThan(limitMs + 5_000 + 10_000);
    expect(await readFile(join(dir, 'a.xml'), 'utf8')).toMatch(/<error /);
    const md = await readFile(join(dir, 'a.md'), 'utf8');
    expect(md).toMatch(/^## Accessibility check: UNKNOWN/);
    expect(md).not.toContain('PASS');
  });
});
