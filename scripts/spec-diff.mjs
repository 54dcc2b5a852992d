#!/usr/bin/env node
// `npm run spec:diff [ref]`: what a change of openapi.yaml does to the SDK's users. Compares the description at a
// git ref (default HEAD) with the working tree, classifies every change for a client, and ends with the bump it
// requires. The classification (scripts/spec-diff/) reads the two documents with local `$ref`s followed: the
// OpenAPI diff tools that install on these machines either reject OpenAPI 3.1 (openapi-diff) or miss security,
// constraint and enum-direction rules (@useoptic/optic); see CONTRIBUTING.md's "When the service's description changes".
//
// Classes (from a user's side, judged on the wire AND on a TypeScript consumer's build after regeneration;
// "request" is what the SDK sends, "response" what it receives, "webhook" what a receiver built on verifyWebhook
// reads, "receiver answer" what that receiver sends back):
//   breaking             code that compiles and works today may stop compiling (a field, enum value or method
//                        it names is gone, a field may be undefined) or fail at run time (a request refused)
//   potentially breaking the wire stays compatible for code that follows the types, but some correct code may
//                        stop compiling (an exhaustive switch's `never` check, a branch on a dropped type) or
//                        meet a value its closed types do not list (enum widened, new success status)
//   additive             something new that nobody has to use: no correct code stops compiling or working
//   docs                 descriptions, examples, deprecation marks, and what users cannot see at all (a path
//                        parameter renamed in place, a webhook's operationId): patch
// The full table, one row per rule, is in CONTRIBUTING.md ("Classes and bumps") and in test/spec-diff/mutations.mjs.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { formatReport, requiredBump } from './spec-diff/bump.mjs';
import { diffSpecs } from './spec-diff/diff.mjs';

export {
  bumpCovers,
  CLASSES,
  formatReport,
  isPre1,
  maxBump,
  PRE1_BUMP,
  requiredBump,
  SEMVER_BUMP,
  worstClass,
} from './spec-diff/bump.mjs';
export { diffSpecs } from './spec-diff/diff.mjs';
/** @typedef {import('./spec-diff/bump.mjs').Bump} Bump */
/** @typedef {import('./spec-diff/bump.mjs').Change} Change */

/** The text of `file` at git `ref`, or undefined when the file does not exist there. */
export function fileAtRef(ref, file, cwd = process.cwd()) {
  try {
    return execFileSync('git', ['show', `${ref}:./${file}`], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 << 20,
    });
  } catch (e) {
    const msg = String(/** @type {any} */ (e).stderr ?? e);
    if (/does not exist|exists on disk, but not in/.test(msg)) return undefined;
    throw new Error(`git show ${ref}:${file} failed: ${msg.trim()}`);
  }
}

const parsed = new Map();
/**
 * Parses a description (YAML or JSON); an absent one is an empty API. The last few results are kept (parsing
 * the 80 kB description is most of a check's time): treat the returned document as read-only.
 */
export function parseSpec(text) {
  if (text === undefined) return { openapi: '3.1.0', paths: {} };
  let doc = parsed.get(text);
  if (!doc) {
    doc = YAML.parse(text, { maxAliasCount: -1 }) ?? { openapi: '3.1.0', paths: {} };
    if (parsed.size >= 4) parsed.delete(parsed.keys().next().value);
    parsed.set(text, doc);
  }
  return doc;
}

function main(argv) {
  const args = [...argv];
  const opt = (name) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const v = args[i + 1];
    args.splice(i, 2);
    return v;
  };
  const baseFile = opt('--base-file');
  const headFile = opt('--head-file') ?? 'openapi.yaml';
  let version = opt('--version');
  const json = args.includes('--json');
  const rest = args.filter((a) => a !== '--json');
  if (rest.some((a) => a.startsWith('-'))) {
    console.error(
      'usage: npm run spec:diff -- [ref] [--json] [--version x.y.z] [--base-file a.yaml] [--head-file b.yaml]',
    );
    return 2;
  }
  const ref = rest[0] ?? 'HEAD';
  version ??= JSON.parse(readFileSync('package.json', 'utf8')).version;
  const baseText = baseFile ? readFileSync(baseFile, 'utf8') : fileAtRef(ref, headFile);
  if (baseText === undefined) console.error(`${headFile} does not exist at ${ref}: every operation is new.`);
  const changes = diffSpecs(parseSpec(baseText), parseSpec(readFileSync(headFile, 'utf8')));
  if (json) console.log(JSON.stringify({ version, requiredBump: requiredBump(changes, version), changes }, null, 2));
  else console.log(formatReport(changes, { version, from: baseFile ?? `${ref}`, to: `${headFile} (working tree)` }));
  return 0;
}

if (process.argv[1] && resolvePath(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (e) {
    console.error(`spec:diff: ${/** @type {Error} */ (e).message}`);
    process.exitCode = 2;
  }
}
