/*
 * Cosine similarity the way the vector index computes it: every stored vector
 * and every query is unit length already, made so once where it was embedded
 * (normalizeInPlace in embedding.ts), so a cosine is a dot product.
 */

export function dotF32(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/** Rounding in float arithmetic can take a cosine just past ±1. */
export function clampScore(score: number): number {
  return Math.max(-1, Math.min(1, score));
}
