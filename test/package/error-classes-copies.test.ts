// The error table through the built package: three copies in one process — the ESM build, the CommonJS build and
// a minified bundle of the ESM build (as an app's bundler ships it, class names mangled) — each map every status
// to the class of the same name in every other copy, and to no other; the name survives minification, since it
// comes from the table and never from `constructor.name`.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../reliability/support.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

// status → the name of the class errorFromResponse gives for it.
const expected: Record<number, string> = {
  400: 'BadRequestError',
  401: 'AuthenticationError',
  403: 'PermissionDeniedError',
  404: 'NotFoundError',
  409: 'ConflictError',
  422: 'UnprocessableEntityError',
  429: 'RateLimitError',
  500: 'InternalServerError',
  503: 'InternalServerError',
  418: 'ApiError',
};

// For each copy that made the error and each copy that checks it: the names of the status classes (and ApiError,
// A11yError) it is an instance of, and its name.
const script = (minified: string) => `
import { createRequire } from 'node:module';
const copies = {
  esm: await import(${JSON.stringify(`${root}dist/index.js`)}),
  cjs: createRequire(import.meta.url)(${JSON.stringify(`${root}dist/index.cjs`)}),
  min: await import(${JSON.stringify(minified)}),
};
const classNames = ${JSON.stringify([...new Set(Object.values(expected)), 'A11yError'])};
const out = { mangled: copies.min.NotFoundError.name, rows: [] };
for (const status of ${JSON.stringify(Object.keys(expected).map(Number))}) {
  for (const [made, lib] of Object.entries(copies)) {
    const err = await lib.errorFromResponse(new Response(null, { status }), { method: 'GET', url: '/' });
    for (const [seen, other] of Object.entries(copies)) {
      out.rows.push({ status, made, seen, name: err.name, is: classNames.filter((c) => err instanceof other[c]) });
    }
  }
}
console.log(JSON.stringify(out));
`;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-error-copies-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('error classes across the ESM, CommonJS and a minified copy', () => {
  it('every status gives the class of its name in each copy, recognised by the others, and only it', async () => {
    ensureBuilt();
    const minified = join(dir, 'index.min.mjs');
    await build({
      entryPoints: [join(root, 'dist/index.js')],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'node',
      outfile: minified,
      logLevel: 'silent',
    });
    const out = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script(minified)], {
        encoding: 'utf8',
        timeout: 20_000,
      }),
    ) as { mangled: string; rows: { status: number; made: string; seen: string; name: string; is: string[] }[] };

    // The minifier did rename the classes: a name read from constructor.name would be wrong here.
    expect(out.mangled).not.toBe('NotFoundError');
    expect(out.rows).toHaveLength(Object.keys(expected).length * 9);
    for (const row of out.rows) {
      const name = expected[row.status]!;
      const is = [...new Set([name, 'ApiError', 'A11yError'])].sort();
      expect({ ...row, is: [...row.is].sort() }, `${row.status} made by ${row.made}, seen by ${row.seen}`).toEqual({
        ...row,
        name,
        is,
      });
    }
  });
});
