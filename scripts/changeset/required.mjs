// The bump a change between two states of the repository requires: openapi.yaml classified by spec:diff, and
// the API reports (api/*.api.md) classified with the same rules (report-diff.mjs, sides from the descriptions).
import { diffSpecs, maxBump, parseSpec, requiredBump, worstClass } from '../spec-diff.mjs';
import { mergeSides, schemaSides } from '../spec-diff/directions.mjs';
import { classifyReportChange } from '../spec-diff/report-diff.mjs';

export const SPEC = 'openapi.yaml';
export const REPORTS = 'api';

/** @typedef {import('../spec-diff.mjs').Bump} Bump */
/** @typedef {import('./source.mjs').Source} Source */
/** @typedef {{ file: string, bump: Bump, text: string, details: string[] }} Reason */

/**
 * What changed for users from `from` to `to`, and the bump it requires for a package at `version`.
 * @param {Source} from @param {Source} to @param {string} version
 * @returns {{ bump: Bump, reasons: Reason[] }}
 */
export function requiredBetween(from, to, version) {
  /** @type {Bump} */
  let bump = 'none';
  /** @type {Reason[]} */
  const reasons = [];
  const specThen = from.read(SPEC);
  const specNow = to.read(SPEC);
  const docs = [specThen, specNow].filter((t) => t !== undefined).map((t) => parseSpec(t));
  if (specThen !== undefined && specNow !== undefined && specThen !== specNow) {
    const changes = diffSpecs(parseSpec(specThen), parseSpec(specNow));
    const need = requiredBump(changes, version);
    if (need !== 'none') {
      bump = maxBump(bump, need);
      reasons.push({
        file: SPEC,
        bump: need,
        text: `${SPEC}: ${changes.length} change(s), the worst ${worstClass(changes)} → ${need}`,
        details: [],
      });
    }
  }
  // A record type's side (written or read by users) comes from the descriptions, then and now.
  const sides = mergeSides(...docs.map((d) => schemaSides(d)));
  const names = new Set([...from.list(REPORTS), ...to.list(REPORTS)].filter((n) => n.endsWith('.api.md')));
  for (const name of [...names].sort()) {
    const file = `${REPORTS}/${name}`;
    const then = from.read(file);
    if (then === undefined) continue; // a new report records the surface from now on; nothing to compare with
    const report = classifyReportChange(then, to.read(file) ?? '', { sides });
    if (!report.class) continue;
    const need = requiredBump(report.changes, version);
    bump = maxBump(bump, need);
    reasons.push({
      file,
      bump: need,
      text: `${file}: ${report.changes.length} change(s), the worst ${report.class} → ${need}`,
      details: report.changes.map((c) => `${c.class}: ${c.message}`),
    });
  }
  return { bump, reasons };
}
