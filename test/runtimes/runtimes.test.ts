// Ecosystem suite: the packed package, installed by name the way each runtime's users install npm
// packages (npm under Node 22 and 24, `bun add`, `deno add npm:`, npm + esbuild for a Worker), runs there
// against the simulator over loopback. The runtimes come from npm at exact versions (scripts/runtimes.mjs),
// installed once per machine into a cache folder keyed by those versions; a runtime that cannot be installed
// fails the suite, it is never skipped.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIME_VERSIONS, RUNTIMES, ensureRuntimes } from '../../scripts/runtimes.mjs';
import { A11yClient } from '../../src/index.js';
import { startSimulator, type Simulator } from '../../src/testing/index.js';
import { signWebhook } from '../../src/webhooks/index.js';
import {
  describeRun,
  exec,
  lastJsonLine,
  manifestOf,
  startRegistry,
  startServer,
  type Registry,
  type Run,
} from './support.js';
import { refusedPort } from '../support/loopback.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  engines: { node: string };
};
const CHECK_URL = 'https://shop.example.com/?regress=1';
const WEBHOOK_PAYLOAD = { scanRunId: 'c1b6d9e2-4f8a-4b3c-9d7e-2a5f8c1e4b6d', status: 'COMPLETED', site: 'Café Über' };
// A compatibility date before nodejs_compat became the default (2026-08-04): Web Crypto only.
const OLDER_COMPAT_DATE = '2025-01-01';
const NO_BASE_URL =
  /^No base URL: pass `baseUrl` to new A11yClient\(\) or set the SVC_BASE_URL environment variable\.$/;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Bins = ReturnType<typeof ensureRuntimes>['bins'];
type CryptoPath = 'node:crypto createHmac' | 'Web Crypto subtle.sign';
interface ScenarioResult {
  runtime: { name: string; version: string };
  resolved: { root: string; webhooks: string };
  getBuiltinModule: string;
  check: { status: string; verdict: string; pages: number };
  violations: { ruleId: string; impact: string; isNew: boolean }[];
  problem: Record<string, unknown>;
  validation: Record<string, unknown>;
  configuration: { thrown: boolean; name?: string; isConfigurationError?: boolean; message?: string };
  refused: { thrown: boolean; name?: string; attempts: number };
  webhook: {
    event: { id: string; type: string; payload: unknown };
    tampered: { thrown: boolean; isWebhookVerificationError: boolean; reason?: string };
    hmacs: { createHmac: number; subtleSign: number };
  };
}

let bins: Bins;
let work: string;
let tarball: string;
let registry: Registry;
let sim: Simulator;
// A loopback port nothing listens on: a refused connection, which every runtime must re-send even for a POST.
let closedUrl: string;
/** What the host (Node 20, the sources) gets for the same check: findings are a function of (seed, URL). */
let reference: {
  status: string;
  verdict: string;
  pages: number;
  violations: Partial<ScenarioResult['violations'][number]>[];
};
const summary: string[] = [];

/** npm itself (its JavaScript), to run it under the Node being tested. */
function npmCli(): string {
  const candidates = [
    process.env.npm_execpath,
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ];
  const found = candidates.find((path) => path && basename(path) === 'npm-cli.js' && existsSync(path));
  if (!found) throw new Error(`npm-cli.js not found (looked at ${candidates.join(', ')})`);
  return found;
}

/** A folder holding only `name` → `target`: the PATH of a run, so a `#!/usr/bin/env node` finds that runtime or nothing. */
function binDir(name: string, links: Record<string, string>): string {
  const dir = join(work, 'bin', name);
  mkdirSync(dir, { recursive: true });
  for (const [link, target] of Object.entries(links))
    if (!existsSync(join(dir, link))) symlinkSync(target, join(dir, link));
  return dir;
}

