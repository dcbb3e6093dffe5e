import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A seeded generator, so that failures reproduce. */
export function rng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

export function randomUnitVector(random: () => number, dims: number): number[] {
  // Sums of uniforms approximate a Gaussian: directions spread evenly.
  const v = Array.from({ length: dims }, () => random() + random() + random() - 1.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** A unit vector along `axis`, tilted slightly toward `toward`. */
export function axisVector(dims: number, axis: number, toward?: number, tilt = 0.1): number[] {
  const v = new Array<number>(dims).fill(0);
  v[axis] = 1;
  if (toward !== undefined) v[toward] = tilt;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

export async function withTempDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dexi-vectors-'));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function exactTopIds(vectors: Map<string, number[][]>, query: number[], k: number, filter?: (id: string) => boolean): string[] {
  const scored: [string, number][] = [];
  for (const [id, chunks] of vectors) {
    if (filter && !filter(id)) continue;
    let best = -Infinity;
    for (const chunk of chunks) best = Math.max(best, chunk.reduce((sum, x, i) => sum + x * (query[i] as number), 0));
    scored.push([id, best]);
  }
  scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return scored.slice(0, k).map(([id]) => id);
}
