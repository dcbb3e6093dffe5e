import { TopK } from '../top-k.js';
import type { ChunkStore } from './chunk-store.js';
import { clampScore, dotF32 } from './cosine.js';

/** One note found by a vector search. */
export interface VectorHit {
  id: string;
  /** Cosine similarity of the note's best chunk, in [-1, 1]. */
  score: number;
}

/** Which notes a search may return, by id. */
export type NoteFilter = (noteId: string) => boolean;

/**
 * The k notes the filter allows whose best chunk is nearest to any of the
 * queries, best first, from every chunk of every such note. Exact, and
 * linear in the chunks scanned: what small indexes, selective filters and
 * an index whose graph is still being built are answered with.
 */
export function exactSearch(store: ChunkStore, queries: Float32Array[], k: number, filter: NoteFilter | undefined): VectorHit[] {
  const top = new TopK<VectorHit>(k);
  for (const [id, note] of store.notes) {
    if (note.labels.length === 0 || (filter && !filter(id))) continue;
    let best = -Infinity;
    for (const label of note.labels) {
      const vector = store.vector(label);
      for (const query of queries) {
        const score = dotF32(query, vector);
        if (score > best) best = score;
      }
    }
    top.push({ id, score: clampScore(best) });
  }
  return top.sorted();
}
