// The per-commit rule: every commit since the base that changes what users see (openapi.yaml, api/*.api.md)
// adds or edits a changeset whose bump covers that commit's change — and so does the working tree against
// HEAD. Older pending changesets do not count for a new change. The rule starts at the commit that introduced
// it (RULE_MARKER's first appearance in scripts/check-changeset.mjs), so older history is not judged.
import { bumpCovers, maxBump } from '../spec-diff.mjs';
import { changesetsAdded } from './changesets.mjs';
import { requiredBetween, REPORTS, SPEC } from './required.mjs';
import { atCommit, tryGit, versionIn, workingTree } from './source.mjs';

/** Written in scripts/check-changeset.mjs; the commit that first holds it is where the per-commit rule starts. */
const RULE_MARKER = 'changeset-rule: per-commit since this line';
const RULE_FILE = 'scripts/check-changeset.mjs';
/** A later commit carrying this trailer supplies the changeset of a pushed commit that forgot it. */
export const TRAILER = 'Changeset-For';

/** @typedef {import('../spec-diff.mjs').Bump} Bump */
/**
 * @typedef {{ where: string, commit?: string, subject?: string, need: Bump, have: Bump, files: string[],
 *   reasons: import('./required.mjs').Reason[] }} Judged
 */

/**
 * The commit that introduced the rule in this repository's history, or undefined when the history does not hold
 * it (a repository without the script, such as a test's scratch repository: then every commit is judged).
 */
export function ruleStartCommit(cwd) {
  const found = tryGit(['log', '--reverse', '--format=%H', '-S', RULE_MARKER, '--', RULE_FILE], cwd);
  return found ? found.split('\n')[0] : undefined;
}

/**
 * Judges each commit after `base` (and at or after `start`, when given) that touches openapi.yaml or api/, and
 * the working tree against HEAD.
 * @param {{ cwd: string, base: string, start?: string, pkg: { name: string, version: string } }} options
 * @returns {Judged[]} the failures (empty when every change carries its changeset)
 */
export function judgeCommits({ cwd, base, start, pkg }) {
  const range = ['HEAD', `^${base}`];
  // The start's parent and everything before it are not judged (a root start has no parent: nothing to cut).
  const beforeStart = start && tryGit(['rev-parse', '--verify', '--quiet', `${start}^`], cwd);
  if (beforeStart) range.push(`^${beforeStart}`);
  const commits = (tryGit(['rev-list', '--no-merges', '--reverse', ...range, '--', SPEC, REPORTS], cwd) ?? '')
    .split('\n')
    .filter(Boolean);
  const supplied = suppliedLater(cwd, range, pkg.name);
  /** @type {Judged[]} */
  const failures = [];
  for (const commit of commits) {
    const parent = tryGit(['rev-parse', '--verify', '--quiet', `${commit}^`], cwd);
    if (!parent) continue; // the first commit of a history: nothing before it to compare with
    const [from, to] = [atCommit(parent, cwd), atCommit(commit, cwd)];
    const { bump: need, reasons } = requiredBetween(from, to, versionIn(to) ?? pkg.version);
    if (need === 'none') continue;
    const own = changesetsAdded(from, to, pkg.name);
    const later = supplied.filter((s) => commit.startsWith(s.target));
    const files = [...own.files, ...later.flatMap((s) => s.files)];
    const have = later.reduce((b, s) => maxBump(b, s.bump), own.bump);
    if (!bumpCovers(have, need)) {
      const full = tryGit(['log', '-1', '--format=%s', commit], cwd) ?? '';
      const subject = full.length > 72 ? `${full.slice(0, 71)}…` : full;
      failures.push({
        where: `commit ${commit.slice(0, 7)} "${subject}"`,
        commit,
        subject,
        need,
        have,
        files,
        reasons,
      });
    }
  }
  const head = atCommit('HEAD', cwd);
  const tree = workingTree(cwd);
  const { bump: need, reasons } = requiredBetween(head, tree, pkg.version);
  if (need !== 'none') {
    const own = changesetsAdded(head, tree, pkg.name);
    if (!bumpCovers(own.bump, need))
      failures.push({ where: 'the uncommitted changes', need, have: own.bump, files: own.files, reasons });
  }
  return failures;
}

/**
 * Changesets added by later commits for earlier ones (`Changeset-For: <commit>` trailers), within the range.
 * @returns {{ target: string, files: string[], bump: Bump }[]}
 */
function suppliedLater(cwd, range, pkgName) {
  const log = tryGit(['log', '--no-merges', '--format=%H%x00%B%x01', ...range], cwd) ?? '';
  const out = [];
  for (const record of log.split('\x01')) {
    const [hash, body] = record.trim().split('\x00');
    if (!hash || !body) continue;
    const targets = [...body.matchAll(new RegExp(`^${TRAILER}:\\s*([0-9a-f]{7,40})\\s*$`, 'gim'))].map((m) =>
      m[1].toLowerCase(),
    );
    if (!targets.length) continue;
    const parent = tryGit(['rev-parse', '--verify', '--quiet', `${hash}^`], cwd);
    if (!parent) continue;
    const added = changesetsAdded(atCommit(parent, cwd), atCommit(hash, cwd), pkgName);
    for (const target of targets) out.push({ target, ...added });
  }
  return out;
}
