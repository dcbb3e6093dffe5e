import { open } from 'node:fs/promises';
import hnswlib from 'hnswlib-node';
import type { HierarchicalNSW } from 'hnswlib-node';
import { clampScore, dotF32 } from './cosine.js';
import type { GraphShape } from './memory.js';

/** The HNSW graph over chunk labels; deleted slots are reused by new chunks. */
export class HnswGraph {
  /** False while the graph is being built: searches scan exactly meanwhile. */
  ready = false;
  /** Labels currently in the graph and not deleted. */
  private readonly live = new Set<number>();

  /**
   * A graph with room for `capacity` chunks, `m` links per node (2 × m at
   * level 0); a capacity of 0 leaves `hnsw` as it is (one read from a file,
   * whose links per node are `m` and `m0`).
   */
  constructor(
    private readonly dimensions: number,
    capacity: number,
    private readonly m: number,
    efConstruction: number,
    private readonly hnsw: HierarchicalNSW = new hnswlib.HierarchicalNSW('cosine', dimensions),
    private readonly m0 = 2 * m,
  ) {
    if (capacity > 0) hnsw.initIndex({ maxElements: Math.max(capacity, 64), m, efConstruction, randomSeed: 100, allowReplaceDeleted: true });
  }

  /**
   * Reads a graph saved with `writeSync` and checks it against the vectors it
   * must index; returns what is wrong with it instead, if anything. The
   * caller checks the file's checksum first: the native loader must never see
   * a damaged file.
   */
  static async read(file: string, dimensions: number, vectors: ReadonlyMap<number, Float32Array>, efSearch: number): Promise<HnswGraph | string> {
    // readIndex takes the dimensions from the constructor, not the file, and
    // would read a graph of another size out of bounds: check the header.
    const header = await graphFileHeader(file);
    if (header?.dimensions !== dimensions) return 'the search graph has other dimensions';
    const hnsw = new hnswlib.HierarchicalNSW('cosine', dimensions);
    try {
      await hnsw.readIndex(file, true);
    } catch (error) {
      return `the search graph did not load (${error instanceof Error ? error.message : String(error)})`;
    }
    const graph = new HnswGraph(dimensions, 0, header.m, 0, hnsw, header.m0);
    const inGraph = new Set(hnsw.getIdsList());
    for (const label of vectors.keys()) {
      if (!inGraph.has(label)) return 'the search graph does not match the vectors';
      graph.live.add(label);
    }
    // Spot-check that the graph holds these very vectors.
    const labels = [...vectors.keys()];
    const step = Math.max(1, Math.floor(labels.length / 16));
    for (let i = 0; i < labels.length; i += step) {
      const label = labels[i] as number;
      const expected = vectors.get(label) as Float32Array;
      let stored: Float32Array;
      try {
        stored = Float32Array.from(hnsw.getPoint(label));
      } catch {
        return 'the search graph does not match the vectors';
      }
      if (Math.abs(dotF32(stored, expected) - dotF32(expected, expected)) > 1e-3) return 'the search graph does not match the vectors';
    }
    // readIndex resets ef to its default (10); searches set it again anyway.
    hnsw.setEf(efSearch);
    graph.ready = true;
    return graph;
  }

  add(label: number, vector: Float32Array): void {
    if (this.live.has(label)) return;
    // Adding past capacity throws: grow first. The count includes deleted
    // slots, so this may grow once more than needed, never too late.
    const max = this.hnsw.getMaxElements();
    if (this.hnsw.getCurrentCount() >= max) this.hnsw.resizeIndex(Math.ceil(max * 1.5) + 64);
    this.hnsw.addPoint(Array.from(vector), label, true);
    this.live.add(label);
  }

  remove(label: number): void {
    if (this.live.delete(label)) this.hnsw.markDelete(label);
  }

  /** Best cosine per note among the `want` nearest chunks. */
  search(
    point: number[],
    want: number,
    ef: number,
    filter: ((label: number) => boolean) | undefined,
    owners: ReadonlyMap<number, string>,
  ): Map<string, number> {
    // ef is not kept by readIndex and must be at least k: set it every time.
    this.hnsw.setEf(ef);
    const { neighbors, distances } = this.hnsw.searchKnn(point, Math.min(want, this.hnsw.getMaxElements()), filter);
    const best = new Map<string, number>();
    neighbors.forEach((label, i) => {
      const owner = owners.get(label);
      if (owner === undefined) return;
      const score = clampScore(1 - (distances[i] as number));
      if (score > (best.get(owner) ?? -Infinity)) best.set(owner, score);
    });
    return best;
  }

  /** The graph's size, for what it takes in memory (memory.ts). */
  shape(): GraphShape {
    return { elements: this.hnsw.getCurrentCount(), capacity: this.hnsw.getMaxElements(), dimensions: this.dimensions, m: this.m, m0: this.m0 };
  }

  /** Writes the graph to `file` at once, without yielding, so that the file is the graph of this moment. */
  writeSync(file: string): void {
    this.hnsw.writeIndexSync(file);
  }
}

/**
 * The vector size and links per node recorded in an hnswlib index file: its
 * header starts with six little-endian size_t values (offsetLevel0,
 * maxElements, count, sizeDataPerElement, labelOffset, offsetData), then
 * maxLevel and the entry point (4 bytes each) and maxM (size_t). A vector
 * takes the bytes from offsetData to labelOffset, and the level-0 links
 * before it (maxM0 links of 4 bytes and their count).
 */
async function graphFileHeader(file: string): Promise<{ dimensions: number; m: number; m0: number } | undefined> {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(64);
    const { bytesRead } = await handle.read(header, 0, 64, 0);
    if (bytesRead < 48) return undefined;
    const sizeDataPerElement = header.readBigUInt64LE(24);
    const labelOffset = header.readBigUInt64LE(32);
    const offsetData = header.readBigUInt64LE(40);
    if (labelOffset <= offsetData || sizeDataPerElement !== labelOffset + 8n) return undefined;
    const bytes = labelOffset - offsetData;
    if (bytes % 4n !== 0n) return undefined;
    // The links are only reported (memory.ts): a header too short for them is left to readIndex to refuse.
    const m = bytesRead >= 64 ? Number(header.readBigUInt64LE(56)) : 0;
    return { dimensions: Number(bytes / 4n), m, m0: Math.max(0, Number((offsetData - 4n) / 4n)) };
  } finally {
    await handle.close();
  }
}
