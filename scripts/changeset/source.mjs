// One state of the repository to compare: a commit, or the working tree (uncommitted edits included).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileAtRef } from '../spec-diff.mjs';

/** Runs git in `cwd` and returns its trimmed output; throws on failure. */
export function git(args, cwd) {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  }).trim();
}
/** Like git(), but undefined when git fails (an unknown ref, no repository). */
export function tryGit(args, cwd) {
  try {
    return git(args, cwd);
  } catch {
    return undefined;
  }
}

/**
 * @typedef {{ name: string, read(file: string): string | undefined, list(dir: string): string[] }} Source
 *   `read` gives a file's text (undefined when absent), `list` the names of the files in a folder.
 */

/** The repository at commit `ref`. @returns {Source} */
export function atCommit(ref, cwd) {
  return {
    name: ref.slice(0, 7),
    read: (file) => fileAtRef(ref, file, cwd),
    list: (dir) => (tryGit(['ls-tree', '--name-only', `${ref}:${dir}`], cwd) ?? '').split('\n').filter(Boolean),
  };
}

/** The working tree (what `npm test` sees, committed or not). @returns {Source} */
export function workingTree(cwd) {
  return {
    name: 'the working tree',
    read: (file) => (existsSync(join(cwd, file)) ? readFileSync(join(cwd, file), 'utf8') : undefined),
    list: (dir) => (existsSync(join(cwd, dir)) ? readdirSync(join(cwd, dir)) : []),
  };
}

/** The package's version in a state, or undefined. */
export function versionIn(source) {
  try {
    return JSON.parse(source.read('package.json') ?? '').version;
  } catch {
    return undefined;
  }
}
