import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEmbedder, type Embedder } from '../../../src/index/vectors/embedder.js';
import { EmbeddingPool } from '../../../src/index/vectors/embedding-pool.js';
import { UseLiteEmbedder } from '../../../src/index/vectors/use-lite.js';

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

  it('replaces a worker that dies and still answers', async () => {
    // Simulate a crash (out of memory, a native fault) by ending one worker thread.
    const runners = (pool as unknown as { runners: { worker?: { terminate(): Promise<number> } }[] }).runners;
    await runners[0]?.worker?.terminate();
    const [expected] = await inThread.embed([texts[0] as string]);
    const results = await Promise.all([pool.embed(texts), pool.embed([texts[0] as string], { priority: 'high' })]);
    expect(results[1][0]?.[0]).toBeCloseTo(expected?.[0] ?? NaN, 5);
    expect(results[0]).toHaveLength(texts.length);
    await vi.waitFor(() => expect(pool.workerCount).toBe(2), { timeout: 15_000 });
    expect(log.some((line) => line.includes('stopped'))).toBe(true);
  });
});

describe('EmbeddingPool batches', () => {
  it('cuts a call into batches of the pool size, or of the size the call asks for', async () => {
    const pool = await EmbeddingPool.create({ spec: { kind: 'use-lite' }, workers: 0, batchSize: 2 });
    try {
      const run = vi.spyOn(UseLiteEmbedder.prototype, 'embedWindows');
      const requests = Array.from({ length: 7 }, (_, i) => ({ text: `note ${i} about sourdough`, window: 0 }));
      const pooled = await pool.embedWindows(requests);
      expect(run.mock.calls.map(([batch]) => batch.length)).toEqual([2, 2, 2, 1]);
      run.mockClear();
      const larger = await pool.embedWindows(requests, { batchSize: 3 });
      expect(run.mock.calls.map(([batch]) => batch.length)).toEqual([3, 3, 1]);
      // Same vectors, in the same order, however the call is cut.
      larger.forEach((result, i) => expect(result.vector[0]).toBeCloseTo(pooled[i]?.vector[0] ?? NaN, 5));
    } finally {
      await pool.close();
    }
  });
});

describe('EmbeddingPool shares', () => {
  it('runs each share on the pool, and a share that closes takes only its own queued work off the queue', async () => {
    const pool = await EmbeddingPool.create({ spec: { kind: 'use-lite' }, workers: 0, batchSize: 1 });
    try {
      const [first, second] = [pool.share(), pool.share()];
      expect({ id: first.id, dimensions: first.dimensions, batchSize: first.batchSize, workers: first.workerCount }).toEqual({ id: 'use-lite-512', dimensions: 512, batchSize: 1, workers: 1 });
      // The spy of the test above, if it ran, still counts its calls.
      const run = vi.spyOn(UseLiteEmbedder.prototype, 'embedWindows');
      run.mockClear();
      const requests = (who: string, count: number) => Array.from({ length: count }, (_, i) => ({ text: `${who}'s note ${i} about sourdough`, window: 0 }));
      // Seven batches of one for the first share: the pool's one runner takes the first at once, the rest wait.
      const firstCall = first.embedWindows(requests('Ann', 7));
      const secondCall = second.embedWindows(requests('Bo', 3));
      await first.close();
      await expect(firstCall).rejects.toThrow('The embedding pool is closed');
      const vectors = await secondCall;
      // The batch the runner held when the first share closed, then the second share's three: none of the first's six waiting.
      expect(run.mock.calls.map(([batch]) => batch.map((request) => request.text.split("'")[0]))).toEqual([['Ann'], ['Bo'], ['Bo'], ['Bo']]);
      const [own] = await pool.embedWindows(requests('Bo', 1));
      expect(vectors[0]?.vector).toEqual(own?.vector);
      await expect(first.embed(['after closing'])).rejects.toThrow('The embedding pool is closed');
      expect(await second.embed(['the pool goes on'])).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });
});
