// No file of src/ calls `URL.canParse`: on Node 20 its optimized fast path refuses valid URLs with Latin-1 letters
// (see test/unit/parse-url.test.ts), so URLs are parsed with `parseUrl` (src/internal/parse-url.ts for the SDK,
// src/cli/io/parse-url.ts for the CLI and the Action).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

it('no file of src/ calls URL.canParse (comments aside)', () => {
  const calls = files('src').flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line, i) => [`${file}:${i + 1}`, line.replace(/\/\/.*$/, '')] as const)
      .filter(([, code]) => /\bURL\.canParse\s*\(/.test(code))
      .map(([where]) => where),
  );
  expect(calls).toEqual([]);
});
