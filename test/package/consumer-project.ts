// The consumer project the package-types tests compile: a project outside this repository, with the package under
// node_modules (a link to this one: dist/ and package.json as published), its own package.json (`type`) and
// tsconfig, checked by a given TypeScript (in this process, see test/support/typecheck.ts). Shared by
// strict-consumer.test.ts (today's compiler, every resolution) and lowest-typescript.test.ts (the lowest
// TypeScript and lib the package states it supports).
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typecheckProject } from '../support/typecheck.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// Every entry point, options that may be undefined passed straight through, narrowing by code and by class.
export const CONSUMER = `import { A11yClient, A11yError, NotFoundError, RateLimitError, isApiError, isTerminalStatus, type CiCheck, type ClientOptions, type RateLimitOptions, type RequestOptions, type TrendOptions, type WaitOptions } from '@svc/a11y-sdk';
import { startSimulator, type SimulatorOptions } from '@svc/a11y-sdk/testing';
import { MemoryReplayStore, verifyWebhook, type VerifyWebhookOptions } from '@svc/a11y-sdk/webhooks';
import { RedisRateLimitStore } from '@svc/a11y-sdk/redis';
import { FAIL_ON, MAX_URLS_PER_CHECK, pagesDone } from '@svc/a11y-sdk/vocabulary';

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
    // instanceof narrows to each error class (A11yError declares its cross-copy Symbol.hasInstance).
    if (e instanceof RateLimitError) return e.retryAt?.getTime() ?? 0;
    if (e instanceof NotFoundError) return e.status;
    if (e instanceof A11yError && e.name === 'ConfigurationError') return -1;
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
  // The vocabulary: a failOn value is one of the description's, and pages done count from a check's own pages.
  const strictest: (typeof FAIL_ON)[number] = FAIL_ON[1];
  void client.ciChecks.create({ urls: ['https://shop.example.com/'].slice(0, MAX_URLS_PER_CHECK), failOn: strictest });
  return terminal ? pagesDone(check.pages) : 0;
}
`;

// One line that must not compile: proves the compiler checks the package's types at all.
export const REFUSED = `import type { ClientOptions } from '@svc/a11y-sdk';
export const bad: ClientOptions = { timeoutMs: '30000' };
`;

/** The strict settings every consumer project is checked with, whatever the compiler and resolution. */
export const STRICT = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  // Every declaration file is checked (the package's own among them: a user with these settings sees its errors)…
  skipLibCheck: false,
  // …but TypeScript's own lib files (lib.dom.d.ts and the rest), the same in every project and not ours to fix: checking
  // them was half of each check's CPU (the eight consumer checks 33 → 17 CPU-s). strict-consumer.test.ts shows a
  // declaration file of the project's is still checked.
  skipDefaultLibCheck: true,
  noEmit: true,
} as const;

/** One consumer project: its folder name, `type` in its package.json and compiler options. */
export interface ConsumerSetup {
  name: string;
  type: 'module' | 'commonjs';
  compilerOptions: Record<string, unknown>;
}

/** A scratch folder with the package linked under node_modules/@svc/a11y-sdk; returns the folder. */
export async function linkPackage(dir: string): Promise<string> {
  await mkdir(join(dir, 'node_modules', '@svc'), { recursive: true });
  await symlink(ROOT, join(dir, 'node_modules', '@svc', 'a11y-sdk'), 'dir');
  return dir;
}

/**
 * Type-checks `files` (name → source) as one project under `dir` (prepared by {@link linkPackage}) with the
 * TypeScript of the installed package `compiler` (`typescript`, or `typescript-lowest`), as `tsc -p` would.
 * Returns the compiler's output: '' when it compiled with no error.
 */
export async function typecheck(
  compiler: string,
  dir: string,
  setup: ConsumerSetup,
  files: Record<string, string>,
): Promise<string> {
  const project = join(dir, setup.name.replace(/\W+/g, '-'));
  await mkdir(project, { recursive: true });
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: setup.type }));
  for (const [name, source] of Object.entries(files)) await writeFile(join(project, name), source);
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { typeRoots: [], ...setup.compilerOptions }, files: Object.keys(files) }),
  );
  await rm(join(project, 'node_modules'), { force: true, recursive: true });
  await symlink(join(dir, 'node_modules'), join(project, 'node_modules'), 'dir');
  return typecheckProject(join(project, 'tsconfig.json'), compiler).output;
}
