// "Did you mean …?" for a mistyped flag or command, as git and npm answer: the closest known name within a small
// edit distance, or nothing.

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions: `--fial-on`). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The known name closest to `given`, when it is close enough to be a typo: at most 1 edit for names of up to 4
 * characters, 2 up to 8, else 3. Ties go to the earlier name in `known`.
 * @example closest('fail-onn', ['fail-on', 'format']) // 'fail-on'
 */
export function closest(given: string, known: readonly string[]): string | undefined {
  const limit = given.length <= 4 ? 1 : given.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const name of known) {
    // Long inputs are not typos of short names: skip the quadratic work on them.
    if (Math.abs(name.length - given.length) > limit || given.length > 64) continue;
    const d = distance(given.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}
