import { describe, expect, it } from 'vitest';
import { describeMemory, hnswGraphBytes, storeVectorBytes, type GraphShape, type StoreShape } from '../../../src/index/vectors/memory.js';
import { VectorIndex } from '../../../src/index/vectors/vector-index.js';
import { randomUnitVector, rng, withTempDir } from '../../support/vectors.js';

describe('storeVectorBytes', () => {
  const cases: [string, StoreShape, number][] = [
    ['an empty store', { chunks: 0, dimensions: 512 }, 0],
    ['150,000 vectors of 512 floats', { chunks: 150_000, dimensions: 512 }, 307_200_000],
    ['the same, every one a view of the loaded block', { chunks: 150_000, dimensions: 512, loadedBlock: { floats: 150_000 * 512, live: 150_000 } }, 307_200_000],
    // 1,000 loaded vectors replaced by new ones: the block keeps their 1,000 slots.
    ['1,000 of them replaced since the load', { chunks: 150_000, dimensions: 512, loadedBlock: { floats: 150_000 * 512, live: 149_000 } }, 309_248_000],
    ['the loaded ones all gone (the block can be collected)', { chunks: 10, dimensions: 512, loadedBlock: { floats: 150_000 * 512, live: 0 } }, 20_480],
    ['8 dimensions', { chunks: 3, dimensions: 8 }, 96],
  ];
  it.each(cases)('%s', (_name, shape, bytes) => {
    expect(storeVectorBytes(shape)).toBe(bytes);
  });
});

describe('hnswGraphBytes', () => {
  const labelLocks = 65_536 * 40;
  const cases: [string, GraphShape, { vectors: number; links: number; bookkeeping: number }][] = [
    ['an empty graph', { elements: 0, capacity: 0, dimensions: 512, m: 32, m0: 64 }, { vectors: 0, links: 0, bookkeeping: labelLocks }],
    [
      // links: 150,000 × 65 × 4 at level 0, and 150,000 / 31 upper levels of 33 × 4.
      '150,000 vectors of 512 floats, M = 32, room for 225,000',
      { elements: 150_000, capacity: 225_000, dimensions: 512, m: 32, m0: 64 },
      { vectors: 307_200_000, links: 39_638_710, bookkeeping: 150_000 * 56 + 225_000 * 46 + labelLocks },
    ],
    [
      'M = 16: half the links',
      { elements: 1_000, capacity: 1_000, dimensions: 128, m: 16, m0: 32 },
      { vectors: 512_000, links: 132_000 + 4_533, bookkeeping: 1_000 * 102 + labelLocks },
    ],
    ['M = 1 has no upper levels to count', { elements: 10, capacity: 64, dimensions: 4, m: 1, m0: 2 }, { vectors: 160, links: 120, bookkeeping: 560 + 64 * 46 + labelLocks }],
  ];
  it.each(cases)('%s', (_name, shape, expected) => {
    const bytes = hnswGraphBytes(shape);
    expect(bytes).toEqual({ ...expected, total: expected.vectors + expected.links + expected.bookkeeping });
  });

  it('is described in MB, the graph apart from the vectors', () => {
    const graph = hnswGraphBytes({ elements: 150_000, capacity: 225_000, dimensions: 512, m: 32, m0: 64 });
    expect(describeMemory({ vectors: 307_200_000, graph })).toBe('vectors 307.2 MB; graph 368.2 MB (its copy of the vectors 307.2, links 39.6, bookkeeping 21.4)');
    expect(describeMemory({ vectors: 96, graph: undefined })).toBe('vectors 0.0 MB; no graph');
  });
});

describe('VectorIndex.memory', () => {
  const D = 16;

  function filled(count: number, options: { exactThreshold: number; m?: number }): VectorIndex {
    const random = rng(4);
    const index = new VectorIndex({ embedderId: 'm', dimensions: D, ...options });
    for (let i = 0; i < count; i++) index.upsert(`n${i}`, [randomUnitVector(random, D), randomUnitVector(random, D)], `h${i}`);
    return index;
  }

  it('counts the vectors, and no graph below the exact threshold', () => {
    const index = filled(50, { exactThreshold: 1_000 });
    expect(index.memory()).toEqual({ vectors: 100 * D * 4, graph: undefined });
    index.dispose();
  });

  it('reads the links per node of a saved graph from its file, and counts the loaded block while it is in use', async () => {
    await withTempDir(async (dir) => {
      const index = filled(150, { exactThreshold: 100, m: 12 });
      await index.whenGraphIdle();
      const built = index.memory().graph;
      expect(built?.vectors).toBe(300 * D * 4);
      expect(built?.links).toBe(Math.round(300 * 25 * 4 + (300 / 11) * 13 * 4));
      await index.save(dir);

      // Loaded with another M: the file's counts, not the option's.
      const { index: loaded } = await VectorIndex.load(dir, 'm', D, { exactThreshold: 100, m: 32 });
      expect(loaded.usingGraph).toBe(true);
      expect(loaded.memory()).toEqual({ vectors: 300 * D * 4, graph: built });

      // A replaced note's old vectors stay in the block the others keep alive.
      const random = rng(5);
      loaded.upsert('n0', [randomUnitVector(random, D)], 'new');
      expect(loaded.memory().vectors).toBe((299 + 2) * D * 4);
      loaded.remove('n1');
      expect(loaded.memory().vectors).toBe((297 + 4) * D * 4);
      // Once none of the loaded vectors is left, only the new ones count.
      for (let i = 2; i < 150; i++) loaded.remove(`n${i}`);
      expect(loaded.chunkCount).toBe(1);
      expect(loaded.memory().vectors).toBe(D * 4);
      for (const i of [index, loaded]) i.dispose();
    });
  });
});
