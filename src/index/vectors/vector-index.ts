import { mkdir } from 'node:fs/promises';
import { TopK } from '../top-k.js';
import { ChunkStore } from './chunk-store.js';
import { clampScore, dotF32 } from './cosine.js';
import { exactSearch, type NoteFilter, type VectorHit } from './exact-scan.js';
import { HnswGraph } from './hnsw-graph.js';
import { hnswGraphBytes, storeVectorBytes, type VectorMemory } from './memory.js';
import { captureSnapshot, readSnapshot, readSnapshotGraph, removeStaleFiles, restoreSnapshot, writeSnapshot } from './vector-snapshot.js';

export type { NoteFilter, VectorHit } from './exact-scan.js';
export type { VectorMemory } from './memory.js';

export interface VectorIndexOptions {
  /** The embedder's id; a snapshot made by another model is never loaded. */
  embedderId: string;
  dimensions: number;
  /**
   * Below this many chunks every search is an exact scan (a few ms); from
   * here on an HNSW graph is built in the background and used once complete.
   */
  exactThreshold?: number;
  /**
   * A filter that leaves at most this share of the chunks (or fewer than
   * `exactThreshold`) is answered by an exact scan of the allowed notes.
   */
  selectiveFraction?: number;
  /** HNSW links per node. 32 keeps recall@10 above 0.99 even on random 512-d vectors. */
  m?: number;
  /**
   * HNSW search breadth while inserting. Each insert runs on the main thread
   * beside the embedding workers. 100 rather than 200: on 9,040 opening
   * vectors of the generated vault an insert took 0.75 ms against 1.24
   * (recall@10 0.9995 against 1.0000), and on the help vault's 5,808
   * vectors 0.27 against 0.41 ms (0.9945 against 0.9950), efSearch 200, 200
   * probes each (BENCHMARKS.md, issue 33).
   */
  efConstruction?: number;
  /** Minimum HNSW search breadth; raised to the number of chunks asked for. */
  efSearch?: number;
  /** Longest slice of main-thread time the background graph build takes at once. */
  buildSliceMs?: number;
}

export interface LoadResult {
  index: VectorIndex;
  /** False when there was no usable snapshot: the index is empty and every note must be embedded. */
  restored: boolean;
  /** Why the snapshot (or just its graph, which is then rebuilt) was not used. */
  reason?: string;
}

/** similarTo searches with at most this many of the note's chunks. */
const MAX_QUERY_CHUNKS = 16;

interface Resolved {
  embedderId: string;
  dimensions: number;
  exactThreshold: number;
  selectiveFraction: number;
  m: number;
  efConstruction: number;
  efSearch: number;
  buildSliceMs: number;
}

/**
 * Chunk vectors per note, searched by cosine similarity with one result per
 * note (its best chunk). Small indexes, and any index while its HNSW graph is
 * being built, are searched exactly (exact-scan.ts); large ones through the
 * graph (hnsw-graph.ts). Which vectors belong to which note is kept in a
 * ChunkStore (chunk-store.ts). Persisted as a snapshot whose `meta.json` is
 * written last, so a crash leaves the previous snapshot intact
 * (vector-snapshot.ts).
 */
export class VectorIndex {
  readonly embedderId: string;
  readonly dimensions: number;
  private readonly tuning: Resolved;
  private readonly store = new ChunkStore();
  private graph: HnswGraph | undefined;
  private graphWaiters: (() => void)[] = [];
  private changes = 0;
  private savedChanges = -1;
  private saving: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(options: VectorIndexOptions) {
    if (!Number.isInteger(options.dimensions) || options.dimensions < 1) throw new RangeError('dimensions must be a positive integer');
    this.tuning = {
      exactThreshold: 2_000,
      selectiveFraction: 0.1,
      m: 32,
      efConstruction: 100,
      efSearch: 200,
      buildSliceMs: 15,
      ...stripUndefined(options),
      embedderId: options.embedderId,
      dimensions: options.dimensions,
    };
    this.embedderId = options.embedderId;
    this.dimensions = options.dimensions;
  }

