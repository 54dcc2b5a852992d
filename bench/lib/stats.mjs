// Small statistics helpers: the protocol reports medians with their min–max spread, never a lone time.

/** Sorted copy (numbers ascending). */
const sorted = (xs) => [...xs].sort((a, b) => a - b);

/** Nearest-rank percentile, p in [0, 100]. */
export function percentile(xs, p) {
  if (xs.length === 0) return NaN;
  const s = sorted(xs);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))];
}

/** Median (mean of the two middle values for an even count). */
export function median(xs) {
  if (xs.length === 0) return NaN;
  const s = sorted(xs);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

/** { median, min, max, n } of a sample: the shape every result carries. */
export function summary(xs) {
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length };
}

/** Rounds to `digits` significant decimals for display and JSON (keeps raw files readable). */
function round(x, digits = 3) {
  if (!Number.isFinite(x)) return x;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** "1.23 (1.10–1.40)": a median with its spread. */
export function fmtSpread(s, digits = 2, unit = '') {
  if (!s || !Number.isFinite(s.median)) return 'n/a';
  return `${s.median.toFixed(digits)}${unit} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
}

/** Rounds every number in a nested structure to 3 decimals (keeps latest.json readable). */
export function roundAll(x) {
  if (typeof x === 'number') return round(x);
  if (Array.isArray(x)) return x.map(roundAll);
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, roundAll(v)]));
  return x;
}
