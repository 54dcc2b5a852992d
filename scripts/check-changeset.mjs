#!/usr/bin/env node
// The version that ships: a change of what users see (openapi.yaml classified by spec:diff, api/*.api.md by the
// same rules) needs a changeset with a large enough bump — added alongside the change, not left over from an
// earlier one. Two rules, both in `npm test`:
//
//   per commit   every commit since the base that changes openapi.yaml or api/ in a way users see adds or edits a
//                changeset covering that commit's change, and so does the working tree against HEAD. A pushed
//                commit that forgot it is covered by a later commit adding the changeset with the trailer
//                `Changeset-For: <commit>`. The rule starts at the commit that introduced it (the marker line
//                below): older history is not judged.
//   cumulative   the highest bump among the changesets pending since the base covers what the whole unreleased
//                diff (base → working tree) requires.
//
// Why per commit rather than per branch: this repository commits to `main` directly, and CI runs `npm test` on
// a fresh clone of main. Counting "changesets added since the merge base with main" sees nothing there (the
// merge base of main with itself is HEAD), so a change committed without its changeset would pass as long as
// any older changeset was pending — the hole this rule closes. Per commit judges the same on main, on a branch
// and in a pull request, and names the commit to fix.
//
// changeset-rule: per-commit since this line
//
//   npm run changeset:check              base = the last release: the commit where package.json's version last
//                                        changed (`changeset version` writes it and deletes the changesets it
//                                        used, so the changesets present now are exactly those pending).
//   npm run changeset:check -- --base origin/main
//                                        pull-request mode: base = merge-base with that ref; only changesets the
//                                        branch added count (CHANGESET_BASE_REF=origin/main does the same).
//
// With no history at all (not a git checkout, no commit) the check is skipped with a message; a shallow clone is
// compared with its oldest commit, and says so.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bumpCovers, fileAtRef } from './spec-diff.mjs';
import { changesetsAdded } from './changeset/changesets.mjs';
import { judgeCommits, ruleStartCommit, TRAILER } from './changeset/per-commit.mjs';
import { requiredBetween, REPORTS, SPEC } from './changeset/required.mjs';
import { atCommit, tryGit, workingTree } from './changeset/source.mjs';

export { bumpOfChangeset } from './changeset/changesets.mjs';
export { classifyReportChange } from './spec-diff/report-diff.mjs';

const versionOf = (text) => {
  try {
    return JSON.parse(text).version;
  } catch {
    return undefined;
  }
};

/** The commit where package.json's version last changed (the last release), newest first in this branch's history. */
export function lastReleaseCommit(cwd) {
  const commits = (tryGit(['log', '--format=%H', '--', 'package.json'], cwd) ?? '').split('\n').filter(Boolean);
  for (const c of commits) {
    const here = versionOf(fileAtRef(c, 'package.json', cwd));
    const parent = tryGit(['rev-parse', '--verify', '--quiet', `${c}^`], cwd);
    const before = parent ? versionOf(fileAtRef(parent, 'package.json', cwd)) : undefined;
    if (here !== before) return { commit: c, root: !parent };
  }
  return undefined;
}

/** The base to compare with and how to name it, or the early result when there is none. */
function findBase(cwd, baseRef) {
  if (baseRef) {
    const ref = tryGit(['rev-parse', '--verify', '--quiet', `${baseRef}^{commit}`], cwd);
    if (!ref) {
      return {
        code: 2,
        line: `changeset:check: base ref ${baseRef} not found. Fetch it (e.g. \`git fetch origin main\`) or run without --base to compare with the last release.`,
      };
    }
    const base = tryGit(['merge-base', ref, 'HEAD'], cwd) ?? ref;
    return { base, text: `merge-base with ${baseRef} (${base.slice(0, 7)})` };
  }
  const release = lastReleaseCommit(cwd);
  if (!release)
    return {
      code: 0,
      line: 'changeset:check: skipped: package.json has no committed version yet, so there is no release to compare with.',
    };
  const base = release.commit;
  const shallow = tryGit(['rev-parse', '--is-shallow-repository'], cwd) === 'true';
  const text =
    shallow && release.root
      ? `${base.slice(0, 7)}, the oldest commit of this shallow clone (the release may be older: \`git fetch --unshallow\` for a full check)`
      : `the last release, version ${versionOf(fileAtRef(base, 'package.json', cwd))} (${base.slice(0, 7)})`;
  return { base, text };
}

/**
 * Runs the check; returns the exit code and the lines to print.
 * @param {{ cwd?: string, baseRef?: string, ruleStart?: string | null }} options `ruleStart`: the first commit the
 *   per-commit rule judges (default: the commit that introduced it; `null`: every commit since the base)
 * @returns {{ code: number, out: string[] }}
 */
