// Redirects are never followed: nothing reaches the target, and the call fails with a clear
// RedirectError naming the status and the target's origin, never its query string or the key.
import { describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { A11yClient, RedirectError } from '../../src/index.js';
import { json, serveEach, type Handler } from '../support/loopback.js';

const KEY = 'svc_redirect_canary_key_0123';
const serve = serveEach();
const redirect =
  (status: number, location: string): Handler =>
  (_req, res) => {
    res.writeHead(status, { location, 'content-type': 'text/plain' });
    res.end('moved');
  };
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('redirect to another origin', () => {
  it.each([301, 302, 303, 307, 308])(
    '%i on a POST with a body and custom headers → RedirectError; the other origin sees nothing',
    async (status) => {
      const evil = await serve(json(200, { id: 'x', status: 'QUEUED' }));
      const api = await serve(redirect(status, `${evil.url}/steal?token=hunter2`));
      const client = new A11yClient({
        apiKey: KEY,
        baseUrl: api.url,
        headers: { 'x-tenant-secret': 'tenant-s3cret' },
        maxRetries: 2,
      });
      const err = (await failure(client.ciChecks.create({ urls: ['https://shop.example.com/'] }))) as RedirectError;
      expect(err).toBeInstanceOf(RedirectError);
      expect(err.status).toBe(status);
      expect(err.location).toBe(evil.url);
      expect(err.message).toContain(String(status));
      expect(err.message).toContain(evil.url);
      const shown = `${err.message}\n${err.stack}\n${inspect(err, { depth: 10 })}`;
      expect(shown).not.toContain('hunter2');
      expect(shown).not.toContain(KEY);
      expect(evil.requests).toHaveLength(0);
      // Not re-sent either: a redirect is no transient failure.
      expect(api.requests).toHaveLength(1);
    },
  );

  it('on a GET → RedirectError, the target never asked', async () => {
    const evil = await serve(json(200, []));
    const api = await serve(redirect(302, `${evil.url}/api/v1/sites`));
    const err = await failure(new A11yClient({ apiKey: KEY, baseUrl: api.url }).sites.list());
    expect(err).toBeInstanceOf(RedirectError);
    expect(evil.requests).toHaveLength(0);
  });
});

describe('same-origin redirects are refused too (the API documents none)', () => {
  it('a redirect loop on the same origin costs exactly one request', async () => {
    const api = await serve(redirect(307, '/api/v1/sites'));
    const err = (await failure(new A11yClient({ apiKey: KEY, baseUrl: api.url }).sites.list())) as RedirectError;
    expect(err).toBeInstanceOf(RedirectError);
    expect(err.location).toBe(api.url);
    expect(api.requests).toHaveLength(1);
  });

  it('a Location that is not a URL still gives RedirectError, with no location', async () => {
    const api = await serve(redirect(301, 'http://[not a url'));
    const err = (await failure(new A11yClient({ apiKey: KEY, baseUrl: api.url }).sites.list())) as RedirectError;
    expect(err).toBeInstanceOf(RedirectError);
    expect(err.location).toBeUndefined();
  });

  it('asks fetch not to follow (redirect: "manual"), which is what makes browsers return an opaque redirect', async () => {
    const seen: RequestInit[] = [];
    const fetchSpy = (async (_url: string, init: RequestInit) => {
      seen.push(init);
      return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    await new A11yClient({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9', fetch: fetchSpy }).sites.list();
    expect(seen[0]!.redirect).toBe('manual');
  });
});
