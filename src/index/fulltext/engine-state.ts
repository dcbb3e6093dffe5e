import MiniSearch, { type Options } from 'minisearch';
import { PostingList } from './posting-list.js';
import { radixTreeOf } from './radix-tree.js';

/**
 * MiniSearch with its state read out as plain numbers, through a subclass,
 * so that the compiler checks every protected member it reads against the
 * installed MiniSearch:
 *
 * - `state` and `restore`: the index as numbers and strings, and back: what
 *   the binary snapshot (cache.ts, through fulltext.ts) writes and loads,
 *   several times faster than `loadJS`'s JSON;
 * - the per-note table that ranking reads for every posting, and a count
 *   of changes, kept in step by every add and discard.
 */

/** Term frequencies of one term: field id → (short document id → frequency). */
export type FieldPostings = Map<number, Map<number, number>>;

/** Everything of the index but its postings. */
export interface EngineCounts {
  documentCount: number;
  nextId: number;
  dirtCount: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
}

export interface EngineDocument {
  shortId: number;
  id: string;
  /** Words per field, by field id. */
  fieldLengths: number[];
}

/** The whole index; `postings` is read lazily, term by term. */
export interface EngineState extends EngineCounts {
  documents: EngineDocument[];
  postings: Iterable<[string, FieldPostings]>;
}

/**
 * Per-note columns that every query reads for every posting, as typed
 * arrays indexed by short id instead of a map lookup each time. Built on
 * the first query and kept in step by every change after: rebuilding it
 * after each edit cost 22 ms per edit-then-search at 100,000 notes
 * (BENCHMARKS.md).
 */
export interface DocumentTable {
  /** 1 for a note still in the index. */
  live: Uint8Array;
  /** Words per field: `lengths[shortId * fieldCount + fieldId]`. */
  lengths: Float64Array;
}

export class StatefulMiniSearch<T> extends MiniSearch<T> {
  protected readonly fieldNames: readonly string[];
  protected table: DocumentTable | undefined;
  /** Counts changes: visible statistics made before the last one are stale. */
  protected version = 0;

  constructor(options: Options<T>) {
    super(options);
    this.fieldNames = options.fields;
  }

  override add(document: T): void {
    this.version++;
    super.add(document);
    const shortId = this._idToShortId.get(this._options.extractField(document, this._options.idField));
    if (this.table && shortId !== undefined) this.placeInTable(this.table, shortId);
  }

  override discard(id: unknown): void {
    this.version++;
    const shortId = this._idToShortId.get(id);
    super.discard(id);
    if (this.table && shortId !== undefined) this.table.live[shortId] = 0;
  }

  override remove(document: T): void {
    this.version++;
    const shortId = this._idToShortId.get(this._options.extractField(document, this._options.idField));
    super.remove(document);
    if (this.table && shortId !== undefined) this.table.live[shortId] = 0;
  }

  /** The index's state; the caller must stop reading `postings` if the index changes meanwhile. */
  state(): EngineState {
    const { shortIds, ids, fieldLengths, ...rest } = this.stateColumns();
    const fieldCount = this.fieldNames.length;
    const documents: EngineDocument[] = shortIds.map((shortId, i) => ({
      shortId,
      id: ids[i] as string,
      fieldLengths: fieldLengths.slice(i * fieldCount, (i + 1) * fieldCount),
    }));
    return { ...rest, documents };
  }

  /**
   * The index's state with the notes as columns, in `_documentIds` order:
   * what a snapshot writes. Without an object per note: `state()` took
   * 186 ms of a save at 100,000 notes, all at once (issue 17).
   */
  stateColumns(): EngineCounts & { shortIds: number[]; ids: string[]; fieldLengths: number[]; postings: Iterable<[string, FieldPostings]> } {
    const fieldCount = this.fieldNames.length;
    const shortIds: number[] = [];
    const ids: string[] = [];
    const fieldLengths: number[] = [];
    for (const [shortId, id] of this._documentIds) {
      shortIds.push(shortId);
      ids.push(id as string);
      const lengths = this._fieldLength.get(shortId);
      for (let field = 0; field < fieldCount; field++) fieldLengths.push(lengths?.[field] ?? 0);
    }
    return {
      documentCount: this._documentCount,
      nextId: this._nextId,
      dirtCount: this._dirtCount,
      fieldIds: { ...this._fieldIds },
      averageFieldLength: [...this._avgFieldLength],
      shortIds,
      ids,
      fieldLengths,
      postings: this._index,
    };
  }

