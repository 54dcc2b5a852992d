// Help, version, usage errors (exit 2, no stack trace), and webhook verification. The built binary runs one of each
// kind (--version, --help, no command, an unreachable service, a delivery on stdin through a pipe); the variations
// run in process (`run(argv, io)`, the binary's code without a process each).
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { refusedPort } from '../support/loopback.js';
import { runCli } from '../support/cli.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { json, startLoopback, text } from '../support/loopback.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at /);

describe('svc-a11y usage', () => {
  it('--version prints the package version', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('--help lists every command and the exit codes', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const c of [
      'ci',
      'scan',
      'site-run',
      'root-causes',
      'sites',
      'journeys',
      'journey-run',
      'fixes',
      'verify-fix',
      'trend',
      'doctor',
      'webhook',
      'mcp',
      'demo',
      'simulator',
    ])
      expect(r.stdout).toMatch(new RegExp(`\\n  ${c} `));
    expect(r.stdout).toContain('4  the job ended FAILED');
  });

  it.each(['ci', 'scan', 'trend', 'webhook', 'demo', 'doctor', 'mcp'])(
    '%s --help prints its usage',
    async (command) => {
      const r = await runCliLikeBinary([command, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: svc-a11y ${command}`);
    },
  );

  it.each([
    [['nope'], /unknown command "nope"/],
    [
      ['ci'],
      /no URLs to check: pass them as arguments, with --urls-file, --sitemap or --journey, or as "urls", "sitemap" or "journeys" in svc-a11y.config.json/,
    ],
    [['ci', 'https://a.example/', '--bogus'], /Unknown option '--bogus'(?!; did you mean)/],
    [['ci', 'https://a.example/', '--fail-onn', 'NONE'], /Unknown option '--fail-onn'; did you mean --fail-on\?/],
    [['ci', 'https://a.example/', '--fial-on', 'NONE'], /Unknown option '--fial-on'; did you mean --fail-on\?/],
    [['ci', 'https://a.example/', '--formt', 'json'], /Unknown option '--formt'; did you mean --format\?/],
    [['ci', 'https://a.example/', '--set-baselin'], /Unknown option '--set-baselin'; did you mean --set-baseline\?/],
    [['sites', '--jsno'], /Unknown option '--jsno'; did you mean --json\?/],
    [['sties'], /unknown command "sties"; did you mean sites\?/],
    [['cii', 'https://a.example/'], /unknown command "cii"; did you mean ci\?/],
    [['xyzzy-plugh'], /unknown command "xyzzy-plugh" \(see/],
    [['ci', 'https://a.example/', '--fail-on', 'SOMETIMES'], /--fail-on must be one of NEW_CRITICAL/],
    [['ci', 'https://a.example/', '--format', 'pdf'], /--format must be one of/],
    [['ci', 'https://a.example/', '--report', 'junit'], /--report takes key=value/],
    [['ci', 'https://a.example/', '--timeout', 'soon'], /--timeout must be a duration/],
    [
      ['trend', '3fa85f64-5717-4562-b3fc-2c963f66afa6', '--limit', '-3'],
      /--limit needs a value; one starting with "-" is given as --limit=VALUE/,
    ],
    [['trend', '3fa85f64-5717-4562-b3fc-2c963f66afa6', '--limit=-3'], /--limit must be a non-negative whole number/],
    [['sites', 'extra'], /sites takes 0 arguments/],
    [['--api-key'], /argument missing/],
  ])('%j → exit 2 with a usage message', async (args, message) => {
    const r = await runCliLikeBinary(args, {
      env: { SVC_API_KEY: 'svc_usage_key', SVC_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    noStack(r.stderr);
  });

  it('no command → help on stdout, exit 2', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('Usage: svc-a11y <command>');
  });

  it('a missing API key or base URL → exit 2 naming the environment variable', async () => {
    const noKey = await runCliLikeBinary(['sites'], { env: { SVC_BASE_URL: 'http://127.0.0.1:9' } });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('SVC_API_KEY');
    const noUrl = await runCliLikeBinary(['sites'], { env: { SVC_API_KEY: 'svc_k' } });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('SVC_BASE_URL');
  });

  it('bad input caught by the SDK (relative URL) → exit 2 naming the field, nothing sent', async () => {
    const r = await runCliLikeBinary(['ci', '/relative'], {
      env: { SVC_API_KEY: 'svc_k', SVC_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('urls[0]');
    expect(r.stderr).toContain('absolute http(s) URL');
  });

  it('an unreachable service → exit 3, and the API key never appears', async () => {
    const key = 'svc_CLICANARY_123456789';
    const port = await refusedPort(); // below the ephemeral range: no other test's server can take it
    const r = await runCli(['sites', '--api-key', key, '--base-url', `http://127.0.0.1:${port}`], { env: {} });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('ECONNREFUSED');
    expect(r.stdout + r.stderr).not.toContain(key);
  });
});

describe('svc-a11y against something that is not the API', () => {
  it('a 200 HTML page (SVC_BASE_URL pointing at a web app) → exit 3 with a hint, not an internal error', async () => {
    const server = await startLoopback(text(200, '<!doctype html><title>Shop</title>'));
    try {
      const r = await runCliLikeBinary(['sites'], { env: { SVC_API_KEY: 'svc_k_12345', SVC_BASE_URL: server.url } });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('must be valid JSON');
      expect(r.stderr).toContain('SVC_BASE_URL');
      expect(r.stderr).not.toContain('internal error');
    } finally {
      await server.close();
    }
  });
});

describe('svc-a11y job commands fail closed', () => {
  it('a scan that ends in a status the CLI does not know (CANCELLED) → exit 4, not 0', async () => {
    const id = '0ef18b93-6a03-41cf-9a89-1ea15d601e90';
    const server = await startLoopback([
      json(202, { id, status: 'QUEUED' }, { location: `/api/v1/scans/${id}` }),
      json(200, { id, status: 'CANCELLED', requestedUrl: 'https://shop.example.com/' }),
    ]);
    try {
      const r = await runCliLikeBinary(['scan', 'https://shop.example.com/'], {
        env: { SVC_API_KEY: 'svc_k_12345', SVC_BASE_URL: server.url },
      });
      expect(r.code).toBe(4);
      expect(r.stdout).toContain('CANCELLED');
      // Findings are not read for a job that did not complete.
      expect(server.requests.map((q) => q.method)).toEqual(['POST', 'GET']);
    } finally {
      await server.close();
    }
  });
});

describe('svc-a11y webhook verify', () => {
  const secret = 'whsec_cli_test_secret';
  const body = '{"type":"scan_run.completed","scanRun":{"id":"r1","status":"COMPLETED"}}';
  const request = (timestamp: number, payload = body, signatureSecret = secret) => {
    const signature = createHmac('sha256', signatureSecret).update(`${timestamp}.${payload}`).digest('hex');
    return `POST /hooks HTTP/1.1\r\nHost: example\r\nContent-Type: application/json\r\nX-Svc-Event: scan_run.completed\r\nX-Svc-Delivery: d-42\r\nX-Svc-Timestamp: ${timestamp}\r\nX-Svc-Signature: v1=${signature}\r\n\r\n${payload}`;
  };
  const now = () => Math.floor(Date.now() / 1000);

  it('a valid saved delivery → exit 0 with its id and type', async () => {
    const r = await runCli(['webhook', 'verify', '--secret', secret], { stdin: request(now()) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('event (unsigned): scan_run.completed\n  delivery id (unsigned): d-42');
  });

  it('--json prints the event with its payload', async () => {
    const r = await runCliLikeBinary(['webhook', 'verify', '--secret', secret, '--json'], { stdin: request(now()) });
    expect(JSON.parse(r.stdout)).toMatchObject({
      id: 'd-42',
      type: 'scan_run.completed',
      payload: { scanRun: { id: 'r1' } },
    });
  });

  it('a tampered body → exit 1 with SIGNATURE_MISMATCH; the secret never printed', async () => {
    const tampered = request(now()).replace('COMPLETED', 'COMPLETEX');
    const r = await runCliLikeBinary(['webhook', 'verify', '--secret', secret], { stdin: tampered });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SIGNATURE_MISMATCH');
    expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it('an old delivery fails the default tolerance, and passes a larger --tolerance', async () => {
    const old = request(now() - 3600);
    expect((await runCliLikeBinary(['webhook', 'verify', '--secret', secret], { stdin: old })).stderr).toContain(
      'TIMESTAMP_OUT_OF_TOLERANCE',
    );
    expect(
      (await runCliLikeBinary(['webhook', 'verify', '--secret', secret, '--tolerance', '7200'], { stdin: old })).code,
    ).toBe(0);
  });

  it('secret rotation: the second --secret matches', async () => {
    const r = await runCliLikeBinary(['webhook', 'verify', '--secret', 'whsec_old', '--secret', secret], {
      stdin: request(now()),
    });
    expect(r.code).toBe(0);
  });

  it('no secret → exit 2', async () => {
    const r = await runCliLikeBinary(['webhook', 'verify'], { stdin: request(now()) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--secret');
  });
});