  get noteCount(): number {
    return this.store.notes.size;
  }

  get chunkCount(): number {
    return this.store.chunkCount;
  }

  /** True once the HNSW graph is complete and answers searches. */
  get usingGraph(): boolean {
    return this.graph?.ready === true && this.store.chunkCount >= this.tuning.exactThreshold;
  }

  /** Whether changes were made since the last save or load. */
  get dirty(): boolean {
    return this.changes !== this.savedChanges;
  }

  has(noteId: string): boolean {
    return this.store.notes.has(noteId);
  }

  /** The hash given with the note's vectors, to tell whether its text changed since. */
  contentHash(noteId: string): string | undefined {
    return this.store.notes.get(noteId)?.hash;
  }

  noteIds(): IterableIterator<string> {
    return this.store.notes.keys();
  }

  /** The note's chunk vectors (unit length), for tests and diagnostics. */
  chunksOf(noteId: string): Float32Array[] {
    return this.store.chunksOf(noteId);
  }

  /**
   * Replaces the note's vectors. A note with no chunks (an empty note) is
   * recorded, with its hash, but never found. Vectors, here and in the
   * searches, are unit length as an embedder makes them (normalizeInPlace in
   * embedding.ts), and are taken as they are.
   */
  upsert(noteId: string, chunks: ArrayLike<number>[], contentHash = ''): void {
    this.assertOpen();
    for (const chunk of chunks) this.checkDimensions(chunk);
    const { dropped, added } = this.store.replace(noteId, chunks.map((chunk) => Float32Array.from(chunk)), contentHash);
    for (const label of dropped) this.graph?.remove(label);
    for (const label of added) this.graph?.add(label, this.store.vector(label));
    this.changes++;
    this.maybeBuildGraph();
  }

  remove(noteId: string): boolean {
    this.assertOpen();
    const dropped = this.store.delete(noteId);
    if (dropped === undefined) return false;
    for (const label of dropped) this.graph?.remove(label);
    this.changes++;
    return true;
  }

  /**
   * The k notes nearest to `vector`, best first. With a filter the k results
   * are all notes the filter allows: a selective filter is answered by an
   * exact scan of the allowed notes, a broad one by a filtered graph search
   * widened until k notes are found.
   */
  searchVector(vector: ArrayLike<number>, k: number, filter?: NoteFilter): VectorHit[] {
    this.checkDimensions(vector);
    return this.search([Float32Array.from(vector)], k, filter);
  }

  /** The cosine of `noteId`'s best chunk to `vector`, as a search would score it; undefined when it has no vectors. */
  scoreNote(vector: ArrayLike<number>, noteId: string): number | undefined {
    this.checkDimensions(vector);
    const note = this.store.notes.get(noteId);
    if (!note || note.labels.length === 0) return undefined;
    const query = Float32Array.from(vector);
    let best = -Infinity;
    for (const label of note.labels) best = Math.max(best, dotF32(query, this.store.vector(label)));
    return clampScore(best);
  }

  /**
   * `from`'s cosine to `to` as `similarTo(from)` scores it: the best pair
   * of `from`'s first chunks and `to`'s chunks; undefined when either has no
   * vectors.
   */
  noteCosine(from: string, to: string): number | undefined {
    const source = this.store.notes.get(from);
    const target = this.store.notes.get(to);
    if (!source || !target || source.labels.length === 0 || target.labels.length === 0) return undefined;
    let best = -Infinity;
    for (const label of source.labels.slice(0, MAX_QUERY_CHUNKS)) {
      const query = this.store.vector(label);
      for (const other of target.labels) best = Math.max(best, dotF32(query, this.store.vector(other)));
    }
    return clampScore(best);
  }

