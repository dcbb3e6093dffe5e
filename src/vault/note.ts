import type { StoredValue } from '../format/property-values.js';
import type { NoteTask } from '../format/tasks.js';

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
  /** `created` as the note states it: frontmatter, else a date in the file name. */
  statedCreatedMs?: number;
  /** `updated` as the frontmatter states it. */
  statedUpdatedMs?: number;
  /** The note's `created` when it was last moved or renamed (dates.ts, `keptDates`). */
  keptCreatedMs?: number;
  /** The note's `updated` when it was last moved, while its content is unchanged since. */
  keptUpdatedMs?: number;
  /** When the server last saw the note's content change: an edit moves a stale stated `updated`. */
  editedMs?: number;
  /** Obsidian's other names for the note, searched like the title. */
  aliases?: string[];
  /** Lower-case tags with their sigil, frontmatter tags first. */
  tags: string[];
  snippet: string;
  /** The link paths of the note's links to other notes (links.ts), in order of first appearance; absent when it has none. */
  links?: string[];
  attachment?: string;
  /** The body's tasks (tasks.ts), read with the rest of the record; absent when it has none. */
  tasks?: NoteTask[];
  /**
   * The frontmatter `review` block as written (its scalar entries), for the
   * review rules to read: the vault model keeps it without knowing its format.
   */
  review?: Record<string, string | number | boolean>;
  /**
   * The frontmatter properties `where` and list_properties read (property-values.ts,
   * `recordProperties`): every key but id, review, title and tags, as text,
   * numbers, checkboxes and lists, dates as written; absent when there are none.
   */
  properties?: Record<string, StoredValue>;
  /** `shared: true` in the frontmatter: visible to teammates who mount this vault. */
  shared: boolean;
  /** The frontmatter is not valid YAML: the note is listed but never rewritten. */
  broken: boolean;
  size: number;
  mtimeMs: number;
  /**
   * Change time and inode: a program can set a file's modification time back
   * (`touch -r`), but not these, so a change made while the server was down is
   * seen even when size and mtime match.
   */
  ctimeMs: number;
  ino: number;
  birthtimeMs: number;
  /** Git's blob id of the file's bytes: tells real changes from touches, and whether the file is as last committed. */
  hash: string;
}

/** A note with its body, as read from disk. */
export interface NoteWithBody {
  record: NoteRecord;
  body: string;
  /** Its frontmatter keys but `id` and `review` (properties.ts, `propertiesOf`); absent when the block cannot be read. */
  properties?: Record<string, unknown>;
}

/**
 * Sees the note as it is under its file's lock, just before it is written or
 * deleted, and throws to refuse: an access boundary decided on the note that
 * is really written, not on what it was when the tool looked (it may have
 * been moved meanwhile).
 */
export type Admit = (record: NoteRecord) => void;
