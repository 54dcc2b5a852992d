// The examples the docs link to, run as written: each is only stripped of its types (esbuild, no bundling)
// and run as its own process, importing `express` / `fastify` and this package's built entries by name, as a
// user's code would. The Express and Fastify receivers on the real frameworks: deliveries signed by
// `signWebhook` accepted byte for byte (the framework must hand over the raw body), tampered ones refused;
// servers bind 127.0.0.1 on a free port and are stopped by PID. The CI-check script against the simulator: its
// exit code is the verdict. (The fetch handler runs on workerd, Bun and Deno in test/runtimes.)
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/testing/index.js';
import { signWebhook } from '../../src/webhooks/index.js';
import { listeningPorts } from '../support/listening.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Inside the package (not node_modules, not the OS temp dir): `@svc/a11y-sdk/webhooks` resolves to this
// package's exports (Node's self-reference), `express` and `fastify` to its dev dependencies.
const WORK = join(ROOT, '.test-examples');
const SECRET = 'whsec_framework_examples_secret';

interface Running {
  url: string;
  child: ChildProcess;
  output: () => string;
}

// examples/<name>.ts with its types stripped, as WORK/<name>.mjs.
async function stripped(example: string): Promise<string> {
  const source = await readFile(join(ROOT, 'examples', example), 'utf8');
  const { code } = await transform(source, { loader: 'ts', format: 'esm', target: 'node20' });
  const file = join(WORK, example.replace(/\.ts$/, '.mjs'));
  await writeFile(file, code);
  return file;
}

async function start(example: string): Promise<Running> {
  const file = await stripped(example);
  // Port 0: the OS picks a free port as the example listens, and /proc says which. A port picked in advance could be
  // taken by another test's server first, which would then answer in the example's place.
  const child = spawn(process.execPath, [file], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SVC_WEBHOOK_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Registered at once: a server that never comes up is stopped (by PID) after the file too.
  servers.push({ url: '', child, output: () => output });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  for (const deadline = Date.now() + 15_000; ; ) {
    if (child.exitCode !== null) throw new Error(`${example} exited with ${child.exitCode}: ${output}`);
    const [port] = listeningPorts(child.pid!);
    const url = `http://127.0.0.1:${port}/hooks/a11y`;
    const up =
      port !== undefined &&
      (await fetch(url, { method: 'GET' }).then(
        () => true,
        () => false,
      ));
    if (up) return { url, child, output: () => output };
    if (Date.now() > deadline) throw new Error(`${example} did not listen within 15 s: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function deliver(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, text: await response.text() };
}

// A payload whose bytes a JSON re-serialisation would change (spacing, key order, an escaped character); each
// delivery its own run id, since the replay store also remembers signed material (same body, same second).
const bodyOf = (n: number) =>
  `{ "scanRunId":"sr_${n}",  "siteId" : "site_1", "note":"caf\\u00e9 \u2713", "z":1, "a":2 }`;

const servers: Running[] = [];
beforeAll(async () => {
  await mkdir(WORK, { recursive: true });
});
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null) process.kill(s.child.pid!, 'SIGTERM');
  await rm(WORK, { recursive: true, force: true });
});

let deliveries = 0;
async function delivery(secret = SECRET): Promise<{ body: string; headers: Record<string, string> }> {
  const n = ++deliveries;
  const body = bodyOf(n);
  return { body, headers: await signWebhook({ body, secret, id: `dlv_examples_${n}`, type: 'scan_run.completed' }) };
}

describe.each(['webhook-express.ts', 'webhook-fastify.ts'])('examples/%s on the real framework', (example) => {
  let server: Running;
  beforeAll(async () => {
    server = await start(example);
  }, 90_000);

  it('accepts a delivery signed by signWebhook, byte for byte (204)', async () => {
    const { body, headers } = await delivery();
    expect(await deliver(server.url, body, headers)).toEqual({ status: 204, text: '' });
  });

  it('refuses a tampered body and a wrong secret (400 with the reason)', async () => {
    const signed = await delivery();
    expect(await deliver(server.url, signed.body.replace('site_1', 'site_2'), signed.headers)).toEqual({
      status: 400,
      text: 'SIGNATURE_MISMATCH',
    });
    const foreign = await delivery('whsec_someone_else');
    expect(await deliver(server.url, foreign.body, foreign.headers)).toEqual({
      status: 400,
      text: 'SIGNATURE_MISMATCH',
    });
  });

  // Express's example keeps a replay store and acknowledges a repeat with 200; Fastify's has none, so a
  // repeat inside the tolerance is verified again (204): the store is what stops it.
  it('a delivery sent twice: acknowledged as REPLAYED with a replay store, accepted again without one', async () => {
    const { body, headers } = await delivery();
    expect(await deliver(server.url, body, headers)).toEqual({ status: 204, text: '' });
    const again = await deliver(server.url, body, headers);
    expect(again).toEqual(
      example === 'webhook-express.ts' ? { status: 200, text: 'REPLAYED' } : { status: 204, text: '' },
    );
  });
});

describe('examples/ci-check.ts against the simulator', () => {
  // The script as a user runs it: URLs as arguments, SVC_API_KEY / SVC_BASE_URL from the environment.
  const run = async (file: string, env: Record<string, string>, urls: string[]) => {
    const child = spawn(process.execPath, [file, ...urls], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { code, stdout, stderr };
  };

  it('exits with the verdict: 1 on new critical findings (printed), 0 on a clean page, 4 with the reason when the check could not run, 3 on an unverified site', async () => {
    const sim = await startSimulator({ durations: { ciCheck: 300 }, rateLimit: false });
    try {
      const file = await stripped('ci-check.ts');
      const env = { SVC_API_KEY: sim.keys.full, SVC_BASE_URL: sim.url };
      const fail = await run(file, env, ['https://shop.example.com/?regress=2']);
      expect(fail.code, fail.stderr).toBe(1);
      expect(fail.stdout).toMatch(/^critical \S+ https:\/\/shop\.example\.com\/\?regress=2 /m);
      expect(fail.stdout).toContain('verdict FAIL');
      expect(fail.stderr).toMatch(/QUEUED|RUNNING|COMPLETED/);
      const pass = await run(file, env, ['https://shop.example.com/clean']);
      expect(pass.code, pass.stderr).toBe(0);
      expect(pass.stdout).toContain('verdict PASS');
      const failed = await run(file, env, ['https://shop.example.com/unreachable']);
      expect(failed.code, failed.stderr).toBe(4);
      expect(failed.stderr).toMatch(/The check could not run: No page of the check could be reached\./);
      const unverified = await run(file, env, ['https://blog.example.org/']);
      expect(unverified.code).toBe(3);
      expect(unverified.stderr).toContain('Verify the site in the service first.');
    } finally {
      await sim.stop();
    }
  }, 90_000);
});
