import type { WindowRequest, WindowVector } from './windows.js';

/**
 * A text embedder turns texts into unit-length vectors. Its `id` names the
 * model (and anything else that changes the vectors): stored vectors made by
 * another id are never mixed with new ones, they are rebuilt.
 */
export interface Embedder {
  readonly id: string;
  readonly dimensions: number;
  /** One unit-normalised vector per text, in order: of its first window (a query, a short note). */
  embed(texts: string[]): Promise<number[][]>;
  /** The vector of one window of each text (`windows.ts`), with how many windows the text has. */
  embedWindows(requests: readonly WindowRequest[]): Promise<WindowVector[]>;
  close(): Promise<void>;
}


/**
 * Scales a vector to unit length in place, in double precision; a zero (or
 * non-finite) vector becomes all zeros, which scores 0 against anything.
 *
 * The one place a vector is normalised: every embedder's `embed` ends with
 * it (the transformers pipeline is asked not to normalise), so that a vector
 * is unit length from the moment it is made, as the `Embedder` contract says;
 * the vector index, the HNSW graph's scores and the exact scan take it as it
 * is and score a cosine as a dot product (cosine.ts).
 */
export function normalizeInPlace(vector: number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0 && Number.isFinite(norm)) {
    for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / norm;
  } else vector.fill(0);
  return vector;
}
