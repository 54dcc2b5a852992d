// Validation of JUnit XML against Jenkins' junit-10.xsd (test/fixtures) with xmllint-wasm: libxml2's xmllint
// compiled to WebAssembly, an exactly pinned devDependency, so `npm ci` brings it and no system package is needed.
// Its API is asynchronous (it runs in a worker thread); validateJUnitXsd stays synchronous for its callers by
// running it in a child Node process, one per call, with the documents on stdin and the verdict on stdout.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The schema file: jenkinsci/xunit-plugin's junit-10.xsd, byte for byte (see test/fixtures/README.md). */
export const JUNIT_XSD = fileURLToPath(new URL('../fixtures/junit-10.xsd', import.meta.url));

/** SHA-256 of {@link JUNIT_XSD} as fetched; a test checks it so the schema is never edited by accident. */
export const JUNIT_XSD_SHA256 = 'a1a816f58d1bf95ebabf371994df0b9246dee66ea9572fbec4f9296f1b2c0ff6';

const XMLLINT_WASM = createRequire(import.meta.url).resolve('xmllint-wasm');

// The child: one `xmllint --noout --schema <xsd> <files…>` in xmllint-wasm's in-memory file system. xmllint-wasm
// resolves with valid true (exit 0) or false (exit 3 or 4) and rejects with the exit code for anything else (5: the
// schema did not compile); the child reports the exit code and everything xmllint printed on stderr.
const CHILD = `
const { validateXML, memoryPages } = require(process.argv[1]);
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', async () => {
  const { schema, xml } = JSON.parse(input);
  let result;
  try {
    const run = await validateXML({ xml, schema, maxMemoryPages: memoryPages.GiB });
    result = { status: run.valid ? 0 : 3, stderr: run.rawOutput };
  } catch (error) {
    result = { status: typeof error.code === 'number' ? error.code : null, stderr: String(error?.message ?? error) };
  }
  process.stdout.write(JSON.stringify(result));
});
`;

/** Result of one xmllint run: which documents validated, and everything it printed. */
export interface XsdResult {
  ok: boolean;
  /** Per document name: true when xmllint reported "<file> validates". */
  valid: Record<string, boolean>;
  output: string;
}

/**
 * Runs `xmllint --noout --schema junit-10.xsd` (xmllint-wasm) on the documents (name → XML text) in one process.
 * @param schema the XSD file, {@link JUNIT_XSD} unless a test gives another
 * @throws Error saying "xmllint could not load <schema>" when the schema itself does not compile
 */
export function validateJUnitXsd(documents: Record<string, string>, schema: string = JUNIT_XSD): XsdResult {
  // In-memory file names: unique, and never starting with "-" (xmllint would read an option).
  const files = Object.entries(documents).map(
    ([name, xml], i) => [name, `${i + 1}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}.xml`, xml] as const,
  );
  const input = JSON.stringify({
    schema: { fileName: basename(schema), contents: readFileSync(schema, 'utf8') },
    xml: files.map(([, fileName, contents]) => ({ fileName, contents })),
  });
  const run = spawnSync(process.execPath, ['-e', CHILD, XMLLINT_WASM], {
    input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  let result: { status: number | null; stderr: string };
  try {
    result = JSON.parse(run.stdout);
  } catch {
    throw new Error(
      `xmllint-wasm did not run (exit ${run.status ?? run.signal}; \`npm ci\` installs it):\n${run.stderr}${run.error ?? ''}`,
    );
  }
  // "… failed to compile" (exit 5) means the XSD itself failed to load: not a verdict on the documents.
  if (result.status === 5 || /failed to compile|WXS schema .* failed/.test(result.stderr)) {
    throw new Error(`xmllint could not load ${schema}:\n${result.stderr}`);
  }
  const output = result.stderr;
  const lines = new Set(output.split('\n'));
  const valid = Object.fromEntries(files.map(([name, fileName]) => [name, lines.has(`${fileName} validates`)]));
  return { ok: result.status === 0 && Object.values(valid).every(Boolean), valid, output };
}
