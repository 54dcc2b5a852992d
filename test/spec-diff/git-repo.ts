// A throwaway git repository holding a copy of the package's description, for the spec:diff and changeset tests.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const specText = readFileSync(join(root, 'openapi.yaml'), 'utf8');

// Commits need an identity; the machine's git config may have none (CI).
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

export interface Repo {
  dir: string;
  git(...args: string[]): string;
  write(file: string, text: string): void;
  read(file: string): string;
  commit(message: string): void;
  /** Runs a script of this package with the repo as working directory; never throws. */
  run(script: string, ...args: string[]): { code: number; stdout: string; stderr: string };
  remove(): void;
}

export function makeRepo(files: Record<string, string>): Repo {
  const dir = mkdtempSync(join(tmpdir(), 'svc-a11y-spec-'));
  const repo: Repo = {
    dir,
    git: (...args) =>
      execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim(),
    write: (file, text) => {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    },
    read: (file) => readFileSync(join(dir, file), 'utf8'),
    commit: (message) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '--allow-empty', '-m', message);
    },
    run: (script, ...args) => {
      try {
        const stdout = execFileSync(process.execPath, [join(root, 'scripts', script), ...args], {
          cwd: dir,
          env,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        return { code: 0, stdout, stderr: '' };
      } catch (e) {
        const err = e as { status: number; stdout: string; stderr: string };
        return { code: err.status, stdout: err.stdout, stderr: err.stderr };
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
  repo.git('init', '-q', '-b', 'main');
  for (const [file, text] of Object.entries(files)) repo.write(file, text);
  return repo;
}

export const packageJson = (version: string) => `${JSON.stringify({ name: '@svc/a11y-sdk', version }, null, 2)}\n`;
