// The maintainer's path, end to end, on a scratch copy with its own git history (a release, then an earlier
// change with its pending changeset): change the description, `npm run generate`, read `spec:diff`, update the API
// report, add the changeset the check asks for — green; and the same change with the changeset forgotten — red,
// saying what to run, even though the earlier changeset's bump would cover it.
//
// Of `npm test`'s steps it runs those a description change decides: build (its declaration step type-checks the
// package's entries), api:check (red, until api:update) and changeset:check. The rest (lint, TypeDoc, generate:check,
// the test suite, the package checks) run on the real tree in `npm test`, and would take minutes here; so does the
// check that reports api:update wrote are those api:check expects (every report checked in was written by it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Ran, type Scratch, scratchCopy } from './scratch.js';

const changeset = (bump: string, text: string) => `---\n'@svc/a11y-sdk': ${bump}\n---\n\n${text}\n`;
// The service adds a WARN verdict to CI checks and an optional label to single-page scans.
const warnVerdict = (yaml: string) => yaml.replace('enum: [PASS, FAIL]', 'enum: [PASS, FAIL, WARN]');
const scanLabel = (yaml: string) =>
  yaml.replace(
    /( {4}V1CreateScanRequest:\n(?:.*\n)*? {6}properties:\n)/,
    '$1        label:\n          type: string\n          description: A label shown with the scan.\n',
  );

let copy: Scratch;
// `npm run --silent <script>` as the maintainer types it: the copy's package.json script, run as npm runs it, without
// npm's own start-up (ten commands here; scratch.ts).
const npm = (script: string): Promise<Ran> => copy.script(script);
const git = (...args: string[]) => copy.run('git', ...args);

beforeAll(async () => {
  copy = scratchCopy('svc-a11y-maintainer-');
  copy.write('.gitignore', 'node_modules\ndist\n');
  // Released: `changeset version` consumed every changeset. Then an earlier change left one pending.
  for (const f of readdirSync(join(copy.dir, '.changeset')).filter((n) => n.endsWith('.md') && n !== 'README.md'))
    rmSync(join(copy.dir, '.changeset', f));
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '-A'],
    ['commit', '-q', '-m', 'release 0.1.0'],
  ])
    expect((await git(...args)).code).toBe(0);
  copy.write('.changeset/earlier.md', changeset('minor', 'An earlier, unreleased change.'));
  for (const args of [
    ['add', '-A'],
    ['commit', '-q', '-m', 'earlier work'],
  ])
    expect((await git(...args)).code).toBe(0);
}, 60_000);
afterAll(() => copy?.remove());

describe("the maintainer's path on a scratch copy", () => {
  it('description → generate → spec:diff → API report → changeset: red without it, saying what to run; green with it', async () => {
    const before = copy.read('openapi.yaml');
    // Both edits find their place in today's description (a reworked one fails here, not later).
    expect(warnVerdict(before)).not.toBe(before);
    expect(scanLabel(before)).not.toBe(before);
    copy.write('openapi.yaml', scanLabel(warnVerdict(before)));

    const generated = await npm('generate');
    expect(generated, generated.output).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/wrote generated\/schema\.ts/),
    });

    const diff = await npm('spec:diff');
    expect(diff.code, diff.output).toBe(0);
    expect(diff.stdout).toMatch(
      /^potentially breaking {2}response enum widened: V1CiCheckResponse\.verdict \(added WARN\) {2}\[GET \/api\/v1\/ci\/checks\/\{id\} 200\]$/m,
    );
    expect(diff.stdout).toMatch(
      /^additive {14}optional request field added: V1CreateScanRequest\.label {2}\[POST \/api\/v1\/scans\]$/m,
    );
    expect(diff.stdout.trim().split('\n').at(-1)).toBe('required bump: minor');

    const built = await npm('build');
    expect(built.code, built.output).toBe(0);
    const report = copy.read('api/index.api.md');
    const stale = await npm('api:check');
    expect(stale.code).toBe(1);
    // The diff of the surface (the line that went and the line that came), which entry, and what to run.
    expect(stale.stderr).toMatch(/^- +verdict\?: "PASS" \| "FAIL";$/m);
    expect(stale.stderr).toMatch(/^\+ +verdict\?: "PASS" \| "FAIL" \| "WARN";$/m);
    expect(stale.stderr).toMatch(/the public surface changed \(index[^)]*\) and the report was not updated/);
    expect(stale.stderr).toMatch(/run `npm run build && npm run api:update`/);
    // The check leaves the checked-in report as it was.
    expect(copy.read('api/index.api.md')).toBe(report);
    const updated = await npm('api:update');
    expect(updated, updated.output).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/rewrote api\/index\.api\.md/),
    });

    // Forgotten: the earlier pending changeset (minor) would have covered the bump; it does not count.
    const forgotten = await npm('changeset:check');
    expect(forgotten.code, forgotten.output).toBe(1);
    expect(forgotten.stderr).toMatch(/api\/index\.api\.md: 2 change\(s\), the worst potentially breaking → minor/);
    expect(forgotten.stderr).toMatch(
      /potentially breaking: components\.schemas\.V1CiCheckResponse\.verdict: value "WARN" added \(read by users\)/,
    );
    expect(forgotten.stderr).toMatch(
      /additive: components\.schemas\.V1CreateScanRequest\.label: new optional member \(written by users\)/,
    );
    expect(forgotten.stderr).toMatch(
      /FAIL: the uncommitted changes change what users see \(openapi\.yaml \(→ minor\), api\/index\.api\.md \(→ minor\)\) and need a minor bump .*no changeset is added or edited alongside them \(pending changesets written for earlier changes do not count: \.changeset\/earlier\.md \(minor\)\)/,
    );
    expect(forgotten.stderr).toMatch(/Run `npx changeset`, pick @svc\/a11y-sdk and "minor"/);

    // Committed without it: still red, naming the commit and how to mend it.
    expect((await git('add', '-A')).code).toBe(0);
    expect((await git('commit', '-q', '-m', 'verdict WARN, scan label')).code).toBe(0);
    const committed = await npm('changeset:check');
    expect(committed.code).toBe(1);
    expect(committed.stderr).toMatch(
      /FAIL: commit [0-9a-f]{7} "verdict WARN, scan label" changes what users see .* and needs a minor bump/,
    );
    expect(committed.stderr).toMatch(/git add \.changeset && git commit --amend/);

    // The changeset the check asks for, in the commit: green.
    const bump = /pick @svc\/a11y-sdk and "(\w+)"/.exec(committed.stderr)![1]!;
    copy.write(
      '.changeset/verdict-warn.md',
      changeset(
        bump,
        'CI checks may have the verdict `WARN`: handle it where you switch on `verdict`. Scans take an optional `label`.',
      ),
    );
    expect((await git('add', '-A')).code).toBe(0);
    expect((await git('commit', '-q', '--amend', '--no-edit')).code).toBe(0);
    const green = await npm('changeset:check');
    expect(green, green.output).toMatchObject({ code: 0 });
    expect(green.stdout).toMatch(
      /the pending changesets cover the unreleased change: required minor, they give minor: \.changeset\/earlier\.md \(minor\), \.changeset\/verdict-warn\.md \(minor\)/,
    );
    expect(green.stdout).toMatch(/ok: every change since then carries its own changeset/);
  }, 400_000);
});