/** The environment of every child: its own PATH, HOME and caches; nothing of the machine's or the test's. */
function childEnv(path: string, extra: Record<string, string> = {}): Record<string, string> {
  const home = join(work, 'home');
  mkdirSync(home, { recursive: true });
  return { PATH: path, HOME: home, TMPDIR: tmpdir(), NO_COLOR: '1', DO_NOT_TRACK: '1', ...extra };
}

/** A consumer project: package.json (ESM) and the scenario files. */
function project(
  name: string,
  files: string[],
  packageJson: Record<string, unknown> | null = { name: `consumer-${name}`, private: true, type: 'module' },
): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  if (packageJson) writeFileSync(join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  for (const file of files) copyFileSync(join(fixtures, file), join(dir, file));
  return dir;
}

function scenarioInput(): string {
  return JSON.stringify({
    url: sim.url,
    closedUrl,
    keys: { full: sim.keys.full, noCi: sim.keys.noCi, freePlan: sim.keys.freePlan },
  });
}

function cryptoPath(hmacs: { createHmac: number; subtleSign: number }): CryptoPath | string {
  // Three HMACs: one signature, two verifications.
  if (hmacs.createHmac === 3 && hmacs.subtleSign === 0) return 'node:crypto createHmac';
  if (hmacs.subtleSign === 3 && hmacs.createHmac === 0) return 'Web Crypto subtle.sign';
  return `mixed: ${JSON.stringify(hmacs)}`;
}

/** Everything a scenario run must show, whatever the runtime. */
function expectScenario(
  what: string,
  run: Run,
  expected: {
    runtime: string;
    version: string;
    resolvedRoot: RegExp;
    cryptoPath: CryptoPath;
    configurationMessage: RegExp;
  },
) {
  expect(run.code, describeRun(what, run)).toBe(0);
  expect(run.stderr, describeRun(what, run)).toBe('');
  const result = lastJsonLine<ScenarioResult>(what, run);
  expect(result.runtime).toEqual({ name: expected.runtime, version: expected.version });
  expect(result.resolved.root).toMatch(expected.resolvedRoot);
  // The client: the CI check ran to completion, and its findings are the host's, exactly.
  expect(result.check).toEqual({ status: reference.status, verdict: reference.verdict, pages: reference.pages });
  expect(result.violations).toEqual(reference.violations);
  expect(result.problem).toEqual({
    thrown: true,
    name: 'PermissionDeniedError',
    isPermissionDeniedError: true,
    isApiError: true,
    status: 403,
    code: 'API_KEY_SCOPE_MISSING',
    isApiErrorWithCode: true,
  });
  expect(result.validation).toEqual({
    thrown: true,
    name: 'RequestValidationError',
    isRequestValidationError: true,
    field: 'urls[0]',
    rule: 'must be an absolute http(s) URL',
  });
  expect(result.configuration).toEqual({
    thrown: true,
    name: 'ConfigurationError',
    isConfigurationError: true,
    message: expect.stringMatching(expected.configurationMessage),
  });
  // A refused connection never reached the service: even a POST is re-sent (1 + maxRetries 2 attempts).
  expect(result.refused).toEqual({ thrown: true, name: 'ApiConnectionError', attempts: 3 });
  // Webhooks: verified, tampered refused, through the expected crypto path.
  expect(result.webhook.event).toEqual({
    id: 'cf94ee21-cddc-4544-b08f-510865b77656',
    type: 'scan_run.completed',
    payload: WEBHOOK_PAYLOAD,
  });
  expect(result.webhook.tampered).toEqual({
    thrown: true,
    isWebhookVerificationError: true,
    reason: 'SIGNATURE_MISMATCH',
  });
  expect(cryptoPath(result.webhook.hmacs)).toBe(expected.cryptoPath);
  summary.push(`${what}: ${expected.runtime} ${expected.version}, webhooks via ${expected.cryptoPath}, ${run.ms} ms`);
}

