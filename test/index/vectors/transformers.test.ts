import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { env } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../../src/index/vectors/embedder.js';
import { dotF32 } from '../../../src/index/vectors/cosine.js';
import { EmbeddingPool } from '../../../src/index/vectors/embedding-pool.js';
import { TransformersEmbedder } from '../../../src/index/vectors/transformers.js';
import { TINY_DIMENSIONS, writeTinyModel } from '../../support/tiny-model.js';
import { withTempDir } from '../../support/vectors.js';

describe('TransformersEmbedder on a local model', () => {
  const fetched: string[] = [];
  const originalFetch = env.fetch;

  beforeAll(() => {
    // Any network access would be a bug: record it and fail it.
    env.fetch = (input: string | URL) => {
      fetched.push(String(input));
      return Promise.reject(new Error('network access in a test'));
    };
  });
  afterAll(() => {
    env.fetch = originalFetch;
    expect(fetched).toEqual([]);
  });

  it('loads a generated model from a directory with remote loading off', async () => {
    await withTempDir(async (dir) => {
      const modelDir = path.join(dir, 'tiny model');
      await writeTinyModel(modelDir);
      const embedder = await TransformersEmbedder.load(modelDir);
      try {
        expect(env.allowRemoteModels).toBe(false);
        expect(embedder.dimensions).toBe(TINY_DIMENSIONS);
        expect(embedder.id).toBe(`transformers:${modelDir}`);
        const [bread, loaf, violin, unknown] = await embedder.embed(['Bread', 'LOAF oven', 'violin music', 'zzz']);
        for (const v of [bread, loaf, violin, unknown]) expect(Math.hypot(...(v ?? []))).toBeCloseTo(1, 5);
        const dot = (a: number[] | undefined, b: number[] | undefined): number => dotF32(Float32Array.from(a ?? []), Float32Array.from(b ?? []));
        expect(dot(bread, loaf)).toBeGreaterThan(0.9);
        expect(dot(bread, violin)).toBeLessThan(0.1);
        expect(unknown).toEqual([0, 0, 0, 1]);
        expect(await embedder.embed([])).toEqual([]);
      } finally {
        await embedder.close();
      }
      await expect(embedder.embed(['bread'])).rejects.toThrow(/closed/);
    });
  });

  it('loads by spec in a worker thread and agrees with this thread', async () => {
    await withTempDir(async (dir) => {
      await writeTinyModel(dir);
      const spec = { kind: 'transformers' as const, model: dir };
      const [inThread, pool, noWorkers] = await Promise.all([
        createEmbedder(spec),
        EmbeddingPool.create({ spec, workers: 1 }),
        EmbeddingPool.create({ spec, workers: 0 }),
      ]);
      try {
        expect(pool.id).toBe(inThread.id);
        expect(noWorkers.id).toBe(inThread.id);
        const texts = ['bread oven', 'concert', 'music music violin'];
        const [a, b, c] = await Promise.all([inThread.embed(texts), pool.embed(texts), noWorkers.embed(texts)]);
        a.forEach((row, i) => row.forEach((x, j) => expect(b[i]?.[j]).toBeCloseTo(x, 6)));
        expect(c).toEqual(a);
      } finally {
        await Promise.all([inThread.close(), pool.close(), noWorkers.close()]);
      }
    });
  });

  it('fails plainly, without a download, when the directory holds no model', async () => {
    await withTempDir(async (dir) => {
      await writeTinyModel(dir);
      await rm(path.join(dir, 'onnx'), { recursive: true });
      await expect(TransformersEmbedder.load(dir)).rejects.toThrow();
      const empty = path.join(dir, 'empty');
      await mkdir(empty);
      await expect(EmbeddingPool.create({ spec: { kind: 'transformers', model: empty }, workers: 1 })).rejects.toThrow(/did not load/);
    });
  });
});