export function checkChangeset({ cwd = process.cwd(), baseRef, ruleStart } = {}) {
  const out = [];
  const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
  if (
    tryGit(['rev-parse', '--is-inside-work-tree'], cwd) !== 'true' ||
    !tryGit(['rev-parse', '--verify', '--quiet', 'HEAD'], cwd)
  ) {
    out.push(
      'changeset:check: skipped: no git history here (not a checkout, or no commit yet), so nothing to compare with.',
    );
    return { code: 0, out };
  }
  const found = findBase(cwd, baseRef);
  if (!('base' in found)) return { code: found.code, out: [found.line] };
  const { base } = found;
  out.push(`changeset:check: compared with ${found.text}.`);
  const pre1 = /^0\./.test(pkg.version) ? ` (version ${pkg.version}: before 1.0, breaking changes take a minor)` : '';
  const ask = (bump) =>
    `Run \`npx changeset\`, pick ${pkg.name} and "${bump}", and describe what changes for users (what to do when it breaks them)`;
  let code = 0;

  // Cumulative: everything unreleased against everything pending.
  const { bump: required, reasons } = requiredBetween(atCommit(base, cwd), workingTree(cwd), pkg.version);
  const pending = changesetsAdded(atCommit(base, cwd), workingTree(cwd), pkg.name);
  if (required === 'none') {
    out.push(`changeset:check: ok: neither ${SPEC} nor ${REPORTS}/*.api.md changed what users see since then.`);
  } else {
    for (const r of reasons)
      out.push(
        `  ${r.text}`,
        ...r.details.slice(0, 8).map((d) => `    ${d}`),
        ...(r.details.length > 8 ? [`    … ${r.details.length - 8} more`] : []),
      );
    if (bumpCovers(pending.bump, required)) {
      out.push(
        `changeset:check: the pending changesets cover the unreleased change: required ${required}, they give ${pending.bump}: ${pending.files.join(', ')}.`,
      );
    } else {
      code = 1;
      out.push(
        `changeset:check: FAIL: these changes need a ${required} bump of ${pkg.name}${pre1}, but ${pending.files.length ? `the changesets pending since then give only ${pending.bump}: ${pending.files.join(', ')}` : 'no changeset was added since then'}.`,
        `  ${ask(required)};`,
        `  \`npm run spec:diff -- ${baseRef ?? base.slice(0, 7)}\` lists the classified changes of ${SPEC}. Then commit the .changeset/*.md file.`,
      );
    }
  }

  // Per commit: each change carries its own changeset.
  const start = ruleStart === null ? undefined : (ruleStart ?? ruleStartCommit(cwd));
  for (const f of judgeCommits({ cwd, base, start, pkg })) {
    code = 1;
    const what = f.reasons.map((r) => `${r.file} (→ ${r.bump})`).join(', ');
    const have = f.files.length
      ? `the changesets added alongside give only ${f.have}: ${f.files.join(', ')}`
      : f.commit
        ? 'it adds or edits no changeset'
        : 'no changeset is added or edited alongside them';
    const older =
      pending.files.length && !f.files.length
        ? ` (pending changesets written for earlier changes do not count: ${pending.files.join(', ')})`
        : '';
    out.push(
      `changeset:check: FAIL: ${f.where} change${f.commit ? 's' : ''} what users see (${what}) and need${f.commit ? 's' : ''} a ${f.need} bump${pre1}, but ${have}${older}.`,
    );
    if (f.commit) {
      out.push(
        `  ${ask(f.need)}; then, if the commit is not pushed, \`git add .changeset && git commit --amend\` (on an older commit: \`git commit --fixup ${f.commit.slice(0, 7)}\` and \`git rebase -i --autosquash\`);`,
        `  if it is pushed, commit the changeset with the trailer \`${TRAILER}: ${f.commit.slice(0, 7)}\` in the message.`,
      );
    } else {
      out.push(
        `  ${ask(f.need)}; \`npm run spec:diff\` lists the classified changes of ${SPEC}. Commit the .changeset/*.md file with the change.`,
      );
    }
  }
  if (code === 0 && required !== 'none')
    out.push('changeset:check: ok: every change since then carries its own changeset.');
  return { code, out };
}

if (process.argv[1] && resolvePath(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const i = args.indexOf('--base');
  const baseRef = i >= 0 ? args[i + 1] : process.env.CHANGESET_BASE_REF || undefined;
  try {
    if (!existsSync('package.json')) throw new Error('run it at the package root (no package.json here)');
    const { code, out } = checkChangeset({ baseRef });
    (code === 0 ? console.log : console.error)(out.join('\n'));
    process.exitCode = code;
  } catch (e) {
    console.error(`changeset:check: ${/** @type {Error} */ (e).message}`);
    process.exitCode = 2;
  }
}
