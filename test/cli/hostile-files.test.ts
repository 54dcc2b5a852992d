// Hostile files given to the built binary never hang it: a `--config` that is endless, huge or a FIFO nobody
// writes to, stdin that is endless, a report path or `$GITHUB_STEP_SUMMARY` that is a FIFO nobody reads or a
// socket. Every run of the binary has a kill timer; `code` is null when it fired, so each assertion on the exit
// code also asserts the process exited by itself. What cannot block (an endless or huge regular file, a config's
// contents) runs in process. Against the simulator (a clean page passes).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { runCliLikeBinary } from '../support/cli-in-process.js';
import { cliPath, runCli, type CliResult } from '../support/cli.js';

let sim: Simulator;
let dir: string;
let socketServer: Server;
let socketPath: string;
const clean = 'https://shop.example.com/clean';
const env = () => ({ SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url });
const KILL_AFTER_MS = 60_000;
let count = 0;
const fifo = () => {
  const path = join(dir, `f-${++count}.fifo`);
  execFileSync('mkfifo', [path]);
  return path;
};

beforeAll(async () => {
  sim = await startSimulator({ durations: { ciCheck: 150 }, rateLimit: false });
  dir = mkdtempSync(join(tmpdir(), 'svc-a11y-hostile-'));
  socketPath = join(dir, 'out.sock');
  socketServer = createServer();
  await new Promise<void>((resolve) => socketServer.listen(socketPath, resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => socketServer.close(() => resolve()));
  await sim.stop();
  execFileSync('rm', ['-rf', dir]);
});

// Runs the CLI inside a shell script, where `|` and `<` give real pipes and files (Node's spawn gives sockets).
// "$@" is `node dist/cli.js`; the script ends with `echo "exit=$?" >&2` when a pipeline would hide the code. The kill
// timer stops the whole process group (the script is its leader).
const runShell = (script: string, extraEnv: Record<string, string> = {}) =>
  new Promise<CliResult>((resolve, reject) => {
    const child = spawn('sh', ['-c', script, 'sh', process.execPath, cliPath], {
      env: { PATH: process.env.PATH ?? '', ...env(), ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), KILL_AFTER_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });

// The same hostile files for both flags that read one: a 5 MiB file of what each expects.
const HUGE = {
  '--config': `{"urls": [${'"https://shop.example.com/", '.repeat(200_000)}]}`,
  '--urls-file': 'https://shop.example.com/\n'.repeat(200_000),
};

describe.each([
  ['--config', 'config file'],
  ['--urls-file', '--urls-file'],
] as const)('%s that cannot be read whole: exit 2 naming the file, before any request', (flag, named) => {
  // The FIFO in the built binary, where a read that blocks would hang only the child; the endless and the huge file
  // in process (the same capped reader: a read past the cap would show here as a test that never ends).
  it.each([
    ['/dev/zero', () => '/dev/zero', 'is larger than the 1 MiB cap (1048576 bytes); stopped reading', runCliLikeBinary],
    [
      'a 5 MiB file',
      () => {
        const file = join(dir, `huge${flag}`);
        writeFileSync(file, HUGE[flag]);
        return file;
      },
      'is larger than the 1 MiB cap (1048576 bytes); stopped reading',
      runCliLikeBinary,
    ],
    [
      'a FIFO no process writes to',
      () => fifo(),
      'is a FIFO no process writes to (none opened it within 1000 ms)',
      runCli,
    ],
  ])('%s', async (_name, path, rule, run) => {
    const file = path();
    const before = sim.requestCount(sim.keys.full);
    const r = await run(['ci', flag, file], { env: env(), timeoutMs: KILL_AFTER_MS });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${named}: ${file} ${rule}`);
    expect(sim.requestCount(sim.keys.full)).toBe(before);
  });
});

describe('--config from stdin and pipes', () => {
  it('--config /dev/stdin with stdin from /dev/zero', async () => {
    const r = await runShell('"$@" ci --config /dev/stdin < /dev/zero');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('config file: /dev/stdin is larger than the 1 MiB cap (1048576 bytes); stopped reading');
  });

  it('--config /dev/stdin with an endless pipe (yes) is refused at the cap; the writer then ends', async () => {
    const r = await runShell('yes | "$@" ci --config /dev/stdin; echo "exit=$?" >&2');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('config file: /dev/stdin is larger than the 1 MiB cap');
    expect(r.stderr).toContain('exit=2');
  });

  it.each<[string, ((config: string) => string) | undefined]>([
    ['a pipe', (config) => `printf '%s' '${config}' | "$@" ci --config /dev/stdin --json`],
    ["a socket (Node's spawn)", undefined],
  ])('--config /dev/stdin that is %s, holding a config, is read', async (_name, script) => {
    const config = JSON.stringify({ urls: [clean], failOn: 'NONE' });
    const r = script
      ? await runShell(script(config))
      : await runCli(['ci', '--config', '/dev/stdin', '--json'], {
          env: env(),
          stdin: config,
          timeoutMs: KILL_AFTER_MS,
        });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).check.verdict).toBe('PASS');
  });
});

describe('--urls-file from stdin', () => {
  it('--urls-file /dev/stdin with an endless pipe (yes) is refused at the cap', async () => {
    const r = await runShell('yes | "$@" ci --urls-file /dev/stdin; echo "exit=$?" >&2');
    expect(r.stderr).toContain('--urls-file: /dev/stdin is larger than the 1 MiB cap');
    expect(r.stderr).toContain('exit=2');
  });
});

describe('config contents', () => {
  it('a config file starting with a UTF-8 byte order mark runs the check', async () => {
    const file = join(dir, 'bom.config.json');
    writeFileSync(file, `\uFEFF${JSON.stringify({ urls: [clean] })}`);
    const r = await runCliLikeBinary(['ci', '--config', file, '--json'], { env: env(), timeoutMs: KILL_AFTER_MS });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).check.status).toBe('COMPLETED');
  });

  it.each([
    ['a bare value', (s: string) => `{"urls": ["${clean}"], "token": ${s}}`, /line 1, column \d+: expected a value/],
    ['a .env file', (s: string) => `SVC_API_KEY=${s}\n`, /line 1, column 1: expected a value/],
    [
      'single quotes on line 2',
      (s: string) => `{\n  'token': '${s}'\n}`,
      /line 2, column 3: expected a property name in double quotes/,
    ],
  ])('a JSON error (%s) names the file, line and column and quotes nothing of it', async (_name, content, where) => {
    const secret = 'hunter2-s3cr3t-value-0123456789';
    const file = join(dir, `secrets-${++count}.json`);
    writeFileSync(file, content(secret));
    const r = await runCliLikeBinary(['ci', '--config', file], { env: env(), timeoutMs: KILL_AFTER_MS });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`config file ${file} is not valid JSON (`);
    expect(r.stderr).toMatch(where);
    expect(r.stderr).not.toContain(secret);
    expect(r.stderr).not.toContain('hunter2');
  });
});

describe('report files that would block', () => {
  it('a report FIFO nobody reads → the check runs, then exit 2 naming the file (no hang)', async () => {
    const path = fifo();
    const r = await runCli(['ci', clean, '--report', `junit=${path}`], { env: env(), timeoutMs: KILL_AFTER_MS });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `error: could not write the junit report ${path} (ENXIO: it is a FIFO that no process reads (none opened it within 1000 ms))`,
    );
  });

  it('a report path that is a socket → exit 2 at the path check, before any request', async () => {
    const before = sim.requestCount(sim.keys.full);
    const r = await runCli(['ci', clean, '--report', `sarif=${socketPath}`], { env: env(), timeoutMs: KILL_AFTER_MS });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--report sarif: ${socketPath} is a socket, which cannot be opened as a file`);
    expect(sim.requestCount(sim.keys.full)).toBe(before);
  });

  it('/dev/null and /dev/stdout on a pipe are accepted report targets', async () => {
    const r = await runShell(
      '"$@" ci "$CLEAN" -q --report junit=/dev/null --report markdown=/dev/stdout | cat; echo "exit=$?" >&2',
      { CLEAN: clean },
    );
    expect(r.stderr).toContain('exit=0');
    expect(r.stdout).toContain(clean);
  });

  it("/dev/stdout that is a socket (Node's spawn) → exit 2 at the path check, pointing at --format", async () => {
    const r = await runCli(['ci', clean, '--report', 'markdown=/dev/stdout'], { env: env(), timeoutMs: KILL_AFTER_MS });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      '--report markdown: /dev/stdout is a socket, which cannot be opened as a file; to print a report on stdout, use --format',
    );
  });

  it.each([
    [
      'a FIFO nobody reads',
      () => fifo(),
      '(ENXIO: it is a FIFO that no process reads (none opened it within 1000 ms))',
    ],
    ['a socket', () => socketPath, '(it is a socket, which cannot be opened as a file)'],
  ])('$GITHUB_STEP_SUMMARY that is %s → a warning naming it, exit 0', async (_name, path, reason) => {
    const file = path();
    const r = await runCli(['ci', clean], { env: { ...env(), GITHUB_STEP_SUMMARY: file }, timeoutMs: KILL_AFTER_MS });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `warning: could not write the job summary to $GITHUB_STEP_SUMMARY=${file} ${reason}; the exit code is unchanged`,
    );
  });

  it('a $GITHUB_STEP_SUMMARY FIFO with a reader gets the summary', async () => {
    const path = fifo();
    // Opened by the reader in the thread pool before the CLI even starts its check.
    const reader = readFile(path, 'utf8');
    const r = await runCli(['ci', clean], { env: { ...env(), GITHUB_STEP_SUMMARY: path }, timeoutMs: KILL_AFTER_MS });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('warning');
    expect(await reader).toContain(clean);
  });
});
