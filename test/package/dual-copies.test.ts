// The ESM and CommonJS builds loaded side by side in one process (a dual-package hazard users meet when one
// dependency imports and another requires): an error thrown by either copy is recognised by the other's
// classes and `isApiError`.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ensureBuilt } from '../reliability/support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

// Runs in a fresh node process against dist/: a 404 problem from a loopback server, caught from each copy.
const script = `
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
const esm = await import('${root}dist/index.js');
const cjs = createRequire(import.meta.url)('${root}dist/index.cjs');
const server = createServer((req, res) => {
  res.writeHead(404, { 'content-type': 'application/problem+json' });
  res.end(JSON.stringify({ status: 404, code: 'SCAN_NOT_FOUND', title: 'Not found' }));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = 'http://127.0.0.1:' + server.address().port;
const id = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const caught = async (lib) => new lib.A11yClient({ apiKey: 'svc_dual_key', baseUrl }).scans.get(id).catch((e) => e);
const fromCjs = await caught(cjs);
const fromEsm = await caught(esm);
const local = new esm.ConflictError(409, undefined, new Headers(), { method: 'GET', url: '/' });
class UserError extends esm.NotFoundError {}
const user = new UserError(404, undefined, new Headers(), { method: 'GET', url: '/' });
console.log(JSON.stringify({
  distinctCopies: esm.NotFoundError !== cjs.NotFoundError,
  cjsErrorSeenByEsm: [fromCjs instanceof esm.NotFoundError, fromCjs instanceof esm.ApiError, fromCjs instanceof esm.A11yError, esm.isApiError(fromCjs, 'SCAN_NOT_FOUND')],
  esmErrorSeenByCjs: [fromEsm instanceof cjs.NotFoundError, fromEsm instanceof cjs.ApiError, fromEsm instanceof cjs.A11yError, cjs.isApiError(fromEsm, 'SCAN_NOT_FOUND')],
  wrongClass: [fromCjs instanceof esm.ConflictError, fromCjs instanceof esm.RateLimitError, local instanceof cjs.NotFoundError, fromCjs instanceof esm.RequestValidationError],
  notErrors: [({}) instanceof esm.ApiError, null instanceof esm.A11yError, Object.create(null) instanceof esm.ApiError],
  userSubclass: [user instanceof cjs.NotFoundError, user instanceof cjs.ApiError, fromCjs instanceof UserError, user instanceof UserError],
}));
server.close();
`;

describe('ESM and CommonJS copies in one process', () => {
  it('instanceof and isApiError recognise errors across the copies, and only of the right class', () => {
    ensureBuilt();
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(JSON.parse(out)).toEqual({
      distinctCopies: true,
      cjsErrorSeenByEsm: [true, true, true, true],
      esmErrorSeenByCjs: [true, true, true, true],
      wrongClass: [false, false, false, false],
      notErrors: [false, false, false],
      // A user's subclass is recognised as what it extends, across copies; a class with no kind of its own
      // keeps plain prototype semantics.
      userSubclass: [true, true, false, true],
    });
  });
});
