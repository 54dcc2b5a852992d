// Changeset files (.changeset/*.md): their bump of this package, and which ones a state added or edited.
import YAML from 'yaml';
import { maxBump } from '../spec-diff.mjs';

const CHANGESETS = '.changeset';

/** @typedef {import('../spec-diff.mjs').Bump} Bump */
/** @typedef {import('./source.mjs').Source} Source */

/**
 * The bump of package `pkg` in a changeset file (`none` for an empty changeset or another package's).
 * @returns {Bump}
 */
export function bumpOfChangeset(text, pkg) {
  const m = /^---\r?\n([\s\S]*?)\r?\n?---/.exec(text);
  if (!m) return 'none';
  const front = YAML.parse(m[1]) ?? {};
  const bump = front[pkg];
  return bump === 'major' || bump === 'minor' || bump === 'patch' ? bump : 'none';
}

/**
 * The changesets `to` holds that `from` does not hold with the same text (added, or edited), with their bumps.
 * @param {Source} from @param {Source} to @param {string} pkg
 * @returns {{ files: string[], bump: Bump }}
 */
export function changesetsAdded(from, to, pkg) {
  /** @type {Bump} */
  let bump = 'none';
  const files = [];
  for (const f of to
    .list(CHANGESETS)
    .filter((n) => n.endsWith('.md') && n !== 'README.md')
    .sort()) {
    const text = to.read(`${CHANGESETS}/${f}`);
    if (text === undefined || from.read(`${CHANGESETS}/${f}`) === text) continue;
    const b = bumpOfChangeset(text, pkg);
    files.push(`${CHANGESETS}/${f} (${b})`);
    bump = maxBump(bump, b);
  }
  return { files, bump };
}
