#!/usr/bin/env node
// The reviewed public surface: API Extractor reports of the package's entries (api/<entry>.api.md, checked in).
//   npm run api:check    fails when what users import (dist/<entry>.d.ts) differs from the checked-in report
//   npm run api:update   rewrites the reports; commit them with the change, so the surface change is a reviewed diff
// Both read dist/ (scripts/build-types.mjs rolls each entry's declarations into one .d.ts; shared chunks such as the
// rate-limit store are followed and inlined by API Extractor), so run `npm run build` first (npm test does).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const update = process.argv.includes('--update');
const dist = join(root, 'dist');
/** The package's entries (`.`, `./webhooks`, `./testing`, `./redis`, `./redact`, `./vocabulary`): report name → their `import` types. */
const ENTRIES = Object.fromEntries(
  ['index', 'webhooks', 'testing', 'redis', 'redact', 'vocabulary'].map((name) => [name, join(dist, `${name}.d.ts`)]),
);
const REPORT_FOLDER = 'api';
const tempFolder = mkdtempSync(join(tmpdir(), 'svc-a11y-api-report-'));

const missing = Object.values(ENTRIES).filter((f) => !existsSync(f));
if (missing.length) {
  console.error(`api-report: ${missing.join(', ')} missing: run \`npm run build\` first (npm test does).`);
  process.exit(2);
}

/** @param {string} name @param {string} dts */
function configOf(name, dts) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: dts,
      // Only the rolled-up declarations are analysed (the project's tsconfig would pull in src/, test/, …).
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            lib: ['ES2022', 'DOM', 'DOM.Iterable'],
            // No @types/node: the entries' declarations name no Node type (strict-consumer.test.ts compiles them
            // with `types: []`), and reading it cost each run ~1.2 of its ~5 CPU-s.
            types: [],
            strict: true,
            skipLibCheck: true,
          },
          files: Object.values(ENTRIES),
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: name,
        reportFolder: join(root, REPORT_FOLDER),
        reportTempFolder: tempFolder,
        // Types users reach without importing them by name (the generated `components` behind `CiCheck`, …)
        // are part of the surface: show them, so a regenerated field is a visible line in the report.
        includeForgottenExports: true,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning', addToApiReportFile: true },
          // Release tags (@public/@beta) are not used by this package: everything exported is public.
          'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
          'ae-internal-missing-underscore': { logLevel: 'none', addToApiReportFile: false },
          // Missing docs are TypeDoc's concern; a forgotten export is shown in full anyway (includeForgottenExports).
          // Both would print dist/ file:line positions, which move with any unrelated edit.
          'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
          'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: false },
        },
        // TSDoc style is TypeDoc's job (npm run docs); the report is about signatures.
        tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(root, 'package.json'),
  });
}

if (update) mkdirSync(join(root, REPORT_FOLDER), { recursive: true });
const configs = Object.entries(ENTRIES).map(([name, dts]) => [name, configOf(name, dts)]);
// One TypeScript program for the four entries (they share chunks), instead of one each.
const compilerState = CompilerState.create(configs[0][1], {
  additionalEntryPoints: configs.map(([, c]) => c.mainEntryPointFilePath),
});

const changed = [];
let failed = false;
for (const [name, config] of configs) {
  const result = Extractor.invoke(config, {
    localBuild: update,
    compilerState,
    messageCallback: (message) => {
      // The report-changed notice is ours to word (below), and the chatter (TypeScript version, "writing…") is
      // dropped; warnings and errors are shown.
      const ours = ['console-api-report-not-copied', 'console-api-report-copied', 'console-api-report-created'];
      if (ours.includes(message.messageId) || message.logLevel === 'info' || message.logLevel === 'verbose')
        message.handled = true;
    },
  });
  if (result.errorCount > 0) failed = true;
  if (result.apiReportChanged) changed.push(name);
}

const reportPath = (name) => join(root, REPORT_FOLDER, `${name}.api.md`);
if (update && !failed) {
  console.log(
    changed.length
      ? `api-report: rewrote ${changed.map((n) => `${REPORT_FOLDER}/${n}.api.md`).join(', ')}; review and commit them.`
      : 'api-report: reports already up to date.',
  );
} else if (changed.length) {
  for (const name of changed) {
    const current = reportPath(name);
    const next = join(tempFolder, `${name}.api.md`);
    let diff = '';
    try {
      execFileSync('git', ['diff', '--no-index', '--no-color', existsSync(current) ? current : '/dev/null', next], {
        encoding: 'utf8',
      });
    } catch (e) {
      diff = String(/** @type {any} */ (e).stdout ?? '');
    }
    // git's header names the temporary file: name what the reviewer knows instead.
    const body = diff.split('\n').slice(diff.split('\n').findIndex((l) => l.startsWith('@@')));
    const lines = [`--- ${REPORT_FOLDER}/${name}.api.md (checked in)`, `+++ ${name} entry as built now`, ...body];
    console.error(
      `\n${REPORT_FOLDER}/${name}.api.md differs from ${relative(root, ENTRIES[name])}:\n${lines.slice(0, 120).join('\n')}${lines.length > 120 ? `\n… ${lines.length - 120} more lines` : ''}`,
    );
  }
  console.error(
    `\napi-report: the public surface changed (${changed.join(', ')}) and the report was not updated.\n` +
      'If the change is intended, run `npm run build && npm run api:update`, review the diff of api/*.api.md, commit it, and add a\n' +
      'changeset for the bump it needs (`npx changeset`; `npm run changeset:check` says which).',
  );
  failed = true;
} else if (!failed) {
  console.log(
    `api-report: ${configs.length} reports match (${Object.keys(ENTRIES)
      .map((n) => `${REPORT_FOLDER}/${n}.api.md`)
      .join(', ')}).`,
  );
}
rmSync(tempFolder, { recursive: true, force: true });
process.exitCode = failed ? 1 : 0;