/** `svc-a11y ci … --json --report junit=…` against the simulator: exit 1 (the threshold broke), JSON and JUnit out. */
async function expectCli(
  what: string,
  command: string,
  args: string[],
  options: { cwd: string; path: string; extraEnv?: Record<string, string> },
) {
  const junit = join(options.cwd, `a11y-${Date.now()}.xml`);
  const run = await exec(command, [...args, 'ci', CHECK_URL, '--json', '--report', `junit=${junit}`], {
    cwd: options.cwd,
    env: childEnv(options.path, { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url, ...options.extraEnv }),
  });
  expect(run.code, describeRun(what, run)).toBe(1);
  // Nothing on stderr but where the report went (no progress, no warning) on every runtime.
  expect(run.stderr, describeRun(what, run)).toBe(`wrote JUnit to ${junit}\n`);
  const report = JSON.parse(run.stdout) as { check: { status: string; verdict: string }; violations: unknown[] };
  expect(report.check).toMatchObject({ status: reference.status, verdict: 'FAIL' });
  expect(report.violations).toHaveLength(reference.violations.length);
  const xml = readFileSync(junit, 'utf8');
  expect(xml).toContain('<testsuites');
  const breaking = reference.violations.filter((v) => v.isNew && v.impact === 'critical').length;
  expect(xml).toMatch(new RegExp(`<testsuites[^>]* failures="${breaking}"`));
  summary.push(`${what}: exit 1 (FAIL), ${report.violations.length} findings, JUnit written, ${run.ms} ms`);
}

/** Signs a delivery on the host and posts it to `url`, then the same headers over a tampered body. */
async function deliver(url: string, secret: string) {
  const body = JSON.stringify(WEBHOOK_PAYLOAD);
  const headers = await signWebhook({ body, secret });
  const ok = await fetch(url, { method: 'POST', headers, body });
  const tampered = await fetch(url, { method: 'POST', headers, body: body.replace('COMPLETED', 'CANCELLED') });
  return {
    id: headers['X-Svc-Delivery']!,
    ok: { status: ok.status, body: await ok.text(), subtleSign: ok.headers.get('x-subtle-sign-calls') },
    tampered: {
      status: tampered.status,
      body: await tampered.text(),
      subtleSign: tampered.headers.get('x-subtle-sign-calls'),
    },
  };
}

/** The webhooks page's fetch-handler example (examples/webhook-fetch-handler.ts) served by the runtime's own server (Bun.serve, Deno.serve): 204, then 400. */
async function expectServedExample(
  what: string,
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
) {
  const secret = 'whsec_served_example';
  copyFileSync(join(root, 'examples', 'webhook-fetch-handler.ts'), join(options.cwd, 'webhook-fetch-handler.ts'));
  copyFileSync(join(fixtures, 'serve.mjs'), join(options.cwd, 'serve.mjs'));
  const server = await startServer(command, [...args, 'serve.mjs', secret], options);
  try {
    const started = Date.now();
    const { id, ok, tampered } = await deliver(`${server.url}/webhooks`, secret);
    expect(ok, server.output()).toEqual({ status: 204, body: '', subtleSign: null });
    expect(tampered, server.output()).toEqual({ status: 400, body: 'SIGNATURE_MISMATCH', subtleSign: null });
    // The example's own log line for the verified delivery, and nothing else.
    await expect.poll(() => server.output()).toBe(`{"port":${new URL(server.url).port}}\nscan_run.completed ${id}\n`);
    summary.push(`${what}: 204 verified, 400 SIGNATURE_MISMATCH tampered, ${Date.now() - started} ms`);
  } finally {
    await server.stop();
  }
}

