import type { Stats } from 'node:fs';
import { recorded, type WriteJournal } from './record/activity.js';
import { assertFits } from './create.js';
import { withCurrent, type Step } from './current-note.js';
import { bodyOf } from './ingest.js';
import { bringBackLate, type Change, type LateText } from './late-edits.js';
import type { NoteFile } from './note-file-read.js';
import type { Admit, NoteRecord, NoteWithBody } from './note.js';
import { hashContent, parseNoteFile } from './parse.js';
import { propertiesOf, withPropertiesOf } from './properties.js';
import type { VaultParts } from './vault-parts.js';
import { assertFileWritable, assertWritable } from './write-refusals.js';

/**
 * The write path of an edit of one note, apart from what the edit is (a
 * `Change`, from edits.ts, body-edits.ts, properties.ts or a link repair):
 * under the note's lock, read the file once it is quiet, check the server
 * may write it for this connection, keep and record the version it replaces,
 * replace the file only if nobody changed it meanwhile (else redo the edit
 * on what is there), watch a file another program was writing for its late
 * text, and take what was written into the catalog. Every write the `Vault`
 * makes to an existing note goes through `editNote`, or for a move through
 * `currentToWrite` and `placeWritten`.
 */

/**
 * Run an edit of one note under its file's lock: read the file once it is
 * quiet, compute the new content, and replace the file only if nobody
 * changed it meanwhile; otherwise redo the edit on the new content, so that
 * neither change is lost.
 */
export function editNote(parts: VaultParts, id: string, change: Change, admit?: Admit, journal?: WriteJournal, late: LateText = 'merge'): Promise<NoteWithBody> {
  return withCurrent(parts, id, (record) => {
    assertWritable(parts, record);
    return parts.lock.run(record.path, () => editLocked(parts, id, record, change, admit, journal, late));
  });
}

async function editLocked(
  parts: VaultParts,
  id: string,
  record: NoteRecord,
  change: Change,
  admit: Admit | undefined,
  journal: WriteJournal | undefined,
  late: LateText,
): Promise<Step<NoteWithBody>> {
  const { files } = parts;
  const file = await files.openQuiet(record.path, record);
  if (!file) return 'missing';
  let handedOver = false;
  let next: string | undefined;
  let info: Stats;
  try {
    const current = await currentToWrite(parts, id, record, file, admit, 'changed');
    if (current === 'retry') return 'retry';
    next = change(file.content, current);
    if (next === undefined) return withPropertiesOf(file.content, { record: current, body: bodyOf(file.content, current) });
    assertFits(next);
    const writtenByOthers = files.recentlyWrittenByOthers(record.path, file);
    // Kept before the file is touched: a crash after the write must not lose the version it replaced.
    const before = await journal?.keep(file.file.bytes);
    const write = before === undefined ? undefined : ({ action: 'changed', id, path: record.path, before, after: hashContent(next) } as const);
    const content = next;
    // Recorded ahead; the file was read through `file`, and is replaced only if that is still what the path holds, unchanged.
    const written = await recorded(journal, write, () => files.replace(record.path, file, content), (result) => result !== 'changed');
    if (written === 'changed') return 'retry';
    if (writtenByOthers) {
      let ours: Buffer = Buffer.from(next);
      files.watchDisplaced(record.path, file, async (theirs, plausible) => {
        ours = (await bringBackLate(parts, { id, vaultPath: record.path, theirs, plausible, ours, change, journal, late })) ?? ours;
      });
      handedOver = true;
    }
    // The new file's own stats: the path may already have been moved on by another program.
    info = written;
  } finally {
    if (!handedOver) await file.file.handle.close();
  }
  return placeWritten(parts, id, record.path, next, info);
}

/**
 * The note as `file` (opened at `record.path` under its lock) holds it, once
 * it is checked that the server may write it for this connection: 'retry'
 * when the note moved or the file is another note's now.
 */
export async function currentToWrite(
  parts: VaultParts,
  id: string,
  record: NoteRecord,
  file: NoteFile,
  admit: Admit | undefined,
  doing: 'changed' | 'moved',
): Promise<NoteRecord | 'retry'> {
  if (parts.catalog.get(id)?.path !== record.path) return 'retry';
  const current = file.hash === record.hash ? record : await parts.ingest.ingest(record.path);
  if (!current || current.id !== id) return 'retry';
  assertWritable(parts, current);
  admit?.(current);
  assertFileWritable(current, file.file.stats, doing);
  return current;
}

/** Take what the server itself just wrote at `vaultPath` (`info`: the file's stats after the write) as the note `id`, and announce it. */
export function placeWritten(parts: VaultParts, id: string, vaultPath: string, content: string, info: Stats): NoteWithBody {
  const parsed = parseNoteFile({
    path: vaultPath,
    content,
    size: info.size,
    mtimeMs: info.mtimeMs,
    ctimeMs: info.ctimeMs,
    ino: info.ino,
    birthtimeMs: info.birthtimeMs,
  });
  const updated: NoteRecord = { ...parsed.record, id };
  parts.catalog.placeOwnWrite(updated);
  parts.announce.note(updated, parsed.body, parsed.searchText);
  return { record: parts.catalog.get(id) ?? updated, body: parsed.body, ...(updated.broken ? {} : { properties: propertiesOf(parsed.data) }) };
}
