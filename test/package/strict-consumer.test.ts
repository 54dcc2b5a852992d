// The published types as a strict user's compiler sees them: a project outside this repository, with the
// package under node_modules (a link to this one: dist/ and package.json as published), `strict`,
// `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess` and `skipLibCheck: false`, type-checked with
// `moduleResolution` NodeNext, bundler and node10 (typesVersions). Options passed through from variables that
// may be undefined must compile; a wrong type must still be refused (the check is live); a CommonJS project
// may mix in the ESM copy.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSUMER, type ConsumerSetup, linkPackage, REFUSED, STRICT, typecheck as check } from './consumer-project.js';

const COMPILER = {
  ...STRICT,
  target: 'ES2022',
  lib: ['ES2022', 'DOM'],
  types: [],
};
const SETUPS: ConsumerSetup[] = [
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
  dir = await linkPackage(await mkdtemp(join(tmpdir(), 'svc-a11y-consumer-')));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const typecheck = (setup: ConsumerSetup, files: Record<string, string>) =>
  check('typescript', dir, { ...setup, compilerOptions: { ...COMPILER, ...setup.compilerOptions } }, files);

// A CommonJS project that also loads the ESM build (await import): one A11yClient type for both copies.
const BOTH_COPIES = `import { A11yClient } from '@svc/a11y-sdk';
export async function fromEsm(): Promise<A11yClient> {
  const esm = await import('@svc/a11y-sdk');
  return new esm.A11yClient({ apiKey: 'svc_types', baseUrl: 'https://a11y.example.com' });
}
`;

it("a CommonJS project may hold the ESM copy's client in its own A11yClient type", async () => {
  const setup: ConsumerSetup = {
    name: 'NodeNext (CommonJS)',
    type: 'commonjs',
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' },
  };
  expect(await typecheck(setup, { 'consumer.ts': BOTH_COPIES })).toBe('');
}, 60_000);

// skipDefaultLibCheck (STRICT) skips TypeScript's lib files only: a declaration file other than those, as the package's
// dist/*.d.ts are, is still checked.
it("a declaration file with an error is reported: only TypeScript's own lib files go unchecked", async () => {
  const out = await typecheck(SETUPS[0]!, { 'declared.d.ts': 'export declare const pages: Map<string>;\n' });
  expect(out).toMatch(
    /^declared\.d\.ts\(1,\d+\): error TS2314: Generic type 'Map<K, V>' requires 2 type argument\(s\)/m,
  );
}, 60_000);

describe.each(SETUPS)('a strict consumer, moduleResolution $name', (setup) => {
  // One compiler run per set-up (each takes seconds of CPU): the consumer must compile with no error, and the one
  // wrong line beside it must be refused (the check is live).
  it('compiles options that may be undefined, RATE_LIMITED narrowing and every entry point; refuses only the wrong type', async () => {
    const out = await typecheck(setup, { 'consumer.ts': CONSUMER, 'refused.ts': REFUSED });
    const errors = out.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(errors, out).toHaveLength(1);
    expect(errors[0]).toMatch(/^refused\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
  }, 60_000);
});
