import type { NoteRecord } from './note.js';

/**
 * The records a first read starts from (the index cache's), kept compactly
 * and made into `NoteRecord`s one at a time, when asked. A first read
 * compares each file with its row by path, times and inode, and places an
 * unchanged one by its id and path alone (staged-rows.ts); the catalog makes
 * the rest of a row into a record when something reads it, or in steps
 * once the read is done. At 100,000 notes, making every record before the
 * first answer took some 1 s of a warm start's 2.7 s, most of it the
 * garbage collector moving 100,000 records with their strings, tags,
 * properties and tasks (BENCHMARKS.md, issue 31).
 */
export interface RecordTable {
  readonly count: number;
  id(row: number): string;
  path(row: number): string;
  /** Git's blob id of the file's bytes. */
  hash(row: number): string;
  /** The file's size in bytes. */
  size(row: number): number;
  /** What `unchangedFile` compares, and what the catalog decides a note's dates from. */
  numbers(row: number): RowNumbers;
  /** The row as a record: a new object each call, which the caller keeps. */
  record(row: number): NoteRecord;
}

/** A row's numbers: what a file's stats are compared with, and what a note's dates are decided from. */
export type RowNumbers = Pick<
  NoteRecord,
  'size' | 'mtimeMs' | 'ctimeMs' | 'ino' | 'birthtimeMs' | 'createdMs' | 'updatedMs' | 'statedCreatedMs' | 'statedUpdatedMs' | 'keptCreatedMs' | 'keptUpdatedMs' | 'editedMs'
>;

/** Records already made, as a table: `record` hands out the very objects. */
export function tableOf(records: readonly NoteRecord[]): RecordTable {
  const at = (row: number): NoteRecord => {
    const record = records[row];
    if (record === undefined) throw new RangeError(`No row ${row} in a table of ${records.length}`);
    return record;
  };
  return {
    count: records.length,
    id: (row) => at(row).id,
    path: (row) => at(row).path,
    hash: (row) => at(row).hash,
    size: (row) => at(row).size,
    numbers: at,
    record: at,
  };
}

/** Every row of `table`, made. */
export function tableRecords(table: RecordTable): NoteRecord[] {
  return Array.from({ length: table.count }, (_, row) => table.record(row));
}
