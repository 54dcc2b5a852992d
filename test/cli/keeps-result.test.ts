// A CLI that keeps its result: report paths are checked before anything is sent, an unwritable job
// summary is only a warning, reports are written on every outcome that has a check, a 2xx of the wrong shape is
// an API error in words, and messages name the CLI's own way out. The CLI in process against the simulator.
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { json, startLoopback } from '../support/loopback.js';

/**
 * Whether the service answered the request starting the check before the wait's deadline, read from the CLI's own
 * log (--verbose), which says which of the two happened: the SDK logs `createCiCheck: 202 after N ms` once it has
 * the answer, or `createCiCheck failed after N ms: PollTimeoutError` (or `AbortError`) when the deadline cut the request
 * short.
 */
function createAnsweredFirst(stderr: string): boolean {
  const answered = /^debug: \[a11y\] createCiCheck: 202 after \d+ ms$/m.test(stderr);
  // The deadline cuts the request short through the SDK's own wait (PollTimeoutError) or, when the schedule's loop
  // wakes on it first (a loaded machine), through the run's deadline signal (AbortError): the same moment either way.
  const cutShort = /^warning: \[a11y\] createCiCheck failed after \d+ ms: (?:PollTimeoutError|AbortError)/m.test(
    stderr,
  );
  // One of the two, never both or neither (a log that changed its words must not pass as either).
  expect(answered !== cutShort, stderr).toBe(true);
  return answered;
}

/** What the CLI said on stderr besides its --verbose debug lines. */
const saidBesidesDebug = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => !line.startsWith('debug: '))
    .join('\n');

let sim: Simulator;
let dir: string;
const env = () => ({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url });
const root = 'https://shop.example.com/';
// A page without findings: a check of it passes whatever the baseline.
const clean = 'https://shop.example.com/clean';

beforeAll(async () => {
  sim = await startSimulator({ durations: { ciCheck: 150 }, rateLimit: false });
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-keeps-'));
  await writeFile(join(dir, 'a-file'), 'not a folder');
});
afterAll(() => sim.stop());

