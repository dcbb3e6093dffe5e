import type { EmbedderSpec } from './embedder.js';
import type { EmbeddingPool } from './embedding-pool.js';
import type { VectorIndexOptions } from './vector-index.js';
import type { Logger } from '../../vault/logger.js';

/** What a SemanticIndexer (semantic-indexer.ts) is made with and reports, apart so that its file holds what it does. */

/** Semantic search on a pool of the indexer's own: which model, on how many worker threads. */
export interface OwnPool {
  embedder: EmbedderSpec;
  /** Embedding worker threads; 0 runs the model on the calling thread. */
  workers: number;
  /** Windows per worker batch (see EmbeddingPool). */
  batchSize?: number;
}

/**
 * Semantic search on a pool that others use too (several served vaults in
 * one process: the tests): the indexer embeds on its share of it
 * (`EmbeddingPool#share`), and leaves it running at close. The pool was
 * made with its own model, workers and batch.
 */
export interface SharedPool {
  sharedPool: Promise<EmbeddingPool>;
}

/** Semantic search as a server is told to run it. */
export type SemanticChoice = OwnPool | SharedPool;

export type SemanticIndexerOptions = SemanticChoice & {
  /** Folder of the vector snapshot, for example `<vault>/.dexi/cache/vectors`. */
  cacheDir: string;
  log: Logger;
  /**
   * How long changes may stay unsaved, in ms (default 60 s). A save rewrites
   * the whole snapshot, so saves are also spaced at least 50 times as long
   * as the last one took. Unsaved vectors are not lost for good: their notes
   * are embedded again at the next start.
   */
  autoSaveMs?: number;
  index?: Omit<VectorIndexOptions, 'embedderId' | 'dimensions'>;
};

export interface SemanticProgress {
  /** The model is loaded, every note has been reported (`allNotesReported`), and every one is embedded (or failed). */
  ready: boolean;
  /** Known notes whose current text is searchable by meaning: at least its opening window is embedded. */
  embedded: number;
  /** Known notes whose current text is embedded in full, every window. */
  complete: number;
  /** Known notes. */
  total: number;
  /** Notes whose current text could not be embedded; retried when it changes. */
  failed: number;
  /** Why semantic search is unavailable, when the model did not load. */
  error?: string;
}
