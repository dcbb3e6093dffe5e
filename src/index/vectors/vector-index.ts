import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import hnswlib from 'hnswlib-node';
import type { HierarchicalNSW } from 'hnswlib-node';
import { replaceFileAtomic, TEMP_PREFIX, tempPathFor } from '../../files/atomic.js';
import { TopK } from '../top-k.js';

export interface VectorHit {
  id: string;
  /** Cosine similarity of the note's best chunk, in [-1, 1]. */
  score: number;
}

export type NoteFilter = (noteId: string) => boolean;

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

const FORMAT = 'dexi-vectors';
const FORMAT_VERSION = 1;
const META_FILE = 'meta.json';
const SNAPSHOT_FILE = /^(vectors-[\w-]+\.f32|graph-[\w-]+\.hnsw)$/;
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

interface NoteEntry {
  labels: number[];
  hash: string;
}

interface SnapshotMeta {
  format: typeof FORMAT;
  version: number;
  embedderId: string;
  dimensions: number;
  vectors: { file: string; sha256: string; chunks: number };
  graph: { file: string; sha256: string } | null;
  /** [note id, content hash, chunk labels]; vectors are stored in this order. */
  notes: [string, string, number[]][];
}

/**
 * Chunk vectors per note, searched by cosine similarity with one result per
 * note (its best chunk). Small indexes, and any index while its HNSW graph is
 * being built, are searched exactly; large ones through the graph.
 * Persisted as a snapshot whose `meta.json` is written last, so a crash
 * leaves the previous snapshot intact.
 */
