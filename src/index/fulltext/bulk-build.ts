import type { EngineDocument, EngineState, FieldPostings } from './engine-state.js';
import { PostingList } from './posting-list.js';

/** What the builder needs of the index's options: MiniSearch's, without the search ones. */
export interface BulkOptions<T> {
  idField: string;
  fields: readonly string[];
  tokenize: (text: string, fieldName?: string) => string[];
  processTerm: (term: string, fieldName?: string) => string | string[] | null | undefined | false;
  extract?: (document: T, field: string) => unknown;
}

/** Postings kept per piece, (key, note, frequency) each: 12 MB a piece at most. */
const PIECE_ENTRIES = 1 << 20;
/**
 * The first piece's postings (48 KB); each next piece is twice the one
 * before, up to PIECE_ENTRIES. A first piece of full size cost every index
 * built 12 MB zeroed, however few its notes: 0.6 and 1.5 s of the test
 * runner's main thread in two profiles of 43 test files that open hundreds
 * of small vaults.
 */
const FIRST_PIECE_ENTRIES = 1 << 12;
const EMPTY = new Int32Array(0);

/**
 * Builds a full-text index of many notes at once (a first read with no
 * cache), as MiniSearch's `add` would build it note by note, and hands it
 * over as the state a cache snapshot restores (engine-state.ts): every word's
 * notes one slice of one Int32Array (posting-list.ts).
 *
 * `MiniSearch#add` puts every posting into nested Maps, looking its word up
 * in the radix tree for each: at 100,000 notes that was most of the cold
 * start's main-thread work, and 804 MB of heap (BENCHMARKS.md, issue 17).
 * Here a note's words are counted in one small Map, then appended to flat
 * arrays; `state()` sorts them by word once. The words, field lengths and
 * running average field lengths are MiniSearch's own arithmetic, in the
 * same order, so the index answers exactly as one built by `add` (a test
 * compares them).
 */
export class BulkBuilder<T> {
  private readonly terms = new Map<string, number>();
  private readonly termList: string[] = [];
  private readonly pieces: Int32Array[] = [];
  private piece: Int32Array = new Int32Array(FIRST_PIECE_ENTRIES * 3);
  private inPiece = 0;
  private readonly documents: EngineDocument[] = [];
  private readonly ids = new Set<string>();
  private readonly averageFieldLength: number[];
  private readonly fieldCount: number;

  constructor(private readonly options: BulkOptions<T>) {
    this.fieldCount = options.fields.length;
    this.averageFieldLength = new Array<number>(this.fieldCount).fill(0);
  }

