import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { replaceFileAtomic, TEMP_PREFIX, tempPathFor } from '../../storage/atomic.js';
import type { ChunkStore } from './chunk-store.js';
import { HnswGraph } from './hnsw-graph.js';
import { FORMAT, FORMAT_VERSION, META_FILE, parseMeta, SNAPSHOT_FILE, type GraphEntry, type SnapshotMeta, type SnapshotRow } from './snapshot-meta.js';

export type { GraphEntry, SnapshotRow } from './snapshot-meta.js';

/*
 * The vector index on disk, in one folder: `vectors-<generation>.f32` (every
 * chunk vector, float32, in the order of the rows of meta.json),
 * `graph-<generation>.hnsw` (the HNSW graph, when it was complete) and
 * `meta.json`, which names the other two with their checksums. meta.json is
 * written last, so a crash leaves the previous snapshot whole. Everything is
 * checked before it is used: a snapshot whose index or vectors fail a check
 * is not used at all, and a graph that fails one is rebuilt from the vectors.
 */

/** What a save writes, taken from the index in one go (see captureSnapshot). */
export interface CapturedSnapshot {
  embedderId: string;
  dimensions: number;
  vectorsFile: string;
  graphFile: string;
  rows: SnapshotRow[];
  /** The vectors, in row order. */
  vectors: Float32Array;
  /** How many vectors that is. */
  chunks: number;
  /** The graph, already written here when there is one; renamed to graphFile by writeSnapshot. */
  graphTemp: string | undefined;
}

/** A snapshot that passed every check but the graph's (readSnapshotGraph checks that once the vectors are restored). */
export interface Snapshot {
  rows: SnapshotRow[];
  /** Every chunk vector in row order, `dimensions` floats each. */
  vectors: Float32Array;
  graph: GraphEntry | null;
}

/**
 * Takes the snapshot of the index as it is now into `dir` (which exists),
 * without awaiting anything, so that the rows, the vectors and the graph are
 * one state: the graph, which changes with every edit, is written to a
 * temporary file here and now.
 */
export function captureSnapshot(dir: string, embedderId: string, dimensions: number, store: ChunkStore, graph: HnswGraph | undefined): CapturedSnapshot {
  const generation = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const vectorsFile = `vectors-${generation}.f32`;
  const graphFile = `graph-${generation}.hnsw`;
  const rows: SnapshotRow[] = [];
  const vectors = new Float32Array(store.chunkCount * dimensions);
  let offset = 0;
  for (const [id, note] of store.notes) {
    rows.push([id, note.hash, note.labels]);
    for (const label of note.labels) {
      vectors.set(store.vector(label), offset * dimensions);
      offset++;
    }
  }
  let graphTemp: string | undefined;
  if (graph) {
    graphTemp = tempPathFor(path.join(dir, graphFile));
    graph.writeSync(graphTemp);
  }
  return { embedderId, dimensions, vectorsFile, graphFile, rows, vectors, chunks: offset, graphTemp };
}

/**
 * Writes a captured snapshot into `dir`: the vectors, the graph, and
 * `meta.json` last, each written to a temporary file and renamed.
 */
export async function writeSnapshot(dir: string, captured: CapturedSnapshot): Promise<void> {
  const { vectorsFile, graphFile } = captured;
  let graphTemp = captured.graphTemp;
  try {
    const bytes = new Uint8Array(captured.vectors.buffer, captured.vectors.byteOffset, captured.vectors.byteLength);
    await replaceFileAtomic(path.join(dir, vectorsFile), bytes);
    let graph: GraphEntry | null = null;
    if (graphTemp) {
      await syncFile(graphTemp);
      graph = { file: graphFile, sha256: await sha256File(graphTemp) };
      await rename(graphTemp, path.join(dir, graphFile));
      graphTemp = undefined;
    }
    const meta: SnapshotMeta = {
      format: FORMAT,
      version: FORMAT_VERSION,
      embedderId: captured.embedderId,
      dimensions: captured.dimensions,
      vectors: { file: vectorsFile, sha256: sha256(bytes), chunks: captured.chunks },
      graph,
      notes: captured.rows,
    };
    await replaceFileAtomic(path.join(dir, META_FILE), JSON.stringify(meta));
  } finally {
    if (graphTemp) await unlink(graphTemp).catch(() => undefined);
  }
}

