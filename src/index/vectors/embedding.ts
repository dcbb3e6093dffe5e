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


/** Scales a vector to unit length in place; a zero vector stays zero. */
export function normalizeInPlace(vector: number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0 && Number.isFinite(norm)) {
    for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / norm;
  }
  return vector;
}

export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}
