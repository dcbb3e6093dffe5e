import { createHash } from 'node:crypto';
import { readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VectorIndex } from '../../../src/index/vectors/vector-index.js';
import { axisVector, exactTopIds, randomUnitVector, rng, withTempDir } from '../../support/vectors.js';

const D = 8;
const small = (): VectorIndex => new VectorIndex({ embedderId: 'test-8', dimensions: D });

describe('VectorIndex, exact scan', () => {
  it('finds the nearest notes, one result per note scored by its best chunk', () => {
    const index = small();
    index.upsert('bread', [axisVector(D, 0), axisVector(D, 5)]);
    index.upsert('loaf', [axisVector(D, 0, 1, 0.3)]);
    index.upsert('violin', [axisVector(D, 2)]);
    const hits = index.searchVector(axisVector(D, 0), 10);
    expect(hits.map((h) => h.id)).toEqual(['bread', 'loaf', 'violin']);
    expect(hits[0]?.score).toBeCloseTo(1, 6);
    expect(hits[2]?.score).toBeCloseTo(0, 6);
    // The second chunk alone is enough to find a note.
    expect(index.searchVector(axisVector(D, 5), 1)[0]?.id).toBe('bread');
    expect(index.searchVector(axisVector(D, 0), 2)).toHaveLength(2);
  });

  it('replaces a note on update and forgets it on remove', () => {
    const index = small();
    index.upsert('a', [axisVector(D, 0)], 'h1');
    index.upsert('b', [axisVector(D, 1)], 'h1');
    index.upsert('a', [axisVector(D, 3)], 'h2');
    expect(index.contentHash('a')).toBe('h2');
    expect(index.chunkCount).toBe(2);
    expect(index.searchVector(axisVector(D, 0), 1)[0]?.score).toBeCloseTo(0, 6);
    expect(index.searchVector(axisVector(D, 3), 1)[0]?.id).toBe('a');
    expect(index.remove('a')).toBe(true);
    expect(index.remove('a')).toBe(false);
    expect(index.has('a')).toBe(false);
    expect(index.searchVector(axisVector(D, 3), 5).map((h) => h.id)).toEqual(['b']);
  });

  it('records an empty note without making it a result', () => {
    const index = small();
    index.upsert('empty', [], 'h');
    index.upsert('full', [axisVector(D, 1)]);
    expect(index.has('empty')).toBe(true);
    expect(index.contentHash('empty')).toBe('h');
    expect(index.searchVector(axisVector(D, 1), 5).map((h) => h.id)).toEqual(['full']);
    expect(index.similarTo('empty', 5)).toEqual([]);
  });

  it('applies the filter before taking k, so k visible notes come back', () => {
    const index = small();
    for (let i = 0; i < 6; i++) index.upsert(`n${i}`, [axisVector(D, 0, 1, i * 0.2)]);
    const visible = (id: string): boolean => id === 'n4' || id === 'n5' || id === 'n3';
    expect(index.searchVector(axisVector(D, 0), 2, visible).map((h) => h.id)).toEqual(['n3', 'n4']);
  });

  it('similarTo never returns the note itself and uses every chunk', () => {
    const index = small();
    index.upsert('mixed', [axisVector(D, 0), axisVector(D, 4)]);
    index.upsert('zero', [axisVector(D, 0, 1)]);
    index.upsert('four', [axisVector(D, 4, 1)]);
    index.upsert('far', [axisVector(D, 7)]);
    const hits = index.similarTo('mixed', 10);
    expect(hits.map((h) => h.id).slice(0, 2).sort()).toEqual(['four', 'zero']);
    expect(hits.map((h) => h.id)).not.toContain('mixed');
    expect(index.similarTo('mixed', 10, (id) => id !== 'zero').map((h) => h.id)).toEqual(['four', 'far']);
    expect(index.similarTo('unknown', 10)).toEqual([]);
  });

  it('rejects vectors of the wrong size', () => {
    const index = small();
    expect(() => index.upsert('a', [[1, 0, 0]])).toThrow(RangeError);
    expect(() => index.searchVector([1, 0], 3)).toThrow(RangeError);
    expect(index.has('a')).toBe(false);
  });
});

