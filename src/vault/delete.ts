import type { BigIntStats, Stats } from 'node:fs';
import { lstat, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { recorded, type WriteJournal } from './record/activity.js';
import type { Catalog } from './catalog.js';
import { NoteNotFoundError, ReadOnlyNoteError } from './errors.js';
import { isNoteFileName } from './ignore.js';
import type { NoteFiles } from './note-files.js';
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
 * catalog. Answers 'retry' when the note moved or changed since the catalog
 * saw it, 'missing' when there is no plain file there to delete. The file is
 * read once it is quiet and complete (openQuiet), its bytes kept and the
 * deletion recorded before it is unlinked, and only if it is still that
 * file, unchanged. A file another program wrote moments before is watched
 * after: text it still writes into it is kept (lateIntoDeleted). The caller
 * announces the removal.
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
  const file = await files.openQuiet(current.path, current);
  if (!file) return 'missing';
  let handedOver = false;
  try {
    // Changed since the catalog saw it: catch up first (the boundary is judged on what is there).
    if (file.hash !== current.hash) return 'retry';
    assertFileWritable(current, file.file.stats, 'deleted');
    const writtenByOthers = files.recentlyWrittenByOthers(current.path, file);
    // Kept first: the note's bytes as they are in the file that goes.
    const before = parts.journal ? await parts.journal.keep(file.file.bytes) : undefined;
    const plan = current.attachment === undefined ? undefined : await planAttachment(parts, current, current.attachment, admitAttachment);
    const attachment = plan && 'before' in plan && plan.before !== undefined ? { path: plan.path, before: plan.before } : undefined;
    const mode = Number(file.file.stats.mode & 0o777n);
    const write = before === undefined ? undefined : ({ action: 'deleted', id, path: current.path, before, mode, ...(attachment ? { attachment } : {}) } as const);
    let kept = plan && 'kept' in plan ? plan.kept : undefined;
    const removed = await recorded(parts.journal, write, async () => {
      const outcome = await files.remove(current.path, file);
      if (outcome === 'removed' && plan && 'absolute' in plan) kept = await removeAttachment(plan.absolute);
      return outcome;
    }, (outcome) => outcome === 'removed');
    if (removed === 'changed') return 'retry';
    if (removed === 'missing') return 'missing';
    catalog.unplace(current);
    if (writtenByOthers) {
      files.watchDisplaced(current.path, file, (theirs, plausible) => lateIntoDeleted(parts, { id, vaultPath: current.path, mode }, theirs, plausible));
      handedOver = true;
    }
    if (kept === undefined) return { record: current };
    parts.log(`Kept attachment ${JSON.stringify(current.attachment)} of ${current.path}: ${kept}.`);
    return { record: current, attachmentKept: `Its attachment ${current.attachment} was kept: ${kept}.` };
  } finally {
    if (!handedOver) await file.file.handle.close();
  }
}

/**
 * Text another program wrote into a note's file after the server deleted it
 * (it still held the file open): kept beside where the note was as a
 * conflict copy, so that it does not vanish, and, when it looks complete,
 * kept in the history as the version the delete removed, so that an undo
 * puts it back whole.
 */
async function lateIntoDeleted(parts: DeleteParts, gone: { id: string; vaultPath: string; mode: number }, theirs: Buffer, plausible: boolean): Promise<void> {
  const { id, vaultPath, mode } = gone;
  await parts.files.saveConflictCopy(vaultPath, theirs, mode);
  parts.log(`${vaultPath} was still being written by another program after the server deleted it; that text is kept beside it as a conflict copy.`);
  if (!parts.journal || !plausible) return;
  const before = await parts.journal.keep(theirs);
  await parts.journal.record({ action: 'deleted', id, path: vaultPath, before, late: true, mode });
}

/** What a delete does with its note's attachment: why it stays, or the file to remove (and its kept version). */
type AttachmentPlan = { kept: string } | { path: string; absolute: string; before: string | undefined };

/**
 * Whether a deleted note's attachment may go, and its bytes kept first:
 * only a plain, writable, non-note file at a vault path reached through real
 * folders alone (no link anywhere on the way, the file itself no link),
 * outside dot-folders, that the connection's boundary admits.
 */
async function planAttachment(parts: DeleteParts, note: NoteRecord, attachment: string, admit: AdmitAttachment | undefined): Promise<AttachmentPlan> {
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
        // Not removed without a way back: the note goes, its attachment stays.
        return { kept: 'a copy of it could not be kept in .dexi/history' };
      }
    }
    return { path: named.path, absolute: at, before };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kept: 'there is no such file' };
    return { kept: `it could not be removed (${code ?? (error as Error).message})` };
  }
}

/** Remove a planned attachment; why it stays when it cannot be. */
async function removeAttachment(absolute: string): Promise<string | undefined> {
  try {
    await unlink(absolute);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'there is no such file';
    return `it could not be removed (${code ?? (error as Error).message})`;
  }
}
