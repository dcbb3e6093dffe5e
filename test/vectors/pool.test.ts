import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder, type Embedder } from '../../src/index/vectors/embedder.js';
import { EmbeddingPool } from '../../src/index/vectors/pool.js';

const texts = [
  'Sourdough needs a lively starter and a long cold proof.',
  'Scales and arpeggios on the violin every morning.',
  'Quarterly budget review with the finance team.',
  'A walk along the river at dusk, herons everywhere.',
  '',
  'Kubernetes pods restart when the liveness probe fails.',
];

describe('EmbeddingPool', () => {
  let inThread: Embedder;
  let pool: EmbeddingPool;
  const log: string[] = [];

  beforeAll(async () => {
    [inThread, pool] = await Promise.all([
      createEmbedder({ kind: 'use-lite' }),
      EmbeddingPool.create({ spec: { kind: 'use-lite' }, workers: 2, batchSize: 2, log: (l) => log.push(l) }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([inThread?.close(), pool?.close()]);
  });

  it('returns the same vectors as the embedder in this thread, in order', async () => {
    const [expected, actual] = await Promise.all([inThread.embed(texts), pool.embed(texts)]);
    expect(pool.id).toBe('use-lite-512');
    expect(pool.dimensions).toBe(512);
    expect(actual).toHaveLength(texts.length);
    actual.forEach((vector, i) => {
      expect(vector).toHaveLength(512);
      const want = expected[i] as number[];
      vector.forEach((x, j) => expect(x).toBeCloseTo(want[j] as number, 5));
    });
  });
});
