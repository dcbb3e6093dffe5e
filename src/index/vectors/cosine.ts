/*
 * Cosine similarity the way the vector index computes it: every stored vector
 * and every query is scaled to unit length once, so a cosine is a dot product.
 */

/** A copy of `values` at unit length; a zero (or non-finite) vector becomes all zeros, which scores 0 against anything. */
export function toUnitVector(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values as ArrayLike<number>);
  let sum = 0;
  for (const x of out) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0 && Number.isFinite(norm)) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / norm;
  else out.fill(0);
  return out;
}

export function dotF32(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/** Rounding in float arithmetic can take a cosine just past ±1. */
export function clampScore(score: number): number {
  return Math.max(-1, Math.min(1, score));
}