export class VectorIndex {
  readonly embedderId: string;
  readonly dimensions: number;
  private readonly o: Resolved;
  private readonly notes = new Map<string, NoteEntry>();
  private readonly vectors = new Map<number, Float32Array>();
  private readonly owners = new Map<number, string>();
  private nextLabel = 0;
  /** Notes with at least one chunk. */
  private vectorNotes = 0;
  private graph: Graph | undefined;
  private graphWaiters: (() => void)[] = [];
  private changes = 0;
  private savedChanges = -1;
  private saving: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(options: VectorIndexOptions) {
    if (!Number.isInteger(options.dimensions) || options.dimensions < 1) throw new RangeError('dimensions must be a positive integer');
    this.o = {
      exactThreshold: 2_000,
      selectiveFraction: 0.1,
      m: 32,
      efConstruction: 200,
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
    return this.notes.size;
  }

  get chunkCount(): number {
    return this.vectors.size;
  }

  /** True once the HNSW graph is complete and answers searches. */
  get usingGraph(): boolean {
    return this.graph?.ready === true && this.vectors.size >= this.o.exactThreshold;
  }

  /** Whether changes were made since the last save or load. */
  get dirty(): boolean {
    return this.changes !== this.savedChanges;
  }

  has(noteId: string): boolean {
    return this.notes.has(noteId);
  }

  /** The hash given with the note's vectors, to tell whether its text changed since. */
  contentHash(noteId: string): string | undefined {
    return this.notes.get(noteId)?.hash;
  }

  noteIds(): IterableIterator<string> {
    return this.notes.keys();
  }

  /** The note's chunk vectors (unit length), for tests and diagnostics. */
  chunksOf(noteId: string): Float32Array[] {
    return (this.notes.get(noteId)?.labels ?? []).map((label) => this.vectors.get(label) as Float32Array);
  }

  /**
   * Replaces the note's vectors. A note with no chunks (an empty note) is
   * recorded, with its hash, but never found.
   */
  upsert(noteId: string, chunks: ArrayLike<number>[], contentHash = ''): void {
    this.assertOpen();
    for (const chunk of chunks) this.checkDimensions(chunk);
    this.dropVectors(noteId);
    const labels = chunks.map((chunk) => {
      const label = this.nextLabel++;
      const vector = toUnitVector(chunk);
      this.vectors.set(label, vector);
      this.owners.set(label, noteId);
      this.graph?.add(label, vector);
      return label;
    });
    this.notes.set(noteId, { labels, hash: contentHash });
    if (labels.length > 0) this.vectorNotes++;
    this.changes++;
    this.maybeBuildGraph();
  }

  remove(noteId: string): boolean {
    this.assertOpen();
    if (!this.notes.has(noteId)) return false;
    this.dropVectors(noteId);
    this.notes.delete(noteId);
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
    return this.search([toUnitVector(vector)], k, filter);
  }

  /** The k notes nearest to any chunk of `noteId`, never the note itself; [] when it has no vectors. */
  similarTo(noteId: string, k: number, filter?: NoteFilter): VectorHit[] {
    const note = this.notes.get(noteId);
    if (!note || note.labels.length === 0) return [];
    const queries = note.labels.slice(0, MAX_QUERY_CHUNKS).map((label) => this.vectors.get(label) as Float32Array);
    return this.search(queries, k, (id) => id !== noteId && (filter === undefined || filter(id)));
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
    let text: string;
    try {
      text = await readFile(path.join(dir, META_FILE), 'utf8');
    } catch (error) {
      if (isNotFound(error)) return { index: fresh(), restored: false, reason: 'no snapshot yet' };
      throw error;
    }
    const parsed = parseMeta(text);
    if (typeof parsed === 'string') return { index: fresh(), restored: false, reason: parsed };
    const meta = parsed;
    if (meta.embedderId !== embedderId) {
      return { index: fresh(), restored: false, reason: `the snapshot was made by ${meta.embedderId}, not ${embedderId}` };
    }
    if (meta.dimensions !== dimensions) {
      return { index: fresh(), restored: false, reason: `the snapshot has ${meta.dimensions} dimensions, not ${dimensions}` };
    }

    let bytes: Buffer;
    try {
      bytes = await readFile(path.join(dir, meta.vectors.file));
    } catch (error) {
      if (isNotFound(error)) return { index: fresh(), restored: false, reason: 'the snapshot vectors are missing' };
      throw error;
    }
    if (bytes.length !== meta.vectors.chunks * dimensions * 4 || sha256(bytes) !== meta.vectors.sha256) {
      return { index: fresh(), restored: false, reason: 'the snapshot vectors are corrupt' };
    }
    // A copy, so the floats are aligned whatever offset the read buffer has.
    const all = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

    const index = fresh();
    let offset = 0;
    for (const [id, hash, labels] of meta.notes) {
      for (const label of labels) {
        index.vectors.set(label, all.subarray(offset * dimensions, (offset + 1) * dimensions));
        index.owners.set(label, id);
        index.nextLabel = Math.max(index.nextLabel, label + 1);
        offset++;
      }
      index.notes.set(id, { labels, hash });
      if (labels.length > 0) index.vectorNotes++;
    }

    let reason: string | undefined;
    if (meta.graph) {
      const problem = await index.attachGraph(dir, meta.graph);
      if (problem !== undefined) reason = `${problem}; rebuilding the search graph`;
    }
    index.savedChanges = index.changes;
    index.maybeBuildGraph();
    return reason === undefined ? { index, restored: true } : { index, restored: true, reason };
  }

  private search(queries: Float32Array[], k: number, filter: NoteFilter | undefined): VectorHit[] {
    if (!Number.isInteger(k) || k < 1) throw new RangeError('k must be a positive integer');
    const graph = this.graph;
    if (!graph?.ready || this.vectors.size < this.o.exactThreshold) return this.exactSearch(queries, k, filter);

    let allowed: Set<string> | undefined;
    let allowedChunks = this.vectors.size;
    let allowedNotes = this.vectorNotes;
    if (filter) {
      allowed = new Set();
      allowedChunks = 0;
      for (const [id, note] of this.notes) {
        if (note.labels.length > 0 && filter(id)) {
          allowed.add(id);
          allowedChunks += note.labels.length;
        }
      }
      allowedNotes = allowed.size;
      // A filter that lets every note through needs no per-label callback.
      if (allowedNotes === this.vectorNotes) allowed = undefined;
      const selective = allowedChunks < this.o.exactThreshold || allowedChunks <= this.vectors.size * this.o.selectiveFraction;
      if (selective) return this.exactSearch(queries, k, filter);
    }
    const wantNotes = Math.min(k, allowedNotes);
    if (wantNotes === 0) return [];

    const best = new Map<string, number>();
    const chunksPerNote = Math.max(1, Math.ceil(this.vectors.size / Math.max(1, this.vectorNotes)));
    const share = allowedChunks / this.vectors.size;
    // A broad filter is applied to the results of a wider unfiltered search;
    // a narrower one inside the graph search, where it costs a call into
    // JavaScript for every candidate the search visits.
    const inGraph = allowed !== undefined && share < 0.5;
    const labelFilter = inGraph
      ? (label: number): boolean => {
          const owner = this.owners.get(label);
          return owner !== undefined && allowed?.has(owner) === true;
        }
      : undefined;
    const candidates = inGraph ? allowedChunks : this.vectors.size;
    for (const query of queries) {
      const point = Array.from(query);
      let want = Math.min(candidates, Math.ceil((k * chunksPerNote * 2 + 10) / (inGraph ? 1 : share)));
      for (;;) {
        const found = graph.search(point, want, Math.max(this.o.efSearch, want), labelFilter, this.owners);
        if (allowed && !inGraph) for (const id of [...found.keys()]) if (!allowed.has(id)) found.delete(id);
        if (found.size >= wantNotes) {
          for (const [id, score] of found) if (score > (best.get(id) ?? -Infinity)) best.set(id, score);
          break;
        }
        // Many chunks of the same few notes crowd the nearest results: widen
        // the search, and past half of the candidates scan exactly instead.
        want *= 2;
        if (want * 2 > candidates) {
          for (const hit of this.exactSearch([query], k, filter)) {
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

  private exactSearch(queries: Float32Array[], k: number, filter: NoteFilter | undefined): VectorHit[] {
    const top = new TopK<VectorHit>(k);
    for (const [id, note] of this.notes) {
      if (note.labels.length === 0 || (filter && !filter(id))) continue;
      let best = -Infinity;
      for (const label of note.labels) {
        const vector = this.vectors.get(label) as Float32Array;
        for (const query of queries) {
          const score = dotF32(query, vector);
          if (score > best) best = score;
        }
      }
      top.push({ id, score: clampScore(best) });
    }
    return top.sorted();
  }

  private dropVectors(noteId: string): void {
    const note = this.notes.get(noteId);
    if (!note) return;
    if (note.labels.length > 0) this.vectorNotes--;
    for (const label of note.labels) {
      this.vectors.delete(label);
      this.owners.delete(label);
      this.graph?.remove(label);
    }
  }

  private maybeBuildGraph(): void {
    if (this.graph || this.disposed || this.vectors.size < this.o.exactThreshold) return;
    const graph = new Graph(this.dimensions, Math.ceil(this.vectors.size * 1.5), this.o.m, this.o.efConstruction);
    this.graph = graph;
    const queue = [...this.vectors.keys()];
    let next = 0;
    const step = (): void => {
      if (this.graph !== graph) return;
      const until = performance.now() + this.o.buildSliceMs;
      while (next < queue.length && performance.now() < until) {
        const label = queue[next++] as number;
        const vector = this.vectors.get(label);
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
    const generation = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    const vectorsFile = `vectors-${generation}.f32`;
    const graphFile = `graph-${generation}.hnsw`;

    // Everything below up to the first await reads a consistent state.
    const changes = this.changes;
    const rows: [string, string, number[]][] = [];
    const buffer = new Float32Array(this.vectors.size * this.dimensions);
    let offset = 0;
    for (const [id, note] of this.notes) {
      rows.push([id, note.hash, note.labels]);
      for (const label of note.labels) {
        buffer.set(this.vectors.get(label) as Float32Array, offset * this.dimensions);
        offset++;
      }
    }
    let graphTemp: string | undefined;
    if (this.graph?.ready) {
      graphTemp = tempPathFor(path.join(dir, graphFile));
      this.graph.hnsw.writeIndexSync(graphTemp);
    }

    try {
      const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      await replaceFileAtomic(path.join(dir, vectorsFile), bytes);
      let graph: SnapshotMeta['graph'] = null;
      if (graphTemp) {
        await syncFile(graphTemp);
        graph = { file: graphFile, sha256: await sha256File(graphTemp) };
        await rename(graphTemp, path.join(dir, graphFile));
        graphTemp = undefined;
      }
      const meta: SnapshotMeta = {
        format: FORMAT,
        version: FORMAT_VERSION,
        embedderId: this.embedderId,
        dimensions: this.dimensions,
        vectors: { file: vectorsFile, sha256: sha256(bytes), chunks: offset },
        graph,
        notes: rows,
      };
      await replaceFileAtomic(path.join(dir, META_FILE), JSON.stringify(meta));
    } finally {
      if (graphTemp) await unlink(graphTemp).catch(() => undefined);
    }
    this.savedChanges = changes;
    await removeStaleFiles(dir, new Set([vectorsFile, graphFile]));
    return true;
  }

  /** Loads a saved graph after checking it against this index's vectors; returns what was wrong, if anything. */
  private async attachGraph(dir: string, entry: NonNullable<SnapshotMeta['graph']>): Promise<string | undefined> {
    const file = path.join(dir, entry.file);
    // The checksum comes first: the native loader must never see a damaged file.
    let digest: string;
    try {
      digest = await sha256File(file);
    } catch (error) {
      if (isNotFound(error)) return 'the search graph file is missing';
      throw error;
    }
    if (digest !== entry.sha256) return 'the search graph file is corrupt';
    // readIndex takes the dimensions from the constructor, not the file, and
    // would read a graph of another size out of bounds: check the header.
    if ((await graphFileDimensions(file)) !== this.dimensions) return 'the search graph has other dimensions';
    const hnsw = new hnswlib.HierarchicalNSW('cosine', this.dimensions);
    try {
      await hnsw.readIndex(file, true);
    } catch (error) {
      return `the search graph did not load (${error instanceof Error ? error.message : String(error)})`;
    }
    const graph = new Graph(this.dimensions, 0, 0, 0, hnsw);
    const inGraph = new Set(hnsw.getIdsList());
    for (const label of this.vectors.keys()) {
      if (!inGraph.has(label)) return 'the search graph does not match the vectors';
      graph.live.add(label);
    }
    // Spot-check that the graph holds these very vectors.
    const labels = [...this.vectors.keys()];
    const step = Math.max(1, Math.floor(labels.length / 16));
    for (let i = 0; i < labels.length; i += step) {
      const label = labels[i] as number;
      const expected = this.vectors.get(label) as Float32Array;
      let stored: Float32Array;
      try {
        stored = Float32Array.from(hnsw.getPoint(label));
      } catch {
        return 'the search graph does not match the vectors';
      }
      if (Math.abs(dotF32(stored, expected) - dotF32(expected, expected)) > 1e-3) return 'the search graph does not match the vectors';
    }
    // readIndex resets ef to its default (10); searches set it again anyway.
    hnsw.setEf(this.o.efSearch);
    graph.ready = true;
    this.graph = graph;
    return undefined;
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

/** The HNSW graph over chunk labels; deleted slots are reused by new chunks. */
class Graph {
  ready = false;
  /** Labels currently in the graph and not deleted. */
  readonly live = new Set<number>();

  constructor(
    dimensions: number,
    capacity: number,
    m: number,
    efConstruction: number,
    readonly hnsw: HierarchicalNSW = new hnswlib.HierarchicalNSW('cosine', dimensions),
  ) {
    if (capacity > 0) hnsw.initIndex({ maxElements: Math.max(capacity, 64), m, efConstruction, randomSeed: 100, allowReplaceDeleted: true });
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
    owners: Map<number, string>,
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
}

function parseMeta(text: string): SnapshotMeta | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'the snapshot index is not valid JSON';
  }
  if (!isRecord(value) || value['format'] !== FORMAT) return 'the snapshot index is not a vector snapshot';
  if (value['version'] !== FORMAT_VERSION) return `the snapshot has format version ${String(value['version'])}, not ${FORMAT_VERSION}`;
  const vectors = value['vectors'];
  const graph = value['graph'];
  const notes = value['notes'];
  if (
    typeof value['embedderId'] !== 'string' ||
    !Number.isInteger(value['dimensions']) ||
    !isRecord(vectors) ||
    !isSnapshotFile(vectors['file']) ||
    typeof vectors['sha256'] !== 'string' ||
    !Number.isInteger(vectors['chunks']) ||
    !(graph === null || (isRecord(graph) && isSnapshotFile(graph['file']) && typeof graph['sha256'] === 'string')) ||
    !Array.isArray(notes)
  ) {
    return 'the snapshot index is malformed';
  }
  const seenIds = new Set<string>();
  const seenLabels = new Set<number>();
  for (const row of notes as unknown[]) {
    if (!Array.isArray(row) || row.length !== 3) return 'the snapshot index is malformed';
    const [id, hash, labels] = row as unknown[];
    if (typeof id !== 'string' || typeof hash !== 'string' || !Array.isArray(labels) || seenIds.has(id)) {
      return 'the snapshot index is malformed';
    }
    seenIds.add(id);
    for (const label of labels as unknown[]) {
      if (!Number.isSafeInteger(label) || (label as number) < 0 || seenLabels.has(label as number)) {
        return 'the snapshot index is malformed';
      }
      seenLabels.add(label as number);
    }
  }
  if (seenLabels.size !== vectors['chunks']) return 'the snapshot index is malformed';
  return value as unknown as SnapshotMeta;
}

function isSnapshotFile(name: unknown): name is string {
  return typeof name === 'string' && SNAPSHOT_FILE.test(name);
}

async function removeStaleFiles(dir: string, keep: Set<string>): Promise<void> {
  for (const name of await readdir(dir)) {
    if (keep.has(name)) continue;
    if (SNAPSHOT_FILE.test(name) || name.startsWith(TEMP_PREFIX)) await unlink(path.join(dir, name)).catch(() => undefined);
  }
}

function toUnitVector(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values as ArrayLike<number>);
  let sum = 0;
  for (const x of out) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0 && Number.isFinite(norm)) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / norm;
  else out.fill(0);
  return out;
}

function dotF32(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

function clampScore(score: number): number {
  return Math.max(-1, Math.min(1, score));
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The vector size recorded in an hnswlib index file: its header starts with
 * six little-endian size_t values (offsetLevel0, maxElements, count,
 * sizeDataPerElement, labelOffset, offsetData), and a vector takes the bytes
 * from offsetData to labelOffset.
 */
async function graphFileDimensions(file: string): Promise<number | undefined> {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(48);
    const { bytesRead } = await handle.read(header, 0, 48, 0);
    if (bytesRead < 48) return undefined;
    const sizeDataPerElement = header.readBigUInt64LE(24);
    const labelOffset = header.readBigUInt64LE(32);
    const offsetData = header.readBigUInt64LE(40);
    if (labelOffset <= offsetData || sizeDataPerElement !== labelOffset + 8n) return undefined;
    const bytes = labelOffset - offsetData;
    return bytes % 4n === 0n ? Number(bytes / 4n) : undefined;
  } finally {
    await handle.close();
  }
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
