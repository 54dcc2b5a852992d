#!/usr/bin/env node
// The version that ships: when openapi.yaml or an API report (api/*.api.md) changed since the base, a changeset
// added since the base must bump @svc/a11y-sdk at least as much as the change requires.
//
//   npm run changeset:check              base = the last release: the commit where package.json's version last
//                                        changed (`changeset version` writes it and deletes the changesets it
//                                        used, so the changesets present now are exactly those added since).
//                                        Works on any clone with history, CI's fresh clone of main included.
//   npm run changeset:check -- --base origin/main
//                                        pull-request mode: base = merge-base with that ref; only changesets the
//                                        branch added count (CHANGESET_BASE_REF=origin/main does the same).
//
// The working tree is compared (uncommitted edits count). With no history at all (not a git checkout, no commit)
// the check is skipped with a message; a shallow clone is compared with its oldest commit, and says so.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { bumpCovers, diffSpecs, fileAtRef, maxBump, parseSpec, requiredBump, worstClass } from './spec-diff.mjs';

const SPEC = 'openapi.yaml';
const REPORTS = 'api';
const CHANGESETS = '.changeset';

/** @typedef {import('./spec-diff.mjs').Bump} Bump */

function git(args, cwd) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 }).trim();
}
function tryGit(args, cwd) {
  try {
    return git(args, cwd);
  } catch {
    return undefined;
  }
}

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

/**
 * The bump of @svc/a11y-sdk in a changeset file (`none` for an empty changeset or another package's).
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
 * Lines removed from / added to an API report. Removed or changed signatures count as breaking (a reviewer may
 * judge otherwise; the bump is then still the safe one), added ones as additive.
 */
export function classifyReportChange(before, after) {
  const meaningful = (t) => t.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim() && !/^\s*\/\/ \(undocumented\)$/.test(l));
  const count = (lines) => lines.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map());
  const b = count(meaningful(before));
  const a = count(meaningful(after));
  const removed = [...b].filter(([l, n]) => (a.get(l) ?? 0) < n).map(([l]) => l);
  const added = [...a].filter(([l, n]) => (b.get(l) ?? 0) < n).map(([l]) => l);
  const cls = removed.length ? 'breaking' : added.length ? 'additive' : undefined;
  return { class: cls, removed, added };
}

/**
 * Runs the check; returns the exit code and the lines to print.
 * @param {{ cwd?: string, baseRef?: string }} options
 * @returns {{ code: number, out: string[] }}
 */
