import { plainStats, type OpenedFile } from '../storage/atomic.js';
import { hashContent } from './parse.js';

/**
 * What one read of a note file gives, apart from where it was read and
 * whether it may be: its bytes as text (UTF-8, the byte-order mark kept),
 * their hash, and its times as the scan reports them. Split from
 * note-files.ts, which opens, replaces, moves and removes the files; the
 * edits that bring back late text decode with the same rules.
 */

/** A note file read through an open handle; the holder closes `file.handle`. */
export interface NoteFile {
  file: OpenedFile;
  content: string;
  /** False when the bytes are not UTF-8 (`content` is then a lossy decoding). */
  valid: boolean;
  /** hashContent of the bytes, made once: every check on this read compares it. */
  hash: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  birthtimeMs: number;
  /**
   * Set when this version, written moments ago by another program, looks
   * like the last complete one cut short (see looksHalfWritten): why.
   */
  halfWritten?: string;
}

// The BOM is kept in the text, so that the text is the file's bytes exactly
// (its hash theirs, and a write keeps the BOM); the frontmatter reader allows it.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const LOSSY = new TextDecoder('utf-8', { ignoreBOM: true });

export function decodeStrict(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The note `file` (just opened and read) holds. */
export function readNoteFile(file: OpenedFile): NoteFile {
  // Plain (not bigint) times, exactly as the scan reports them, so the
  // cache's comparison holds. They are from before the read: a change
  // made meanwhile leaves times the next scan finds moved, never new
  // times beside old text.
  const info = plainStats(file.stats);
  let content: string;
  let valid = true;
  try {
    content = UTF8.decode(file.bytes);
  } catch {
    content = LOSSY.decode(file.bytes);
    valid = false;
  }
  return {
    file,
    content,
    valid,
    hash: hashContent(file.bytes),
    size: file.bytes.length,
    mtimeMs: info.mtimeMs,
    ctimeMs: info.ctimeMs,
    ino: info.ino,
    birthtimeMs: info.birthtimeMs,
  };
}
