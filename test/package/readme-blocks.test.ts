// The README's TypeScript samples, copied as a user copies them: each block is a module of its own in a
// project outside this repository, importing the package as published (dist/ and package.json, through a
// link under node_modules), type-checked strict under NodeNext. A sample that misses an import, uses a name
// the package does not export, or passes the wrong type fails here, not in a new user's editor.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

// What a block uses but does not define, because the prose around it does: the Express sample's `app`.
const CONTEXT: Array<[RegExp, string]> = [[/\bapp\.post\(/, "declare const app: import('express').Express;\n"]];

let dir: string;
let blocks: string[];
beforeAll(async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  dir = await mkdtemp(join(tmpdir(), 'svc-a11y-readme-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'readme-user', private: true, type: 'module' }));
  // The package as published, plus what a user of the samples installs beside it (Node's and Express' types).
  await mkdir(join(dir, 'node_modules', '@svc'), { recursive: true });
  await symlink(ROOT, join(dir, 'node_modules', '@svc', 'a11y-sdk'), 'dir');
  for (const dep of ['@types', 'express', 'redis', '@redis', 'undici'])
    await symlink(join(ROOT, 'node_modules', dep), join(dir, 'node_modules', dep), 'dir');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('every TypeScript block of the README compiles as written (strict, NodeNext, one module each)', async () => {
  expect(blocks.length).toBeGreaterThanOrEqual(4);
  const files = blocks.map((block, i) => {
    const context = CONTEXT.filter(([when]) => when.test(block))
      .map(([, declare]) => declare)
      .join('');
    return { name: `block-${i + 1}.ts`, source: `${context}${block}export {};\n` };
  });
  for (const { name, source } of files) await writeFile(join(dir, name), source);
  const compilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: true,
    target: 'ES2022',
    lib: ['ES2022', 'DOM'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
  };
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: files.map((f) => f.name) }));
  const output = await promisify(execFile)(process.execPath, [TSC, '-p', dir], { cwd: dir }).then(
    () => '',
    (error: { stdout?: string }) => String(error.stdout ?? error),
  );
  expect(output).toBe('');
}, 60_000);

it('the check is live: a block using a name the package does not export fails', async () => {
  await writeFile(
    join(dir, 'wrong.ts'),
    "import { notAnExportOfTheSdk } from '@svc/a11y-sdk';\nvoid notAnExportOfTheSdk;\n",
  );
  await writeFile(
    join(dir, 'tsconfig.wrong.json'),
    JSON.stringify({ extends: './tsconfig.json', files: ['wrong.ts'] }),
  );
  const output = await promisify(execFile)(process.execPath, [TSC, '-p', join(dir, 'tsconfig.wrong.json')], {
    cwd: dir,
  }).then(
    () => '',
    (error: { stdout?: string }) => String(error.stdout ?? error),
  );
  expect(output).toMatch(
    /wrong\.ts\(1,\d+\): error TS2305: Module '"@svc\/a11y-sdk"' has no exported member 'notAnExportOfTheSdk'/,
  );
}, 60_000);
