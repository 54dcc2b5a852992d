// One state of the repository to compare: a commit, or the working tree (uncommitted edits included).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileAtRef } from '../spec-diff.mjs';

/** Runs git in `cwd` and returns its trimmed output; throws on failure. */
function git(args, cwd) {
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

// A commit's files are read a folder at a time: the first read or list in a folder lists it (`git ls-tree`) and reads
// every file of it not read before in one `git cat-file --batch`, instead of a `git show` per file (a check of this
// repository, 26 commits since the release, ran 880 git processes for 750 files). Texts are kept by blob id, the
// hash of the content, so a file unchanged across commits is read once, and a kept text can never be stale.
/** @type {Map<string, string>} */
const texts = new Map();
// A file larger than this is read alone, when it is asked for (a folder's other files may be big and never read).
const BATCH_LIMIT = 1 << 20;

/** @typedef {{ type: string, id: string, size: number }} Entry */

/** Reads the blobs `ids` in one git process into `texts`. */
function readBlobs(ids, cwd) {
  const out = execFileSync('git', ['cat-file', '--batch'], {
    cwd,
    input: `${ids.join('\n')}\n`,
    stdio: ['pipe', 'pipe', 'pipe'],
    maxBuffer: ids.length * (BATCH_LIMIT + 100),
  });
  // Each blob: "<id> blob <size>\n", its bytes, "\n".
  let at = 0;
  for (const id of ids) {
    const eol = out.indexOf(10, at);
    const [, type, size] = out.toString('latin1', at, eol).split(' ');
    if (type !== 'blob') throw new Error(`git cat-file --batch: ${id} is ${type ?? 'missing'}, not a blob`);
    const end = eol + 1 + Number(size);
    texts.set(id, out.toString('utf8', eol + 1, end));
    at = end + 1;
  }
}

/** The entries of folder `dir` (relative to `cwd`) at `ref` by name, their small files read; undefined if git fails. */
function folderAt(ref, dir, cwd) {
  const listed = tryGit(['ls-tree', '-z', '-l', ref, '--', dir === '.' ? './' : `./${dir}/`], cwd);
  if (listed === undefined) return undefined;
  /** @type {Map<string, Entry>} */
  const entries = new Map();
  // "<mode> <type> <id> <size>\t<path>", NUL-terminated; the path is relative to cwd and never quoted under -z.
  for (const line of listed.split('\0').filter(Boolean)) {
    const tab = line.indexOf('\t');
    const [, type = '', id = '', size] = line.slice(0, tab).split(/ +/);
    entries.set(posix.basename(line.slice(tab + 1)), { type, id, size: Number(size) });
  }
  const unread = [...entries.values()].filter((e) => e.type === 'blob' && e.size <= BATCH_LIMIT && !texts.has(e.id));
  if (unread.length > 0) readBlobs([...new Set(unread.map((e) => e.id))], cwd);
  return entries;
}

/** The repository at commit `ref`. @returns {Source} */
export function atCommit(ref, cwd) {
  /** @type {Map<string, Map<string, Entry> | undefined>} */
  const folders = new Map();
  const folder = (dir) => {
    if (!folders.has(dir)) folders.set(dir, folderAt(ref, dir, cwd));
    return folders.get(dir);
  };
  return {
    name: ref.slice(0, 7),
    read: (file) => {
      const entries = folder(posix.dirname(file));
      // git failed (an unknown ref): `git show` says how, as before.
      if (entries === undefined) return fileAtRef(ref, file, cwd);
      const entry = entries.get(posix.basename(file));
      if (entry?.type !== 'blob') return undefined;
      if (!texts.has(entry.id)) texts.set(entry.id, /** @type {string} */ (fileAtRef(ref, file, cwd)));
      return texts.get(entry.id);
    },
    list: (dir) => [...(folder(dir)?.keys() ?? [])],
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
