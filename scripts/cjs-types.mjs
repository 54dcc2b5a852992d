#!/usr/bin/env node
// The declarations of the CommonJS entries (dist/*.d.cts), written from the ESM ones scripts/build-types.mjs just
// wrote (dist/*.d.ts). They are the same declarations: only the relative imports name `.cjs` files instead of `.js`,
// so a second declaration build for the CJS format is not needed. Are the Types Wrong (`npm run check:package`)
// checks the result as a CommonJS consumer resolves it.
//   node scripts/cjs-types.mjs     run by `npm run build`, after scripts/build-types.mjs
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// A relative module specifier ending in .js (or .cjs), after `from` or inside `import(…)` (a type import).
const RELATIVE_JS = /(\bfrom\s*|\bimport\s*\(\s*)(['"])(\.\.?\/[^'"]+)\.js\2/g;
const RELATIVE_CJS = /(\bfrom\s*|\bimport\s*\(\s*)(['"])(\.\.?\/[^'"]+)\.cjs\2/g;

/** The text of a .d.cts from its .d.ts: relative `.js` specifiers become `.cjs`. */
function toCjsDeclarations(text) {
  return text.replace(RELATIVE_JS, (_, before, quote, path) => `${before}${quote}${path}.cjs${quote}`);
}

// The .d.cts every `require` condition of `exports` names, and the chunks they import, transitively.
const pending = Object.values(pkg.exports)
  .map((entry) => entry?.require?.types)
  .filter((types) => typeof types === 'string')
  .map((types) => join(root, types));
const written = new Set();
while (pending.length > 0) {
  const cts = pending.pop();
  if (written.has(cts)) continue;
  const dts = cts.replace(/\.d\.cts$/, '.d.ts');
  if (!existsSync(dts)) {
    console.error(
      `cjs-types: ${relative(root, dts)} is missing: run scripts/build-types.mjs first (\`npm run build\` does).`,
    );
    process.exit(1);
  }
  const text = toCjsDeclarations(readFileSync(dts, 'utf8'));
  writeFileSync(cts, text);
  written.add(cts);
  for (const [, , , path] of text.matchAll(RELATIVE_CJS)) pending.push(join(dirname(cts), `${path}.d.cts`));
}
console.log(`cjs-types: wrote ${written.size} .d.cts files from their .d.ts`);
