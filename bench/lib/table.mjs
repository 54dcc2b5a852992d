// Result rows and their markdown rendering: metric, ours, baseline, ratio, target, met?/by how much.

/**
 * Verdict of a value against a target. `atLeast`: value ≥ target is met; otherwise value ≤ target.
 * The margin is relative to the target, so "missed by 40 %" reads the same for µs, bytes and ratios.
 */
export function judge(value, target, atLeast) {
  if (!Number.isFinite(value)) return { met: false, text: 'not measured' };
  const met = atLeast ? value >= target : value <= target;
  const by = Math.abs(value - target) / Math.abs(target || 1);
  return { met, text: `${met ? 'met' : 'MISSED'} by ${(by * 100).toFixed(0)} %` };
}

/** One row. `verdict` is optional (informational rows have no target). */
export function row(metric, ours, baseline, ratio, target = '', verdict = undefined) {
  return { metric, ours, baseline, ratio, target, met: verdict ? verdict.met : null, verdictText: verdict ? verdict.text : '' };
}

const cell = (x) => String(x ?? '').replace(/\|/g, '\\|');

/** Markdown table of rows. */
export function markdownTable(rows) {
  const head = '| metric | ours | baseline | ratio | target | met? |\n|---|---|---|---|---|---|\n';
  return head + rows.map((r) => `| ${[r.metric, r.ours, r.baseline, r.ratio, r.target, r.verdictText].map(cell).join(' | ')} |`).join('\n') + '\n';
}
