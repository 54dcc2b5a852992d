// Type-checks a project in this process with TypeScript's API, as `tsc -p <config>` would, keeping the files it
// parsed and bound for the next project: the libs, @types/node and the dependencies' declarations (the same real
// paths in every scratch copy or consumer project, whose node_modules is a link) are read once per test file
// instead of once per check. A `tsc` process per check of the SDK's sources cost ~6 s of CPU, of which
// TypeScript's checker is ~1.3 s.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import type TypeScript from 'typescript';

/** What a check found: `code` 0 without diagnostics (as tsc exits), else 2; `output` as `tsc --pretty false` has it. */
export interface Typechecked {
  code: number;
  output: string;
}

// Each compiler's parsed files, by path and by how they were parsed (target, and ESM or CommonJS under NodeNext).
// A file whose text changed is parsed again (the copies' own sources live under paths of their own anyway).
const compilers = new Map<string, { ts: typeof TypeScript; parsed: Map<string, TypeScript.SourceFile> }>();
const require = createRequire(import.meta.url);

/**
 * Checks the project of `configPath` (its `extends`, `include`, `files` and options as tsc reads them) with the
 * compiler of the package `compiler` (an installed name: `typescript`, or `typescript-lowest` for the oldest
 * TypeScript the package supports) and returns the diagnostics `tsc --pretty false` would print, paths relative
 * to the config's folder.
 * @example expect(typecheckProject(join(copy.dir, 'tsconfig.fixture.json'))).toMatchObject({ code: 0 })
 */
export function typecheckProject(configPath: string, compiler = 'typescript'): Typechecked {
  const known = compilers.get(compiler) ?? { ts: require(compiler) as typeof TypeScript, parsed: new Map() };
  compilers.set(compiler, known);
  const { ts, parsed } = known;
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  )!;
  const host = ts.createCompilerHost(config.options);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const how =
      typeof languageVersion === 'object'
        ? `${languageVersion.languageVersion}/${languageVersion.impliedNodeFormat}`
        : `${languageVersion}`;
    const key = `${how}|${fileName}`;
    const text = host.readFile(fileName);
    const seen = parsed.get(key);
    if (seen && seen.text === text) return seen;
    const file = parse(fileName, languageVersion, onError, shouldCreate);
    if (file) parsed.set(key, file);
    return file;
  };
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    host,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const directory = dirname(configPath);
  const output = ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => directory,
    getNewLine: () => '\n',
  });
  return { code: diagnostics.length === 0 ? 0 : 2, output };
}

/**
 * Checks the project of `configPath` as `npm run typecheck` does: TypeScript 7's native compiler (the
 * `typescript-native` package), in a process of its own, `--pretty false`, on one thread (`--singleThreaded`: its
 * checkers on several threads cost twice the CPU for no gain on a machine whose cores the suite keeps busy). It
 * costs a third of the CPU of a check of the SDK's sources in this process (which has no parsed files to reuse when
 * every check follows a regeneration).
 * @example expect(typecheckNative(join(copy.dir, 'tsconfig.fixture.json'))).toMatchObject({ code: 0 })
 */
export function typecheckNative(configPath: string): Typechecked {
  const tsc = join(dirname(require.resolve('typescript-native/package.json')), 'bin', 'tsc');
  const ran = spawnSync(
    process.execPath,
    [tsc, '--noEmit', '--singleThreaded', '--pretty', 'false', '-p', basename(configPath)],
    {
      cwd: dirname(configPath),
      encoding: 'utf8',
    },
  );
  if (ran.error) throw ran.error;
  return { code: ran.status ?? 1, output: `${ran.stdout}${ran.stderr}` };
}
