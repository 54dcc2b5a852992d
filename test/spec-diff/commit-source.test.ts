// A commit as changeset:check reads it (scripts/changeset/source.mjs): a folder's files in one `git cat-file --batch`,
// kept by blob id. What it reads must be what `git show <ref>:./<file>` prints, whatever the file's name or content,
// from the repository's root or a folder inside it, and a commit must never be answered with another one's text.
import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atCommit } from '../../scripts/changeset/source.mjs';
import { makeRepo, type Repo } from './git-repo.js';

// Names git quotes or splits on elsewhere, and contents that are not plain text.
const FILES: Record<string, string> = {
  'package.json': '{"version":"1.0.0"}\n',
  '.changeset/plain.md': 'plain\n',
  '.changeset/with space.md': 'space\n',
  '.changeset/tab\there.md': 'tab\n',
  '.changeset/new\nline.md': 'newline\n',
  '.changeset/ünï 😀.md': 'unicode ü 😀 \u202e\n',
  '.changeset/"quoted" \\ back.md': 'quotes\n',
  '.changeset/empty.md': '',
  '.changeset/no-newline.md': 'no newline at the end',
  '.changeset/crlf.md': 'a\r\nb\r\n',
  '.changeset/nested/inner.md': 'inner\n',
  // Over the batch limit (1 MiB): read alone, when asked for.
  'big.txt': `${'x'.repeat(1 << 20)}y\n`,
};

let repo: Repo;
let first: string;
let second: string;
beforeAll(() => {
  repo = makeRepo(FILES);
  symlinkSync('plain.md', join(repo.dir, '.changeset', 'link.md'));
  repo.commit('first');
  first = repo.git('rev-parse', 'HEAD');
  repo.write('.changeset/plain.md', 'changed\n');
  repo.write('package.json', '{"version":"1.1.0"}\n');
  repo.commit('second');
  second = repo.git('rev-parse', 'HEAD');
});
afterAll(() => repo?.remove());

// Untrimmed, as git prints it.
const show = (ref: string, file: string, cwd = repo.dir) =>
  execFileSync('git', ['show', `${ref}:./${file}`], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 4 << 20,
  });

describe('a commit as changeset:check reads it', () => {
  it('reads every file as git show prints it, and lists each folder as ls-tree does', () => {
    const source = atCommit(first, repo.dir);
    for (const file of [...Object.keys(FILES), '.changeset/link.md'])
      expect(source.read(file), file).toBe(show(first, file));
    expect(source.list('.changeset').sort()).toEqual(
      repo.git('ls-tree', '-z', '--name-only', `${first}:.changeset`).split('\0').filter(Boolean).sort(),
    );
    expect(source.read('.changeset/absent.md')).toBeUndefined();
    expect(source.read('absent/file.md')).toBeUndefined();
    expect(source.list('absent')).toEqual([]);
    // A folder is not a file.
    expect(source.read('.changeset/nested')).toBeUndefined();
  });

  it('answers each commit with its own text, the same file read in both', () => {
    const [a, b] = [atCommit(first, repo.dir), atCommit(second, repo.dir)];
    expect([a.read('.changeset/plain.md'), b.read('.changeset/plain.md')]).toEqual(['plain\n', 'changed\n']);
    expect([a.read('package.json'), b.read('package.json')]).toEqual([
      '{"version":"1.0.0"}\n',
      '{"version":"1.1.0"}\n',
    ]);
  });

  it('reads paths relative to a folder of the repository it runs in, as git show ./ does', () => {
    const inside = join(repo.dir, '.changeset');
    const source = atCommit(first, inside);
    expect(source.read('plain.md')).toBe(show(first, 'plain.md', inside));
    expect(source.read('nested/inner.md')).toBe('inner\n');
    expect(source.list('.')).toContain('with space.md');
  });

  it('an unknown commit fails as git show does, naming it', () => {
    expect(() => atCommit('no-such-ref', repo.dir).read('package.json')).toThrow(
      /git show no-such-ref:package\.json failed: fatal: invalid object name 'no-such-ref'/,
    );
  });
});
