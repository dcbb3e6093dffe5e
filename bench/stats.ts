/**
 * Summary statistics for benchmark samples. Pure functions: the input is
 * never modified, and an empty sample is a RangeError (a figure computed
 * from nothing would only look like a result).
 *
 * Percentiles use the nearest-rank definition: the p-th percentile is the
 * smallest sample that at least p % of the samples are less than or equal
 * to, i.e. `sorted[ceil(p/100 · n) − 1]`. It is always one of the measured
 * values (no interpolation), which is what latency reports usually mean by
 * "p95". The median is the usual one: the middle value, or the mean of the
 * two middle values for an even count.
 */

export interface Summary {
  n: number;
  min: number;
  max: number;
  mean: number;
  median: number;
  p95: number;
}

function checked(samples: readonly number[]): number[] {
  if (samples.length === 0) throw new RangeError('no samples');
  for (const value of samples) {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite sample: ${value}`);
  }
  return [...samples].sort((a, b) => a - b);
}

function medianOfSorted(sorted: readonly number[]): number {
  const mid = sorted.length >>> 1;
  const upper = sorted[mid] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] as number) + upper) / 2;
}

function percentileOfSorted(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

/** The median of the samples. */
export function median(samples: readonly number[]): number {
  return medianOfSorted(checked(samples));
}

/** The nearest-rank p-th percentile (0 < p ≤ 100) of the samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], not ${p}`);
  return percentileOfSorted(checked(samples), p);
}

/** Count, min, max, mean, median and p95 in one pass over a sorted copy. */
export function summarize(samples: readonly number[]): Summary {
  const sorted = checked(samples);
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    n: sorted.length,
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
    mean: sum / sorted.length,
    median: medianOfSorted(sorted),
    p95: percentileOfSorted(sorted, 95),
  };
}