/** Packs dist/ as `npm publish` would, without the prepack build (npm test has just built it). */
async function pack(): Promise<string> {
  const required = [
    'dist/index.js',
    'dist/index.cjs',
    'dist/webhooks.js',
    'dist/webhooks.cjs',
    'dist/cli.js',
    'package.json',
  ];
  // dist/ may be mid-rebuild on a shared machine (tsup empties it first): pack again rather than ship a hole.
  for (let attempt = 1; ; attempt++) {
    const missing = required.filter((file) => !existsSync(join(root, file)));
    if (missing.length === 0) {
      const { stdout } = await promisify(execFile)(
        'npm',
        ['pack', '--ignore-scripts', '--json', '--pack-destination', work],
        { cwd: root },
      );
      const [packed] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
      const files = packed.files.map((f) => f.path);
      const absent = required.filter((file) => !files.includes(file));
      if (absent.length === 0) return join(work, packed.filename);
      missing.push(...absent);
    }
    if (attempt === 3)
      throw new Error(`dist/ lacks ${missing.join(', ')}: run \`npm run build\` first (npm test does).`);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
}

beforeAll(async () => {
  // Installs the runtimes when this machine has not got them yet (~25 s), else checks the cached ones.
  const runtimes = ensureRuntimes({ log: (line) => console.log(`runtimes: ${line}`) });
  bins = runtimes.bins;
  summary.push(
    `runtimes ${runtimes.installed ? `installed in ${runtimes.seconds.toFixed(1)} s` : 'from the cache'}: ${runtimes.dir}`,
  );

  work = mkdtempSync(join(tmpdir(), 'svc-a11y-runtimes-'));
  tarball = await pack();
  const manifest = manifestOf(readFileSync(tarball));
  expect(manifest).toMatchObject({ name: pkg.name, version: pkg.version });
  registry = await startRegistry(tarball);
  sim = await startSimulator({ durations: { ciCheck: 150 }, rateLimit: false });
  // Below the ephemeral range: a port closed after port 0 could be another server's by the time a runtime tries it.
  closedUrl = `http://127.0.0.1:${await refusedPort()}`;

  const host = new A11yClient({ apiKey: sim.keys.full, baseUrl: sim.url });
  const check = await host.ciChecks.createAndWait({ urls: [CHECK_URL] }, { intervalMs: 20 });
  const violations = await host.ciChecks.listViolations(check.id);
  reference = {
    status: check.status,
    verdict: check.verdict ?? '',
    pages: check.pages?.length ?? 0,
    violations: violations.map((v) => ({ ruleId: v.ruleId, impact: v.impact, isNew: v.isNew })),
  };
  // The scenario must be able to fail: a completed check with findings, one of them new and critical.
  expect(reference).toMatchObject({ status: 'COMPLETED', verdict: 'FAIL' });
  expect(reference.violations.some((v) => v.isNew && v.impact === 'critical')).toBe(true);
}, 600_000);

afterAll(async () => {
  await sim?.stop();
  await registry?.close();
  if (summary.length) console.log(`Ecosystem runtimes:\n  ${summary.join('\n  ')}`);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.each([
  ['Node 22', 'node22', RUNTIME_VERSIONS.node22],
  ['Node 24', 'node24', RUNTIME_VERSIONS.node24],
] as const)('%s: npm install, ESM and CommonJS, the CLI', (label, key, version) => {
  let dir: string;
  let path: string;

  beforeAll(async () => {
    path = binDir(key, { node: bins[key] });
    dir = project(key, ['run.mjs', 'scenario.mjs', 'scenario.cjs']);
    // npm itself runs under the Node being tested, and --engine-strict makes it refuse a package whose
    // `engines` leaves that Node out.
    const install = await exec(
      bins[key],
      [
        npmCli(),
        'install',
        pkg.name,
        '--registry',
        registry.url,
        '--cache',
        join(work, 'npm-cache'),
        '--engine-strict',
        '--no-audit',
        '--no-fund',
        '--no-update-notifier',
      ],
      { cwd: dir, env: childEnv(path), timeoutMs: 120_000 },
    );
    expect(install.code, describeRun(`npm install under ${label}`, install)).toBe(0);
    const installed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(installed.dependencies).toEqual({ [pkg.name]: `^${pkg.version}` });
  }, 180_000);

  it(`runs ${version} (engines "${pkg.engines.node}" admits it)`, async () => {
    const run = await exec('node', ['--version'], { cwd: dir, env: childEnv(path) });
    expect(run.stdout.trim()).toBe(`v${version}`);
    expect(RUNTIMES[key].version).toBe(`v${version}`);
  });

  it('ESM (import): the client, a problem error, a refused validation, webhooks via node:crypto', {
    timeout: 60_000,
  }, async () => {
    const run = await exec(bins[key], ['scenario.mjs', scenarioInput()], { cwd: dir, env: childEnv(path) });
    expectScenario(`${label} ESM`, run, {
      runtime: 'node',
      version,
      resolvedRoot: /node_modules\/@svc\/a11y-sdk\/dist\/index\.js$/,
      cryptoPath: 'node:crypto createHmac',
      configurationMessage: NO_BASE_URL,
    });
  });

  it('CommonJS (require): the same', { timeout: 60_000 }, async () => {
    const run = await exec(bins[key], ['scenario.cjs', scenarioInput()], { cwd: dir, env: childEnv(path) });
    expectScenario(`${label} CJS`, run, {
      runtime: 'node',
      version,
      resolvedRoot: /node_modules\/@svc\/a11y-sdk\/dist\/index\.cjs$/,
      cryptoPath: 'node:crypto createHmac',
      configurationMessage: NO_BASE_URL,
    });
  });

  it('svc-a11y ci (node_modules/.bin, the `#!/usr/bin/env node` shebang finds this Node only)', {
    timeout: 60_000,
  }, async () => {
    await expectCli(`${label} CLI`, join(dir, 'node_modules', '.bin', 'svc-a11y'), [], { cwd: dir, path });
  });
});

describe(`Bun ${RUNTIME_VERSIONS.bun}: bun add, ESM and CommonJS, bun x --bun svc-a11y`, () => {
  let dir: string;
  let path: string;
  const env = () =>
    childEnv(path, { NPM_CONFIG_REGISTRY: registry.url, BUN_INSTALL_CACHE_DIR: join(work, 'bun-cache') });

  beforeAll(async () => {
    path = binDir('bun', { bun: bins.bun });
    dir = project('bun', ['run.mjs', 'scenario.mjs', 'scenario.cjs']);
    const install = await exec(bins.bun, ['add', pkg.name], { cwd: dir, env: env(), timeoutMs: 120_000 });
    expect(install.code, describeRun('bun add', install)).toBe(0);
    expect(registry.requests).toEqual(expect.arrayContaining([`GET /${pkg.name}`]));
    expect(existsSync(join(dir, 'node_modules', '@svc', 'a11y-sdk', 'dist', 'index.js'))).toBe(true);
  }, 180_000);

  it('ESM: the client, a problem error, a refused validation, webhooks via node:crypto (process.getBuiltinModule)', {
    timeout: 60_000,
  }, async () => {
    const run = await exec(bins.bun, ['scenario.mjs', scenarioInput()], { cwd: dir, env: env() });
    expectScenario('Bun ESM', run, {
      runtime: 'bun',
      version: RUNTIME_VERSIONS.bun,
      resolvedRoot: /node_modules\/@svc\/a11y-sdk\/dist\/index\.js$/,
      cryptoPath: 'node:crypto createHmac',
      configurationMessage: NO_BASE_URL,
    });
  });

  it('CommonJS: the same', { timeout: 60_000 }, async () => {
    const run = await exec(bins.bun, ['scenario.cjs', scenarioInput()], { cwd: dir, env: env() });
    expectScenario('Bun CJS', run, {
      runtime: 'bun',
      version: RUNTIME_VERSIONS.bun,
      resolvedRoot: /node_modules\/@svc\/a11y-sdk\/dist\/index\.cjs$/,
      cryptoPath: 'node:crypto createHmac',
      configurationMessage: NO_BASE_URL,
    });
  });

  it('Bun.serve serves the fetch-handler example: a signed delivery verified, a tampered one refused', {
    timeout: 60_000,
  }, async () => {
    await expectServedExample('Bun.serve example', bins.bun, [], { cwd: dir, env: env() });
  });

  it('svc-a11y ci under Bun (no Node on PATH)', { timeout: 60_000 }, async () => {
    await expectCli('Bun CLI', bins.bun, ['x', '--bun', 'svc-a11y'], {
      cwd: dir,
      path,
      extraEnv: { NPM_CONFIG_REGISTRY: registry.url, BUN_INSTALL_CACHE_DIR: join(work, 'bun-cache') },
    });
  });
});

describe(`Deno ${RUNTIME_VERSIONS.deno}: deno add npm:, least privilege, deno run npm:…/svc-a11y`, () => {
  let dir: string;
  let path: string;
  const extra = () => ({
    NPM_CONFIG_REGISTRY: registry.url,
    DENO_DIR: join(work, 'deno-dir'),
    DENO_NO_UPDATE_CHECK: '1',
    DENO_NO_PROMPT: '1',
  });

  beforeAll(async () => {
    path = binDir('deno', { deno: bins.deno });
    dir = project('deno', ['run.mjs', 'scenario.mjs'], null);
    writeFileSync(join(dir, 'deno.json'), '{}\n');
    const install = await exec(bins.deno, ['add', `npm:${pkg.name}`], {
      cwd: dir,
      env: childEnv(path, extra()),
      timeoutMs: 120_000,
    });
    expect(install.code, describeRun('deno add', install)).toBe(0);
    const config = JSON.parse(readFileSync(join(dir, 'deno.json'), 'utf8')) as { imports: Record<string, string> };
    expect(config.imports).toEqual({ [pkg.name]: `npm:${pkg.name}@^${pkg.version}` });
  }, 180_000);

  it('ESM with --allow-net=127.0.0.1 only: the client, a problem error, a refused validation, webhooks via node:crypto', {
    timeout: 60_000,
  }, async () => {
    // No env, read or write permission: given apiKey and baseUrl, neither the client nor the webhooks need one.
    const run = await exec(bins.deno, ['run', '--allow-net=127.0.0.1', 'scenario.mjs', scenarioInput()], {
      cwd: dir,
      env: childEnv(path, extra()),
    });
    expectScenario('Deno ESM', run, {
      runtime: 'deno',
      version: RUNTIME_VERSIONS.deno,
      resolvedRoot: new RegExp(`a11y-sdk/${escapeRegExp(pkg.version)}/dist/index\\.js$`),
      cryptoPath: 'node:crypto createHmac',
      // Without env permission the fallback's read is refused: a ConfigurationError carrying Deno's hint.
      configurationMessage:
        /^Cannot read SVC_BASE_URL \(NotCapable: Requires env access to "SVC_BASE_URL", run again with the --allow-env flag\): pass the option instead\.$/,
    });
  });

  it('Deno.serve serves the fetch-handler example (--allow-net=127.0.0.1 only)', {
    timeout: 60_000,
  }, async () => {
    await expectServedExample('Deno.serve example', bins.deno, ['run', '--allow-net=127.0.0.1'], {
      cwd: dir,
      env: childEnv(path, extra()),
    });
  });

  it('svc-a11y ci under Deno (deno run -A npm:@svc/a11y-sdk/svc-a11y)', { timeout: 60_000 }, async () => {
    await expectCli('Deno CLI', bins.deno, ['run', '-A', `npm:${pkg.name}/svc-a11y`], {
      cwd: dir,
      path,
      extraEnv: extra(),
    });
  });
});

describe(`workerd ${RUNTIME_VERSIONS.workerd}: a bundled Worker (the fetch-handler example + the client), two compatibility dates`, () => {
  let dir: string;
  let workerd: ChildProcess | undefined;
  let workerdOut = '';
  const ports: Record<string, number> = {};
  const secret = 'whsec_workerd_test';
  const newestDate = RUNTIMES.workerd.version.replace('workerd ', '');

  beforeAll(async () => {
    dir = project('workerd', ['worker.mjs']);
    // The example, as written: copied byte for byte.
    copyFileSync(join(root, 'examples', 'webhook-fetch-handler.ts'), join(dir, 'webhook-fetch-handler.ts'));
    const install = await exec(
      process.execPath,
      [
        npmCli(),
        'install',
        pkg.name,
        '--registry',
        registry.url,
        '--cache',
        join(work, 'npm-cache'),
        '--no-audit',
        '--no-fund',
        '--no-update-notifier',
      ],
      { cwd: dir, env: childEnv(dirname(process.execPath)), timeoutMs: 120_000 },
    );
    expect(install.code, describeRun('npm install (workerd project)', install)).toBe(0);

    // Bundled as Wrangler does (esbuild, `workerd` / `worker` / `browser` conditions). platform "browser" turns
    // any Node builtin import into a build error, so the bundle also runs without nodejs_compat.
    const bundle = await build({
      absWorkingDir: dir,
      entryPoints: ['worker.mjs'],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['workerd', 'worker', 'browser'],
      target: 'es2022',
      outfile: 'dist/worker.js',
      metafile: true,
      logLevel: 'silent',
    });
    expect(Object.keys(bundle.metafile.inputs)).toEqual(
      expect.arrayContaining([
        'webhook-fetch-handler.ts',
        'node_modules/@svc/a11y-sdk/dist/webhooks.js',
        'node_modules/@svc/a11y-sdk/dist/index.js',
      ]),
    );

    const worker = (date: string) => `(
  modules = [(name = "worker.js", esModule = embed "dist/worker.js")],
  compatibilityDate = "${date}",
  bindings = .bindings,
  globalOutbound = "loopback",
)`;
    const text = (name: string, value: string) => `(name = "${name}", text = ${JSON.stringify(value)})`;
    writeFileSync(
      join(dir, 'config.capnp'),
      `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "today", worker = .today),
    (name = "older", worker = .older),
    # The Workers' outbound fetch: loopback only (the simulator).
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [
    (name = "today", address = "127.0.0.1:0", http = (), service = "today"),
    (name = "older", address = "127.0.0.1:0", http = (), service = "older"),
  ],
);

const bindings :List(Workerd.Worker.Binding) = [
  ${[
    text('SVC_WEBHOOK_SECRET', secret),
    text('SIM_URL', sim.url),
    text('SIM_KEY_FULL', sim.keys.full),
    text('SIM_KEY_NO_CI', sim.keys.noCi),
    text('SIM_KEY_FREE', sim.keys.freePlan),
  ].join(',\n  ')},
];

# No compatibility flags: the newest date this workerd supports, and one before nodejs_compat was the default.
const today :Workerd.Worker = ${worker(newestDate)};
const older :Workerd.Worker = ${worker(OLDER_COMPAT_DATE)};
`,
    );

    // workerd reports the ports it bound (127.0.0.1:0) on its control fd.
    const child = spawn(bins.workerd, ['serve', 'config.capnp', '--control-fd=3'], {
      cwd: dir,
      env: childEnv(path()),
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    workerd = child;
    child.stdout!.on('data', (chunk) => (workerdOut += chunk));
    child.stderr!.on('data', (chunk) => (workerdOut += chunk));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`workerd did not listen within 30 s:\n${workerdOut}`)), 30_000);
      let control = '';
      (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk) => {
        control += chunk;
        for (const line of control.split('\n')) {
          const event = line.trim() ? (JSON.parse(line) as { event: string; socket: string; port: number }) : undefined;
          if (event?.event === 'listen') ports[event.socket] = event.port;
        }
        if (ports.today && ports.older) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`workerd exited (${code ?? signal}) before listening:\n${workerdOut}`));
      });
    });
  }, 180_000);

  afterAll(async () => {
    if (workerd?.pid !== undefined && workerd.exitCode === null && workerd.signalCode === null) {
      const closed = new Promise((resolve) => workerd!.once('close', resolve));
      process.kill(workerd.pid, 'SIGTERM');
      await closed;
    }
  });

  const path = () => join(work, 'bin', 'none');

  async function expectClient(port: number) {
    const response = await fetch(`http://127.0.0.1:${port}/check`);
    const result = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(result)).toBe(200);
    expect(result).toEqual({
      check: { status: reference.status, verdict: reference.verdict, pages: reference.pages },
      violations: reference.violations,
      problem: {
        thrown: true,
        name: 'PermissionDeniedError',
        isPermissionDeniedError: true,
        isApiError: true,
        status: 403,
        code: 'API_KEY_SCOPE_MISSING',
      },
      validation: { thrown: true, name: 'RequestValidationError', isRequestValidationError: true, field: 'urls[0]' },
    });
  }

  it(`compatibility date ${newestDate} (nodejs_compat on by the date): the client via outbound fetch; webhooks via node:crypto`, {
    timeout: 60_000,
  }, async () => {
    const runtime = await (await fetch(`http://127.0.0.1:${ports.today}/runtime`)).json();
    expect(runtime).toEqual({
      userAgent: 'Cloudflare-Workers',
      process: 'object',
      getBuiltinModule: 'function',
      nodeCrypto: true,
    });
    await expectClient(ports.today!);
    const started = Date.now();
    const { id, ok, tampered } = await deliver(`http://127.0.0.1:${ports.today}/webhooks`, secret);
    expect(ok).toEqual({ status: 204, body: '', subtleSign: '0' });
    expect(tampered).toEqual({ status: 400, body: 'SIGNATURE_MISMATCH', subtleSign: '0' });
    // The example's own log line for the verified delivery.
    await expect.poll(() => workerdOut).toContain(`scan_run.completed ${id}`);
    summary.push(
      `workerd ${newestDate}: nodejs_compat on by the date, webhooks via node:crypto createHmac, client via outbound fetch, ${Date.now() - started} ms`,
    );
  });

  it(`compatibility date ${OLDER_COMPAT_DATE} (no nodejs_compat): the client via outbound fetch; webhooks via Web Crypto`, {
    timeout: 60_000,
  }, async () => {
    const runtime = await (await fetch(`http://127.0.0.1:${ports.older}/runtime`)).json();
    expect(runtime).toEqual({
      userAgent: 'Cloudflare-Workers',
      process: 'undefined',
      getBuiltinModule: 'undefined',
      nodeCrypto: false,
    });
    await expectClient(ports.older!);
    const started = Date.now();
    const { id, ok, tampered } = await deliver(`http://127.0.0.1:${ports.older}/webhooks`, secret);
    expect(ok).toEqual({ status: 204, body: '', subtleSign: '1' });
    expect(tampered).toEqual({ status: 400, body: 'SIGNATURE_MISMATCH', subtleSign: '1' });
    await expect.poll(() => workerdOut).toContain(`scan_run.completed ${id}`);
    summary.push(
      `workerd ${OLDER_COMPAT_DATE}: no nodejs_compat, webhooks via Web Crypto subtle.sign, client via outbound fetch, ${Date.now() - started} ms`,
    );
  });
});

describe('across runtimes', () => {
  it('no refused request reached the simulator (the key used only for invalid input sent nothing)', () => {
    expect(sim.requestCount(sim.keys.freePlan)).toBe(0);
    expect(sim.requestCount(sim.keys.noCi)).toBeGreaterThan(0);
  });
});