  protected restore(state: EngineState): void {
    const { documentCount, nextId, dirtCount, fieldIds, averageFieldLength, documents, postings } = state;
    const fieldCount = this.fieldNames.length;
    const sameFields = this.fieldNames.every((field, i) => fieldIds[field] === i) && Object.keys(fieldIds).length === fieldCount;
    if (!sameFields || documents.length !== documentCount || averageFieldLength.length !== fieldCount) {
      throw new Error('The index snapshot does not fit together');
    }
    this._documentCount = documentCount;
    this._nextId = nextId;
    this._dirtCount = dirtCount;
    this._avgFieldLength = [...averageFieldLength];
    for (const { shortId, id, fieldLengths } of documents) {
      if (!Number.isInteger(shortId) || shortId < 0 || shortId >= nextId || typeof id !== 'string' || this._documentIds.has(shortId)) {
        throw new Error('The index snapshot has a bad note id');
      }
      if (fieldLengths.length !== fieldCount) throw new Error('The index snapshot has bad field lengths');
      this._documentIds.set(shortId, id);
      this._idToShortId.set(id, shortId);
      this._fieldLength.set(shortId, fieldLengths);
    }
    const entries: [string, FieldPostings][] = [];
    for (const [term, data] of postings) {
      for (const [fieldId, frequencies] of data) {
        if (fieldId < 0 || fieldId >= fieldCount) throw new Error('The index snapshot has a bad field');
        // A PostingList checked its own when it was made.
        if (frequencies instanceof PostingList) continue;
        for (const [doc, frequency] of frequencies) {
          if (doc < 0 || doc >= nextId || frequency <= 0) throw new Error('The index snapshot has a bad posting');
        }
      }
      entries.push([term, data]);
    }
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (let i = 1; i < entries.length; i++) {
      if ((entries[i] as [string, FieldPostings])[0] === (entries[i - 1] as [string, FieldPostings])[0]) throw new Error('The index snapshot has a word twice');
    }
    // The radix tree is made from the sorted words in one pass: MiniSearch's
    // set() looks for a word's branch among all a node's branches, and an
    // index of many scripts has thousands at the top (Obsidian's help vault,
    // 177,000 words in 20 languages: the warm start spent 6.4 s there, issue
    // 17). The tree has MiniSearch's own shape (radix-tree.ts checks it).
    this._index._tree = radixTreeOf(entries) as typeof this._index._tree;
  }

  protected documentTable(): DocumentTable {
    const fieldCount = this.fieldNames.length;
    const table = { live: new Uint8Array(this._nextId), lengths: new Float64Array(this._nextId * fieldCount) };
    // Only notes in the index have field lengths: a discard removes them.
    for (const doc of this._fieldLength.keys()) this.placeInTable(table, doc);
    return table;
  }

  /** Mark `doc` live with its field lengths, growing the table (doubling) when short ids have outgrown it. */
  private placeInTable(table: DocumentTable, doc: number): void {
    const fieldCount = this.fieldNames.length;
    if (doc >= table.live.length) {
      const slots = Math.max(doc + 1, table.live.length * 2);
      const live = new Uint8Array(slots);
      live.set(table.live);
      const lengths = new Float64Array(slots * fieldCount);
      lengths.set(table.lengths);
      table.live = live;
      table.lengths = lengths;
    }
    table.live[doc] = 1;
    const fieldLengths = this._fieldLength.get(doc) ?? [];
    for (let field = 0; field < fieldCount; field++) table.lengths[doc * fieldCount + field] = fieldLengths[field] ?? 0;
  }
}
