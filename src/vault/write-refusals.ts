import type { BigIntStats, Stats } from 'node:fs';
import { ReadOnlyNoteError } from './errors.js';
import type { NoteRecord } from './note.js';
import type { VaultParts } from './vault-parts.js';

/**
 * Why the server may not write a note, each as the sentence the assistant
 * reads: the vault is never written (a teammate's, or one whose folder
 * cannot be written), the note's frontmatter cannot be read, or the person
 * made its file read-only. One place for the edits, the move, the delete and
 * the create, which all refuse by these rules before anything is written.
 */

/** Why nothing of this vault may be changed: a teammate's, or one whose folder cannot be written. */
export function readOnlyVaultError(parts: Pick<VaultParts, 'owner'>, what: 'changed' | 'moved' | 'deleted' | 'created'): ReadOnlyNoteError {
  if (parts.owner !== undefined) {
    return new ReadOnlyNoteError(what === 'created' ? "A teammate's shared vault cannot be written." : `This is a teammate's shared note; it can be read but not ${what}.`);
  }
  return new ReadOnlyNoteError(`The vault folder cannot be written, so the server serves it read-only: nothing can be ${what} in it.`);
}

/** Refuse to change a note of a read-only vault, or one whose frontmatter is not valid YAML (or whose file is not UTF-8). */
export function assertWritable(parts: Pick<VaultParts, 'owner' | 'readOnly'>, record: NoteRecord): void {
  if (parts.readOnly) throw readOnlyVaultError(parts, 'changed');
  if (record.broken) {
    throw new ReadOnlyNoteError(
      `The server leaves ${record.path} alone because its frontmatter is not valid YAML (or the file is not UTF-8); fix it in an editor first.`,
    );
  }
}

/**
 * A note the person made read-only is theirs to keep as it is. Judged by
 * the mode bits, so that it holds even for a server running as root (whom
 * the file system would let write anyway).
 */
export function assertFileWritable(record: NoteRecord, stats: BigIntStats | Stats, doing: 'changed' | 'deleted' | 'moved'): void {
  if ((Number(stats.mode) & 0o222) !== 0) return;
  throw new ReadOnlyNoteError(
    `${record.path} is read-only (its file permissions allow no writing), so the server leaves it as it is and nothing was ${doing}. Make the file writable to let it be ${doing}.`,
  );
}
