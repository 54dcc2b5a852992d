// The waits against services whose jobs never finish: a client's cancellation aborts the wait (the poll in flight is
// dropped) and the server keeps serving; timeoutMs ends the wait with an isError result naming the job and how to
// read it later; a closed stdin stops the server with exit code 0, a wait in flight included. Nothing here judges
// how fast the machine is: the tests wait on events (a request seen, a connection closed, the process' exit).
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { json, type Seen, serveEach } from '../support/loopback.js';
import { mcpSessions, rawServers, signal, textOf, until } from './support.js';

const serve = serveEach();
const start = mcpSessions();
const raw = rawServers();
const KEY = 'svc_test_waits_4f2a9c1e';
const CHECK = '7d3f0a2b-9c1e-4b5a-8d6f-0e1a2b3c4d5e';
const URL_A = 'https://shop.example.com/';

/** A service whose CI check is accepted and then, polled, answered by `poll`; sites list as one site. */
function neverFinishing(poll: (req: Seen, res: ServerResponse) => void) {
  return (req: Seen, res: ServerResponse) => {
    if (req.method === 'POST' && req.url === '/api/v1/ci/checks')
      return json(202, { id: CHECK, status: 'QUEUED' }, { location: `/api/v1/ci/checks/${CHECK}` })(req, res, 0);
    if (req.method === 'GET' && req.url === `/api/v1/ci/checks/${CHECK}`) return poll(req, res);
    if (req.method === 'GET' && req.url === '/api/v1/sites')
      return json(200, [
        {
          id: '0f1e2d3c-4b5a-4968-8776-655443322110',
          name: 'Shop',
          rootUrl: URL_A,
          normalizedHost: 'shop.example.com',
          verified: true,
        },
      ])(req, res, 0);
    return json(500, { title: 'unexpected' })(req, res, 0);
  };
}

const running = (req: Seen, res: ServerResponse) =>
  json(200, { id: CHECK, status: 'RUNNING', pages: [{ url: URL_A, status: 'RUNNING' }] })(req, res, 0);

describe('waits', () => {
  it("a client's cancellation aborts the wait (the poll in flight is dropped), and the server keeps serving", async () => {
    const dropped = signal();
    // The poll is never answered: only the wait's abort can end it, and the service sees its connection close.
    const api = await serve(
      neverFinishing((_req, res) => {
        res.on('close', () => dropped.resolve());
      }),
    );
    const mcp = await start({ SVC_API_KEY: KEY, SVC_BASE_URL: api.url });
    const controller = new AbortController();
    const call = mcp.call('check_pages', { urls: [URL_A] }, { signal: controller.signal });
    call.catch(() => undefined);
    await until(() => api.requests.some((r) => r.method === 'GET'));
    controller.abort('the user stopped it');
    await expect(call).rejects.toThrow();
    await dropped.promise;
    const sites = await mcp.call('list_sites');
    expect(sites.isError).toBeFalsy();
    expect((sites.structuredContent as { sites: unknown[] }).sites).toHaveLength(1);
    // One check was started and one poll sent: the cancelled wait asked nothing more.
    expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/v1/ci/checks',
      `GET /api/v1/ci/checks/${CHECK}`,
      'GET /api/v1/sites',
    ]);
  });

  it('timeoutMs ends the wait with an isError result naming the check and get_findings; the server keeps serving', async () => {
    const api = await serve(neverFinishing(running));
    const mcp = await start({ SVC_API_KEY: KEY, SVC_BASE_URL: api.url });
    const result = await mcp.call('check_pages', { urls: [URL_A], timeoutMs: 2000 });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('waited 2000 ms (timeoutMs)');
    expect(text).toContain(`CI check ${CHECK} is still RUNNING`);
    expect(text).toContain('keeps running at the service');
    expect(text).toContain(`get_findings with {"checkId": "${CHECK}"}`);
    expect(result.structuredContent).toEqual({ error: { kind: 'timeout', id: CHECK, status: 'RUNNING' } });
    // Read later as the result says: still running, so a status and no findings yet.
    const later = await mcp.call('get_findings', { checkId: CHECK });
    expect(later.isError).toBeFalsy();
    expect(later.structuredContent).toEqual({ status: 'RUNNING', findings: [], total: 0, omitted: 0 });
    expect(textOf(later)).toContain('still RUNNING');
  });

  it('exits with code 0 soon after stdin closes, a wait in flight included, and writes nothing but protocol messages on stdout', async () => {
    const api = await serve(neverFinishing(running));
    const server = raw({ SVC_API_KEY: KEY, SVC_BASE_URL: api.url });
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'check_pages', arguments: { urls: [URL_A] } },
    });
    // The check is polled, so its wait is in flight (sleeping until the next poll) when stdin closes.
    await until(() => api.requests.some((r) => r.method === 'GET'));
    expect(await server.closeStdin()).toBe(0);
    const messages = server.messages();
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message).toMatchObject({ jsonrpc: '2.0' });
    expect(server.stderr()).toContain('mcp: serving list_sites, check_pages');
    expect(server.stderr()).not.toMatch(/internal error|Error:/);
  });
});
