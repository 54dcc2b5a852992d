// `npm run changeset:check`: a change users see since the base needs a changeset with a large enough bump.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bumpOfChangeset, checkChangeset, classifyReportChange } from '../../scripts/check-changeset.mjs';
import { makeRepo, packageJson, type Repo, root, specText } from './git-repo.js';

const changeset = (bump: string) => `---\n'@svc/a11y-sdk': ${bump}\n---\n\nWhat changes for users.\n`;
const report = (...lines: string[]) =>
  ['## API Report File for "@svc/a11y-sdk"', '```ts', ...lines, '```', ''].join('\n');
const breakingSpec = specText.replace(
  'enum: [NEW_CRITICAL, ANY_CRITICAL, SERIOUS_OR_WORSE, NONE]',
  'enum: [NEW_CRITICAL, ANY_CRITICAL, NONE]',
);
const additiveSpec = specText.replace(
  /( {4}V1CreateScanRequest:\n(?:.*\n)*? {6}properties:\n)/,
  '$1        label:\n          type: string\n',
);

const repos: Repo[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.remove();
});

/** A repository whose first commit is release 0.1.0 (the description, a report, the changesets README). */
function released(version = '0.1.0', indexReport = report('export function a(): string;')): Repo {
  const repo = makeRepo({
    'package.json': packageJson(version),
    'openapi.yaml': specText,
    'api/index.api.md': indexReport,
    '.changeset/README.md': '# Changesets\n',
  });
  repo.commit(`release ${version}`);
  repos.push(repo);
  return repo;
}
// In-process (the command is spawned once below, to pin its exit code and output stream).
const check = (repo: Repo, baseRef?: string) => {
  const r = checkChangeset({ cwd: repo.dir, baseRef });
  return { code: r.code, text: r.out.join('\n') };
};

