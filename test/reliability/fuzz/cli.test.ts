// CLI argument fuzzing, in process with run(argv, io), plus a handful of spawned-binary cases.
// Nothing reaches the network: the global fetch is replaced by a stub that answers a 4xx problem at once
// (whatever --base-url a case names), and the environment's base URL is a closed loopback port.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../../src/cli/main.js';
import { commands } from '../../../src/cli/commands/index.js';
import { runCli } from '../../support/cli.js';
import { CANARY, closedLoopbackUrl, ensureBuilt } from '../support.js';
import { FUZZ_RUNS, params, report, timeoutFor } from './runs.js';

const DOCUMENTED = [0, 1, 2, 3, 4];
const STACK = /\n\s+at\s+\S.*:\d+:\d+|^\s+at\s/m;
const USAGE_HINT = /\nRun 'svc-a11y [^'\n]*--help' for usage\.\n$/;
const uuid = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

let closedUrl: string;
// Report paths a fuzz case may name (reports are written only after a successful check, which never happens here).
const reportDir = mkdtempSync(join(tmpdir(), 'svc-cli-fuzz-'));
const sentTo: string[] = [];
const answers = [401, 403, 404, 409, 422, 429, 400];

beforeAll(async () => {
  closedUrl = await closedLoopbackUrl();
  // resolveOptions falls back to process.env: this worker's environment must not supply a key or URL.
  vi.stubEnv('SVC_API_KEY', '');
  vi.stubEnv('SVC_BASE_URL', '');
  vi.stubEnv('SVC_WEBHOOK_SECRET', '');
  vi.stubGlobal('fetch', async (input: Request | string | URL) => {
    const url = input instanceof Request ? input.url : String(input);
    sentTo.push(url);
    const status = answers[sentTo.length % answers.length]!;
    const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
    if (status === 429) headers['retry-after'] = '3600'; // beyond maxRetryDelayMs: thrown at once, no wait
    return new Response(JSON.stringify({ title: `Title ${status}`, status, code: 'FUZZ', detail: 'stubbed answer' }), {
      status,
      headers,
    });
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  rmSync(reportDir, { recursive: true, force: true });
});

interface Result {
  code: number;
  stdout: string;
  stderr: string;
  sent: number;
}

async function runInProcess(argv: string[], env: Record<string, string>, stdin?: Uint8Array): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const before = sentTo.length;
  const code = await run(argv, {
    stdout: { write: (t: string) => (stdout += t), isTTY: false },
    stderr: { write: (t: string) => (stderr += t), isTTY: false },
    env,
    stdin: stdin
      ? (async function* () {
          yield stdin;
        })()
      : undefined,
  });
  return { code, stdout, stderr, sent: sentTo.length - before };
}

// ---------------------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------------------

// `simulator` runs in the foreground until a signal: tested by spawning it (test/cli/simulator.test.ts).
const names = commands.map((c) => c.name).filter((name) => name !== 'simulator');
const flagNames = [
  '--json',
  '--api-key',
  '--base-url',
  '--no-progress',
  '--help',
  '-h',
  '--version',
  '-v',
  '--format',
  '--report',
  '--fail-on',
  '--timeout',
  '--limit',
  '--secret',
  '--tolerance',
  '--context',
  '--quiet',
  '-q',
  '--set-baseline',
  '--',
  '-',
  '---',
  '-hv',
  '-qh',
];
const valueTokens = () =>
  fc.constantFrom(
    uuid,
    'https://shop.example.com/',
    'http://127.0.0.1:1/',
    'verify',
    `junit=${join(reportDir, 'r.xml')}`,
    `sarif=${join(reportDir, 'r.sarif')}`,
    'nope=x',
    'json',
    'NEW_CRITICAL',
    '10m',
    '1e400',
    '999999999999h',
    '-1',
    '0',
    'NaN',
    '',
    ' ',
    CANARY,
    `Bearer ${CANARY}`,
    'http://user:pw@127.0.0.1:1',
    'not a url',
  );
const tokenArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...names) },
  { weight: 4, arbitrary: fc.constantFrom(...flagNames) },
  { weight: 3, arbitrary: valueTokens() },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...flagNames.filter((f) => f.startsWith('--') && f.length > 2)), valueTokens())
      .map(([f, v]) => `${f}=${v}`),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }).map((s) => `--${s}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 3 }).map((s) => `-${s}`) },
);

/** Valid positionals of a command, and the options it can take with valid values. */
function validInvocation(name: string): fc.Arbitrary<string[]> {
  const url = fc.constantFrom(
    'https://shop.example.com/',
    'https://shop.example.com/checkout',
    'https://shop.example.com/clean?x=1',
  );
  const id = fc.constant(uuid);
  const globals = fc.subarray(['--json', '--no-progress'], { minLength: 0 });
  const own: Record<string, fc.Arbitrary<string[]>> = {
    ci: fc
      .tuple(
        fc.array(url, { minLength: 1, maxLength: 3 }),
        fc.subarray([
          '--fail-on',
          'NEW_CRITICAL',
          '--format',
          'sarif',
          '--timeout',
          '2m',
          '--set-baseline',
          '-q',
          '--context',
          'a=b',
        ]),
      )
      .map(([u, o]) => [...u, ...pairsOnly(o)]),
    scan: fc.tuple(url, fc.subarray(['--timeout', '90s'])).map(([u, o]) => [u, ...pairsOnly(o)]),
    'site-run': id.map((i) => [i]),
    'root-causes': id.map((i) => [i]),
    sites: fc.constant([]),
    journeys: id.map((i) => [i]),
    'journey-run': id.map((i) => [i]),
    fixes: id.map((i) => [i]),
    'verify-fix': id.map((i) => [i]),
    trend: fc.tuple(id, fc.subarray(['--limit', '5'])).map(([i, o]) => [i, ...pairsOnly(o)]),
    webhook: fc.constant(['verify', '--secret', 'whsec_fuzz_secret']),
    demo: fc.array(url, { minLength: 1, maxLength: 2 }),
  };
  return fc.tuple(globals, own[name] ?? fc.constant([])).map(([g, rest]) => [name, ...rest, ...g]);
}
/** Keeps option/value pairs together after fc.subarray picked some elements of a flat list. */
function pairsOnly(picked: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < picked.length; i++) {
    const token = picked[i]!;
    if (!token.startsWith('-')) continue;
    const next = picked[i + 1];
    const takesValue = !['--set-baseline', '-q'].includes(token);
    if (takesValue && (next === undefined || next.startsWith('-'))) continue;
    out.push(token, ...(takesValue ? [next!] : []));
    if (takesValue) i++;
  }
  return out;
}

const envArb = fc.constantFrom<'none' | 'key+url' | 'key' | 'url'>('none', 'key+url', 'key', 'url');
const envOf = (kind: string): Record<string, string> =>
  ({
    none: {},
    'key+url': { SVC_API_KEY: CANARY, SVC_BASE_URL: closedUrl },
    key: { SVC_API_KEY: CANARY },
    url: { SVC_BASE_URL: closedUrl },
  })[kind]!;
const stdinArb = fc.option(
  fc.oneof(
    fc.uint8Array({ maxLength: 64 }),
    fc.string({ maxLength: 80 }).map((s) => new TextEncoder().encode(`X-Svc-Timestamp: 1\r\n\r\n${s}`)),
  ),
  { nil: undefined },
);

// ---------------------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------------------

function assertSane(r: Result, env: Record<string, string>, argv: string[]) {
  const all = r.stdout + r.stderr;
  const ctx = `argv=${JSON.stringify(argv)} code=${r.code}\n${r.stderr.slice(0, 500)}`;
  expect(DOCUMENTED, ctx).toContain(r.code);
  expect(all, ctx).not.toMatch(STACK);
  expect(r.stderr, ctx).not.toContain('internal error');
  if (r.code === 2) {
    // A usage or configuration error says so: an error line, or the help on stdout when no command was given.
    expect(/^error: \S/m.test(r.stderr) || r.stdout.includes('Usage: svc-a11y'), ctx).toBe(true);
  }
  if (env.SVC_API_KEY) expect(all, ctx).not.toContain(CANARY);
}

describe('CLI argument fuzzing (in process)', () => {
  it(
    `arbitrary argv: exit code always documented (never 70), never a stack trace, usage text on exit 2 (${FUZZ_RUNS} cases)`,
    async () => {
      const codes = new Map<number, number>();
      const started = performance.now();
      const argvArb = fc.oneof(
        { weight: 3, arbitrary: fc.array(tokenArb, { maxLength: 8 }) },
        { weight: 2, arbitrary: fc.constantFrom(...names).chain(validInvocation) },
        {
          weight: 2,
          arbitrary: fc
            .tuple(
              fc.constantFrom(...names).chain(validInvocation),
              fc.array(tokenArb, { minLength: 1, maxLength: 3 }),
              fc.nat(),
            )
            .map(([valid, extra, at]) => [
              ...valid.slice(0, (at % valid.length) + 1),
              ...extra,
              ...valid.slice((at % valid.length) + 1),
            ]),
        },
      );
      await fc.assert(
        fc.asyncProperty(argvArb, envArb, stdinArb, async (argv, envKind, stdin) => {
          const env = envOf(envKind);
          const r = await runInProcess(argv, env, stdin);
          assertSane(r, env, argv);
          codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
        }),
        params(),
      );
      report(
        'CLI argv',
        FUZZ_RUNS,
        performance.now() - started,
        Object.fromEntries([...codes].map(([c, n]) => [`exit${c}`, n])),
      );
    },
    timeoutFor(4),
  );

  type Defect = 'unknown-option' | 'missing-value' | 'boolean-with-value' | 'unknown-command' | 'arity' | 'bad-value';
  const badValues: Record<string, string[][]> = {
    ci: [
      ['--format', 'pdf'],
      ['--fail-on', 'SOMETIMES'],
      ['--timeout', 'soon'],
      ['--report', 'junit'],
      ['--report', 'pdf=x.pdf'],
      ['--context', 'novalue'],
    ],
    demo: [
      ['--format', 'pdf'],
      ['--fail-on', 'SOMETIMES'],
      ['--report', 'junit'],
    ],
    scan: [['--timeout', 'soon']],
    'site-run': [['--timeout', '1.2.3']],
    'journey-run': [['--timeout', '-5m']],
    'verify-fix': [['--timeout', '']],
    trend: [
      ['--limit', '-1'],
      ['--limit', '1.5'],
      ['--limit', 'ten'],
    ],
    webhook: [
      ['--tolerance', 'x'],
      ['--tolerance', '-1'],
    ],
  };

  it(
    `argv with one injected parse defect → exit 2, an error line and the usage hint, nothing sent (${FUZZ_RUNS} cases)`,
    async () => {
      const started = performance.now();
      const defects = new Map<string, number>();
      const caseArb = fc
        .tuple(
          fc.constantFrom(...names),
          fc.constantFrom<Defect>(
            'unknown-option',
            'missing-value',
            'boolean-with-value',
            'unknown-command',
            'arity',
            'bad-value',
          ),
          fc.nat(),
          fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
        )
        .chain(([name, defect, at, word]) => validInvocation(name).map((argv) => ({ name, defect, at, word, argv })));
      await fc.assert(
        fc.asyncProperty(caseArb, async ({ name, defect, at, word, argv }) => {
          const command = commands.find((c) => c.name === name)!;
          const tokens = [...argv];
          const pos = 1 + (at % tokens.length);
          let kind: string = defect;
          if (defect === 'bad-value' && !badValues[name]) kind = 'unknown-option';
          if (defect === 'arity' && command.args.min === command.args.max && command.args.min === 0)
            kind = 'arity-extra';
          switch (kind) {
            case 'unknown-option':
              tokens.splice(pos, 0, `--zz-${word}`);
              break;
            case 'missing-value':
              tokens.push(at % 2 ? '--api-key' : '--base-url');
              break;
            case 'boolean-with-value':
              tokens.splice(pos, 0, `--json=${word}`);
              break;
            case 'unknown-command':
              if (names.includes(word) || word === 'help' || word === 'simulator') return; // a real command name is not a defect
              tokens[0] = word;
              break;
            case 'arity':
            case 'arity-extra': {
              const positionals = tokens
                .slice(1)
                .filter(
                  (t, i, all) =>
                    !t.startsWith('-') &&
                    !(all[i - 1] ?? '').match(/^--(fail-on|format|timeout|context|limit|secret|tolerance|report)$/),
                );
              if (kind === 'arity-extra' || positionals.length >= command.args.max || at % 2) {
                for (let i = positionals.length; i <= command.args.max; i++)
                  tokens.splice(1, 0, name === 'webhook' ? 'verify' : uuid);
              } else {
                for (const p of positionals) tokens.splice(tokens.indexOf(p), 1);
                if (command.args.min === 0) return;
              }
              break;
            }
            case 'bad-value':
              {
                const bad = badValues[name]![at % badValues[name]!.length]!;
                // --json selects the JSON format, and --format is then not read at all: not a defect.
                if (bad[0] === '--format') tokens.splice(0, tokens.length, ...tokens.filter((t) => t !== '--json'));
                tokens.push(...bad);
              }
              break;
          }
          defects.set(kind, (defects.get(kind) ?? 0) + 1);
          const env = { SVC_API_KEY: CANARY, SVC_BASE_URL: closedUrl };
          const r = await runInProcess(tokens, env, new TextEncoder().encode('X-Svc-Event: e\r\n\r\n{}'));
          const ctx = `argv=${JSON.stringify(tokens)} code=${r.code}\nstdout=${r.stdout.slice(0, 200)}\nstderr=${r.stderr.slice(0, 500)}`;
          assertSane(r, env, tokens);
          expect(r.code, ctx).toBe(2);
          expect(r.stderr, ctx).toMatch(/^error: \S/);
          expect(r.stderr, ctx).toMatch(USAGE_HINT);
          expect(r.stdout, ctx).toBe('');
          expect(r.sent, ctx).toBe(0);
        }),
        params(),
      );
      report('CLI injected defects', FUZZ_RUNS, performance.now() - started, Object.fromEntries(defects));
    },
    timeoutFor(2),
  );
});

describe('CLI argument fuzzing (spawned binary)', () => {
  beforeAll(() => void ensureBuilt(), 180_000);

  const cases: Array<{ argv: string[]; env: 'none' | 'key+url'; code: number; stderr?: RegExp }> = [
    { argv: ['--zz-unknown'], env: 'none', code: 2, stderr: /^error: Unknown option/ },
    { argv: ['ci'], env: 'key+url', code: 2, stderr: /no URLs to check/ },
    {
      argv: ['scan', 'https://shop.example.com/', '--timeout', 'soon'],
      env: 'key+url',
      code: 2,
      stderr: /--timeout must be a duration/,
    },
    { argv: ['trend', uuid, '--limit', '-1'], env: 'key+url', code: 2, stderr: /--limit/ },
    { argv: ['--api-key'], env: 'none', code: 2, stderr: /argument missing/ },
    { argv: ['sites', '--json=yes'], env: 'key+url', code: 2, stderr: /does not take an argument/ },
    {
      argv: ['ci', 'https://shop.example.com/', '--base-url', 'http://user:pw@127.0.0.1:1'],
      env: 'key+url',
      code: 2,
      stderr: /credentials/,
    },
    {
      argv: ['webhook', 'verify', '--secret', 'whsec_x', '--tolerance', 'NaN'],
      env: 'none',
      code: 2,
      stderr: /--tolerance/,
    },
    { argv: ['\u00e9\u{1F600}', '--json'], env: 'none', code: 2, stderr: /unknown command/ },
    { argv: ['sites'], env: 'key+url', code: 3, stderr: /ECONNREFUSED/ },
  ];

  it.each(cases)(
    '$argv (env $env) → exit $code, no stack trace, key never printed',
    async ({ argv, env, code, stderr }) => {
      const r = await runCli(argv, { env: envOf(env) });
      expect(r.code, r.stderr).toBe(code);
      if (stderr) expect(r.stderr).toMatch(stderr);
      expect(r.stdout + r.stderr).not.toMatch(STACK);
      expect(r.stdout + r.stderr).not.toContain(CANARY);
      expect(r.stderr).not.toContain('user:pw');
      // The in-process run of the same argv agrees (its fetch is the stub, so only non-network outcomes compare).
      if (code === 2) expect((await runInProcess(argv, envOf(env))).code).toBe(2);
    },
  );
});