export function checkChangeset({ cwd = process.cwd(), baseRef } = {}) {
  const out = [];
  const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
  if (tryGit(['rev-parse', '--is-inside-work-tree'], cwd) !== 'true' || !tryGit(['rev-parse', '--verify', '--quiet', 'HEAD'], cwd)) {
    out.push('changeset:check: skipped: no git history here (not a checkout, or no commit yet), so nothing to compare with.');
    return { code: 0, out };
  }

  // The base.
  let base;
  let baseText;
  if (baseRef) {
    const ref = tryGit(['rev-parse', '--verify', '--quiet', `${baseRef}^{commit}`], cwd);
    if (!ref) {
      out.push(`changeset:check: base ref ${baseRef} not found. Fetch it (e.g. \`git fetch origin main\`) or run without --base to compare with the last release.`);
      return { code: 2, out };
    }
    base = tryGit(['merge-base', ref, 'HEAD'], cwd) ?? ref;
    baseText = `merge-base with ${baseRef} (${base.slice(0, 7)})`;
  } else {
    const release = lastReleaseCommit(cwd);
    if (!release) {
      out.push('changeset:check: skipped: package.json has no committed version yet, so there is no release to compare with.');
      return { code: 0, out };
    }
    base = release.commit;
    const shallow = tryGit(['rev-parse', '--is-shallow-repository'], cwd) === 'true';
    baseText = `the last release, version ${versionOf(fileAtRef(base, 'package.json', cwd))} (${base.slice(0, 7)})`;
    if (shallow && release.root) {
      baseText = `${base.slice(0, 7)}, the oldest commit of this shallow clone (the release may be older: \`git fetch --unshallow\` for a full check)`;
    }
  }

  // What changed for users.
  /** @type {Bump} */
  let required = 'none';
  const reasons = [];
  const specNow = existsSync(join(cwd, SPEC)) ? readFileSync(join(cwd, SPEC), 'utf8') : undefined;
  const specThen = fileAtRef(base, SPEC, cwd);
  if (specNow !== undefined && specThen !== undefined && specNow !== specThen) {
    const changes = diffSpecs(parseSpec(specThen), parseSpec(specNow));
    const bump = requiredBump(changes, pkg.version);
    required = maxBump(required, bump);
    if (bump !== 'none') reasons.push(`${SPEC}: ${changes.length} change(s), the worst ${worstClass(changes)} → ${bump}`);
  }
  const reportNames = new Set([
    ...(existsSync(join(cwd, REPORTS)) ? readdirSync(join(cwd, REPORTS)) : []),
    ...(tryGit(['ls-tree', '--name-only', `${base}:${REPORTS}`], cwd) ?? '').split('\n'),
  ]);
  for (const name of [...reportNames].filter((n) => n.endsWith('.api.md')).sort()) {
    const now = existsSync(join(cwd, REPORTS, name)) ? readFileSync(join(cwd, REPORTS, name), 'utf8') : '';
    const then = fileAtRef(base, `${REPORTS}/${name}`, cwd);
    if (then === undefined) continue; // a new report records the surface from now on; nothing to compare with
    const change = classifyReportChange(then, now);
    if (!change.class) continue;
    const bump = requiredBump([{ class: change.class, message: '', at: [] }], pkg.version);
    required = maxBump(required, bump);
    reasons.push(`${REPORTS}/${name}: ${change.removed.length} line(s) removed or changed, ${change.added.length} added → ${bump}`);
  }

  // The changesets added since the base.
  const files = existsSync(join(cwd, CHANGESETS)) ? readdirSync(join(cwd, CHANGESETS)).filter((f) => f.endsWith('.md') && f !== 'README.md') : [];
  /** @type {Bump} */
  let have = 'none';
  const counted = [];
  for (const f of files.sort()) {
    const text = readFileSync(join(cwd, CHANGESETS, f), 'utf8');
    if (fileAtRef(base, `${CHANGESETS}/${f}`, cwd) === text) continue; // there at the base already
    const bump = bumpOfChangeset(text, pkg.name);
    counted.push(`${CHANGESETS}/${f} (${bump})`);
    have = maxBump(have, bump);
  }

  out.push(`changeset:check: compared with ${baseText}.`);
  if (required === 'none') {
    out.push(`changeset:check: ok: neither ${SPEC} nor ${REPORTS}/*.api.md changed what users see since then.`);
    return { code: 0, out };
  }
  for (const r of reasons) out.push(`  ${r}`);
  if (bumpCovers(have, required)) {
    out.push(`changeset:check: ok: required ${required}, changesets give ${have}: ${counted.join(', ')}.`);
    return { code: 0, out };
  }
  const pre1 = /^0\./.test(pkg.version) ? ` (version ${pkg.version}: before 1.0, breaking changes take a minor)` : '';
  out.push(
    `changeset:check: FAIL: these changes need a ${required} bump of ${pkg.name}${pre1}, but ${counted.length ? `the changesets added since then give only ${have}: ${counted.join(', ')}` : 'no changeset was added since then'}.`,
    `  Run \`npx changeset\`, pick ${pkg.name} and "${required}", and describe what changes for users (what to do when it breaks them);`,
    `  \`npm run spec:diff -- ${baseRef ?? base.slice(0, 7)}\` lists the classified changes of ${SPEC}. Then commit the .changeset/*.md file.`,
  );
  return { code: 1, out };
}

if (process.argv[1] && resolvePath(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const i = args.indexOf('--base');
  const baseRef = i >= 0 ? args[i + 1] : process.env.CHANGESET_BASE_REF || undefined;
  try {
    const { code, out } = checkChangeset({ baseRef });
    (code === 0 ? console.log : console.error)(out.join('\n'));
    process.exitCode = code;
  } catch (e) {
    console.error(`changeset:check: ${/** @type {Error} */ (e).message}`);
    process.exitCode = 2;
  }
}
