// The compile-time items of the classification table, for real: each mutation marked `compile` in mutations.mjs
// is written to a scratch copy's openapi.yaml, `npm run generate` regenerates that copy's generated/, and `tsc`
// must fail there with a message naming what changed (a path parameter, an operationId, an enum value) — in
// the SDK's own resource calls, or in a user's code that was correct before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { join } from 'node:path';
import { typecheckProject } from '../support/typecheck.js';
import { mutations } from './mutations.mjs';
import { type Scratch, scratchCopy } from './scratch.js';

// The SDK's entry (every resource and the operation table are reachable from it) and a user's module.
const TSCONFIG = JSON.stringify({ extends: './tsconfig.json', include: ['src/index.ts', 'consumer/*.ts'] });
// `tsc --noEmit -p tsconfig.fixture.json`, in this process: the libs and dependencies are parsed once for all copies.
const tsc = (copy: Scratch) => typecheckProject(join(copy.dir, 'tsconfig.fixture.json'));

const compiled = mutations.filter((m) => m.compile);
// Two fixtures at a time: generation and tsc are CPU-bound, and the CI machines have two cores.
let free = 2;
const queue: Array<() => void> = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (free === 0) await new Promise<void>((resolve) => queue.push(resolve));
  else free--;
  try {
    return await work();
  } finally {
    const next = queue.shift();
    if (next) next();
    else free++;
  }
}
const copies: Scratch[] = [];
afterAll(() => {
  for (const c of copies.splice(0)) c.remove();
});

function prepared(): Scratch {
  const copy = scratchCopy('svc-a11y-compile-');
  copies.push(copy);
  copy.write('tsconfig.fixture.json', TSCONFIG);
  return copy;
}

describe('compile-time items: regenerated, tsc fails naming what changed', () => {
  let baseline: { code: number; output: string };
  beforeAll(async () => {
    // The copy, with every user module of the fixtures, compiles before any mutation: a failure below is the mutation's.
    const copy = prepared();
    for (const [i, m] of compiled.entries()) {
      if (m.compile!.consumer) copy.write(`consumer/fixture-${i}.ts`, m.compile!.consumer);
    }
    baseline = tsc(copy);
  }, 120_000);

  it('at least four items, and the unmutated copy compiles', () => {
    expect(compiled.length).toBeGreaterThanOrEqual(4);
    expect(baseline, baseline.output).toMatchObject({ code: 0 });
  });

  for (const m of compiled) {
    it.concurrent(
      `${m.class}: ${m.name}`,
      () =>
        slot(async () => {
          const copy = prepared();
          const doc = YAML.parse(copy.read('openapi.yaml'), { maxAliasCount: -1 });
          m.prepare?.(doc);
          m.mutate(doc);
          copy.write('openapi.yaml', YAML.stringify(doc));
          const generated = await copy.run('npm', 'run', '--silent', 'generate');
          expect(generated, generated.output).toMatchObject({ code: 0 });
          for (const [file, edit] of Object.entries(m.compile!.src ?? {})) {
            const before = copy.read(file);
            copy.write(file, edit(before));
            expect(copy.read(file), `the fixture's edit of ${file} applies`).not.toBe(before);
          }
          if (m.compile!.consumer) copy.write('consumer/consumer.ts', m.compile!.consumer);
          const result = tsc(copy);
          expect(result.code, result.output).not.toBe(0);
          expect(result.output).toMatch(m.compile!.expect);
        }),
      300_000,
    );
  }
});
