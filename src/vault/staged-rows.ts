import type { NoteRecord } from './note.js';
import type { RecordTable } from './record-table.js';

/**
 * The cached rows keyed as the catalog keys its notes (by id and by path),
 * made by a first read while the listing of the files is still under way,
 * and handed to the catalog in one step once the listing has confirmed them
 * (`Catalog.adoptRows`): a row whose file changed or went is dropped first.
 * Nothing is placed before then, so nothing answers from a row the listing
 * has not confirmed. At 100,000 notes the main thread waited 250-400 ms for
 * the listing with nothing to do, and placed the rows after it in some
 * 350 ms (BENCHMARKS.md, issue 31).
 */
export class StagedRows {
  /** By id: the row. Typed as the catalog keeps it, which takes this map as its own. */
  readonly records = new Map<string, NoteRecord | number>();
  readonly idByPath = new Map<string, string>();

  constructor(readonly table: RecordTable) {
    for (let row = 0; row < table.count; row++) {
      const id = table.id(row);
      const notePath = table.path(row);
      // A row repeating an id or a path (a damaged cache) is left out: its file is read.
      if (this.records.has(id) || this.idByPath.has(notePath)) continue;
      this.records.set(id, row);
      this.idByPath.set(notePath, id);
    }
  }

  /** The row staged at `notePath`, if any. */
  rowAt(notePath: string): number | undefined {
    const id = this.idByPath.get(notePath);
    return id === undefined ? undefined : (this.records.get(id) as number);
  }

  /** Leave out row `row`, if staged: its file changed or went. */
  drop(row: number): void {
    const id = this.table.id(row);
    if (this.records.get(id) !== row) return;
    this.records.delete(id);
    this.idByPath.delete(this.table.path(row));
  }

  /** The rows staged, in the order they were. */
  rows(): number[] {
    return [...this.records.values()] as number[];
  }
}
