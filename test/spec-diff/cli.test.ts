// `npm run spec:diff [ref]` against a git ref, as a maintainer runs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, packageJson, type Repo, specText } from './git-repo.js';

let repo: Repo;
beforeAll(() => {
  repo = makeRepo({ 'openapi.yaml': specText, 'package.json': packageJson('0.1.0') });
  repo.commit('release 0.1.0');
});
afterAll(() => repo.remove());

describe('spec:diff command', () => {
  it('compares the working tree with HEAD by default and ends with the required bump', () => {
    expect(repo.run('spec-diff.mjs').stdout.trim().split('\n').at(-1)).toBe('required bump: none');
    repo.write('openapi.yaml', specText.replace('enum: [PASS, FAIL]', 'enum: [PASS, FAIL, WARN]'));
    const { code, stdout } = repo.run('spec-diff.mjs');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^openapi\.yaml: HEAD → openapi\.yaml \(working tree\)$/m);
    expect(stdout).toMatch(
      /^potentially breaking {2}response enum widened: V1CiCheckResponse\.verdict \(added WARN\) {2}\[GET \/api\/v1\/ci\/checks\/\{id\} 200\]$/m,
    );
    expect(stdout).toMatch(/version 0\.1\.0 is before 1\.0: breaking and potentially breaking → minor/);
    expect(stdout.trim().split('\n').at(-1)).toBe('required bump: minor');
  });

  it('takes a ref, and maps the same change to semver from 1.0 on', () => {
    repo.commit('verdict WARN');
    repo.write('openapi.yaml', specText.replace(/ {8}requestedUrl:\n {10}type: string\n/, ''));
    const fromRelease = repo.run('spec-diff.mjs', 'HEAD~1', '--version', '1.4.0');
    expect(fromRelease.stdout).toMatch(/^breaking +response field removed: V1ScanResponse\.requestedUrl/m);
    expect(fromRelease.stdout).not.toMatch(/verdict/); // HEAD~1 had neither change
    expect(fromRelease.stdout.trim().split('\n').at(-1)).toBe('required bump: major');
    const fromHead = repo.run('spec-diff.mjs', 'HEAD', '--version', '1.4.0');
    expect(fromHead.stdout).toMatch(/response enum narrowed: V1CiCheckResponse\.verdict \(removed WARN\)/);
  });

  it('prints JSON for tools, and fails clearly on an unknown ref', () => {
    const json = JSON.parse(repo.run('spec-diff.mjs', '--json').stdout);
    expect(json).toMatchObject({ version: '0.1.0', requiredBump: 'minor' });
    expect(json.changes[0]).toMatchObject({ class: 'breaking', at: ['GET /api/v1/scans/{id} 200'] });
    const bad = repo.run('spec-diff.mjs', 'no-such-ref');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no-such-ref/);
  });
});
