// Text layouts for the listing and job commands: aligned tables, severity counts, and a bar chart.
import type { SeverityCounts } from '../../index.js';
import { safeLine } from './safe-text.js';

/** Left-aligned columns separated by two spaces; every cell made one safe line (see `safeLine`). */
export function table(header: string[], rows: Array<Array<string | number | boolean | undefined>>): string {
  // Cells hold the service's text: one line each, controls and invisible characters made visible.
  const cells = [header, ...rows.map((r) => r.map((c) => (c === undefined ? '-' : safeLine(String(c), []))))];
  // A loop, not Math.max(...cells): spreading a service's 200 000 rows as arguments overflows the stack.
  const widths = header.map((_, i) => cells.reduce((w, r) => Math.max(w, (r[i] ?? '').length), 0));
  return `${cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n')}\n`;
}

/** `critical 1, serious 2, moderate 0, minor 0`. */
export function countsText(counts: SeverityCounts | undefined): string {
  const c = counts ?? {};
  return `critical ${c.critical ?? 0}, serious ${c.serious ?? 0}, moderate ${c.moderate ?? 0}, minor ${c.minor ?? 0}`;
}

/**
 * A horizontal bar chart of values, one line per label, scaled to `width` characters. Each value is printed as
 * given; one the chart cannot scale (negative, not a finite number) gets an empty bar, never an error: the
 * values come from the service.
 * @default width 40
 */
export function barChart(points: Array<{ label: string; value: number }>, width = 40): string {
  const drawable = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;
  // Loops, not Math.max(...points): spreading a service's 200 000 points as arguments overflows the stack.
  const max = points.reduce((m, p) => (drawable(p.value) ? Math.max(m, p.value) : m), 1);
  const labelWidth = points.reduce((w, p) => Math.max(w, p.label.length), 0);
  // The bar is clamped to [0, width]: 'x'.repeat() throws on a negative count (a negative value used to exit 70).
  const bar = (v: unknown) => (drawable(v) ? Math.min(width, Math.max(0, Math.round((v / max) * width))) : 0);
  return points
    .map((p) => `${p.label.padEnd(labelWidth)}  ${'█'.repeat(bar(p.value)).padEnd(width)}  ${p.value}`)
    .join('\n')
    .concat(points.length ? '\n' : '');
}
