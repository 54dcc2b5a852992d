// A scratch copy of the package (what regeneration, type checks and the maintainer's path need), with the real
// node_modules linked in: the real generated/, api/ and .changeset/ are never touched, and nothing is installed.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { root } from './git-repo.js';

/** What a copy holds: the sources, the generator, the description, the reports and the build's configuration. */
const ENTRIES = [
  'package.json',
  'tsconfig.json',
  'tsup.config.ts',
  'tsconfig.types.json',
  'openapi.yaml',
  'src',
  'generated',
  'scripts',
  'api',
  '.changeset',
];

// Commits need an identity; the machine's git config may have none (CI).
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  NO_COLOR: '1',
};

/** The outcome of a command run in a copy; never throws on a non-zero exit. */
export interface Ran {
  /** The exit code (1 when the process ended by a signal). */
  code: number;
  /** What it printed on stdout. */
  stdout: string;
  /** What it printed on stderr. */
  stderr: string;
  /** stdout and stderr, in that order. */
  output: string;
}

/** A scratch copy of the package, and what the tests do with it. */
export interface Scratch {
  /** The copy's folder (under the system's temporary folder). */
  dir: string;
  /** A file's text, by its path in the copy. */
  read(file: string): string;
  /** Writes a file of the copy, creating its folders. */
  write(file: string, text: string): void;
  /** Runs a command with the copy as working directory (node_modules/.bin on the PATH, as under npm). */
  run(command: string, ...args: string[]): Promise<Ran>;
  /**
   * Runs a script of the copy's package.json as `npm run --silent <name>` does (its text in `sh -c`, in the copy,
   * node_modules/.bin on the PATH, its exit code), without npm's own ~0.3 s of start-up. A missing script fails.
   */
  script(name: string): Promise<Ran>;
  /** Deletes the copy (the linked node_modules is left alone). */
  remove(): void;
}

/** Copies the package's working tree into a temporary folder and links node_modules. */
export function scratchCopy(prefix = 'svc-a11y-scratch-'): Scratch {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const entry of ENTRIES) cpSync(join(root, entry), join(dir, entry), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const path = `${join(dir, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`;
  const run = (command: string, ...args: string[]) =>
    new Promise<Ran>((resolve) => {
      execFile(
        command,
        args,
        { cwd: dir, env: { ...env, PATH: path }, maxBuffer: 64 << 20 },
        (error, stdout, stderr) => {
          const code = error
            ? typeof (error as { code?: unknown }).code === 'number'
              ? (error as { code: number }).code
              : 1
            : 0;
          resolve({ code, stdout, stderr, output: `${stdout}${stderr}` });
        },
      );
    });
  return {
    dir,
    read: (file) => readFileSync(join(dir, file), 'utf8'),
    write: (file, text) => {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    },
    run,
    script: (name) => {
      const text = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> })
        .scripts?.[name];
      if (text === undefined) {
        const stderr = `Missing script: "${name}"\n`;
        return Promise.resolve({ code: 1, stdout: '', stderr, output: stderr });
      }
      return run('sh', '-c', text);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
