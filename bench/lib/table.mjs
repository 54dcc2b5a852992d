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
  return {
    metric,
    ours,
    baseline,
    ratio,
    target,
    met: verdict ? verdict.met : null,
    verdictText: verdict ? verdict.text : '',
  };
}

const cell = (x) => String(x ?? '').replace(/\|/g, '\\|');

/** Markdown table of rows. */
export function markdownTable(rows) {
  const head = '| metric | ours | baseline | ratio | target | met? |\n|---|---|---|---|---|---|\n';
  return (
    head +
    rows
      .map((r) => `| ${[r.metric, r.ours, r.baseline, r.ratio, r.target, r.verdictText].map(cell).join(' | ')} |`)
      .join('\n') +
    '\n'
  );
}

/**
 * A side-by-side table: `{ title, columns, rows }`, each row an array of cells in column order (the first cell
 * names the client or case). Rendered under a benchmark's targets table.
 */
export function grid(title, columns, rows) {
  return { title, columns, rows };
}

/** Markdown of a {@link grid}. */
export function markdownGrid({ title, columns, rows }) {
  const head = `| ${columns.map(cell).join(' | ')} |\n|${columns.map(() => '---').join('|')}|\n`;
  return `**${title}**\n\n${head}${rows.map((r) => `| ${r.map(cell).join(' | ')} |`).join('\n')}\n`;
}

/** Plain-text rendering of a {@link grid} for the console, columns padded. */
export function textGrid({ title, columns, rows }) {
  const all = [columns, ...rows].map((r) => r.map((c) => String(c ?? '')));
  const widths = columns.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => `  ${r.map((c, i) => c.padEnd(widths[i])).join('  ')}`.trimEnd();
  return [`  ${title}`, ...all.map(line)].join('\n');
}
