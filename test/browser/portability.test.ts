// Runtime portability: the root and webhooks entries bundle for the browser without any Node
// builtin, and the bundles work end to end in headless Chromium against the Prism mock (cross-origin).
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtinModules } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildFailure, type BuildOptions, type Message, type Metafile, type OutputFile } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pageHtml = readFileSync(new URL('./page.html', import.meta.url), 'utf8');
const ENTRIES = { index: 'src/index.ts', webhooks: 'src/webhooks/index.ts' } as const;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

interface BrowserBundle {
  errors: Message[];
  metafile?: Metafile;
  outputFiles: OutputFile[];
}

/** Bundles for `platform: 'browser'` in memory; a failed build is returned with its errors, not thrown. */
async function bundleForBrowser(options: BuildOptions = {}): Promise<BrowserBundle> {
  try {
    const result = await build({
      absWorkingDir: root,
      entryPoints: ENTRIES,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
      outdir: 'browser-bundle', // nothing is written (write: false); names the in-memory outputs
      logLevel: 'silent',
      ...options,
    });
    return { errors: result.errors, metafile: result.metafile, outputFiles: result.outputFiles ?? [] };
  } catch (error) {
    const errors = (error as Partial<BuildFailure>).errors;
    if (!Array.isArray(errors)) throw error;
    return { errors, outputFiles: [] };
  }
}

const bareBuiltins = new Set(builtinModules);
const isNodeBuiltin = (path: string) =>
  path.startsWith('node:') || bareBuiltins.has(path) || bareBuiltins.has(path.split('/')[0]!);

/** Every Node builtin named anywhere in the metafile: as an input, an input's import, or an output's import. */
function nodeImportsIn(metafile: Metafile): string[] {
  const found: string[] = [];
  for (const [file, input] of Object.entries(metafile.inputs)) {
    if (isNodeBuiltin(file)) found.push(`input ${file}`);
    for (const imp of input.imports) {
      if (isNodeBuiltin(imp.path) || (imp.original !== undefined && isNodeBuiltin(imp.original))) {
        found.push(`${file} imports ${imp.original ?? imp.path}`);
      }
    }
  }
  for (const [file, output] of Object.entries(metafile.outputs)) {
    for (const imp of output.imports) if (isNodeBuiltin(imp.path)) found.push(`output ${file} imports ${imp.path}`);
  }
  return found;
}

/**
 * Browser stack frames (`at f (http://127.0.0.1:PORT/…)`) are re-labelled so vitest does not take them for
 * local files (it tries to read `/` as a source map and crashes, hiding the real failure).
 */
const fromPage = (text: string) => text.replace(/^(\s*)at /gm, '$1[page] ');

const formatErrors = (errors: Message[]) =>
  errors.map((e) => `${e.location ? `${e.location.file}:${e.location.line}: ` : ''}${e.text}`).join('\n');

