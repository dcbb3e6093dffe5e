import type { SemanticIndexer } from '../index/vectors/semantic-indexer.js';
import type { FullTextIndex } from '../index/fulltext/fulltext.js';
import type { NoteRecord } from '../vault/note.js';
import type { Vault } from '../vault/vault.js';

/**
 * The shapes a connection's view hands out (VaultView, view.ts), apart so
 * that the view's file holds what it does rather than what it returns.
 */

/** A note as one connection sees it, with the vault it came from. */
export interface VisibleNote {
  record: NoteRecord;
  /** Set on a teammate's shared note. */
  owner?: string;
}

/** A note's links and backlinks, as `VaultView.connections` gives them. */
export interface NoteConnections {
  links: NoteRecord[];
  unresolved: string[];
  /** Newest first, at most the number asked for. */
  backlinks: NoteRecord[];
  backlinkCount: number;
}

/** The searches a view runs for its connection: each vault's full-text index, and semantic search when the server has a model. */
export interface SearchIndexes {
  fulltext: ReadonlyMap<Vault, FullTextIndex>;
  semantic: SemanticIndexer | undefined;
}

/** A search hit this connection may see. */
export interface VisibleHit {
  note: VisibleNote;
  score: number;
  /** Semantic search: the calibrated similarity shown, 0–1 (meaning-calibration.ts). */
  similarity?: number;
  /** Full-text search: the note's words that matched. */
  terms?: string[];
}

/** How far semantic search has embedded the notes, while it is not done. */
export interface EmbeddingProgress {
  /** Visible notes embedded in full. */
  embedded: number;
  /** Visible notes searchable by meaning: embedded in full, or by their opening window so far. */
  searchable: number;
  total: number;
}
