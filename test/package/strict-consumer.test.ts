// The published types as a strict user's compiler sees them: a project outside this repository, with the
// package under node_modules (a link to this one: dist/ and package.json as published), `strict`,
// `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess` and `skipLibCheck: false`, type-checked with
// `moduleResolution` NodeNext, bundler and node10 (typesVersions). Options passed through from variables that
// may be undefined must compile; a wrong type must still be refused (the check is live); a CommonJS project
// may mix in the ESM copy.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const CONSUMER = `import { A11yClient, isApiError, isTerminalStatus, type CiCheck, type ClientOptions, type RateLimitOptions, type RequestOptions, type TrendOptions, type WaitOptions } from '@svc/a11y-sdk';
import { startSimulator, type SimulatorOptions } from '@svc/a11y-sdk/testing';
import { MemoryReplayStore, verifyWebhook, type VerifyWebhookOptions } from '@svc/a11y-sdk/webhooks';
import { RedisRateLimitStore } from '@svc/a11y-sdk/redis';

declare const env: Record<string, string | undefined>;
declare const signal: AbortSignal | undefined;
declare const timeoutMs: number | undefined;

// Values that may be undefined, passed straight through: "not given".
const options: ClientOptions = { apiKey: env.SVC_API_KEY, baseUrl: env.SVC_BASE_URL, timeoutMs, maxRetries: undefined, rateLimit: undefined, onWarning: undefined };
const client = new A11yClient(options);
const perCall: RequestOptions = { signal, timeoutMs };
const wait: WaitOptions<CiCheck> = { signal, timeoutMs, intervalMs: undefined, onProgress: undefined };

export async function run(): Promise<number> {
  const sites = await client.sites.list(perCall);
  const trend: TrendOptions = { limit: undefined, signal };
  await client.sites.getTrend(sites[0]?.id ?? '', trend);
  const budget: RateLimitOptions = { requestsPerMinute: 120, burst: undefined, store: undefined };
  void new A11yClient({ ...options, rateLimit: budget });
  const check = await client.ciChecks.createAndWait({ urls: ['https://shop.example.com/'] }, wait);
  try {
    await client.scans.create({ url: 'https://shop.example.com/' }, perCall);
  } catch (e) {
    // RATE_LIMITED narrows to RateLimitError: its wait is typed.
    if (isApiError(e, 'RATE_LIMITED')) return e.retryAfterMs ?? 0;
    throw e;
  }
  const simulator: SimulatorOptions = { port: undefined, seed: undefined, durations: { ciCheck: 100 } };
  const webhook: VerifyWebhookOptions = { body: '{}', headers: {}, secret: 's', replayStore: new MemoryReplayStore(), toleranceSeconds: undefined };
  await verifyWebhook(webhook);
  void new RedisRateLimitStore({ url: 'redis://127.0.0.1:6379' });
  void startSimulator(simulator);
  // isTerminalStatus narrows a status union.
  const status = (await client.ciChecks.get(check.id)).status;
  const terminal: 'COMPLETED' | 'FAILED' | undefined = isTerminalStatus(status) ? status : undefined;
  // …and on a plain string it is a boolean test: the other branch keeps the string.
  const text: string = env.STATUS ?? 'RUNNING';
  if (!isTerminalStatus(text)) void text.toUpperCase();
  return terminal ? (check.pages?.length ?? 0) : 0;
}
`;

// One line that must not compile: proves the compiler checks the package's types at all.
const REFUSED = `import type { ClientOptions } from '@svc/a11y-sdk';
export const bad: ClientOptions = { timeoutMs: '30000' };
`;

const COMPILER = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  noEmit: true,
  target: 'ES2022',
  lib: ['ES2022', 'DOM'],
  types: [],
};
const SETUPS = [
  { name: 'NodeNext (ESM)', type: 'module', compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } },
  { name: 'bundler', type: 'module', compilerOptions: { module: 'ESNext', moduleResolution: 'bundler' } },
  {
    name: 'node10 (CommonJS, typesVersions)',
    type: 'commonjs',
    compilerOptions: { module: 'CommonJS', moduleResolution: 'node10' },
  },
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-consumer-'));
  await mkdir(join(dir, 'node_modules', '@svc'), { recursive: true });
  await symlink(ROOT, join(dir, 'node_modules', '@svc', 'a11y-sdk'), 'dir');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function typecheck(setup: (typeof SETUPS)[number], source: string): Promise<string> {
  const project = join(dir, setup.name.replace(/\W+/g, '-'));
  await mkdir(project, { recursive: true });
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: setup.type }));
  await writeFile(join(project, 'consumer.ts'), source);
  // The package under node_modules is reached through the link, so its real path must not be preserved twice.
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { ...COMPILER, ...setup.compilerOptions, typeRoots: [] },
      files: ['consumer.ts'],
    }),
  );
  await rm(join(project, 'node_modules'), { force: true, recursive: true });
  await symlink(join(dir, 'node_modules'), join(project, 'node_modules'), 'dir');
  try {
    await promisify(execFile)(process.execPath, [TSC, '-p', project], { cwd: project });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

// A CommonJS project that also loads the ESM build (await import): one A11yClient type for both copies.
const BOTH_COPIES = `import { A11yClient } from '@svc/a11y-sdk';
export async function fromEsm(): Promise<A11yClient> {
  const esm = await import('@svc/a11y-sdk');
  return new esm.A11yClient({ apiKey: 'svc_types', baseUrl: 'https://a11y.example.com' });
}
`;

it("a CommonJS project may hold the ESM copy's client in its own A11yClient type", async () => {
  const setup = {
    name: 'NodeNext (CommonJS)',
    type: 'commonjs',
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' },
  };
  expect(await typecheck(setup, BOTH_COPIES)).toBe('');
}, 60_000);

describe.each(SETUPS)('a strict consumer, moduleResolution $name', (setup) => {
  it('compiles options that may be undefined, RATE_LIMITED narrowing and every entry point, with no error', async () => {
    expect(await typecheck(setup, CONSUMER)).toBe('');
  }, 60_000);

  it('still refuses a wrong type (the check is live)', async () => {
    expect(await typecheck(setup, REFUSED)).toMatch(
      /consumer\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
    );
  }, 60_000);
});
