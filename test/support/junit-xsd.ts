// Validation of JUnit XML against Jenkins' junit-10.xsd (test/fixtures) with xmllint (Debian's libxml2-utils).
// A missing xmllint is an error, never a skipped test: .ci/run installs it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The schema file: jenkinsci/xunit-plugin's junit-10.xsd, byte for byte (see test/fixtures/README.md). */
export const JUNIT_XSD = fileURLToPath(new URL('../fixtures/junit-10.xsd', import.meta.url));

/** SHA-256 of {@link JUNIT_XSD} as fetched; a test checks it so the schema is never edited by accident. */
export const JUNIT_XSD_SHA256 = 'a1a816f58d1bf95ebabf371994df0b9246dee66ea9572fbec4f9296f1b2c0ff6';

export const XMLLINT_MISSING =
  "xmllint was not found on PATH. The JUnit schema tests need it: install Debian's libxml2-utils " +
  '(`apt-get install -y libxml2-utils`); .ci/run installs it on CI machines.';

/** Result of one xmllint run: which files validated, and everything it printed. */
export interface XsdResult {
  ok: boolean;
  /** Per document name: true when xmllint reported "<file> validates". */
  valid: Record<string, boolean>;
  output: string;
}

/**
 * Runs `xmllint --noout --schema junit-10.xsd` on the documents (name → XML text) in one process.
 * @throws Error with {@link XMLLINT_MISSING} when xmllint cannot be run
 */
export function validateJUnitXsd(documents: Record<string, string>, env: NodeJS.ProcessEnv = process.env): XsdResult {
  const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-junit-'));
  try {
    const files = Object.entries(documents).map(([name, xml]) => {
      const file = join(dir, `${name.replace(/[^A-Za-z0-9_-]/g, '_')}.xml`);
      writeFileSync(file, xml, 'utf8');
      return [name, file] as const;
    });
    const run = spawnSync('xmllint', ['--noout', '--schema', JUNIT_XSD, ...files.map(([, file]) => file)], {
      encoding: 'utf8',
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.error)
      throw new Error(`${XMLLINT_MISSING} (${(run.error as NodeJS.ErrnoException).code ?? run.error.message})`);
    // "… is a schema" errors (exit 5) mean the XSD itself failed to load: not a verdict on the documents.
    if (run.status === 5 || /failed to compile|WXS schema .* failed/.test(run.stderr)) {
      throw new Error(`xmllint could not load ${JUNIT_XSD}:\n${run.stderr}`);
    }
    const output = `${run.stdout}${run.stderr}`;
    const valid = Object.fromEntries(files.map(([name, file]) => [name, output.includes(`${file} validates`)]));
    return { ok: run.status === 0 && Object.values(valid).every(Boolean), valid, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
