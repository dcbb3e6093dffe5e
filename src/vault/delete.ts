import type { BigIntStats, Stats } from 'node:fs';
import { lstat, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { inLinkedFolder } from '../files/paths.js';
import type { Write, WriteJournal } from './activity.js';
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
export function assertFileWritable(record: NoteRecord, stats: BigIntStats | Stats, doing: 'changed' | 'deleted' | 'moved'): void {
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
  /** Where the deleted bytes are kept and the deletion recorded, for a tool's delete. */
  journal?: WriteJournal | undefined;
}

/**
 * The connection's say over a note's attachment: whether the file at this
 * vault path lies inside its boundary, decided for the note being deleted.
 */
export type AdmitAttachment = (attachmentPath: string, note: NoteRecord) => boolean;

/** What `delete_note` did: the note removed, and why its attachment was kept, if it was. */
export interface Deleted {
  record: NoteRecord;
  attachmentKept?: string;
}

/**
 * Why an `attachment:` value cannot name a file `delete_note` may remove,
 * by its text alone, or its vault path when it can. Pure.
 * It must be a vault-relative path, with no `..`, no dot-folder or dot-file
 * (`.git/`, `.dexi/`, `.obsidian/`, `.env`) and not a note.
 */
export function attachmentPathProblem(attachment: string): { problem: string } | { path: string } {
  const text = attachment.replace(/\\/g, '/');
  if (text.includes('\0') || text.trim() === '') return { problem: 'it is not a file name' };
  if (text.startsWith('/') || /^[A-Za-z]:/.test(text)) return { problem: 'it is not a path inside the vault' };
  const segments = text.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0) return { problem: 'it is not a file name' };
  if (segments.includes('..')) return { problem: 'it leads out of its folder' };
  if (segments.some((segment) => segment.startsWith('.'))) return { problem: 'it is inside a dot-folder or is a dot-file' };
  const vaultPath = segments.join('/');
  if (isNoteFileName(segments[segments.length - 1] as string)) return { problem: 'it is a note' };
  return { path: vaultPath };
}

/**
 * `delete_note` under the note's lock, on the note the catalog had at
 * `seen.path`: delete its file and its attachment, and take it out of the
 * catalog. Answers 'retry' when the note moved or another program is
 * writing the file, 'missing' when there is no plain file there to delete.
 * The caller announces the removal.
 */
export async function deleteNoteFile(
  parts: DeleteParts,
  id: string,
  seen: NoteRecord,
  admit: Admit | undefined,
  admitAttachment: AdmitAttachment | undefined,
): Promise<Deleted | 'retry' | 'missing'> {
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
  let before: string | undefined;
  try {
    // Kept first: the note's bytes as they are in the file that goes.
    if (parts.journal) before = await parts.journal.keep(await readFile(abs));
    await unlink(abs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return 'missing';
  }
  catalog.unplace(current);
  const removed = current.attachment === undefined ? { kept: undefined } : await deleteAttachment(parts, current, current.attachment, admitAttachment);
  if (before !== undefined) {
    const write: Write = { action: 'deleted', id, path: current.path, before, ...(removed.attachment ? { attachment: removed.attachment } : {}) };
    await parts.journal?.record(write);
  }
  if (removed.kept === undefined) return { record: current };
  parts.log(`Kept attachment ${JSON.stringify(current.attachment)} of ${current.path}: ${removed.kept}.`);
  return { record: current, attachmentKept: `Its attachment ${current.attachment} was kept: ${removed.kept}.` };
}

/**
 * Remove a deleted note's attachment, or say why it stays: only a plain,
 * writable, non-note file at a vault path reached through real folders
 * alone (no link anywhere on the way, the file itself no link), outside
 * dot-folders, that the connection's boundary admits.
 */
async function deleteAttachment(
  parts: DeleteParts,
  note: NoteRecord,
  attachment: string,
  admit: AdmitAttachment | undefined,
): Promise<{ kept: string | undefined; attachment?: { path: string; before: string } }> {
  const named = attachmentPathProblem(attachment);
  if ('problem' in named) return { kept: named.problem };
  if (admit && !admit(named.path, note)) return { kept: 'it is outside what this connection may change' };
  let at = parts.root;
  const segments = named.path.split('/');
  try {
    for (const [i, segment] of segments.entries()) {
      at = path.join(at, segment);
      const info = await lstat(at);
      if (info.isSymbolicLink()) return { kept: 'it is reached through a link' };
      const last = i === segments.length - 1;
      if (!last && !info.isDirectory()) return { kept: 'it is not a file' };
      if (last && !info.isFile()) return { kept: 'it is not a plain file' };
      if (last && (info.mode & 0o222) === 0) return { kept: 'it is read-only' };
    }
    let before: string | undefined;
    if (parts.journal) {
      try {
        before = await parts.journal.keep(await readFile(at));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== undefined) throw error;
        // Not removed without a way back: the note is gone, its attachment stays.
        return { kept: 'a copy of it could not be kept in .dexi/history' };
      }
    }
    await unlink(at);
    return before === undefined ? { kept: undefined } : { kept: undefined, attachment: { path: named.path, before } };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kept: 'there is no such file' };
    return { kept: `it could not be removed (${code ?? (error as Error).message})` };
  }
}
