import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseOpeningMark } from './stored-hashes.js';

/*
 * meta.json, the index of a vector snapshot (vector-snapshot.ts holds the
 * layout of the folder): its form and its checks, apart from the snapshot's
 * reading and writing so that `dexi-vault status` can read what it says
 * without loading the native graph library the snapshot's graph needs.
 */

export const FORMAT = 'dexi-vectors';
export const FORMAT_VERSION = 1;
export const META_FILE = 'meta.json';
export const SNAPSHOT_FILE = /^(vectors-[\w-]+\.f32|graph-[\w-]+\.hnsw)$/;

/** A note as meta.json records it: [note id, content hash, chunk labels]. */
export type SnapshotRow = [string, string, number[]];

/** A snapshot's graph file and its checksum. */
export interface GraphEntry {
  file: string;
  sha256: string;
}

export interface SnapshotMeta {
  format: typeof FORMAT;
  version: number;
  embedderId: string;
  dimensions: number;
  vectors: { file: string; sha256: string; chunks: number };
  graph: GraphEntry | null;
  /** Vectors are stored in this order. */
  notes: SnapshotRow[];
}

/** meta.json read and checked: the snapshot it describes, or why it cannot be used. Pure. */
export function parseMeta(text: string): SnapshotMeta | string {
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What `dexi-vault status` says of a vector snapshot: made by which model, of which notes, how much of each. */
export interface SnapshotSummary {
  embedderId: string;
  dimensions: number;
  /** The notes whose every passage has vectors. */
  complete: string[];
  /** The notes of which only the opening window has vectors so far (the indexer's first pass). */
  opening: string[];
  /** The snapshot's files on disk: meta.json and the vectors and graph it names. */
  bytes: number;
  savedMs: number;
}

/**
 * What the snapshot in `dir` holds, from its meta.json alone (the vectors
 * are not read, so neither is their checksum: a damaged vectors file is
 * found by the server, which embeds again); 'missing' when there is none,
 * or why the one there cannot be used. Writes nothing.
 */
export async function readSnapshotSummary(dir: string): Promise<SnapshotSummary | 'missing' | { problem: string }> {
  const file = path.join(dir, META_FILE);
  let text: string;
  let savedMs: number;
  try {
    [text, savedMs] = await Promise.all([readFile(file, 'utf8'), stat(file).then((info) => info.mtimeMs)]);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    throw error;
  }
  const meta = parseMeta(text);
  if (typeof meta === 'string') return { problem: meta };
  const complete: string[] = [];
  const opening: string[] = [];
  for (const [id, hash] of meta.notes) (parseOpeningMark(hash) === undefined ? complete : opening).push(id);
  const sizes = await Promise.all([file, meta.vectors.file, ...(meta.graph ? [meta.graph.file] : [])].map((name) => stat(path.resolve(dir, name)).then((info) => info.size, () => 0)));
  return { embedderId: meta.embedderId, dimensions: meta.dimensions, complete, opening, bytes: sizes.reduce((sum, size) => sum + size, 0), savedMs };
}