  /** The k notes nearest to any chunk of `noteId`, never the note itself; [] when it has no vectors. */
  similarTo(noteId: string, k: number, filter?: NoteFilter): VectorHit[] {
    const note = this.store.notes.get(noteId);
    if (!note || note.labels.length === 0) return [];
    const queries = note.labels.slice(0, MAX_QUERY_CHUNKS).map((label) => this.store.vector(label));
    return this.search(queries, k, (id) => id !== noteId && (filter === undefined || filter(id)));
  }

  /**
   * What the vectors and the graph take in memory, computed from their counts
   * and dimensions and the graph's links per node (memory.ts says what is
   * counted); the rest of the process's memory is not in it.
   */
  memory(): VectorMemory {
    const vectors = storeVectorBytes({ chunks: this.store.chunkCount, dimensions: this.dimensions, loadedBlock: this.store.loadedBlock });
    return { vectors, graph: this.graph ? hnswGraphBytes(this.graph.shape()) : undefined };
  }

  /** Resolves when no graph build is in progress. */
  whenGraphIdle(): Promise<void> {
    if (!this.graph || this.graph.ready) return Promise.resolve();
    return new Promise((resolve) => this.graphWaiters.push(resolve));
  }

  /** Stops background work; the index must not be used afterwards. */
  dispose(): void {
    this.disposed = true;
    this.graph = undefined;
    this.releaseGraphWaiters();
  }

  /**
   * Writes a snapshot into `dir` (created if missing): the vectors, the
   * graph when it is complete, and `meta.json` last, each written to a
   * temporary file and renamed. Older snapshot files are removed after.
   * Returns false when nothing changed since the last save.
   */
  save(dir: string): Promise<boolean> {
    const run = this.saving.then(() => this.saveNow(dir));
    this.saving = run.catch(() => undefined);
    return run;
  }

  static async load(
    dir: string,
    embedderId: string,
    dimensions: number,
    options: Omit<VectorIndexOptions, 'embedderId' | 'dimensions'> = {},
  ): Promise<LoadResult> {
    const fresh = (): VectorIndex => new VectorIndex({ ...options, embedderId, dimensions });
    const snapshot = await readSnapshot(dir, embedderId, dimensions);
    if (typeof snapshot === 'string') return { index: fresh(), restored: false, reason: snapshot };

    const index = fresh();
    restoreSnapshot(snapshot, dimensions, index.store);

    let reason: string | undefined;
    if (snapshot.graph) {
      const graph = await readSnapshotGraph(dir, snapshot.graph, dimensions, index.store.vectors, index.tuning.efSearch);
      if (typeof graph === 'string') reason = `${graph}; rebuilding the search graph`;
      else index.graph = graph;
    }
    index.savedChanges = index.changes;
    index.maybeBuildGraph();
    return reason === undefined ? { index, restored: true } : { index, restored: true, reason };
  }