describe('VectorIndex, HNSW graph', () => {
  const DIMS = 128;

  it('agrees with the exact scan (recall@10 >= 0.98 on random vectors)', async () => {
    const random = rng(7);
    const index = new VectorIndex({ embedderId: 'random', dimensions: DIMS, exactThreshold: 1_000 });
    const data = new Map<string, number[][]>();
    for (let i = 0; i < 3_000; i++) {
      const chunks = [randomUnitVector(random, DIMS)];
      data.set(`n${i}`, chunks);
      index.upsert(`n${i}`, chunks);
    }
    // Until the graph is complete the index scans exactly.
    expect(index.usingGraph).toBe(false);
    await index.whenGraphIdle();
    expect(index.usingGraph).toBe(true);

    let found = 0;
    const queries = 40;
    for (let q = 0; q < queries; q++) {
      const query = randomUnitVector(random, DIMS);
      const expected = exactTopIds(data, query, 10);
      const got = new Set(index.searchVector(query, 10).map((h) => h.id));
      found += expected.filter((id) => got.has(id)).length;
    }
    expect(found / (queries * 10)).toBeGreaterThanOrEqual(0.98);
    index.dispose();
    // Building the graph of 3,000 vectors is CPU work that a loaded machine stretches: 21 s at load 25.
  }, 60_000);

  it('grows past its capacity, serves filters and multi-chunk notes', async () => {
    const random = rng(11);
    const index = new VectorIndex({ embedderId: 'random', dimensions: DIMS, exactThreshold: 200 });
    const data = new Map<string, number[][]>();
    const add = (id: string, chunks: number[][]): void => {
      data.set(id, chunks);
      index.upsert(id, chunks);
    };
    for (let i = 0; i < 200; i++) add(`a${i}`, [randomUnitVector(random, DIMS)]);
    await index.whenGraphIdle();
    expect(index.usingGraph).toBe(true);
    // The graph was sized for ~300 chunks: these force several resizes.
    for (let i = 0; i < 600; i++) add(`b${i}`, [randomUnitVector(random, DIMS), randomUnitVector(random, DIMS), randomUnitVector(random, DIMS)]);
    for (let i = 0; i < 100; i++) {
      index.remove(`b${i}`);
      data.delete(`b${i}`);
    }
    expect(index.chunkCount).toBe(200 + 500 * 3);

    const query = randomUnitVector(random, DIMS);
    const near = exactTopIds(data, query, 10);
    expect(new Set(index.searchVector(query, 10).map((h) => h.id))).toEqual(new Set(near));

    // A filter that hides the nearest notes: still 10 visible results.
    const hidden = new Set(near);
    const broad = (id: string): boolean => !hidden.has(id);
    const broadHits = index.searchVector(query, 10, broad).map((h) => h.id);
    expect(broadHits).toHaveLength(10);
    expect(broadHits.every(broad)).toBe(true);
    expect(new Set(broadHits)).toEqual(new Set(exactTopIds(data, query, 10, broad)));

    // A quarter of the notes: filtered inside the graph search.
    const quarter = (id: string): boolean => Number(id.slice(1)) % 4 === 0;
    const quarterHits = index.searchVector(query, 10, quarter).map((h) => h.id);
    expect(quarterHits.every(quarter)).toBe(true);
    expect(new Set(quarterHits)).toEqual(new Set(exactTopIds(data, query, 10, quarter)));

    // A selective filter (a 'folder' of 15 notes) is answered exactly.
    const folder = (id: string): boolean => id.startsWith('b') && Number(id.slice(1)) % 40 === 0;
    const folderHits = index.searchVector(query, 10, folder).map((h) => h.id);
    expect(folderHits).toEqual(exactTopIds(data, query, 10, folder));

    const similar = index.similarTo('b500', 5);
    expect(similar).toHaveLength(5);
    expect(similar.map((h) => h.id)).not.toContain('b500');
    index.dispose();
  });
});

describe('VectorIndex after a stream of edits', () => {
  it('answers like an index built from the final notes, before and after a reload', async () => {
    const DIMS = 24;
    const random = rng(21);
    const live = new VectorIndex({ embedderId: 'm', dimensions: DIMS, exactThreshold: 100 });
    const final = new Map<string, number[][]>();
    for (let step = 0; step < 600; step++) {
      const id = `n${Math.floor(random() * 120)}`;
      if (random() < 0.25) {
        live.remove(id);
        final.delete(id);
      } else {
        const chunks = Array.from({ length: Math.floor(random() * 4) }, () => randomUnitVector(random, DIMS));
        live.upsert(id, chunks, `h${step}`);
        final.set(id, chunks);
      }
    }
    const rebuilt = new VectorIndex({ embedderId: 'm', dimensions: DIMS, exactThreshold: 100 });
    for (const [id, chunks] of final) rebuilt.upsert(id, chunks, live.contentHash(id));
    await Promise.all([live.whenGraphIdle(), rebuilt.whenGraphIdle()]);
    expect([...live.noteIds()].sort()).toEqual([...rebuilt.noteIds()].sort());
    expect(live.usingGraph && rebuilt.usingGraph).toBe(true);

    await withTempDir(async (dir) => {
      await live.save(dir);
      const { index: reloaded } = await VectorIndex.load(dir, 'm', DIMS, { exactThreshold: 100 });
      for (let q = 0; q < 20; q++) {
        const query = randomUnitVector(random, DIMS);
        const expected = exactTopIds(final, query, 8);
        for (const index of [live, rebuilt, reloaded]) expect(index.searchVector(query, 8).map((h) => h.id)).toEqual(expected);
      }
      for (const id of final.keys()) expect(reloaded.contentHash(id)).toBe(live.contentHash(id));
      for (const index of [live, rebuilt, reloaded]) index.dispose();
    });
  });
});

