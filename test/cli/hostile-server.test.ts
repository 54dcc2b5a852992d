// The built CLI in front of a server that redirects or answers without end: a documented exit code (3) and a
// message that points at the base URL, never "internal error" (70) and never the key.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startLoopback, type Loopback } from '../support/loopback.js';

const KEY = 'svc_cli_hostile_key_4242';
let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('svc-a11y against a hostile server', () => {
  it('a redirect → exit 3, "redirect" named with the base-URL hint; the target never asked', async () => {
    const target = await startLoopback(
      (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
    );
    server = await startLoopback(
      (_req, res) => void res.writeHead(302, { location: `${target.url}/api/v1/sites?sig=hunter2` }).end(),
    );
    try {
      const r = await runCli(['sites'], { env: { SVC_API_KEY: KEY, SVC_BASE_URL: server.url } });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/redirect to http:\/\/127\.0\.0\.1:\d+/);
      expect(r.stderr).toContain('SVC_BASE_URL');
      expect(r.stderr + r.stdout).not.toContain('hunter2');
      expect(r.stderr + r.stdout).not.toContain(KEY);
      expect(target.requests).toHaveLength(0);
    } finally {
      await target.close();
    }
  });

  it('an endless body → exit 3 naming the cap', async () => {
    server = await startLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
      };
      res.on('error', () => undefined);
      pump();
    });
    const r = await runCli(['sites'], { env: { SVC_API_KEY: KEY, SVC_BASE_URL: server.url }, timeoutMs: 20_000 });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('larger than 33554432 bytes');
  });
});
