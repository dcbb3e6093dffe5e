import { recorded, type WriteJournal } from './record/activity.js';
import type { Catalog } from './catalog.js';
import { MAX_NOTE_BYTES } from './ignore.js';
import type { Ingest } from './ingest.js';
import type { KeyedLock } from './lock.js';
import { decodeStrict, type NoteFile } from './note-file-read.js';
import type { NoteFiles } from './note-files.js';
import type { NoteRecord } from './note.js';
import { hashContent } from './parse.js';
import { WARNING, type Logger } from './logger.js';

/** How an edit turns a note's current content into its new content; undefined: nothing to write. */
export type Change = (content: string, record: NoteRecord) => string | undefined;

/**
 * What becomes of text another program writes late into the file an edit
 * replaced: 'merge' redoes the edit on it (an append, a frontmatter key, a
 * link); 'copy' also keeps it beside the note as a conflict copy, for an
 * edit that would discard it (a replace of the body).
 */
export type LateText = 'merge' | 'copy';

export interface LateParts {
  lock: KeyedLock;
  files: NoteFiles;
  catalog: Catalog;
  ingest: Ingest;
  log: Logger;
}

export interface LateEdit {
  id: string;
  vaultPath: string;
  /** What the other program wrote into the replaced file. */
  theirs: Buffer;
  /** False when it still looked half-written as the watch ended. */
  plausible: boolean;
  /** What the server last wrote at the path. */
  ours: Buffer;
  change: Change;
  journal: WriteJournal | undefined;
  late: LateText;
}

/**
 * Bring back `theirs`, text another program wrote into a file an edit had
 * replaced: redo the edit on it where the note still holds `ours`, keeping
 * `theirs` in the history first and recording it as the version the call
 * replaced (so that an undo puts it back whole); else, or when it still
 * looks half-written, or for a 'copy' edit, keep it beside the note as a
 * conflict copy. Returns what the note now holds when the server wrote it.
 */
export function bringBackLate(parts: LateParts, late: LateEdit): Promise<Buffer | undefined> {
  const { files, catalog } = parts;
  const { id, vaultPath, theirs, ours, change, journal } = late;
  return parts.lock.run(vaultPath, async () => {
    let written: Buffer | undefined;
    const current = await files.open(vaultPath);
    try {
      const record = catalog.atPath(vaultPath);
      const text = decodeStrict(theirs);
      if (late.plausible && current && record?.id === id && text !== undefined && current.file.bytes.equals(ours)) {
        written = await redoOn(files, { id, vaultPath, current, theirs, journal }, () => change(text, record)).catch((error: unknown) => {
          parts.log(`${vaultPath}: the text another program wrote late could not be merged (${(error as Error).message}); it is kept beside the note.`, WARNING);
          return undefined;
        });
      }
      if (!written || late.late === 'copy') await files.saveConflictCopy(vaultPath, theirs);
    } finally {
      await current?.file.handle.close();
    }
    await parts.ingest.ingest(vaultPath);
    return written;
  });
}

/** Write `make()`'s content over `current` (which holds what the server wrote), recorded as a change of `theirs`. */
async function redoOn(
  files: NoteFiles,
  at: { id: string; vaultPath: string; current: NoteFile; theirs: Buffer; journal: WriteJournal | undefined },
  make: () => string | undefined,
): Promise<Buffer | undefined> {
  const next = make();
  if (next === undefined || Buffer.byteLength(next) > MAX_NOTE_BYTES) return undefined;
  const before = await at.journal?.keep(at.theirs);
  const write = before === undefined ? undefined : ({ action: 'changed', id: at.id, path: at.vaultPath, before, after: hashContent(next), late: true } as const);
  const result = await recorded(at.journal, write, () => files.replace(at.vaultPath, at.current, next), (outcome) => outcome !== 'changed');
  if (result === 'changed') return undefined;
  files.recovered(at.vaultPath);
  return Buffer.from(next);
}