/** Removes the snapshot files of older generations than `captured`'s, and temporary files a crash left. */
export async function removeStaleFiles(dir: string, captured: CapturedSnapshot): Promise<void> {
  const keep = new Set([captured.vectorsFile, captured.graphFile]);
  for (const name of await readdir(dir)) {
    if (keep.has(name)) continue;
    if (SNAPSHOT_FILE.test(name) || name.startsWith(TEMP_PREFIX)) await unlink(path.join(dir, name)).catch(() => undefined);
  }
}

/** The snapshot in `dir` made by this model at these dimensions, or why there is none that can be used. */
export async function readSnapshot(dir: string, embedderId: string, dimensions: number): Promise<Snapshot | string> {
  let text: string;
  try {
    text = await readFile(path.join(dir, META_FILE), 'utf8');
  } catch (error) {
    if (isNotFound(error)) return 'no snapshot yet';
    throw error;
  }
  const meta = parseMeta(text);
  if (typeof meta === 'string') return meta;
  if (meta.embedderId !== embedderId) return `the snapshot was made by ${meta.embedderId}, not ${embedderId}`;
  if (meta.dimensions !== dimensions) return `the snapshot has ${meta.dimensions} dimensions, not ${dimensions}`;

  const vectors = await readVectors(path.join(dir, meta.vectors.file), meta.vectors.chunks * dimensions, meta.vectors.sha256);
  if (typeof vectors === 'string') return vectors;
  return { rows: meta.notes, vectors, graph: meta.graph };
}

/** The bytes read at once into the vectors; the checksum is taken slice by slice as they arrive. */
const READ_SLICE = 8 * 1024 * 1024;

/**
 * The vectors file read straight into the Float32Array the store keeps, with
 * its length and checksum checked; or why it cannot be used.
 */
async function readVectors(file: string, floats: number, expectedSha256: string): Promise<Float32Array | string> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (isNotFound(error)) return 'the snapshot vectors are missing';
    throw error;
  }
  try {
    // Straight into the array the store keeps: readFile and an aligned copy held 614 MB for 150,001 × 512 floats, peak RSS up to 1,275 MB with the graph; this holds 307, peak 972 (BENCHMARKS.md).
    if ((await handle.stat()).size !== floats * 4) return 'the snapshot vectors are corrupt';
    const vectors = new Float32Array(floats);
    const bytes = new Uint8Array(vectors.buffer);
    const hash = createHash('sha256');
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, Math.min(READ_SLICE, bytes.length - filled), filled);
      if (bytesRead === 0) return 'the snapshot vectors are corrupt';
      hash.update(bytes.subarray(filled, filled + bytesRead));
      filled += bytesRead;
    }
    // The file may have grown since the stat: it must end where the vectors do.
    const { bytesRead: beyond } = await handle.read(Buffer.alloc(1), 0, 1, bytes.length);
    if (beyond !== 0 || hash.digest('hex') !== expectedSha256) return 'the snapshot vectors are corrupt';
    return vectors;
  } finally {
    await handle.close();
  }
}

/** Puts the snapshot's notes and their vectors into `store`, which is empty: the store keeps views of `snapshot.vectors`, not copies. */
export function restoreSnapshot(snapshot: Snapshot, dimensions: number, store: ChunkStore): void {
  store.restoreAll(snapshot.rows, snapshot.vectors, dimensions);
}

/** The snapshot's graph, checked against the vectors already restored; or what was wrong with it. */
export async function readSnapshotGraph(dir: string, entry: GraphEntry, dimensions: number, vectors: ReadonlyMap<number, Float32Array>, efSearch: number): Promise<HnswGraph | string> {
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
  return HnswGraph.read(file, dimensions, vectors, efSearch);
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
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
