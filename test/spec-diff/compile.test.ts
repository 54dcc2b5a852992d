// The compile-time items of the classification table, for real: each mutation marked `compile` in mutations.mjs
// is written to a scratch copy's openapi.yaml, the package's generator (scripts/generate.mjs, the code of
// `npm run generate`) regenerates that copy's generated/, and `tsc` must fail there with a message naming what
// changed (a path parameter, an operationId, an enum value) — in the SDK's own resource calls, or in a user's code
// that was correct before.
//
// One copy serves every fixture, reset to the package's own files before each (what a fresh copy would hold): the
// generator's modules are loaded once, where a copy, an `npm` process and a generator process per fixture cost ~3 s
// each. `npm run generate` itself is judged by maintainer-path.test.ts and `npm run generate:check`.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '../../scripts/generate.mjs';
import { typecheckNative } from '../support/typecheck.js';
import { mutations } from './mutations.mjs';
import { type Scratch, scratchCopy } from './scratch.js';

// The SDK's entry (every resource and the operation table are reachable from it) and a user's module.
const TSCONFIG = JSON.stringify({ extends: './tsconfig.json', include: ['src/index.ts', 'consumer/*.ts'] });
const compiled = mutations.filter((m) => m.compile);

let copy: Scratch;
// `tsc --noEmit -p tsconfig.fixture.json` by the compiler `npm run typecheck` runs (TypeScript 7's native one): what
// a maintainer would see. In this process TypeScript 5.9 reused only the libraries' parsed files (every check
// follows a regeneration the SDK's sources depend on) and cost a full run ~12 more CPU-seconds.
const tsc = () => typecheckNative(join(copy.dir, 'tsconfig.fixture.json'));
// The package's text of every file a fixture changes: the description, what it regenerates, the sources it edits.
const originals = new Map<string, string>();

beforeAll(() => {
  copy = scratchCopy('svc-a11y-compile-');
  copy.write('tsconfig.fixture.json', TSCONFIG);
  const generated = readdirSync(join(copy.dir, 'generated')).map((name) => `generated/${name}`);
  const edited = compiled.flatMap((m) => Object.keys(m.compile!.src ?? {}));
  for (const file of ['openapi.yaml', ...generated, ...edited]) originals.set(file, copy.read(file));
}, 120_000);
afterAll(() => copy?.remove());

/** Puts the copy back as it was made: the package's files, and no user module. */
function reset() {
  for (const [file, text] of originals) copy.write(file, text);
  rmSync(join(copy.dir, 'consumer'), { recursive: true, force: true });
}

describe('compile-time items: regenerated, tsc fails naming what changed', () => {
  let baseline: { code: number; output: string };
  beforeAll(() => {
    // The copy, with every user module of the fixtures, compiles before any mutation: a failure below is the mutation's.
    reset();
    for (const [i, m] of compiled.entries()) {
      if (m.compile!.consumer) copy.write(`consumer/fixture-${i}.ts`, m.compile!.consumer);
    }
    baseline = tsc();
  }, 120_000);
  beforeEach(reset);

  it('at least four items, and the unmutated copy compiles', () => {
    expect(compiled.length).toBeGreaterThanOrEqual(4);
    expect(baseline, baseline.output).toMatchObject({ code: 0 });
  });

  // One after another: they share the copy, and generation and tsc run in this process anyway.
  for (const m of compiled) {
    it(`${m.class}: ${m.name}`, async () => {
      const doc = YAML.parse(copy.read('openapi.yaml'), { maxAliasCount: -1 });
      m.prepare?.(doc);
      m.mutate(doc);
      copy.write('openapi.yaml', YAML.stringify(doc));
      for (const [name, text] of Object.entries(await generate(join(copy.dir, 'openapi.yaml'))))
        copy.write(`generated/${name}`, text);
      for (const [file, edit] of Object.entries(m.compile!.src ?? {})) {
        const before = copy.read(file);
        copy.write(file, edit(before));
        expect(copy.read(file), `the fixture's edit of ${file} applies`).not.toBe(before);
      }
      if (m.compile!.consumer) copy.write('consumer/consumer.ts', m.compile!.consumer);
      const result = tsc();
      expect(result.code, result.output).not.toBe(0);
      expect(result.output).toMatch(m.compile!.expect);
    }, 300_000);
  }
});
