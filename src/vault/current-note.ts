import { ConcurrentEditError, NoteNotFoundError } from './errors.js';
import { bodyOf } from './ingest.js';
import type { NoteRecord, NoteWithBody } from './note.js';
import { withPropertiesOf } from './properties.js';
import type { VaultParts } from './vault-parts.js';

/**
 * The current version of a note, as every read and write of one finds it.
 * The catalog says where the note was last seen; a step on that version
 * that finds the file changed has the model catch up and tries again, and
 * one that finds no file there follows a move or learns of a deletion. The
 * read, the edits, the move and the delete all go through `withCurrent`.
 */

/** What a step on the current version of a note asks next: try again, or the note's file was not where the catalog said. */
export type Step<T> = T | 'retry' | 'missing';

const MAX_WRITE_ATTEMPTS = 8;
const MOVE_GRACE_MS = 400;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Do `step` with the current version of a note: the one helper behind
 * read, edit and delete. A step that finds the file changed asks to
 * 'retry' (the model catches up first); one that finds no file there asks
 * 'missing': a moved note is followed (the watcher reports its new place
 * within moments), a deleted one is `gone` (by default: not found).
 */
export async function withCurrent<T>(
  parts: VaultParts,
  id: string,
  step: (record: NoteRecord) => Promise<Step<T>>,
  gone: (record: NoteRecord) => Promise<T | undefined> = async () => undefined,
): Promise<T> {
  const { catalog, lock, ingest } = parts;
  for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
    const record = catalog.get(id);
    if (!record) throw new NoteNotFoundError();
    const result = await step(record);
    if (result === 'retry') {
      // The file changed or moved since the model last saw it: catch up first.
      if (catalog.get(id)?.path === record.path) await lock.run(record.path, () => ingest.ingest(record.path));
      continue;
    }
    if (result !== 'missing') return result;
    await awaitMove(parts, id, record.path);
    if (catalog.get(id)?.path !== record.path) continue;
    const answer = await gone(record);
    if (answer !== undefined) return answer;
    // Still at a path with no file: it was deleted, and the model learns so now.
    await lock.run(record.path, () => ingest.ingest(record.path));
  }
  throw new ConcurrentEditError();
}

/**
 * A note's file is gone from where the model last saw it. If it was moved,
 * the watcher will report the new place within moments: wait for that
 * briefly rather than call a moved note deleted.
 */
async function awaitMove(parts: VaultParts, id: string, oldPath: string): Promise<void> {
  for (let waited = 0; waited < MOVE_GRACE_MS; waited += 50) {
    await sleep(50);
    if (parts.catalog.get(id)?.path !== oldPath) return;
  }
}

/** Read a note's current body from disk, bringing the model in step if the file changed. */
export function readNote(parts: VaultParts, id: string, withProperties: boolean): Promise<NoteWithBody> {
  return withCurrent(parts, id, async (record) => {
    const file = await parts.files.open(record.path);
    await file?.file.handle.close();
    if (!file) return 'missing';
    if (file.hash !== record.hash) return 'retry';
    const note = { record, body: bodyOf(file.content, record) };
    // A phrase search reads many notes for their text alone: their frontmatter, 180 µs a note to parse, is left unread.
    return withProperties ? withPropertiesOf(file.content, note) : note;
  });
}
