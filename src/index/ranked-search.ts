import MiniSearch, { type Options } from 'minisearch';
import { TopK } from './top-k.js';

/**
 * MiniSearch with two additions that need its protected members, reached
 * the way its declarations allow (a subclass), so that the compiler checks
 * every use against the installed version:
 *
 * - `rank`: MiniSearch's own ranking, read from its options, without a
 *   result object for every matching note. `MiniSearch#search` returns
 *   every match as an object with its matched terms and fields, then sorts
 *   them all. A query made of one common word matches half of a
 *   10,000-note vault, and that costs 12–18 ms, nearly all of it in those
 *   objects and the sort. `rank` adds the same BM25 terms, in the same
 *   order, into typed arrays, keeps only the `limit` best visible notes,
 *   and works out matched terms for those alone. A test checks its scores
 *   and order against `MiniSearch#search`.
 * - `state` and `fromState`: the index as plain numbers and strings, for a
 *   binary snapshot that loads several times faster than `loadJS`'s JSON.
 */

/** Term frequencies of one term: field id → (short document id → frequency). */
export type FieldPostings = Map<number, Map<number, number>>;

export interface RankedHit {
  id: string;
  score: number;
  /** The index's words that matched (after prefix and typo matching), in MiniSearch's order. */
  terms: string[];
}

export interface RankedPage {
  /** Visible notes that match at least one word. */
  total: number;
  /** The best `limit` of them, by score, then id. */
  hits: RankedHit[];
}

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

/** One word of the index that a query word reaches, with its weight. */
interface Expansion {
  term: string;
  weight: number;
  postings: FieldPostings;
}

/**
 * Per-note columns that every query reads for every posting, as typed
 * arrays indexed by short id instead of a map lookup each time. Built on
 * the first query and kept in step by every change after: rebuilding it
 * after each edit cost 22 ms per edit-then-search at 100,000 notes
 * (BENCHMARKS.md).
 */
interface DocumentTable {
  /** 1 for a note still in the index. */
  live: Uint8Array;
  /** Words per field: `lengths[shortId * fieldCount + fieldId]`. */
  lengths: Float64Array;
}

/**
 * The ranking statistics of the notes one connection sees: BM25's note
 * count and average field lengths, and which notes count at all. Scores
 * worked out over them are the scores of an index holding only those notes,
 * so a ranking never tells what lies outside (issue 15: a vault-wide
 * statistic let the order of two probe notes say whether a word occurs
 * outside the boundary).
 */
interface VisibleStatistics {
  /** The index changes it was made for. */
  version: number;
  /** 1 for a note the connection sees, by short id. */
  visible: Uint8Array;
  documentCount: number;
  averageFieldLength: number[];
}

export class RankedMiniSearch<T> extends MiniSearch<T> {
  private table: DocumentTable | undefined;
  /** Counts changes: visible statistics made before the last one are stale. */
  private version = 0;
  /**
   * By visibility test (one function per connection and vault, kept for its
   * life): rebuilt on the first search after a change, O(notes).
   */
  private readonly visibleStatistics = new WeakMap<(id: string) => boolean, VisibleStatistics>();
  private readonly fieldNames: readonly string[];

