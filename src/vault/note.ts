import type { ReviewState } from '../review/sm2.js';

export const SOURCES = ['note', 'bookmark', 'email', 'feed'] as const;
export type Source = (typeof SOURCES)[number];

/** What the server knows of one note file, without its body. */
export interface NoteRecord {
  id: string;
  /** Vault-relative path with `/` separators, e.g. `Projects/Alpha/Plan.md`. */
  path: string;
  /** The folder that directly holds the note, or null at the vault root. */
  folder: string | null;
  title: string;
  source: Source;
  sourceUrl?: string;
  createdMs: number;
  updatedMs: number;
  /** Set when an edit made outside the server moved `updated` past the frontmatter. */
  outsideEditMs?: number;
  /** Lower-case tags with their sigil, frontmatter tags first. */
  tags: string[];
  snippet: string;
  attachment?: string;
  review?: ReviewState;
  /** `shared: true` in the frontmatter: visible to teammates who mount this vault. */
  shared: boolean;
  /** The frontmatter is not valid YAML: the note is listed but never rewritten. */
  broken: boolean;
  size: number;
  mtimeMs: number;
  /** SHA-256 of the file's bytes, to tell real changes from touches. */
  hash: string;
}

/** A note with its body, as read from disk. */
export interface NoteWithBody {
  record: NoteRecord;
  body: string;
}
