// Small text renderers for the listing commands: aligned tables, counts, and a text chart.
import type { SeverityCounts } from '../index.js';

/** Left-aligned columns separated by two spaces. */
export function table(header: string[], rows: Array<Array<string | number | boolean | undefined>>): string {
  const cells = [header, ...rows.map((r) => r.map((c) => (c === undefined ? '-' : String(c))))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return `${cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n')}\n`;
}

/** `critical 1, serious 2, moderate 0, minor 0`. */
export function countsText(counts: SeverityCounts | undefined): string {
  const c = counts ?? {};
  return `critical ${c.critical ?? 0}, serious ${c.serious ?? 0}, moderate ${c.moderate ?? 0}, minor ${c.minor ?? 0}`;
}

/**
 * A horizontal bar chart of values, one line per label, scaled to `width` characters.
 * @default width 40
 */
export function barChart(points: Array<{ label: string; value: number }>, width = 40): string {
  const max = Math.max(1, ...points.map((p) => p.value));
  const labelWidth = Math.max(0, ...points.map((p) => p.label.length));
  return points
    .map((p) => `${p.label.padEnd(labelWidth)}  ${'█'.repeat(Math.round((p.value / max) * width)).padEnd(width)}  ${p.value}`)
    .join('\n')
    .concat(points.length ? '\n' : '');
}
