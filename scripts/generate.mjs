#!/usr/bin/env node
// Regenerates generated/ from openapi.yaml (the single source of truth).
//   node scripts/generate.mjs          write generated/schema.ts and generated/zod.gen.ts
//   node scripts/generate.mjs --check  regenerate into a temporary folder and fail when generated/ differs
// `generate(spec)` returns the same files in memory for another description (test/spec-diff/compile.test.ts calls it
// once per fixture, paying the generators' ~1.5 s of module loading once instead of once per process).
import { realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { createClient } from '@hey-api/openapi-ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const defaultSpec = join(root, 'openapi.yaml');
const outDir = join(root, 'generated');
const HEADER = '// generated — do not edit. Source: openapi.yaml; regenerate with `npm run generate`.\n';

/**
 * Builds the generated files of a description in memory: `{ 'schema.ts': text, 'zod.gen.ts': text, … }`.
 * @param {string} [spec] the description's path (default: this package's openapi.yaml)
 */
export async function generate(spec = defaultSpec) {
  const ast = await openapiTS(new URL(`file://${spec}`), { alphabetize: false });
  const schema = `${HEADER}/* eslint-disable */\n${astToString(ast)}`;

  return {
    'schema.ts': schema,
    'zod.gen.ts': await heyApiZod(spec, {}),
    // Request schemas only, as a module of their own: the root bundle imports it, while the lazily loaded
    // response validation imports zod.gen.ts, so a bundler's code splitting cannot pull the response
    // schemas into the root chunk through a shared module.
    'zod.requests.gen.ts': await heyApiZod(spec, { responses: false }),
  };
}

/** Runs @hey-api/openapi-ts' zod plugin on `spec` with extra options and returns its zod module's text. */
async function heyApiZod(spec, extra) {
  // hey-api writes to a folder; generate into a scratch folder and keep only the zod module
  // (we use openapi-fetch as the one transport, so no hey-api client is emitted).
  const scratch = await mkdtemp(join(tmpdir(), 'a11y-gen-'));
  try {
    await createClient({
      input: spec,
      output: { path: scratch, clean: true },
      plugins: [
        {
          name: 'zod',
          // zod/mini tree-shakes: request pre-validation stays cheap in the root bundle.
          compatibilityVersion: 'mini',
          // the document's date-times are ISO 8601; accept offsets like +02:00, not only Z. (Unused while the
          // `date-time` resolver below applies; kept so a hey-api upgrade that drops it still accepts offsets.)
          dates: { offset: true },
          '~resolvers': {
            // `format: uuid` (JSON Schema 2020-12 §7.3.5, RFC 4122/9562 grammar) is any 8-4-4-4-12 hex string,
            // upper or lower case; zod 4's z.uuid() also demands the RFC 9562 version and variant nibbles and
            // so refuses ids the description allows (e.g. a672dbc6-cca7-aff8-8e0f-c726bdfe832a). z.guid() is
            // exactly the hex grammar. Patching nodes.format is hey-api's documented Resolvers API
            // (heyapi.dev/openapi-ts/plugins/concepts/resolvers); returning nothing keeps the default for the rest.
            //
            // `format: date-time` is RFC 3339 §5.6, which zod's z.iso.datetime() narrows: it refuses a lower-case
            // `t`/`z` and every leap second (`23:59:60Z`). src/internal/date-time.ts checks the RFC's grammar;
            // z.stringFormat keeps the issue's format `date-time` for the error message.
            string(ctx) {
              if (ctx.schema.format === 'uuid') ctx.nodes.format = () => ctx.$(ctx.symbols.z).attr('guid').call();
              if (ctx.schema.format === 'date-time') {
                ctx.nodes.format = () =>
                  ctx.$(ctx.symbols.z).attr('stringFormat').call(ctx.$.literal('date-time'), ctx.$(DATE_TIME_CHECK));
              }
            },
          },
          ...extra,
        },
      ],
      logs: { level: 'silent' },
    });
    const zod = await readFile(join(scratch, 'zod.gen.ts'), 'utf8');
    assertNoStrictUuid(zod);
    return HEADER + markPure(importDateTimeCheck(zod.replace(/^\/\/ This file is auto-generated.*\n/, '')));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The RFC 3339 check the `date-time` resolver calls, and the module it comes from (relative to generated/). */
const DATE_TIME_CHECK = 'isRfc3339DateTime';
const DATE_TIME_MODULE = '../src/internal/date-time.js';

/**
 * Imports the date-time check where the module uses it, after zod's import; fails the generation when a
 * `z.iso.datetime(` survives (a hey-api upgrade that no longer calls the resolver would bring back the narrow check).
 */
function importDateTimeCheck(code) {
  if (/\bz\.iso\.datetime\(/.test(code))
    throw new Error(
      'hey-api emitted z.iso.datetime(): the `~resolvers.string` override for `format: date-time` no longer applies',
    );
  if (!code.includes(`${DATE_TIME_CHECK})`)) return code;
  const zodImport = /^import \* as z from 'zod\/mini';\n/m;
  if (!zodImport.test(code))
    throw new Error("the generated zod module no longer starts with `import * as z from 'zod/mini'`");
  return code.replace(zodImport, (line) => `${line}\nimport { ${DATE_TIME_CHECK} } from '${DATE_TIME_MODULE}';\n`);
}

/**
 * Fails the generation when a `z.uuid()` survives: a hey-api upgrade that renames or drops the string resolver
 * hook would otherwise silently bring back RFC 9562 version checks the description does not ask for.
 */
function assertNoStrictUuid(code) {
  if (/\bz\.uuid\(/.test(code)) {
    throw new Error('hey-api emitted z.uuid(): the `~resolvers.string` override for `format: uuid` no longer applies');
  }
}

/**
 * Annotates every `z.…(…)` (and `BigInt(…)`) call as side-effect free. A bundler cannot know that building a schema has no
 * side effects, so without the mark it keeps (and runs at import) every schema of a module it imports, used
 * or not; with it, the root bundle holds only the schemas the operations use.
 */
function markPure(code) {
  return code.replace(/(?<![\w.])(z\.[\w.]+|BigInt)\(/g, '/* @__PURE__ */ $1(');
}

/** Writes generated/ from openapi.yaml, or (`--check`) fails when it is stale. */
async function main() {
  const files = await generate();
  if (process.argv.includes('--check')) {
    const stale = [];
    for (const [name, text] of Object.entries(files)) {
      const current = await readFile(join(outDir, name), 'utf8').catch(() => '');
      if (current !== text) stale.push(name);
    }
    if (stale.length > 0) {
      console.error(
        `generated/ is stale against openapi.yaml: ${stale.join(', ')}. Run \`npm run generate\` and commit.`,
      );
      process.exit(1);
    }
    console.log('generated/ is up to date with openapi.yaml');
  } else {
    await mkdir(outDir, { recursive: true });
    for (const [name, text] of Object.entries(files)) await writeFile(join(outDir, name), text);
    console.log(
      `wrote ${Object.keys(files)
        .map((n) => `generated/${n}`)
        .join(', ')}`,
    );
  }
}

/** Whether node was started with this file (Node names the main module by its real path), not imported. */
function isMain() {
  try {
    return realpathSync(process.argv[1] ?? '') === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}
if (isMain()) await main();