  get size(): number {
    return this.documents.length;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Add a note not added before (the caller checks `has`). */
  add(document: T): void {
    const { fields, tokenize, processTerm, idField } = this.options;
    const extract = this.options.extract ?? ((doc: T, field: string) => (doc as Record<string, unknown>)[field]);
    const id = extract(document, idField);
    if (typeof id !== 'string') throw new Error(`A note to index has no ${idField}`);
    if (this.ids.has(id)) throw new Error(`The note ${id} is already in the index being built`);
    const shortId = this.documents.length;
    const fieldLengths = new Array<number>(this.fieldCount).fill(0);
    // MiniSearch counts the note before it adds its field lengths.
    const count = shortId;
    const frequencies = new Map<string, number>();
    for (let fieldId = 0; fieldId < this.fieldCount; fieldId++) {
      const field = fields[fieldId] as string;
      const value = extract(document, field);
      if (value === null || value === undefined) continue;
      const tokens = tokenize(String(value), field);
      const length = new Set(tokens).size;
      fieldLengths[fieldId] = length;
      // MiniSearch's running average, in its order of operations.
      this.averageFieldLength[fieldId] = ((this.averageFieldLength[fieldId] ?? 0) * count + length) / (count + 1);
      frequencies.clear();
      for (const token of tokens) {
        const processed = processTerm(token, field);
        if (Array.isArray(processed)) for (const term of processed) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
        else if (processed) frequencies.set(processed, (frequencies.get(processed) ?? 0) + 1);
      }
      for (const [term, frequency] of frequencies) this.push(this.termIndex(term) * this.fieldCount + fieldId, shortId, frequency);
    }
    this.ids.add(id);
    this.documents.push({ shortId, id, fieldLengths });
  }

  private termIndex(term: string): number {
    let index = this.terms.get(term);
    if (index === undefined) {
      index = this.termList.length;
      this.terms.set(term, index);
      this.termList.push(term);
    }
    return index;
  }

  private push(key: number, doc: number, frequency: number): void {
    if (this.inPiece * 3 === this.piece.length) {
      this.pieces.push(this.piece);
      this.piece = new Int32Array(Math.min(PIECE_ENTRIES, this.inPiece * 2) * 3);
      this.inPiece = 0;
    }
    const at = this.inPiece * 3;
    this.piece[at] = key;
    this.piece[at + 1] = doc;
    this.piece[at + 2] = frequency;
    this.inPiece++;
  }

  /** The index built, as a snapshot's state; the builder is spent afterwards. */
  state(): EngineState {
    const steps = this.steps();
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `state()` a piece at a time (about 10 ms each at 100,000 notes): the
   * caller may free the event loop between pieces. Made in one go, the
   * index of 100,000 notes held it for 357 ms (issue 17).
   */
  *steps(): Generator<void, EngineState> {
    const keys = this.termList.length * this.fieldCount;
    const counts = new Int32Array(keys);
    const pieces = [...this.pieces, this.piece.subarray(0, this.inPiece * 3)];
    for (const piece of pieces) {
      for (let at = 0; at < piece.length; at += 3) {
        const key = piece[at] as number;
        counts[key] = (counts[key] as number) + 1;
      }
      yield;
    }
    // Where each word's and field's pairs start, in pairs.
    const starts = new Int32Array(keys + 1);
    for (let key = 0; key < keys; key++) starts[key + 1] = (starts[key] as number) + (counts[key] as number);
    const pairs = new Int32Array((starts[keys] as number) * 2);
    const next = starts.slice(0, keys);
    // Notes were added in ascending short id, so each list comes out ascending.
    // A piece is let go once placed: together they are half as large again
    // as the pairs (192 MB at 100,000 notes), and the pairs are what stays.
    this.pieces.length = 0;
    this.piece = EMPTY;
    for (let p = 0; p < pieces.length; p++) {
      const piece = pieces[p] as Int32Array;
      pieces[p] = EMPTY;
      for (let at = 0; at < piece.length; at += 3) {
        const key = piece[at] as number;
        const place = (next[key] as number) * 2;
        next[key] = (next[key] as number) + 1;
        pairs[place] = piece[at + 1] as number;
        pairs[place + 1] = piece[at + 2] as number;
      }
      yield;
    }
    const nextId = this.documents.length;
    const { termList, fieldCount } = this;
    // The lists are made (and checked) here, a share at a time, so that the
    // caller's restore only files them.
    const postings: [string, FieldPostings][] = [];
    let pairsMade = 0;
    for (const [index, term] of termList.entries()) {
      const data: FieldPostings = new Map();
      for (let fieldId = 0; fieldId < fieldCount; fieldId++) {
        const key = index * fieldCount + fieldId;
        const count = counts[key] as number;
        if (count > 0) data.set(fieldId, new PostingList(pairs, (starts[key] as number) * 2, count, nextId));
        pairsMade += count + 1;
      }
      postings.push([term, data]);
      if (pairsMade >= PIECE_ENTRIES) {
        pairsMade = 0;
        yield;
      }
    }
    return {
      documentCount: this.documents.length,
      nextId,
      dirtCount: 0,
      fieldIds: Object.fromEntries(this.options.fields.map((field, i) => [field, i])),
      averageFieldLength: [...this.averageFieldLength],
      documents: this.documents,
      postings,
    };
  }
}
