import type { BigIntStats, Stats } from 'node:fs';
import { lstat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { inLinkedFolder, resolveInside } from '../files/paths.js';
import type { Catalog } from './catalog.js';
import { NoteNotFoundError, ReadOnlyNoteError } from './errors.js';
import { isNoteFileName } from './ignore.js';
import { QUIET_MS, type NoteFiles } from './note-files.js';
import type { Admit, NoteRecord } from './note.js';

/**
 * A note the person made read-only is theirs to keep as it is. Judged by
 * the mode bits, so that it holds even for a server running as root (whom
 * the file system would let write anyway).
 */
export function assertFileWritable(record: NoteRecord, stats: BigIntStats | Stats, doing: 'changed' | 'deleted'): void {
  if ((Number(stats.mode) & 0o222) !== 0) return;
  throw new ReadOnlyNoteError(
    `${record.path} is read-only (its file permissions allow no writing), so the server leaves it as it is and nothing was ${doing}. Make the file writable to let it be ${doing}.`,
  );
}

export interface DeleteParts {
  root: string;
  catalog: Catalog;
  files: NoteFiles;
  log: (line: string) => void;
}

/**
 * `delete_note` under the note's lock, on the note the catalog had at
 * `seen.path`: delete its file and its attachment, and take it out of the
 * catalog. Answers 'retry' when the note moved or another program is
 * writing the file, 'missing' when there is no plain file there to delete.
 * The caller announces the removal.
 */
export async function deleteNoteFile(parts: DeleteParts, id: string, seen: NoteRecord, admit: Admit | undefined): Promise<NoteRecord | 'retry' | 'missing'> {
  const { catalog, files } = parts;
  const current = catalog.get(id);
  if (!current) throw new NoteNotFoundError();
  if (current.path !== seen.path) return 'retry';
  admit?.(current);
  const abs = files.absolute(current.path);
  // Security: never unlink through a linked folder (that would delete a file outside the vault), nor a link itself.
  const info = await lstat(abs).catch(() => undefined);
  if (!info?.isFile() || (await inLinkedFolder(parts.root, abs))) return 'missing';
  assertFileWritable(current, info, 'deleted');
  // Deleting a file another program is writing would drop what it writes next.
  if (Date.now() - info.ctimeMs < QUIET_MS) {
    const quiet = await files.openQuiet(current.path);
    const busy = quiet !== undefined && !files.isOwnWrite(current.path, quiet.hash) && quiet.hash !== current.hash;
    await quiet?.file.handle.close();
    if (quiet === undefined) return 'missing';
    if (busy) return 'retry';
  }
  try {
    await unlink(abs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return 'missing';
  }
  if (current.attachment) await deleteAttachment(parts, current);
  catalog.unplace(current);
  return current;
}

async function deleteAttachment(parts: DeleteParts, record: NoteRecord): Promise<void> {
  const attachment = record.attachment as string;
  try {
    const abs = await resolveInside(parts.root, attachment);
    const info = await lstat(abs);
    // Another note is never deleted as an attachment, nor is anything that is not a plain file, nor a file the person made read-only.
    if (!info.isFile() || isNoteFileName(path.basename(abs)) || (info.mode & 0o222) === 0) return;
    await unlink(abs);
  } catch (error) {
    parts.log(`Kept attachment ${attachment} of ${record.path}: ${(error as Error).message}`);
  }
}
