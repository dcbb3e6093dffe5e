/**
 * "Did you mean" for a mistyped command, action or option: the known word
 * nearest to the one typed, when it is near enough to be the one meant.
 */

/** Edits (insertions, deletions, substitutions, swaps of neighbours) from `a` to `b`. Pure. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => (rows[i] as number[])[j] as number;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * " Did you mean PREFIX+word?" for the known word nearest to `typed`, or ""
 * when none is within a third of its length (at least 1, at most 3 edits):
 * "--vualt" is "--vault", "--x" is nothing. Pure.
 */
export function didYouMean(typed: string, known: readonly string[], prefix: string): string {
  const allowed = Math.min(3, Math.max(1, Math.floor(typed.length / 3)));
  let best: { word: string; distance: number } | undefined;
  for (const word of known) {
    const distance = editDistance(typed.toLowerCase(), word.toLowerCase());
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { word, distance };
  }
  return best === undefined ? '' : ` Did you mean ${prefix}${best.word}?`;
}