describe('browser bundle of the root and webhooks entries', () => {
  it('bundles for platform "browser" with no node: or bare Node builtin import', async () => {
    const { errors, metafile, outputFiles } = await bundleForBrowser();
    expect(errors, formatErrors(errors)).toEqual([]);
    expect(metafile).toBeDefined();
    const inputs = Object.keys(metafile!.inputs);
    expect(inputs).toEqual(expect.arrayContaining(Object.values(ENTRIES)));
    expect(nodeImportsIn(metafile!)).toEqual([]);
    // Both outputs are self-contained: no import of anything left to resolve at run time.
    const outputs = Object.values(metafile!.outputs).filter((o) => o.entryPoint !== undefined);
    expect(outputs.map((o) => o.entryPoint).sort()).toEqual(Object.values(ENTRIES).sort());
    for (const output of outputs) expect(output.imports).toEqual([]);
    // Belt and braces on the emitted code: no static, dynamic or require() load of a node: module.
    for (const file of outputFiles)
      expect(file.text).not.toMatch(/\bfrom\s*["']node:|\b(?:import|require)\s*\(\s*["']node:/);
  });

  it('the guard detects a Node builtin (control)', async () => {
    const stdin = {
      contents: "import { createHmac } from 'node:crypto'; import 'fs'; export const h = createHmac;",
      resolveDir: root,
      loader: 'ts' as const,
    };
    // Bundled for the browser, esbuild rejects the builtins outright...
    const failed = await bundleForBrowser({ entryPoints: undefined, outdir: undefined, stdin });
    expect(formatErrors(failed.errors)).toMatch(/node:crypto/);
    // ...and if they were marked external they would show up in the metafile.
    const external = await bundleForBrowser({
      entryPoints: undefined,
      outdir: undefined,
      stdin,
      external: ['node:*', 'fs'],
    });
    expect(external.errors).toEqual([]);
    expect(nodeImportsIn(external.metafile!)).toEqual(
      expect.arrayContaining([
        '<stdin> imports node:crypto',
        '<stdin> imports fs',
        expect.stringMatching(/^output .* imports node:crypto$/),
      ]),
    );
  });
});

interface E2EResult {
  runtime: { origin: string; hasProcess: boolean; hasSubtle: boolean };
  check: { id: string; status: string; verdict?: string };
  violations: { ruleId: string; isNew: boolean }[];
  event: { id: string; type: string; timestamp: number; payload: unknown };
  tampered: { rejected: boolean; isWebhookVerificationError?: boolean; name?: string; reason?: string };
  subtleSignCalls: number;
}
interface E2EInput {
  prismUrl: string;
  webhook: { body: string; tamperedBody: string; headers: Record<string, string>; secret: string };
}

describe('end to end in headless Chromium', () => {
  const prismUrl = inject('prismUrl');
  let server: Server | undefined;
  let pageUrl = '';
  let browser: Browser | undefined;
  let page: Page;
  const pageErrors: string[] = [];
  const prismRequests: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM_PATH)) {
      throw new Error(
        `Chromium not found at ${CHROMIUM_PATH}. The browser test needs Debian's chromium package: ` +
          'apt-get install -y --no-install-recommends chromium (or set CHROMIUM_PATH to a Chromium binary).',
      );
    }

    const { errors, outputFiles } = await bundleForBrowser();
    if (errors.length > 0) throw new Error(`esbuild browser bundle failed:\n${formatErrors(errors)}`);
    const routes = new Map<string, { type: string; body: string | Uint8Array }>([
      ['/', { type: 'text/html; charset=utf-8', body: pageHtml }],
    ]);
    for (const file of outputFiles)
      routes.set(`/sdk/${basename(file.path)}`, { type: 'text/javascript; charset=utf-8', body: file.contents });
    expect([...routes.keys()].sort()).toEqual(['/', '/sdk/index.js', '/sdk/webhooks.js']);

    server = createServer((req, res) => {
      const route = routes.get(new URL(req.url ?? '/', 'http://localhost').pathname);
      if (!route || req.method !== 'GET') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': route.type, 'Cache-Control': 'no-store' }).end(route.body);
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(0, '127.0.0.1', () => resolve());
    });
    pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

    try {
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
    } catch (error) {
      throw new Error(
        `Could not launch Chromium at ${CHROMIUM_PATH} (install Debian's chromium package: ` +
          `apt-get install -y --no-install-recommends chromium): ${(error as Error).message}`,
      );
    }
    page = await browser.newPage();
    page.on('console', (msg) => {
      if (msg.type() === 'error') pageErrors.push(`console.error: ${msg.text()}`);
    });
    page.on('pageerror', (error) => pageErrors.push(`uncaught: ${error.stack ?? error.message}`));
    page.on('requestfailed', (req) =>
      pageErrors.push(`request failed: ${req.method()} ${req.url()}: ${req.failure()?.errorText}`),
    );
    page.on('request', (req) => {
      if (req.url().startsWith(prismUrl)) prismRequests.push(`${req.method()} ${new URL(req.url()).pathname}`);
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('runs a CI check against Prism and verifies a signed webhook with Web Crypto', { timeout: 60_000 }, async () => {
    const diagnostics = () => (pageErrors.length > 0 ? `\nPage errors:\n${fromPage(pageErrors.join('\n'))}` : '');

    await page.goto(pageUrl, { waitUntil: 'load', timeout: 15_000 });
    try {
      await page.waitForFunction(() => 'runE2E' in window, undefined, { timeout: 15_000 });
    } catch (error) {
      throw new Error(`The page did not load the SDK bundles: ${fromPage((error as Error).message)}${diagnostics()}`);
    }
    // Cross-origin on purpose: the page and Prism listen on different ports, so every API call is CORS.
    expect(new URL(pageUrl).origin).not.toBe(new URL(prismUrl).origin);

    const secret = 'whsec_browser_test';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const payload = { scanRunId: '3fa85f64-5717-4562-b3fc-2c963f66afa6', status: 'COMPLETED', site: 'Café Über' };
    const body = JSON.stringify(payload);
    const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    const input: E2EInput = {
      prismUrl,
      webhook: {
        body,
        tamperedBody: body.replace('COMPLETED', 'CANCELLED'),
        secret,
        headers: {
          'X-Svc-Event': 'scan_run.completed',
          'X-Svc-Delivery': 'cf94ee21-cddc-4544-b08f-510865b77656',
          'X-Svc-Timestamp': timestamp,
          'X-Svc-Signature': `v1=${signature}`,
        },
      },
    };
    expect(input.webhook.tamperedBody).not.toBe(body);

    let result: E2EResult;
    try {
      result = await page.evaluate(
        (arg) => (window as unknown as { runE2E: (i: E2EInput) => Promise<E2EResult> }).runE2E(arg),
        input,
      );
    } catch (error) {
      throw new Error(`The scenario failed in the page: ${fromPage((error as Error).message)}${diagnostics()}`);
    }

    // The browser runtime: no `process`, so the Node HMAC fast path cannot be taken.
    expect(result.runtime).toEqual({ origin: new URL(pageUrl).origin, hasProcess: false, hasSubtle: true });
    // The CI check ran to completion over CORS.
    expect(result.check).toEqual({ id: '396154c7-55f5-43ad-bac0-2dd077d2efcb', status: 'COMPLETED', verdict: 'PASS' });
    expect(result.violations).toEqual([
      { ruleId: 'image-alt', isNew: true },
      { ruleId: 'color-contrast', isNew: false },
    ]);
    expect(prismRequests).toEqual(
      expect.arrayContaining([
        'POST /api/v1/ci/checks',
        'GET /api/v1/ci/checks/396154c7-55f5-43ad-bac0-2dd077d2efcb',
        'GET /api/v1/ci/checks/396154c7-55f5-43ad-bac0-2dd077d2efcb/violations',
      ]),
    );
    // The webhook signed here with node:crypto verified in the page with Web Crypto.
    expect(result.event).toEqual({
      id: 'cf94ee21-cddc-4544-b08f-510865b77656',
      type: 'scan_run.completed',
      timestamp: Number(timestamp),
      payload,
    });
    expect(result.tampered).toEqual({
      rejected: true,
      isWebhookVerificationError: true,
      name: 'WebhookVerificationError',
      reason: 'SIGNATURE_MISMATCH',
    });
    // One HMAC per verification, both through crypto.subtle.sign.
    expect(result.subtleSignCalls).toBe(2);

    // The visible result in the DOM.
    await expect.poll(() => page.locator('#status').getAttribute('data-state')).toBe('pass');
    expect(await page.locator('#status').textContent()).toBe('PASS: the SDK works in this browser');
    expect(await page.locator('#results li').allTextContents()).toEqual([
      'CI check 396154c7-55f5-43ad-bac0-2dd077d2efcb: COMPLETED, verdict PASS, 2 violations',
      'Webhook cf94ee21-cddc-4544-b08f-510865b77656 (scan_run.completed) verified',
      'Tampered webhook rejected: SIGNATURE_MISMATCH',
    ]);
    if (process.env.BROWSER_E2E_SCREENSHOT)
      await page.screenshot({ path: process.env.BROWSER_E2E_SCREENSHOT, fullPage: true });

    expect(pageErrors.map(fromPage), 'errors in the page').toEqual([]);
  });

  it('a redirect in the browser: an opaque redirect, refused as RedirectError; nothing reaches the target', {
    timeout: 30_000,
  }, async () => {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'authorization, content-type, accept',
      'access-control-allow-methods': 'GET, POST',
    };
    const targetRequests: string[] = [];
    const target = createServer((req, res) => {
      targetRequests.push(`${req.method} ${req.url}`);
      res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end('{"id":"x","status":"QUEUED"}');
    });
    const api = createServer((req, res) => {
      if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
      res
        .writeHead(307, {
          ...cors,
          location: `http://127.0.0.1:${(target.address() as AddressInfo).port}/api/v1/ci/checks?token=hunter2`,
        })
        .end();
    });
    await Promise.all([target, api].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
    try {
      if (page.url() !== pageUrl) await page.goto(pageUrl, { waitUntil: 'load', timeout: 15_000 });
      await page.waitForFunction(() => 'runRedirect' in window, undefined, { timeout: 15_000 });
      const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
      const result = (await page.evaluate(
        (arg) => (window as unknown as { runRedirect: (a: { apiUrl: string }) => Promise<unknown> }).runRedirect(arg),
        { apiUrl },
      )) as Record<string, unknown>;
      // The browser hides an opaque redirect's status and target: the error says so, and names neither.
      expect(result).toMatchObject({ thrown: true, isRedirectError: true, name: 'RedirectError' });
      expect(result.status).toBeUndefined();
      expect(result.location).toBeUndefined();
      expect(result.message).toMatch(/redirect/);
      expect(result.message).not.toContain('hunter2');
      expect(targetRequests).toEqual([]);
    } finally {
      await Promise.all([target, api].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    }
  });
});