describe('report paths are checked before anything is sent', () => {
  it.each([
    ['a directory', () => dir, /is a directory/],
    ['an empty path', () => '', /file name is empty/],
    ['a path under a file', () => join(dir, 'a-file', 'a11y.xml'), /is not a directory/],
    // Root passes every access() test here; only writing tells (and Node's recursive mkdir never returns under /proc).
    [
      'a folder under /proc',
      () => `/proc/svc-a11y-${process.pid}/a11y.xml`,
      /the folder \/proc\/svc-a11y-\d+ cannot be created \(E[A-Z]+\)/,
    ],
    ['a file on a read-only mount (/sys)', () => '/sys/svc-a11y-report.xml', /is not writable \(E[A-Z]+\)/],
  ])('%s → exit 2 naming the path; the service got no request', async (_name, path, message) => {
    const before = sim.requestCount(sim.keys.full);
    const r = await runCliLikeBinary(['ci', root, '--report', `junit=${path()}`], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    if (path()) expect(r.stderr).toContain(path());
    expect(sim.requestCount(sim.keys.full)).toBe(before);
  });

  it('checking a new path leaves no file and no folder behind when the check then fails before any result (401)', async () => {
    const file = join(dir, 'refused', 'deeper', 'a11y.xml');
    const r = await runCliLikeBinary(['ci', root, '--report', `junit=${file}`], {
      env: { ...env(), SVC_API_KEY: 'svc_not_a_key_of_the_simulator' },
    });
    expect(r.code).toBe(3);
    expect(existsSync(join(dir, 'refused'))).toBe(false);
  });

  it.each([
    ['no API key', ['ci', root], () => ({ SVC_BASE_URL: sim.url })],
    ['no URLs', ['ci'], env],
    ['a second report path that cannot be written', ['ci', root, '--report', 'sarif=/proc/svc-a11y-x/a.sarif'], env],
    [
      'the demo with a refused key',
      ['demo', root],
      () => ({ ...env(), SVC_API_KEY: 'svc_not_a_key_of_the_simulator' }),
    ],
  ])(
    '%s: the folders the path check created are removed again; folders holding anything stay',
    async (name, args, runEnv) => {
      const top = join(dir, `unused-${name.replace(/\W+/g, '-')}`);
      const args2 = [...args];
      args2.splice(
        args[0] === 'ci' ? 1 : 2,
        0,
        '--report',
        `junit=${join(top, 'a', 'b', 'a11y.xml')}`,
        '--report',
        `markdown=${join(top, 'kept', 'x', 'a11y.md')}`,
      );
      await mkdir(join(top, 'kept'), { recursive: true });
      await writeFile(join(top, 'kept', 'notes.txt'), 'not ours');
      const before = sim.requestCount(sim.keys.full);
      const r = await runCliLikeBinary(args2, { env: runEnv() });
      expect([2, 3], r.stderr).toContain(r.code);
      expect(existsSync(join(top, 'a')), r.stderr).toBe(false);
      expect(existsSync(join(top, 'kept', 'x'))).toBe(false);
      expect(await readFile(join(top, 'kept', 'notes.txt'), 'utf8')).toBe('not ours');
      expect(sim.requestCount(sim.keys.full)).toBe(before);
    },
  );

  it('a FIFO is written to without being opened for the check (its reader gets the whole report)', async () => {
    const fifo = join(dir, 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = readFile(fifo, 'utf8');
    const r = await runCliLikeBinary(['ci', clean, '--report', `junit=${fifo}`], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(await reader).toMatch(/<testsuites[\s\S]*<\/testsuites>/);
  });

  it('a link to a report not written yet is followed: its target is created', async () => {
    const link = join(dir, 'linked.xml');
    await symlink(join(dir, 'artifacts', 'linked-target.xml'), link);
    const r = await runCliLikeBinary(['ci', clean, '--report', `junit=${link}`], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(join(dir, 'artifacts', 'linked-target.xml'), 'utf8')).toContain('<testsuites');
  });

  it('a missing folder the CLI may create is created, and the report written', async () => {
    const file = join(dir, 'new', 'deeper', 'a11y.xml');
    const r = await runCliLikeBinary(['ci', clean, '--report', `junit=${file}`], { env: env() });
    expect(r.code).toBe(0);
    expect(await readFile(file, 'utf8')).toContain('<testsuites');
  });
});

describe('the result is kept', () => {
  it("an unwritable $GITHUB_STEP_SUMMARY is a warning; the exit code stays the verdict's", async () => {
    const r = await runCliLikeBinary(['ci', clean], { env: { ...env(), GITHUB_STEP_SUMMARY: dir } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: could not write the job summary/);
  });

  it('a failed job (every page unreachable) still writes its reports, and exits 4', async () => {
    const junit = join(dir, 'failed.xml');
    const r = await runCliLikeBinary(
      [
        'ci',
        'https://shop.example.com/unreachable',
        '--report',
        `junit=${junit}`,
        '--report',
        `markdown=${join(dir, 'failed.md')}`,
      ],
      { env: env() },
    );
    expect(r.code).toBe(4);
    expect(await readFile(junit, 'utf8')).toMatch(/<error /);
    expect(existsSync(join(dir, 'failed.md'))).toBe(true);
  });

  // The wait's deadline covers the create request too, and a loaded machine can take longer than the limit to get the
  // CLI's first request answered. Which came first decides what the CLI must say, so the test reads the order from the
  // CLI's own log (--verbose prints it as it happens), not from a time: the service's answer to the create (then the
  // check exists, and its wait ends on the deadline with the last status seen) or the deadline (then no check was
  // started). Either way the result is kept: reports written with what is known, UNKNOWN, exit 4, said once.
  it.each(['1500', '3000'])(
    "a wait that times out (%s ms) writes the reports with the check's last known status, says it once, and exits 4",
    async (ms) => {
      const slow = await startSimulator({ durations: { ciCheck: 60_000 }, rateLimit: false });
      try {
        const junit = join(dir, `timeout-${ms}.xml`);
        const sarif = join(dir, `timeout-${ms}.sarif`);
        const r = await runCliLikeBinary(
          ['ci', root, '--timeout', `${ms}ms`, '--verbose', '--report', `junit=${junit}`, '--report', `sarif=${sarif}`],
          {
            env: { SVC_API_KEY: slow.keys.full, SVC_BASE_URL: slow.url },
          },
        );
        expect(r.code, r.stderr).toBe(4);
        const said = saidBesidesDebug(r.stderr);
        const limit = `${ms} ms \\(--timeout\\)`;
        const answeredFirst = createAnsweredFirst(r.stderr);
        const ended = answeredFirst
          ? `did not finish within ${limit}; it was (QUEUED|RUNNING) when last seen`
          : `ended \\(${limit}\\) before the service answered the request starting the check`;
        expect(said).toMatch(new RegExp(`${ended}\\. Its reports were written with what is known\\.`));
        expect(said.match(/did not finish within|before the service answered/g)).toHaveLength(1);
        expect(said).not.toMatch(/unknown/);
        expect(r.stdout).toMatch(/Threshold NEW_CRITICAL( \(default\))?: not judged/);
        expect(await readFile(junit, 'utf8')).toMatch(new RegExp(`could not be judged: the wait ${ended}`));
        // No report of an unfinished check shows PASS, whatever its last status.
        expect(r.stdout).toMatch(/^Accessibility check: UNKNOWN\n/);
        expect(await readFile(junit, 'utf8')).not.toMatch(/PASS/);
        const properties = JSON.parse(await readFile(sarif, 'utf8')).runs[0].properties;
        expect(properties.verdict).toBe('UNKNOWN');
        // The check's last known status, or a check that was never started, listed as QUEUED.
        if (answeredFirst)
          expect(properties).toMatchObject({
            checkId: expect.stringMatching(/^[0-9a-f-]{36}$/),
            status: expect.stringMatching(/^(QUEUED|RUNNING)$/),
          });
        else expect(properties).toMatchObject({ checkId: 'not started', status: 'QUEUED' });
      } finally {
        await slow.stop();
      }
    },
  );

  it("a timeout from the config file is named as the config file's, not as --timeout", async () => {
    const slow = await startSimulator({ durations: { ciCheck: 60_000 }, rateLimit: false });
    try {
      const config = join(dir, 'timeout.config.json');
      await writeFile(config, JSON.stringify({ urls: [root], timeout: '1500ms' }));
      const r = await runCliLikeBinary(['ci', '--config', config, '--verbose'], {
        env: { SVC_API_KEY: slow.keys.full, SVC_BASE_URL: slow.url },
      });
      expect(r.code, r.stderr).toBe(4);
      const said = saidBesidesDebug(r.stderr);
      // Which of the two came first (see above) decides the words around the limit, not how the limit is named.
      expect(said).toContain(
        createAnsweredFirst(r.stderr)
          ? `did not finish within 1500 ms (timeout in ${config});`
          : `The wait ended (1500 ms (timeout in ${config})) before the service answered`,
      );
      expect(said).not.toContain('--timeout');
    } finally {
      await slow.stop();
    }
  });

  it("a 2xx body of the wrong shape → exit 3 with the API's problem in words, never 70", async () => {
    const id = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
    const api = await startLoopback([
      json(202, { id, status: 'QUEUED' }, { location: `/api/v1/ci/checks/${id}` }),
      json(200, { id, status: 'COMPLETED', verdict: 'PASS' }),
      json(200, { violations: 'not a list' }),
    ]);
    try {
      const r = await runCliLikeBinary(['ci', root, '--timeout', '20s'], {
        env: { SVC_API_KEY: 'svc_shape_key', SVC_BASE_URL: api.url },
      });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/listCiCheckViolations does not match the API description/);
      expect(r.stderr).not.toMatch(/internal error|not iterable/);
    } finally {
      await api.close();
    }
  });
});

describe("messages name the CLI's own way out", () => {
  it('a missing key says SVC_API_KEY or --api-key; both missing say both', async () => {
    const noKey = await runCliLikeBinary(['sites'], { env: { SVC_BASE_URL: sim.url } });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('set SVC_API_KEY or pass --api-key');
    const none = await runCliLikeBinary(['sites']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('set SVC_API_KEY or pass --api-key');
    expect(none.stderr).toContain('set SVC_BASE_URL or pass --base-url');
  });

  it('a refused connection suggests checking SVC_BASE_URL', async () => {
    const closed = await startLoopback(() => undefined);
    await closed.close();
    const r = await runCliLikeBinary(['sites'], { env: { SVC_API_KEY: 'svc_refused_key', SVC_BASE_URL: closed.url } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Check SVC_BASE_URL');
  });

  it('a base URL ending in /api/v1 and a key without svc_ get warnings', async () => {
    const r = await runCliLikeBinary(['sites'], {
      env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: `${sim.url}/api/v1/` },
    });
    expect(r.stderr).toContain(
      `warning: the base URL ends in /api/v1, which the CLI adds itself; using ${sim.url} (set SVC_BASE_URL or --base-url without it)`,
    );
    // …and the command runs against the service's address, not /api/v1/api/v1.
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('shop.example.com');
    const k = await runCliLikeBinary(['sites'], { env: { SVC_API_KEY: 'sk_live_abcdef', SVC_BASE_URL: sim.url } });
    expect(k.stderr).toMatch(/warning: the API key does not start with svc_/);
    expect(k.stderr).not.toContain('sk_live_abcdef');
  });

  it.each([
    [{ SVC_API_KEY: 'svc_…' }, 'error: the API key (SVC_API_KEY or --api-key) must be a valid HTTP header value'],
    [
      { SVC_BASE_URL: 'localhost:4010' },
      'error: the base URL (SVC_BASE_URL or --base-url) must be an absolute http(s) URL',
    ],
  ])('a bad %j is named as the variable and the flag, not the SDK option; exit 2', async (bad, message) => {
    const r = await runCliLikeBinary(['sites'], { env: { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url, ...bad } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\b(apiKey|baseUrl)\b/);
  });

  it('svc-a11y help and svc-a11y help <command> print help, exit 0', async () => {
    const main = await runCliLikeBinary(['help']);
    expect(main.code).toBe(0);
    expect(main.stdout).toContain('Usage: svc-a11y <command>');
    const ci = await runCliLikeBinary(['help', 'ci']);
    expect(ci.code).toBe(0);
    expect(ci.stdout).toContain('Usage: svc-a11y ci');
    const helpHelp = await runCliLikeBinary(['help', 'help']);
    expect(helpHelp.code).toBe(0);
    expect(helpHelp.stdout).toContain('Usage: svc-a11y <command>');
  });

  it.each([
    ['site-run', "'svc-a11y sites' lists the site ids"],
    ['journey-run', "'svc-a11y journeys <siteId>' lists a site's journey ids"],
    ['verify-fix', "'svc-a11y fixes <siteId>' lists a site's tracked fix ids"],
  ])('a bad id for %s points to the command that lists ids', async (command, hint) => {
    const r = await runCliLikeBinary([command, 'not-an-id'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(hint);
  });
});

describe('API errors a user can fix name the next step', () => {
  it.each([
    [['site-run', '00000000-0000-4000-8000-000000000000'], /404/, "'svc-a11y sites' lists the site ids."],
    [
      ['verify-fix', '00000000-0000-4000-8000-000000000000'],
      /404/,
      "'svc-a11y fixes <siteId>' lists a site's tracked fix ids.",
    ],
    [
      ['ci', 'https://unknown.example.com/'],
      /404 SITE_NOT_FOUND/,
      "Pages must be on a site registered (and, for CI checks, verified) in your organisation, at an address the service can reach: it checks pages from its own network, so never localhost or a runner's private preview. 'svc-a11y sites' lists the sites.",
    ],
    [
      ['ci', 'https://blog.example.org/'],
      /409 DOMAIN_NOT_VERIFIED/,
      "CI checks need a verified site: 'svc-a11y sites' shows which are (VERIFIED).",
    ],
  ])("%j → exit 3, the API's answer and where to look", async (args, answer, hint) => {
    const r = await runCliLikeBinary(args, { env: env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(answer);
    expect(r.stderr).toContain(hint);
  });
});

describe('config file and --urls-file', () => {
  it('svc-a11y.config.json in the working directory gives urls, failOn, reports and context', async () => {
    const cwd = join(dir, 'project');
    await mkdir(cwd, { recursive: true });
    await writeFile(
      join(cwd, 'svc-a11y.config.json'),
      JSON.stringify({
        urls: [`${root}?regress=1`],
        failOn: 'NEW_CRITICAL',
        reports: { junit: 'out/a11y.xml' },
        context: { team: 'web' },
      }),
    );
    const r = await runCliLikeBinary(['ci'], { env: env(), cwd });
    expect(r.code).toBe(1);
    expect(await readFile(join(cwd, 'out/a11y.xml'), 'utf8')).toContain('<failure');
  });

  it('--config FILE with a typo → exit 2 naming the file, the key and the rule; nothing sent', async () => {
    const file = join(dir, 'typo.json');
    await writeFile(file, JSON.stringify({ urls: [root], failon: 'NONE' }));
    const before = sim.requestCount(sim.keys.full);
    const r = await runCliLikeBinary(['ci', '--config', file], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`config file ${file}: failon is not a known key`);
    expect(sim.requestCount(sim.keys.full)).toBe(before);
  });

  it('--config with a bad value names the rule', async () => {
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify({ failOn: 'SOMETIMES' }));
    const r = await runCliLikeBinary(['ci', root, '--config', file], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('failOn must be one of NEW_CRITICAL');
  });

  it.each([
    [
      { timeout: 'abc' },
      'timeout must be a duration like "10m", "90s" or "1500ms", or a positive number of milliseconds, got "abc"',
    ],
    [{ urls: ['shop.example.com'] }, 'urls[0] must be an absolute http(s) URL, got "shop.example.com"'],
  ])('--config value %j → exit 2 naming the file, the key and the rule; nothing sent', async (data, message) => {
    const file = join(dir, 'bad-value.json');
    await writeFile(file, JSON.stringify(data));
    const before = sim.requestCount(sim.keys.full);
    const r = await runCliLikeBinary(['ci', '--config', file, ...('urls' in data ? [] : [root])], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`config file ${file}: ${message}`);
    expect(sim.requestCount(sim.keys.full)).toBe(before);
  });

  it("URLs on the command line (--urls-file too) replace the config file's, as every flag does", async () => {
    const file = join(dir, 'replacing.json');
    await writeFile(file, JSON.stringify({ urls: [`${root}?regress=1`, `${root}a`] }));
    const list = join(dir, 'replacing.txt');
    await writeFile(list, `${clean}\n`);
    for (const args of [['--urls-file', list], [clean]]) {
      const r = await runCliLikeBinary(['ci', '--config', file, ...args, '--json'], { env: env() });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).check.pages.map((p: { url: string }) => p.url)).toEqual([clean]);
    }
  });

  it('--urls-file: one URL a line, comments and blank lines skipped', async () => {
    const file = join(dir, 'urls.txt');
    await writeFile(file, `# pages of the shop\n${clean}\n\n${clean}/a\n`);
    const r = await runCliLikeBinary(['ci', '--urls-file', file, '--json'], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).check.pages.map((p: { url: string }) => p.url)).toEqual([clean, `${clean}/a`]);
  });

  it("an empty --urls-file is refused (not replaced by the config file's URLs); a 0 timeout too", async () => {
    const empty = join(dir, 'empty-urls.txt');
    await writeFile(empty, '# nothing yet\n');
    const r = await runCliLikeBinary(['ci', '--urls-file', empty], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--urls-file: ${empty} has no URLs`);
    const zero = await runCliLikeBinary(['ci', root, '--timeout', '0s'], { env: env() });
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--timeout must be at least 1 ms, got 0s');
  });

  it('more URLs than --max-urls in all → exit 2 naming the count and the flag; nothing sent', async () => {
    const file = join(dir, 'many.txt');
    await writeFile(file, Array.from({ length: 21 }, (_, i) => `${root}p${i}`).join('\n'));
    const before = sim.requestCount(sim.keys.full);
    const r = await runCliLikeBinary(['ci', '--urls-file', file, '--max-urls', '20'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('21 URLs to check, more than --max-urls 20');
    expect(sim.requestCount(sim.keys.full)).toBe(before);
  });
});
