// The lowest TypeScript and `lib` the package states it supports (the optional peer `typescript` in package.json,
// and the docs), checked on the consumer project with that very compiler: the devDependency alias
// `typescript-lowest` (installed with the rest, nothing is fetched at test time), `strict`,
// `exactOptionalPropertyTypes`, `skipLibCheck: false`, `lib` ES2022 with DOM — or with @types/node, for a Node
// project without DOM — under NodeNext (ESM and CommonJS: the .d.ts and the .d.cts copies) and node10
// (typesVersions). How the floor was found: TypeScript 4.8 refuses the CommonJS NodeNext project (4.9 is the
// first to resolve its `require` types), a `lib` below ES2022 lacks `ErrorOptions`, and `moduleResolution`
// bundler came with TypeScript 5.0 (strict-consumer.test.ts checks it with today's compiler).
import { readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSUMER, type ConsumerSetup, linkPackage, REFUSED, ROOT, STRICT, typecheck } from './consumer-project.js';

const LOWEST = join(ROOT, 'node_modules', 'typescript-lowest');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const pkg = readJson(join(ROOT, 'package.json'));

const LOWEST_LIB = { target: 'ES2022', lib: ['ES2022', 'DOM'], types: [] };
const SETUPS: ConsumerSetup[] = [
  {
    name: 'NodeNext (ESM)',
    type: 'module',
    compilerOptions: { ...LOWEST_LIB, module: 'NodeNext', moduleResolution: 'NodeNext' },
  },
  {
    name: 'NodeNext (CommonJS)',
    type: 'commonjs',
    compilerOptions: { ...LOWEST_LIB, module: 'NodeNext', moduleResolution: 'NodeNext' },
  },
  {
    // `node10` is spelled `node` before TypeScript 5.0.
    name: 'node10 (CommonJS, typesVersions)',
    type: 'commonjs',
    compilerOptions: { ...LOWEST_LIB, module: 'CommonJS', moduleResolution: 'node' },
  },
  {
    name: 'NodeNext (ESM), @types/node instead of DOM',
    type: 'module',
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2022'],
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules', '@types')],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
    },
  },
];

let dir: string;
beforeAll(async () => {
  dir = await linkPackage(await mkdtemp(join(tmpdir(), 'svc-a11y-lowest-ts-')));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the lowest supported TypeScript', () => {
  it('is the one the package states, pinned exactly, and does not replace the project compiler', () => {
    const alias = /^npm:typescript@(\d+)\.(\d+)\.(\d+)$/.exec(pkg.devDependencies['typescript-lowest']);
    expect(alias, 'typescript-lowest is an exact npm:typescript@x.y.z alias').not.toBeNull();
    const [, major, minor] = alias!;
    expect(readJson(join(LOWEST, 'package.json')).version).toBe(alias![0].slice('npm:typescript@'.length));
    // Stated in the runtimes page, not as a peer dependency (npm would refuse to install next to an older one).
    expect(readFileSync(join(ROOT, 'docs', 'runtimes.md'), 'utf8')).toContain(`TypeScript ${major}.${minor} or later`);
    expect(pkg.peerDependencies?.typescript).toBeUndefined();
    // Both packages declare a `tsc` bin: npm scripts' `tsc` must stay the project's own compiler.
    expect(realpathSync(join(ROOT, 'node_modules', '.bin', 'tsc'))).toBe(
      realpathSync(join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')),
    );
  });

  describe.each(SETUPS)('a strict consumer, $name', (setup) => {
    it('compiles every entry point and refuses only the wrong type (the check is live)', async () => {
      const out = await typecheck(
        'typescript-lowest',
        dir,
        { ...setup, compilerOptions: { ...STRICT, ...setup.compilerOptions } },
        { 'consumer.ts': CONSUMER, 'refused.ts': REFUSED },
      );
      const errors = out.split('\n').filter((line) => /error TS\d+/.test(line));
      expect(errors, out).toHaveLength(1);
      expect(errors[0]).toMatch(
        /^refused\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
      );
    }, 60_000);
  });
});
