// Every secret the process holds is redacted like the API key: the CI's tokens (GitHub's, GitLab's,
// any variable named as a token or secret), a Redis URL's and a proxy's password, found once where the run starts,
// and kept out of every form the service may echo them in, on stdout, stderr and every report file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processSecrets, urlPassword } from '../../src/cli/io/process-secrets.js';
import { runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { json, type Seen, serveEach } from '../support/loopback.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const serve = serveEach();
const ID = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const PAGE = 'https://a.example/';

const SECRETS: Record<string, [variable: string, value: string, secret: string]> = {
  'the GitHub token': ['GITHUB_TOKEN', 'ghs_processSecretsToken0123456789', 'ghs_processSecretsToken0123456789'],
  "the Action's github-token input": [
    'INPUT_GITHUB-TOKEN',
    'ghp_actionInputToken_98765432',
    'ghp_actionInputToken_98765432',
  ],
  "GitLab's job token": ['CI_JOB_TOKEN', 'glcbt-64_jobTokenValue1234', 'glcbt-64_jobTokenValue1234'],
  'a variable named as a token': ['DEPLOY_TOKEN', 'dtok-AbCdEf-1234567', 'dtok-AbCdEf-1234567'],
  'a variable named as an api key (with -)': ['MY-API-KEY', 'k3y_V4lue_With_Underscores', 'k3y_V4lue_With_Underscores'],
  // The Action's input (the CLI does not connect to it: nothing waits on a Redis that is not there).
  "the Redis URL's password": ['INPUT_REDIS-URL', 'redis://:r3dis-Pa55word-x@127.0.0.1:1/0', 'r3dis-Pa55word-x'],
  "a proxy's password": ['HTTPS_PROXY', 'http://user:pr0xy_Pa55-word@127.0.0.1:1', 'pr0xy_Pa55-word'],
};

const spellings = (secret: string) => ({
  'as is': secret,
  'upper-case': secret.toUpperCase(),
  'clipped after 10': secret.slice(0, 10),
  'percent-encoded': [...secret].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
  'JSON-escaped': [...secret].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join(''),
  'Markdown-escaped': secret.replace(/[_-]/g, '\\$&'),
  'as HTML references': [...secret].map((c) => `&#${c.charCodeAt(0)};`).join(''),
});

describe('secrets the service echoes are redacted in every form', () => {
  it.each(Object.entries(SECRETS))('%s', async (_name, [variable, value, secret]) => {
    const forms = Object.values(spellings(secret));
    const api = await serve((req: Seen, res) => {
      if (req.method === 'POST')
        return json(202, { id: ID, status: 'QUEUED' }, { location: `/api/v1/ci/checks/${ID}` })(req, res, 0);
      if (req.url.endsWith('/violations'))
        return json(
          200,
          forms.map((form, i) => ({
            ruleId: `rule-${i}`,
            impact: 'minor',
            isNew: true,
            url: PAGE,
            target: `img[data-x="${form}"]`,
            failureSummary: `echo ${form} end`,
          })),
        )(req, res, 0);
      return json(200, {
        id: ID,
        status: 'COMPLETED',
        verdict: 'PASS',
        failureReason: forms.join(' '),
        pages: [{ url: PAGE, status: 'DONE' }],
      })(req, res, 0);
    });
    const files = ['json', 'junit', 'sarif', 'codequality', 'markdown', 'html'].map((k) => [
      k,
      join(dir, `${variable}.${k}`),
    ]);
    const argv = ['ci', PAGE, ...files.flatMap(([k, f]) => ['--report', `${k}=${f}`])];
    // The API on loopback goes direct whatever the proxy variables say.
    const env = {
      SVC_API_KEY: 'svc_secrets_test_key',
      SVC_BASE_URL: api.url,
      NO_PROXY: '127.0.0.1',
      [variable]: value,
    };
    // With a proxy set, the built binary: its proxy support is bundled into dist/ (undici), not loaded from src/.
    const r = variable === 'HTTPS_PROXY' ? await runCli(argv, { env }) : await runCliInProcess(argv, env);
    expect(r.code, r.stderr).toBe(0);
    const outputs = [r.stdout, r.stderr, ...files.map(([, f]) => readFileSync(f!, 'utf8'))];
    for (const text of outputs) {
      for (const form of forms) expect(text).not.toContain(form);
      expect(text.toLowerCase()).not.toContain(secret.slice(0, 8).toLowerCase());
    }
    expect(r.stdout).toContain('[redacted]');
  });
});

describe('processSecrets', () => {
  it('finds variables named as secrets by the end of their name only, and values that look like one', () => {
    const found = processSecrets({
      SSH_AUTH_SOCK: '/tmp/ssh-agent.sock',
      KEYBOARD: 'us-international',
      AUTH_MODE: 'true',
      FEATURE_TOKEN: 'on',
      RELEASE_SECRET: 'a long secret value',
      NPM_TOKEN: 'npm_abcdefgh',
      'INPUT_SLACK-TOKEN': 'xoxb-1234567890',
      SVC_API_KEY: 'svc_x',
    });
    expect(found).toEqual(['svc_x', 'npm_abcdefgh', 'xoxb-1234567890']);
  });

  it('takes the secrets of flags: the key, webhook secrets, the Redis URL password', () => {
    expect(
      processSecrets(
        {},
        { apiKey: 'svc_flag_key', webhookSecrets: ['whsec_one', 'whsec_two'], redisUrl: 'redis://u:p%40ss-word@h' },
      ),
    ).toEqual(['p@ss-word', 'svc_flag_key', 'whsec_one', 'whsec_two']);
  });

  it('urlPassword decodes, and tolerates what is not a URL', () => {
    expect(urlPassword('rediss://:s%2Fcret@h:6380')).toBe('s/cret');
    expect(urlPassword('redis://h')).toBeUndefined();
    expect(urlPassword('not a url')).toBeUndefined();
    expect(urlPassword('redis://:%E0%A4%A@h')).toBe('%E0%A4%A');
  });
});