describe('VectorIndex persistence', () => {
  const DIMS = 16;

  function filled(count: number, exactThreshold = 2_000): { index: VectorIndex; data: Map<string, number[][]> } {
    const random = rng(3);
    const index = new VectorIndex({ embedderId: 'model-a', dimensions: DIMS, exactThreshold });
    const data = new Map<string, number[][]>();
    for (let i = 0; i < count; i++) {
      const chunks = Array.from({ length: 1 + (i % 3) }, () => randomUnitVector(random, DIMS));
      data.set(`note-${i}`, chunks);
      index.upsert(`note-${i}`, chunks, `hash-${i}`);
    }
    return { index, data };
  }

  async function snapshotFile(dir: string, prefix: string): Promise<string> {
    const name = (await readdir(dir)).find((n) => n.startsWith(prefix));
    if (!name) throw new Error(`no ${prefix} file in ${dir}`);
    return path.join(dir, name);
  }

  it('saves and reloads vectors, hashes and the graph', async () => {
    await withTempDir(async (dir) => {
      const { index, data } = filled(400, 300);
      await index.whenGraphIdle();
      expect(await index.save(dir)).toBe(true);
      expect(await index.save(dir)).toBe(false);

      const { index: loaded, restored, reason } = await VectorIndex.load(dir, 'model-a', DIMS, { exactThreshold: 300 });
      expect(restored).toBe(true);
      expect(reason).toBeUndefined();
      expect(loaded.usingGraph).toBe(true);
      expect(loaded.noteCount).toBe(400);
      expect(loaded.contentHash('note-7')).toBe('hash-7');
      expect(loaded.dirty).toBe(false);
      const query = randomUnitVector(rng(99), DIMS);
      expect(loaded.searchVector(query, 10).map((h) => h.id)).toEqual(exactTopIds(data, query, 10));

      // The reloaded index keeps working and saves a new generation.
      loaded.upsert('late', [randomUnitVector(rng(5), DIMS)], 'h');
      loaded.remove('note-1');
      expect(await loaded.save(dir)).toBe(true);
      const names = await readdir(dir);
      expect(names.filter((n) => n.startsWith('vectors-'))).toHaveLength(1);
      expect(names.filter((n) => n.startsWith('graph-'))).toHaveLength(1);
      const again = await VectorIndex.load(dir, 'model-a', DIMS, { exactThreshold: 300 });
      expect(again.index.has('late')).toBe(true);
      expect(again.index.has('note-1')).toBe(false);
      for (const i of [index, loaded, again.index]) i.dispose();
    });
  });

  it('reloads every vector bit for bit, from a file read in several slices', async () => {
    await withTempDir(async (dir) => {
      // 2,200 notes × 2 chunks × 512 floats: 9 MB, more than one 8 MiB read.
      const dims = 512;
      const random = rng(13);
      const index = new VectorIndex({ embedderId: 'model-a', dimensions: dims, exactThreshold: 1_000_000 });
      for (let i = 0; i < 2_200; i++) index.upsert(`n${i}`, [randomUnitVector(random, dims), randomUnitVector(random, dims)], `h${i}`);
      await index.save(dir);
      const { index: loaded, restored } = await VectorIndex.load(dir, 'model-a', dims, { exactThreshold: 1_000_000 });
      expect(restored).toBe(true);
      expect(loaded.chunkCount).toBe(4_400);
      const bytes = (vectors: Float32Array[]): Buffer => Buffer.concat(vectors.map((v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength)));
      const differ = [...index.noteIds()].filter((id) => !bytes(loaded.chunksOf(id)).equals(bytes(index.chunksOf(id))));
      expect(differ).toEqual([]);
      for (const i of [index, loaded]) i.dispose();
    });
  });

  it('starts empty when there is no snapshot', async () => {
    await withTempDir(async (dir) => {
      const { index, restored } = await VectorIndex.load(path.join(dir, 'missing'), 'model-a', DIMS);
      expect(restored).toBe(false);
      expect(index.noteCount).toBe(0);
    });
  });

  it('discards a snapshot of another model, other dimensions or another format version', async () => {
    await withTempDir(async (dir) => {
      const { index } = filled(20);
      await index.save(dir);
      expect((await VectorIndex.load(dir, 'model-b', DIMS)).restored).toBe(false);
      const wrongDims = await VectorIndex.load(dir, 'model-a', DIMS * 2);
      expect(wrongDims.restored).toBe(false);
      expect(wrongDims.reason).toMatch(/dimensions/);

      const metaPath = path.join(dir, 'meta.json');
      const meta = JSON.parse(await readFile(metaPath, 'utf8')) as Record<string, unknown>;
      await writeFile(metaPath, JSON.stringify({ ...meta, version: 0 }));
      const old = await VectorIndex.load(dir, 'model-a', DIMS);
      expect(old.restored).toBe(false);
      expect(old.reason).toMatch(/version/);
    });
  });

  it('discards corrupt vectors and a corrupt index file', async () => {
    await withTempDir(async (dir) => {
      const { index } = filled(20);
      await index.save(dir);
      const vectorsPath = await snapshotFile(dir, 'vectors-');
      const bytes = await readFile(vectorsPath);
      bytes[100] = (bytes[100] ?? 0) ^ 0xff;
      await writeFile(vectorsPath, bytes);
      const flipped = await VectorIndex.load(dir, 'model-a', DIMS);
      expect(flipped.restored).toBe(false);
      expect(flipped.reason).toMatch(/corrupt/);

      await writeFile(vectorsPath, bytes.subarray(0, 64));
      expect((await VectorIndex.load(dir, 'model-a', DIMS)).restored).toBe(false);

      // The right floats with anything after them are not the vectors either.
      bytes[100] = (bytes[100] ?? 0) ^ 0xff;
      await writeFile(vectorsPath, Buffer.concat([bytes, Buffer.alloc(4)]));
      const longer = await VectorIndex.load(dir, 'model-a', DIMS);
      expect(longer.restored).toBe(false);
      expect(longer.reason).toMatch(/corrupt/);
      await writeFile(vectorsPath, bytes);
      expect((await VectorIndex.load(dir, 'model-a', DIMS)).restored).toBe(true);
      await unlink(vectorsPath);
      expect((await VectorIndex.load(dir, 'model-a', DIMS)).reason).toMatch(/missing/);

      for (const text of ['{"format": "dexi-vectors", "vers', '[]', '{"format":"dexi-vectors","version":1,"notes":"x"}']) {
        await writeFile(path.join(dir, 'meta.json'), text);
        expect((await VectorIndex.load(dir, 'model-a', DIMS)).restored).toBe(false);
      }
    });
  });

  it('rebuilds a corrupt or mismatched graph from the vectors, never loading it', async () => {
    await withTempDir(async (dir) => {
      const { index, data } = filled(300, 200);
      await index.whenGraphIdle();
      await index.save(dir);
      const graphPath = await snapshotFile(dir, 'graph-');
      const good = await readFile(graphPath);
      const bad = Buffer.from(good);
      bad[bad.length - 10] = (bad[bad.length - 10] ?? 0) ^ 0xff;
      await writeFile(graphPath, bad);

      const { index: loaded, restored, reason } = await VectorIndex.load(dir, 'model-a', DIMS, { exactThreshold: 200 });
      expect(restored).toBe(true);
      expect(reason).toMatch(/graph file is corrupt/);
      expect(loaded.usingGraph).toBe(false);
      const query = randomUnitVector(rng(1), DIMS);
      expect(loaded.searchVector(query, 5).map((h) => h.id)).toEqual(exactTopIds(data, query, 5));
      await loaded.whenGraphIdle();
      expect(loaded.usingGraph).toBe(true);

      // A graph of other dimensions whose checksum is right (as if the meta
      // file were rewritten by hand) is caught before the native loader.
      const other = filled(300, 200);
      await other.index.whenGraphIdle();
      const otherDir = path.join(dir, 'other');
      const wide = new VectorIndex({ embedderId: 'model-a', dimensions: DIMS * 2, exactThreshold: 10 });
      const random = rng(8);
      for (let i = 0; i < 50; i++) wide.upsert(`w${i}`, [randomUnitVector(random, DIMS * 2)]);
      await wide.whenGraphIdle();
      await wide.save(otherDir);
      const wideGraph = await readFile(await snapshotFile(otherDir, 'graph-'));
      await writeFile(graphPath, wideGraph);
      const metaPath = path.join(dir, 'meta.json');
      const meta = JSON.parse(await readFile(metaPath, 'utf8')) as { graph: { sha256: string } };
      meta.graph.sha256 = createHash('sha256').update(wideGraph).digest('hex');
      await writeFile(metaPath, JSON.stringify(meta));
      const mismatched = await VectorIndex.load(dir, 'model-a', DIMS, { exactThreshold: 200 });
      expect(mismatched.restored).toBe(true);
      expect(mismatched.reason).toMatch(/other dimensions/);
      for (const i of [index, loaded, other.index, wide, mismatched.index]) i.dispose();
    });
  });
});
