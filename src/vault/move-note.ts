import { numberedName } from '../storage/filenames.js';
import { setFrontmatterKeys } from '../format/frontmatter-edit.js';
import { recorded, type WriteJournal } from './record/activity.js';
import { foldPath } from './catalog.js';
import { ensureNoteFolder } from './create.js';
import { withCurrent, type Step } from './current-note.js';
import { DexiError } from './errors.js';
import type { Visible } from './link-index.js';
import { linkMeanings, repairLinks, type LinkMeanings } from './move-links.js';
import { fileNameParts, NameTakenError, nameTaken, pathHeld, type Destination } from './move-target.js';
import type { Admit, NoteRecord } from './note.js';
import { currentToWrite, editNote, placeWritten } from './note-writes.js';
import type { VaultParts } from './vault-parts.js';
import { assertWritable, readOnlyVaultError } from './write-refusals.js';

/**
 * A note moved or renamed as one call does it: its file renamed under the
 * locks of both paths (recorded ahead, never over a file there), its title
 * kept in its frontmatter where the new file name does not give it, and the
 * links that named it repaired. Where the note goes and what its links mean
 * are move-target.ts's and move-links.ts's to decide; this is the doing.
 */

/**
 * Move a note's file into `to.folder` (vault-relative, made if missing;
 * null: the vault's root; left out: where it is) and/or rename it to
 * `to.name`, keeping its id and every byte of it, under its file name or
 * `to.name` (numbered ` 2`, ` 3`, … when taken there; a `to.name` a note
 * `visible` admits holds is refused, see move-target.ts). Then every link
 * in the vault that named it, or that the move would make name another
 * note, is rewritten to name what it named before (`repairLinks`), in the
 * notes the connection sees or not. Its own links too, where its new place
 * changes what they name. With `visible` (the moving connection's view),
 * the links of the notes it sees (the moved one's own among them) mean
 * what they mean among those notes only, before and after: a link whose
 * target it cannot see is as an unresolved one, never rewritten to name
 * it. The note's title stays (a move) or becomes `to.name` (a rename):
 * where the file name does not give it (numbered, or a `title` key), it
 * is written into the frontmatter. Refused, with nothing written, for a
 * read-only or unparsable note; `admit` as for edits.
 */
export async function moveNote(parts: VaultParts, id: string, to: Destination, admit?: Admit, journal?: WriteJournal, visible?: Visible): Promise<void> {
  if (parts.readOnly) throw readOnlyVaultError(parts, 'moved');
  const moved = await withCurrent(parts, id, (record) => {
    assertWritable(parts, record);
    return parts.lock.run(record.path, () => moveLocked(parts, id, record, to, admit, journal, visible));
  });
  // The title: kept where the name had to be numbered (` 2`), as a move never renames a note; a rename's name over a `title` key.
  if (moved.title !== undefined) {
    // Security: the title's write is part of the move, not an edit, so the
    // note's dates stay as the move left them; else a renumbered move
    // (beside a hidden note of that name) would answer with a new `updated`.
    const dates = parts.catalog.get(id);
    try {
      await editNote(parts, id, (content) => setFrontmatterKeys(content, { title: moved.title }), undefined, journal);
      if (dates && parts.catalog.keepDates(id, dates)) parts.announce.dates();
    } catch (error) {
      if (!(error instanceof DexiError)) throw error;
      parts.log(`The title of the moved note ${id} could not be kept in its frontmatter: ${error.message}`);
    }
  }
  if (moved.before) {
    const links = journal?.forLinks();
    await repairLinks(parts.catalog, moved.before, (sourceId, change) => editNote(parts, sourceId, change, undefined, links), (line) => parts.log(line));
  }
}

async function moveLocked(
  parts: VaultParts,
  id: string,
  record: NoteRecord,
  to: Destination,
  admit: Admit | undefined,
  journal: WriteJournal | undefined,
  visible: Visible | undefined,
): Promise<Step<{ before?: LinkMeanings; title?: string }>> {
  const { catalog, files, lock } = parts;
  const file = await files.openQuiet(record.path);
  if (!file) return 'missing';
  let closed = false;
  const close = async (): Promise<void> => {
    if (!closed) await file.file.handle.close();
    closed = true;
  };
  try {
    const current = await currentToWrite(parts, id, record, file, admit, 'moved');
    if (current === 'retry') return 'retry';
    const folder = to.folder === undefined ? current.folder : to.folder;
    const { base, extension } = fileNameParts(current.path, to.name);
    const renamed = to.name !== undefined && `${base}${extension}` !== current.path.slice(current.path.lastIndexOf('/') + 1);
    if (current.folder === folder && !renamed) return {};
    // Before any folder is made: a refused rename leaves nothing behind.
    const asked = `${folder === null ? '' : `${folder}/`}${base}${extension}`;
    if (to.name !== undefined && nameTaken(to.name, asked, id, catalog.all(), visible)) throw new NameTakenError(to.name);
    const into = folder === null ? undefined : await ensureNoteFolder(parts.root, files, folder, 'move the note into');
    const made = into?.made;
    // An existing folder given in another case is the one moved into (no look-alike is made).
    const spelt = into?.folder ?? null;
    if (current.folder === spelt && !renamed) return {};
    const title = to.name ?? current.title;
    for (let attempt = 1; attempt < 10_000; attempt++) {
      const fileName = `${numberedName(base, attempt)}${extension}`;
      const toPath = spelt === null ? fileName : `${spelt}/${fileName}`;
      // The note's own path in another case is free: a rename that changes only the case.
      if (pathHeld(toPath, id, catalog.links.named(toPath)) || (foldPath(toPath) !== foldPath(current.path) && catalog.pathTakenIgnoringCase(toPath))) continue;
      const before = linkMeanings(catalog.links, current, toPath, visible);
      const write = { action: 'moved', id, from: current.path, path: toPath, after: file.hash, ...(made ? { madeFolder: made } : {}) } as const;
      // Recorded ahead of the rename, settled once it is made (or not).
      const moved = await recorded(journal, write, () => lock.run(toPath, async () => {
        await close();
        const result = await files.move(current.path, toPath, file);
        // Placed before the new path's lock is let go: the watcher reads a path under its lock, so it then finds
        // the note there already, never a file it does not know to give an id of its own (a second record).
        return typeof result === 'string' ? result : placeWritten(parts, id, toPath, file.content, result).record;
      }), (result) => typeof result !== 'string');
      if (moved === 'taken') continue;
      if (moved === 'changed') return 'retry';
      return moved.title === title ? { before } : { before, title };
    }
    throw new DexiError('Could not find a free file name for this note in that folder; rename it first.');
  } finally {
    await close();
  }
}
