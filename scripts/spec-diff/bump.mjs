// Classes → the version bump they require, from 1.0 on and before.

/** @typedef {'breaking' | 'potentially breaking' | 'additive' | 'docs'} ChangeClass */
/** @typedef {'major' | 'minor' | 'patch' | 'none'} Bump */
/** @typedef {{ class: ChangeClass, message: string, at: string[] }} Change */

export const CLASSES = /** @type {const} */ (['breaking', 'potentially breaking', 'additive', 'docs']);
export const RANK = { breaking: 4, 'potentially breaking': 3, additive: 2, docs: 1 };
const BUMP_RANK = { none: 0, patch: 1, minor: 2, major: 3 };
/** The bump each class requires from 1.0 on (semver: a potentially breaking change is a compatible addition). */
export const SEMVER_BUMP = { breaking: 'major', 'potentially breaking': 'minor', additive: 'minor', docs: 'patch' };
/**
 * Before 1.0 the minor number is the breaking slot (semver §4, and what `^0.y.z` ranges assume): breaking and
 * potentially breaking changes take a minor, additive and docs changes a patch. Changesets bumps 0.x the same way
 * (a `minor` changeset on 0.1.0 gives 0.2.0; `major` would publish 1.0.0).
 */
export const PRE1_BUMP = { breaking: 'minor', 'potentially breaking': 'minor', additive: 'patch', docs: 'patch' };

/** The most severe class among the changes, or undefined when there is none. */
export function worstClass(changes) {
  return changes.reduce(
    (w, c) => (w === undefined || RANK[c.class] > RANK[w] ? c.class : w),
    /** @type {ChangeClass | undefined} */ (undefined),
  );
}

/** True for a version before 1.0.0 (where the minor number is the breaking slot). */
export const isPre1 = (version) => /^0\./.test(version);

/**
 * The bump a set of changes requires for a package at `version`.
 * @returns {Bump}
 */
export function requiredBump(changes, version) {
  const worst = worstClass(changes);
  if (!worst) return 'none';
  return /** @type {Bump} */ ((isPre1(version) ? PRE1_BUMP : SEMVER_BUMP)[worst]);
}

/** The larger of two bumps. @param {Bump} a @param {Bump} b @returns {Bump} */
export const maxBump = (a, b) => (BUMP_RANK[a] >= BUMP_RANK[b] ? a : b);
/** True when `have` is at least `need`. */
export const bumpCovers = (have, need) => BUMP_RANK[have] >= BUMP_RANK[need];

/** The report `npm run spec:diff` prints; its last line is `required bump: …`. */
export function formatReport(changes, { version, from, to }) {
  const lines = [`openapi.yaml: ${from} → ${to}`];
  if (changes.length === 0) lines.push('no change for clients');
  for (const c of changes) {
    const at = c.at.length
      ? `  [${c.at.slice(0, 3).join('; ')}${c.at.length > 3 ? `; +${c.at.length - 3} more` : ''}]`
      : '';
    lines.push(`${c.class.padEnd(20)}  ${c.message}${at}`);
  }
  const count = (cls) => changes.filter((c) => c.class === cls).length;
  lines.push('', `${changes.length} change(s): ${CLASSES.map((cls) => `${count(cls)} ${cls}`).join(', ')}`);
  if (isPre1(version)) {
    lines.push(
      `version ${version} is before 1.0: breaking and potentially breaking → minor, additive and docs → patch (from 1.0: major, minor, minor, patch)`,
    );
  }
  lines.push(`required bump: ${requiredBump(changes, version)}`);
  return lines.join('\n');
}