  constructor(options: Options<T>) {
    super(options);
    const { boostDocument, boostTerm, combineWith, fields } = this._options.searchOptions;
    // `rank` adds what the ranking below reads; anything else would make it disagree with `search`.
    if (boostDocument || boostTerm || fields || (combineWith ?? 'OR').toUpperCase() !== 'OR') {
      throw new Error('RankedMiniSearch ranks only OR queries over every field, without document or term boosts');
    }
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

  /**
   * How many notes passing `visible` (every note when it is undefined)
   * contain at least one of `terms`, and the best `limit` of them, scored as
   * an index of those notes alone would score them. `terms` are the query's
   * words, already tokenised and normalised as the index was; each
   * occurrence counts, as in MiniSearch, where a repeated word adds its
   * score twice.
   */
  rank(terms: readonly string[], visible: ((id: string) => boolean) | undefined, limit: number): RankedPage {
    this.table ??= this.documentTable();
    const seen = visible === undefined ? undefined : this.statisticsFor(visible);
    // The notes that count: every live one, or the live ones the connection sees.
    const live = seen?.visible ?? this.table.live;
    const { lengths } = this.table;
    const documentCount = seen?.documentCount ?? this._documentCount;
    const averageFieldLength = seen?.averageFieldLength ?? this._avgFieldLength;
    const fieldCount = this.fieldNames.length;
    const options = this._options.searchOptions;
    const { k, b, d } = options.bm25;
    const expansionsPerWord = terms.map((term, i) => this.expand(term, i, terms));
    const slots = this._nextId;
    const total = new Float64Array(slots);
    const perWord = new Float64Array(slots);
    // How many distinct query words each note matched: MiniSearch multiplies the sum by it.
    const quality = new Uint16Array(slots);
    const touched: number[] = [];
    const seenWords = new Set<string>();
    const fields = this.fieldNames.map((name) => ({ id: this._fieldIds[name], boost: options.boost[name] || 1 }));

    for (const [w, expansions] of expansionsPerWord.entries()) {
      const counts = !seenWords.has(terms[w] as string);
      seenWords.add(terms[w] as string);
      const inWord: number[] = [];
      for (const expansion of expansions) {
        for (const field of fields) {
          if (field.id === undefined) continue;
          const frequencies = expansion.postings.get(field.id);
          if (!frequencies) continue;
          const matching = seen === undefined && this._dirtCount === 0 ? frequencies.size : liveCount(live, frequencies);
          const idf = Math.log(1 + (documentCount - matching + 0.5) / (matching + 0.5));
          const average = averageFieldLength[field.id] ?? 1;
          const factor = expansion.weight * field.boost;
          const fieldId = field.id;
          frequencies.forEach((frequency, doc) => {
            // A discarded note's postings stay until MiniSearch vacuums them; an unseen note counts for nothing.
            if (live[doc] !== 1) return;
            const length = lengths[doc * fieldCount + fieldId] as number;
            const bm25 = idf * (d + (frequency * (k + 1)) / (frequency + k * (1 - b + (b * length) / average)));
            const before = perWord[doc] as number;
            if (before === 0) inWord.push(doc);
            perWord[doc] = before + factor * bm25;
          });
        }
      }
      for (const doc of inWord) {
        if (total[doc] === 0 && quality[doc] === 0) touched.push(doc);
        total[doc] = (total[doc] as number) + (perWord[doc] as number);
        perWord[doc] = 0;
        if (counts) quality[doc] = (quality[doc] as number) + 1;
      }
    }

    const best = new TopK<{ id: string; doc: number; score: number }>(Math.max(0, limit));
    let count = 0;
    for (const doc of touched) {
      const id = this._documentIds.get(doc) as string | undefined;
      if (id === undefined) continue;
      count++;
      best.push({ id, doc, score: (total[doc] as number) * Math.max(1, quality[doc] as number) });
    }
    const fieldIds = fields.map((field) => field.id);
    const hits = best.sorted().map(({ id, doc, score }) => ({ id, score, terms: matchedTerms(expansionsPerWord, fieldIds, doc) }));
    return { total: count, hits };
  }

  private statisticsFor(visible: (id: string) => boolean): VisibleStatistics {
    const cached = this.visibleStatistics.get(visible);
    if (cached?.version === this.version) return cached;
    const fieldCount = this.fieldNames.length;
    const table = (this.table ??= this.documentTable());
    const seen = new Uint8Array(table.live.length);
    const lengthSums = new Array<number>(fieldCount).fill(0);
    let documentCount = 0;
    for (const [doc, id] of this._documentIds) {
      if (!visible(id as string)) continue;
      seen[doc] = 1;
      documentCount++;
      for (let field = 0; field < fieldCount; field++) lengthSums[field] = (lengthSums[field] as number) + (table.lengths[doc * fieldCount + field] as number);
    }
    const statistics: VisibleStatistics = {
      version: this.version,
      visible: seen,
      documentCount,
      // Summed over the visible notes alone, in the order they were added, so
      // that not even the last bit of a score depends on a note outside.
      averageFieldLength: lengthSums.map((sum) => (documentCount === 0 ? 0 : sum / documentCount)),
    };
    this.visibleStatistics.set(visible, statistics);
    return statistics;
  }

  /** The index's state; the caller must stop reading `postings` if the index changes meanwhile. */
  state(): EngineState {
    const fieldCount = this.fieldNames.length;
    const documents: EngineDocument[] = [];
    for (const [shortId, id] of this._documentIds) {
      const lengths = this._fieldLength.get(shortId) ?? [];
      documents.push({ shortId, id: id as string, fieldLengths: Array.from({ length: fieldCount }, (_, field) => lengths[field] ?? 0) });
    }
    return {
      documentCount: this._documentCount,
      nextId: this._nextId,
      dirtCount: this._dirtCount,
      fieldIds: { ...this._fieldIds },
      averageFieldLength: [...this._avgFieldLength],
      documents,
      postings: this._index,
    };
  }

  /**
   * An index holding `state`, made with the `options` it was made with.
   * Throws on anything inconsistent: a damaged snapshot must be rebuilt,
   * never trusted.
   */
  static fromState<T>(options: Options<T>, state: EngineState): RankedMiniSearch<T> {
    const engine = new RankedMiniSearch<T>(options);
    engine.restore(state);
    return engine;
  }

  private restore(state: EngineState): void {
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
    for (const [term, data] of postings) {
      for (const [fieldId, frequencies] of data) {
        if (fieldId < 0 || fieldId >= fieldCount) throw new Error('The index snapshot has a bad field');
        for (const [doc, frequency] of frequencies) {
          if (doc < 0 || doc >= nextId || frequency <= 0) throw new Error('The index snapshot has a bad posting');
        }
      }
      this._index.set(term, data);
    }
  }

  private documentTable(): DocumentTable {
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

  /** The index's words that query word `term` (the `i`th of `terms`) reaches, as `MiniSearch#search` weighs them. */
  private expand(term: string, i: number, terms: readonly string[]): Expansion[] {
    const options = this._options.searchOptions;
    const { prefix: prefixWeight, fuzzy: fuzzyWeight } = options.weights;
    const words = [...terms];
    const out: Expansion[] = [];
    const exact = this._index.get(term);
    if (exact) out.push({ term, weight: 1, postings: exact });
    const fuzzyOption = typeof options.fuzzy === 'function' ? options.fuzzy(term, i, words) : options.fuzzy || false;
    const fuzzy = fuzzyOption === true ? 0.2 : fuzzyOption;
    const maxDistance = fuzzy === false ? 0 : fuzzy < 1 ? Math.min(options.maxFuzzy, Math.round(term.length * fuzzy)) : fuzzy;
    const fuzzyMatches = maxDistance > 0 ? this._index.fuzzyGet(term, maxDistance) : undefined;
    const prefix = typeof options.prefix === 'function' ? options.prefix(term, i, words) : options.prefix === true;
    if (prefix) {
      for (const [candidate, postings] of this._index.atPrefix(term)) {
        const distance = candidate.length - term.length;
        if (distance === 0) continue;
        // A word reached both ways is scored as a prefix match, as MiniSearch does.
        fuzzyMatches?.delete(candidate);
        out.push({ term: candidate, weight: (prefixWeight * candidate.length) / (candidate.length + 0.3 * distance), postings });
      }
    }
    if (fuzzyMatches) {
      for (const [candidate, [postings, distance]] of fuzzyMatches) {
        if (distance === 0) continue;
        out.push({ term: candidate, weight: (fuzzyWeight * candidate.length) / (candidate.length + distance), postings });
      }
    }
    return out;
  }
}

/** Notes in a posting list that still exist. */
function liveCount(live: Uint8Array, frequencies: Map<number, number>): number {
  let count = 0;
  for (const doc of frequencies.keys()) if (live[doc] === 1) count++;
  return count;
}

function matchedTerms(expansionsPerWord: readonly Expansion[][], fieldIds: readonly (number | undefined)[], doc: number): string[] {
  const out: string[] = [];
  for (const expansions of expansionsPerWord) {
    for (const { term, postings } of expansions) {
      if (out.includes(term)) continue;
      if (fieldIds.some((fieldId) => fieldId !== undefined && postings.get(fieldId)?.has(doc))) out.push(term);
    }
  }
  return out;
}
