import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { NoteRecord } from '../vault/note.js';
import { tableOf, tableRecords, type RecordTable } from '../vault/record-table.js';

/*
 * What the server learned about identity since the index cache was last
 * saved: each note it saw moved or renamed under the id it had, as one JSON
 * line `{"from": old path, "record": the note's record at its new path}`.
 * Appended (and synced) before a move is answered, replayed onto the cached
 * records at the next start, and removed once a saved cache holds it all.
 * Saving the whole cache on every move instead would cost 0.12-0.68 s a
 * move at 10,000 notes (a 20 MB cache); a line of some 1 KB took 1.7 ms
 * (median of 20; write and datasync). BENCHMARKS.md, "Issue 29".
 */

const MOVES_FILE = 'moves.jsonl';

export function movesFile(folder: string): string {
  return path.join(folder, MOVES_FILE);
}

interface Entry {
  from: string;
  record: NoteRecord;
}

/** A record as a line of the journal gives it back: the fields the loader and the catalog rely on, of the right types. */
function looksLikeRecord(value: unknown): value is NoteRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const strings = ['id', 'path', 'title', 'source', 'snippet', 'hash'].every((key) => typeof record[key] === 'string');
  const numbers = ['createdMs', 'updatedMs', 'size', 'mtimeMs', 'ctimeMs', 'ino', 'birthtimeMs'].every((key) => typeof record[key] === 'number');
  return strings && numbers && Array.isArray(record.tags) && (record.folder === null || typeof record.folder === 'string');
}

/**
 * The cached records with the journal's moves applied, in order: each moved
 * note at its new path under its id, with its dates. Its file is read again
 * at start (a moved file's change time differs anyway), so that the index
 * takes its text from the file, never from the journal. A line cut short by
 * a crash, or anything else unreadable, is skipped.
 */
export async function replayMoves(folder: string, cached: RecordTable): Promise<{ records: RecordTable; moves: number }> {
  let text: string;
  try {
    text = await readFile(movesFile(folder), 'utf8');
  } catch {
    return { records: cached, moves: 0 };
  }
  // Rare (a server stopped before it saved after a move): every row is made, as before the table.
  const byId = new Map(tableRecords(cached).map((record) => [record.id, record]));
  let moves = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: Partial<Entry>;
    try {
      entry = JSON.parse(line) as Partial<Entry>;
    } catch {
      continue;
    }
    if (typeof entry.from !== 'string' || !looksLikeRecord(entry.record)) continue;
    const record = entry.record;
    // Whatever the cache held at the new path was replaced by the moved note.
    for (const [id, other] of byId) if (other.path === record.path && id !== record.id) byId.delete(id);
    byId.set(record.id, { ...record, ctimeMs: -1 });
    moves++;
  }
  return { records: tableOf([...byId.values()]), moves };
}

/**
 * Appends to one folder's journal. Lines given while a write is under way
 * go together in the next write, so a burst of renames (a checkout) costs a
 * few syncs, not one each.
 */
export class MovesJournal {
  /** Lines given so far; a save that began at this count and finished with it unchanged holds them all. */
  appended = 0;
  private pending: string[] = [];
  private writing: Promise<void> = Promise.resolve();
  private next: Promise<void> | undefined;

  constructor(private readonly folder: () => Promise<string>) {}

  /** Resolves once the line is on disk. */
  append(record: NoteRecord, from: string): Promise<void> {
    this.appended++;
    this.pending.push(`${JSON.stringify({ from, record } satisfies Entry)}\n`);
    this.next ??= this.after(() => this.writePending());
    return this.next;
  }

  private async writePending(): Promise<void> {
    this.next = undefined;
    const lines = this.pending.splice(0);
    if (lines.length === 0) return;
    const handle = await open(movesFile(await this.folder()), 'a', 0o600);
    try {
      await handle.write(lines.join(''));
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }

  /** Run `step` once every write before it is done, failed or not; one at a time. */
  private after(step: () => Promise<void>): Promise<void> {
    this.writing = this.writing.catch(() => undefined).then(step);
    return this.writing;
  }

  /** Resolves once every line given so far is written (or failed). */
  settled(): Promise<void> {
    return this.writing.catch(() => undefined);
  }

  /**
   * A saved cache holds every move given before `appendedAtSave`: the
   * journal goes, unless a move came after (then it waits for the next save).
   */
  savedUpTo(appendedAtSave: number): Promise<void> {
    return this.after(async () => {
      if (this.appended === appendedAtSave) await rm(movesFile(await this.folder()), { force: true });
    });
  }
}