describe('changeset:check', () => {
  it('passes when nothing users see changed since the last release', () => {
    const repo = released();
    repo.write('README.md', 'docs\n');
    repo.commit('readme');
    const r = check(repo);
    expect(r).toMatchObject({ code: 0 });
    expect(r.text).toMatch(/compared with the last release, version 0\.1\.0/);
  });

  it('fails on a breaking description change without a changeset, saying what to run', () => {
    const repo = released();
    repo.write('openapi.yaml', breakingSpec);
    repo.commit('narrow failOn');
    const spawned = repo.run('check-changeset.mjs');
    expect(spawned).toMatchObject({ code: 1, stdout: '' });
    const r = { code: spawned.code, text: spawned.stderr };
    expect(r.text).toMatch(/openapi\.yaml: 2 change\(s\), the worst breaking → minor/);
    expect(r.text).toMatch(
      /need a minor bump of @svc\/a11y-sdk \(version 0\.1\.0: before 1\.0, breaking changes take a minor/,
    );
    expect(r.text).toMatch(/no changeset was added since then/);
    expect(r.text).toMatch(/Run `npx changeset`, pick @svc\/a11y-sdk and "minor"/);
    expect(r.text).toMatch(/npm run spec:diff -- [0-9a-f]{7}/);
  });

  it('counts uncommitted edits, and wants the bump, not just any changeset', () => {
    const repo = released();
    repo.write('openapi.yaml', breakingSpec);
    repo.write('.changeset/narrow.md', changeset('patch'));
    const low = check(repo);
    expect(low.text).toMatch(/pending since then give only patch: \.changeset\/narrow\.md \(patch\)/);
    expect(low.text).toMatch(
      /FAIL: the uncommitted changes change what users see \(openapi\.yaml \(→ minor\)\) and need a minor bump.*the changesets added alongside give only patch/,
    );
    repo.write('.changeset/narrow.md', changeset('minor'));
    expect(check(repo)).toMatchObject({
      code: 0,
      text: expect.stringMatching(
        /the pending changesets cover the unreleased change: required minor, they give minor/,
      ),
    });
  });

  it('maps to semver from 1.0 on: a breaking change needs a major', () => {
    const repo = released('1.2.0');
    repo.write('openapi.yaml', breakingSpec);
    repo.write('.changeset/narrow.md', changeset('minor'));
    expect(check(repo)).toMatchObject({ code: 1, text: expect.stringMatching(/need a major bump/) });
    repo.write('.changeset/narrow.md', changeset('major'));
    expect(check(repo).code).toBe(0);
  });

  it('an additive change needs a patch before 1.0; a changeset released since does not count', () => {
    const repo = released();
    repo.write('openapi.yaml', additiveSpec);
    repo.write('.changeset/label.md', changeset('patch'));
    repo.commit('label');
    expect(check(repo).code).toBe(0);
    // `changeset version`: the version moves and the changeset is consumed; the base moves with it.
    repo.git('rm', '-q', '.changeset/label.md');
    repo.write('package.json', packageJson('0.1.1'));
    repo.commit('release 0.1.1');
    expect(check(repo)).toMatchObject({ code: 0, text: expect.stringMatching(/version 0\.1\.1/) });
    repo.write('openapi.yaml', breakingSpec);
    expect(check(repo).code).toBe(1);
  });

  it('classifies API report changes by the side users are on: a required field is breaking only where they write it', () => {
    const request = (...fields: string[]) =>
      report(
        'interface components {',
        '    schemas: {',
        '        V1CreateScanRunRequest: {',
        ...fields.map((f) => `            ${f}`),
        '        };',
        '        V1CiCheckResponse: {',
        '            id: string;',
        '            verdict?: "PASS" | "FAIL";',
        '        };',
        '    };',
        '}',
        'export function a(): string;',
      );
    const repo = released('0.1.0', request('siteId: string;'));
    // What users write (the description's request body): a new required field breaks them, an optional one does not.
    repo.write('api/index.api.md', request('siteId: string;', 'maxPages: number;'));
    expect(check(repo).text).toMatch(
      /api\/index\.api\.md: 1 change\(s\), the worst breaking → minor\n {4}breaking: components\.schemas\.V1CreateScanRunRequest\.maxPages: new required member \(written by users\)/,
    );
    repo.write('api/index.api.md', request('siteId: string;', 'maxPages?: number;'));
    expect(check(repo).text).toMatch(/api\/index\.api\.md: 1 change\(s\), the worst additive → patch/);
    // What users read (the description's response): always present now is additive; an added value potentially breaking.
    const read = (verdict: string) =>
      report(
        'interface components {',
        '    schemas: {',
        '        V1CreateScanRunRequest: {',
        '            siteId: string;',
        '        };',
        '        V1CiCheckResponse: {',
        '            id: string;',
        `            ${verdict}`,
        '        };',
        '    };',
        '}',
        'export function a(): string;',
      );
    repo.write('api/index.api.md', read('verdict: "PASS" | "FAIL";'));
    expect(check(repo).text).toMatch(
      /additive: components\.schemas\.V1CiCheckResponse\.verdict: now always present \(read by users\)/,
    );
    repo.write('api/index.api.md', read('verdict?: "PASS" | "FAIL" | "WARN";'));
    expect(check(repo).text).toMatch(
      /potentially breaking: components\.schemas\.V1CiCheckResponse\.verdict: value "WARN" added \(read by users\)/,
    );
    // A report that did not exist at the base records the surface from now on.
    repo.write('api/index.api.md', request('siteId: string;'));
    repo.write('api/redis.api.md', report('export class RedisRateLimitStore {}'));
    expect(check(repo).code).toBe(0);
  });

  it('an older pending changeset does not cover a new change: each commit carries its own', () => {
    const repo = released();
    repo.write('.changeset/earlier.md', changeset('minor'));
    repo.commit('earlier work');
    repo.write('openapi.yaml', breakingSpec);
    repo.commit('narrow failOn');
    const sha = repo.git('rev-parse', '--short=7', 'HEAD');
    const r = check(repo);
    expect(r.code).toBe(1);
    expect(r.text).toMatch(/the pending changesets cover the unreleased change: required minor, they give minor/); // the cumulative rule alone passed this
    expect(r.text).toContain(
      `FAIL: commit ${sha} "narrow failOn" changes what users see (openapi.yaml (→ minor)) and needs a minor bump`,
    );
    expect(r.text).toMatch(
      /it adds or edits no changeset \(pending changesets written for earlier changes do not count: \.changeset\/earlier\.md \(minor\)\)/,
    );
    expect(r.text).toMatch(
      /Run `npx changeset`, pick @svc\/a11y-sdk and "minor".*git add \.changeset && git commit --amend/,
    );
    expect(r.text).toContain(`trailer \`Changeset-For: ${sha}\``);
    // Amended: the commit carries its changeset.
    repo.write('.changeset/narrow.md', changeset('minor'));
    repo.git('add', '-A');
    repo.git('commit', '-q', '--amend', '--no-edit');
    expect(check(repo)).toMatchObject({
      code: 0,
      text: expect.stringMatching(/every change since then carries its own changeset/),
    });
  });

  it('a pushed commit that forgot its changeset is covered by a later one naming it in a trailer', () => {
    const repo = released();
    repo.write('openapi.yaml', additiveSpec);
    repo.commit('label');
    const sha = repo.git('rev-parse', '--short=7', 'HEAD');
    repo.write('.changeset/label.md', changeset('patch'));
    repo.commit('changeset for label');
    expect(check(repo).code).toBe(1); // a changeset in another commit, not naming it, does not count
    repo.git('commit', '-q', '--amend', '-m', `changeset for label\n\n${'Changeset-For'}: ${sha}`);
    expect(check(repo).code).toBe(0);
  });

  it('judges uncommitted changes on their own: an older pending changeset does not count for them', () => {
    const repo = released();
    repo.write('.changeset/earlier.md', changeset('minor'));
    repo.commit('earlier work');
    repo.write('openapi.yaml', breakingSpec);
    const r = check(repo);
    expect(r.code).toBe(1);
    expect(r.text).toMatch(
      /FAIL: the uncommitted changes change what users see \(openapi\.yaml \(→ minor\)\) and need a minor bump.*no changeset is added or edited alongside them \(pending changesets written for earlier changes do not count/,
    );
    repo.write(
      '.changeset/earlier.md',
      changeset('minor').replace('What changes', 'Also: failOn loses SERIOUS_OR_WORSE. What changes'),
    );
    expect(check(repo).code).toBe(0); // editing a pending changeset to describe the change counts
  });

  it('starts the per-commit rule at the commit that introduces it; the cumulative rule still covers older history', () => {
    const repo = released();
    repo.write('openapi.yaml', additiveSpec);
    repo.commit('label, before the rule');
    expect(check(repo).code).toBe(1);
    repo.write('scripts/check-changeset.mjs', '// changeset-rule: per-commit since this line\n');
    repo.write('.changeset/label.md', changeset('patch'));
    repo.commit('the rule');
    expect(check(repo)).toMatchObject({ code: 0 }); // the commit before the rule is not judged
    repo.write('openapi.yaml', breakingSpec);
    repo.commit('narrow failOn, after the rule');
    const after = check(repo);
    expect(after.code).toBe(1);
    expect(after.text).toMatch(/commit [0-9a-f]{7} "narrow failOn, after the rule"/);
    expect(after.text).not.toMatch(/before the rule/);
    // Without the rule's start, every commit since the release is judged.
    expect(checkChangeset({ cwd: repo.dir, ruleStart: null }).out.join('\n')).toMatch(/"label, before the rule"/);
  });

  it('pull-request mode counts only the changesets the branch added', () => {
    const repo = released();
    repo.write('.changeset/earlier.md', changeset('minor'));
    repo.commit('earlier work on main');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('openapi.yaml', additiveSpec);
    repo.write('.changeset/label.md', changeset('patch'));
    repo.commit('feature');
    expect(check(repo).code).toBe(0);
    const pr = check(repo, 'main');
    expect(pr).toMatchObject({ code: 0, text: expect.stringMatching(/merge-base with main/) });
    expect(pr.text).not.toMatch(/earlier\.md/);
    repo.write('.changeset/label.md', '---\n---\n');
    expect(check(repo, 'main').code).toBe(1);
    expect(check(repo, 'origin/main')).toMatchObject({
      code: 2,
      text: expect.stringMatching(/base ref origin\/main not found. Fetch it/),
    });
  });

  it('says what it compared with on a shallow clone, and skips only without history', () => {
    const repo = released();
    repo.write('openapi.yaml', additiveSpec);
    repo.write('.changeset/label.md', changeset('patch'));
    repo.commit('label');
    const clone = mkdtempSync(join(tmpdir(), 'svc-a11y-shallow-'));
    try {
      execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, clone]);
      expect(checkChangeset({ cwd: clone })).toMatchObject({
        code: 0,
        out: [expect.stringMatching(/oldest commit of this shallow clone/), expect.stringMatching(/ok/)],
      });
      rmSync(join(clone, '.git'), { recursive: true, force: true });
      const none = execFileSync(process.execPath, [join(root, 'scripts/check-changeset.mjs')], {
        cwd: clone,
        encoding: 'utf8',
      });
      expect(none).toMatch(/skipped: no git history here/);
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });

  it('reads the bump of this package from a changeset', () => {
    expect(bumpOfChangeset(changeset('minor'), '@svc/a11y-sdk')).toBe('minor');
    expect(bumpOfChangeset('---\n"@svc/a11y-sdk": major\n"other": patch\n---\n', '@svc/a11y-sdk')).toBe('major');
    expect(bumpOfChangeset('---\n---\n', '@svc/a11y-sdk')).toBe('none'); // `changeset --empty`
    expect(bumpOfChangeset('---\nother: minor\n---\n', '@svc/a11y-sdk')).toBe('none');
    expect(classifyReportChange(report('a', '    // (undocumented)'), report('a'))).toMatchObject({ class: undefined });
    expect(classifyReportChange(report('a'), report('a').replace(/\n/g, '\r\n'))).toMatchObject({ class: undefined });
  });
});