  private search(queries: Float32Array[], k: number, filter: NoteFilter | undefined): VectorHit[] {
    if (!Number.isInteger(k) || k < 1) throw new RangeError('k must be a positive integer');
    const graph = this.graph;
    if (!graph?.ready || this.store.chunkCount < this.tuning.exactThreshold) return exactSearch(this.store, queries, k, filter);

    let allowed: Set<string> | undefined;
    let allowedChunks = this.store.chunkCount;
    let allowedNotes = this.store.vectorNotes;
    if (filter) {
      allowed = new Set();
      allowedChunks = 0;
      for (const [id, note] of this.store.notes) {
        if (note.labels.length > 0 && filter(id)) {
          allowed.add(id);
          allowedChunks += note.labels.length;
        }
      }
      allowedNotes = allowed.size;
      // A filter that lets every note through needs no per-label callback.
      if (allowedNotes === this.store.vectorNotes) allowed = undefined;
      const selective = allowedChunks < this.tuning.exactThreshold || allowedChunks <= this.store.chunkCount * this.tuning.selectiveFraction;
      if (selective) return exactSearch(this.store, queries, k, filter);
    }
    const wantNotes = Math.min(k, allowedNotes);
    if (wantNotes === 0) return [];

    const best = new Map<string, number>();
    const chunksPerNote = Math.max(1, Math.ceil(this.store.chunkCount / Math.max(1, this.store.vectorNotes)));
    const share = allowedChunks / this.store.chunkCount;
    // A broad filter is applied to the results of a wider unfiltered search;
    // a narrower one inside the graph search, where it costs a call into
    // JavaScript for every candidate the search visits.
    const inGraph = allowed !== undefined && share < 0.5;
    const labelFilter = inGraph
      ? (label: number): boolean => {
          const owner = this.store.owners.get(label);
          return owner !== undefined && allowed?.has(owner) === true;
        }
      : undefined;
    const candidates = inGraph ? allowedChunks : this.store.chunkCount;
    for (const query of queries) {
      const point = Array.from(query);
      let want = Math.min(candidates, Math.ceil((k * chunksPerNote * 2 + 10) / (inGraph ? 1 : share)));
      for (;;) {
        const found = graph.search(point, want, Math.max(this.tuning.efSearch, want), labelFilter, this.store.owners);
        if (allowed && !inGraph) for (const id of [...found.keys()]) if (!allowed.has(id)) found.delete(id);
        if (found.size >= wantNotes) {
          for (const [id, score] of found) if (score > (best.get(id) ?? -Infinity)) best.set(id, score);
          break;
        }
        // Many chunks of the same few notes crowd the nearest results: widen
        // the search, and past half of the candidates scan exactly instead.
        want *= 2;
        if (want * 2 > candidates) {
          for (const hit of exactSearch(this.store, [query], k, filter)) {
            if (hit.score > (best.get(hit.id) ?? -Infinity)) best.set(hit.id, hit.score);
          }
          break;
        }
      }
    }
    const top = new TopK<VectorHit>(k);
    for (const [id, score] of best) top.push({ id, score });
    return top.sorted();
  }

  private maybeBuildGraph(): void {
    if (this.graph || this.disposed || this.store.chunkCount < this.tuning.exactThreshold) return;
    const graph = new HnswGraph(this.dimensions, Math.ceil(this.store.chunkCount * 1.5), this.tuning.m, this.tuning.efConstruction);
    this.graph = graph;
    const queue = [...this.store.vectors.keys()];
    let next = 0;
    const step = (): void => {
      if (this.graph !== graph) return;
      const until = performance.now() + this.tuning.buildSliceMs;
      while (next < queue.length && performance.now() < until) {
        const label = queue[next++] as number;
        const vector = this.store.vectors.get(label);
        if (vector) graph.add(label, vector);
      }
      if (next < queue.length) {
        setImmediate(step);
        return;
      }
      graph.ready = true;
      this.releaseGraphWaiters();
    };
    // Searches meanwhile scan exactly; each slice yields to pending I/O.
    setImmediate(step);
  }

  private releaseGraphWaiters(): void {
    for (const resolve of this.graphWaiters.splice(0)) resolve();
  }

  private async saveNow(dir: string): Promise<boolean> {
    this.assertOpen();
    if (!this.dirty) return false;
    await mkdir(dir, { recursive: true });
    // No await between counting the changes and the capture: the snapshot is the state `changes` counts.
    const changes = this.changes;
    const snapshot = captureSnapshot(dir, this.embedderId, this.dimensions, this.store, this.graph?.ready ? this.graph : undefined);
    await writeSnapshot(dir, snapshot);
    this.savedChanges = changes;
    await removeStaleFiles(dir, snapshot);
    return true;
  }

  private checkDimensions(vector: ArrayLike<number>): void {
    if (vector.length !== this.dimensions) {
      throw new RangeError(`expected a vector of ${this.dimensions} dimensions, got ${vector.length}`);
    }
  }

  private assertOpen(): void {
    if (this.disposed) throw new Error('The vector index was disposed');
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
