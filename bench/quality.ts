/**
 * Retrieval quality and score calibration, as pure functions over ranked
 * results and relevance labels.
 */

export interface Scored {
  score: number;
  relevant: boolean;
}

/** Share of the relevant items that appear in the first k results. */
export function recallAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0) return 0;
  let found = 0;
  for (const id of ranked.slice(0, k)) if (relevant.has(id)) found++;
  return found / relevant.size;
}

/** 1 / rank of the first relevant result, 0 when there is none. */
export function reciprocalRank(ranked: readonly string[], relevant: ReadonlySet<string>): number {
  const index = ranked.findIndex((id) => relevant.has(id));
  return index === -1 ? 0 : 1 / (index + 1);
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

export interface Distribution {
  count: number;
  min: number;
  median: number;
  max: number;
}

/** How many values, and their least, median and greatest (0s when there are none), rounded to 3 places. */
export function distribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  const n = sorted.length;
  if (n === 0) return { count: 0, min: 0, median: 0, max: 0 };
  const median = n % 2 === 1 ? (sorted[(n - 1) / 2] as number) : ((sorted[n / 2 - 1] as number) + (sorted[n / 2] as number)) / 2;
  return { count: n, min: round(sorted[0] as number), median: round(median), max: round(sorted[n - 1] as number) };
}

export interface PrecisionSplit {
  above: { count: number; precision: number };
  below: { count: number; precision: number };
}

/** How many results score at or above `threshold`, and how many of those (and of the rest) are relevant. */
export function precisionAround(pairs: readonly Scored[], threshold: number): PrecisionSplit {
  const above = pairs.filter((pair) => pair.score >= threshold);
  const below = pairs.filter((pair) => pair.score < threshold);
  const precision = (list: readonly Scored[]) => (list.length === 0 ? 0 : list.filter((pair) => pair.relevant).length / list.length);
  return { above: { count: above.length, precision: precision(above) }, below: { count: below.length, precision: precision(below) } };
}

/**
 * The raw score that best separates relevant from other results: the one
 * that maximises F1 of "score ≥ t means relevant" over the given pairs.
 */
export function bestThreshold(pairs: readonly Scored[]): number {
  const relevantTotal = pairs.filter((pair) => pair.relevant).length;
  const sorted = [...pairs].sort((a, b) => b.score - a.score);
  let best = { f1: -1, threshold: 1 };
  let truePositives = 0;
  for (let i = 0; i < sorted.length; i++) {
    const pair = sorted[i] as Scored;
    if (pair.relevant) truePositives++;
    // Only cut between distinct scores.
    const next = sorted[i + 1];
    if (next && next.score === pair.score) continue;
    const precision = truePositives / (i + 1);
    const recall = relevantTotal === 0 ? 0 : truePositives / relevantTotal;
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    if (f1 > best.f1) best = { f1, threshold: next ? (pair.score + next.score) / 2 : pair.score };
  }
  return best.threshold;
}

/**
 * Pool-adjacent-violators: the non-decreasing estimate of P(relevant | score)
 * at each pair, sorted by score ascending.
 */
export function isotonicFit(pairs: readonly Scored[]): { score: number; probability: number }[] {
  const sorted = [...pairs].sort((a, b) => a.score - b.score);
  const blocks: { sum: number; count: number; start: number }[] = [];
  sorted.forEach((pair, index) => {
    blocks.push({ sum: pair.relevant ? 1 : 0, count: 1, start: index });
    for (;;) {
      const last = blocks[blocks.length - 1] as { sum: number; count: number };
      const before = blocks[blocks.length - 2];
      if (!before || before.sum / before.count <= last.sum / last.count) break;
      before.sum += last.sum;
      before.count += last.count;
      blocks.pop();
    }
  });
  const fitted: { score: number; probability: number }[] = [];
  for (const block of blocks) {
    for (let i = 0; i < block.count; i++) {
      fitted.push({ score: (sorted[block.start + i] as Scored).score, probability: block.sum / block.count });
    }
  }
  return fitted;
}

/**
 * The raw score above which a result is more likely relevant than not: where
 * the isotonic estimate of P(relevant | score) first reaches `probability`.
 * Falls back to the F1-best threshold when no score gets there.
 */
export function probabilityThreshold(pairs: readonly Scored[], probability = 0.5): number {
  const fitted = isotonicFit(pairs);
  const index = fitted.findIndex((point) => point.probability >= probability);
  if (index === -1) return bestThreshold(pairs);
  const at = (fitted[index] as { score: number }).score;
  const previous = fitted[index - 1];
  return previous ? (previous.score + at) / 2 : at;
}

/**
 * Knots of a monotonic piecewise-linear map that sends the score where a
 * result becomes more likely relevant than not to 0.6, a cosine of 0 to 0,
 * the highest relevant score seen to 0.95 and 1 to 1.
 */
export function fitCalibration(pairs: readonly Scored[]): [number, number][] {
  const threshold = probabilityThreshold(pairs);
  const top = Math.max(threshold + 0.01, ...pairs.filter((pair) => pair.relevant).map((pair) => pair.score));
  const round = (value: number) => Math.round(value * 1e4) / 1e4;
  const knots: [number, number][] = [
    [0, 0],
    [round(threshold), 0.6],
    [round(Math.min(top, 0.99)), 0.95],
    [1, 1],
  ];
  // Keep the knots strictly increasing in x, whatever the data.
  return knots.filter((knot, i) => i === 0 || knot[0] > (knots[i - 1] as [number, number])[0]);
}
