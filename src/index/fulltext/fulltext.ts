import type { NoteRecord } from '../../vault/note.js';
import { normaliseTerm, splitWords } from './terms.js';
import { isHangulSyllables } from './korean.js';
import { onlyExclusions, parseQuery, queryWords, type QueryWords } from './query-syntax.js';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { BulkBuilder } from './bulk-build.js';
import type { EngineState } from './engine-state.js';
import { PostingList } from './posting-list.js';
import type { VisibleSet } from './visibility.js';
import { RankedMiniSearch, type EngineDocument, type FieldPostings, type PhraseCheck, type RankedPage } from './ranked-search.js';

export interface IndexedNote {
  id: string;
  title: string;
  body: string;
  tags: string;
}

/**
 * What the index holds of a note: its aliases beside the title (Obsidian's
 * other names for it are searched like the title), and tags without their
 * `#`, so that `#work` and `work` both find them.
 */
export function indexedNote(record: NoteRecord, plainBody: string): IndexedNote {
  const title = record.aliases === undefined ? record.title : [record.title, ...record.aliases].join(' ');
  return { id: record.id, title, body: plainBody, tags: record.tags.map((tag) => tag.slice(1)).join(' ') };
}

/** A title match outranks a passing mention in the body. */
const BOOST = { title: 3, body: 1, tags: 2 };
/**
 * Prefixes and small typos help with words half remembered; only on longer
 * terms, where they do not flood the results. A Korean word finds the words
 * it begins whatever its length: its particles and endings are written after
 * it (데이터 finds 데이터를; korean.ts).
 */
const prefix = (term: string): boolean => term.length >= 4 || isHangulSyllables(term);
const fuzzy = (term: string): number | false => (term.length >= 6 ? 0.15 : false);

/** How the index is made and ranked; a test checks `FullTextIndex#query` against `MiniSearch#search` with these. */
export const OPTIONS = {
  idField: 'id',
  fields: ['title', 'body', 'tags'],
  storeFields: [] as string[],
  tokenize: splitWords,
  processTerm: normaliseTerm,
  // MiniSearch vacuums discarded notes a batch of words at a time, waiting
  // between batches while it walks the radix tree; a word added meanwhile
  // can split a branch the walk still holds, and the walk then throws (the
  // soak test hit it once). One batch of every word walks the tree with no
  // wait. It runs once a tenth of the notes are discarded edits.
  autoVacuum: { batchSize: Number.MAX_SAFE_INTEGER, batchWait: 0, minDirtCount: 20, minDirtFactor: 0.1 },
  searchOptions: {
    boost: BOOST,
    // Several words are OR-ed: a note lacking one of them is still found,
    // ranked below notes that have them all.
    combineWith: 'OR' as const,
    prefix,
    fuzzy,
  },
};


export type { PhraseCheck, PhraseLookup, RankedHit as FullTextHit, RankedPage as FullTextPage } from './ranked-search.js';

/**
 * How many notes one phrase query reads at most, for its page and its count
 * (issue 16). A read (the file, its search text, its words) cost 0.3–0.7 ms
 * on the generated vaults, so a phrase query that reaches the budget took
 * 0.3–0.7 s there; of 24 phrases drawn from each vault's own text, 23 at
 * 10,000 notes and 16 at 100,000 had fewer candidates (notes holding all
 * their words) and got exact totals, with a median of 15 and 180 ms. Past
 * it, the total is estimated from a sample and says so.
 */
export const PHRASE_READ_BUDGET = 1000;

/** Everything a snapshot of the index holds besides the postings. */
export interface FullTextMeta {
  documentCount: number;
  nextId: number;
  dirtCount: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  /** Short ids and note ids, in step; `fieldLengths` holds one number per field for each, in the same order. */
  shortIds: number[];
  ids: string[];
  fieldLengths: number[];
  /** The terms whose postings follow, in order. */
  terms: string[];
}

/**
 * A snapshot being taken: the metadata is read at once, the postings as the
 * generator is pulled. The caller must stop pulling if the index changes.
 */
export interface FullTextSnapshot {
  meta: FullTextMeta;
  /**
   * The postings of `meta.terms` in order, as 32-bit integers: per term, the
   * number of fields; per field, its id, the number of notes, then each
   * note's short id and term frequency. Cut into pieces of about `chunkInts`.
   * A piece holds until the next is asked for, then its array is filled
   * anew: a copy of each was 128 MB of arrays at 100,000 notes, left for the
   * garbage collector while the cache was written, at the peak memory of a
   * cold start (issue 17).
   */
  postings(chunkInts?: number): Generator<Int32Array>;
}

const FIELD_COUNT = OPTIONS.fields.length;

/**
 * Full-text index over titles, bodies and tags, ranked by BM25. Kept in step
 * incrementally and saved as a snapshot with the note cache.
 */
export class FullTextIndex {
  /**
   * Notes added to an empty index go into a builder (bulk-build.ts) until
   * the index is first searched, saved or changed otherwise: a first read
   * with no cache adds every note that way.
   */
  private building: BulkBuilder<IndexedNote> | undefined;
  /** Its steps, when a seal is under way in steps (`sealInSteps`). */
  private sealing: Generator<void, EngineState> | undefined;

  private constructor(private search: RankedMiniSearch<IndexedNote>) {}

  static empty(): FullTextIndex {
    const index = new FullTextIndex(new RankedMiniSearch<IndexedNote>(OPTIONS));
    index.building = new BulkBuilder<IndexedNote>(OPTIONS);
    return index;
  }

  /** Make the index of the notes added in bulk, if any (finishing one begun in steps): the first search or save does it too. */
  seal(): void {
    const steps = this.sealing ?? this.building?.steps();
    if (!steps) return;
    let step = steps.next();
    while (!step.done) step = steps.next();
    this.madeFrom(step.value);
  }

  /**
   * `seal`, a piece at a time with the event loop free in between, so that
   * tool calls are answered meanwhile (called after a first read with no
   * cache). A search or change meanwhile finishes it at once.
   */
  async sealInSteps(): Promise<void> {
    if (!this.building || this.sealing) return;
    const steps = this.building.steps();
    this.sealing = steps;
    for (;;) {
      await yieldToEventLoop();
      // Finished meanwhile by a search or a change.
      if (this.sealing !== steps) return;
      const step = steps.next();
      if (step.done) return this.madeFrom(step.value);
    }
  }

  private madeFrom(state: EngineState): void {
    this.sealing = undefined;
    this.building = undefined;
    this.search = RankedMiniSearch.fromState(OPTIONS, state);
  }

  /**
   * Rebuild an index from `snapshot()`'s parts. Throws on anything
   * inconsistent: a damaged snapshot must be rebuilt, never trusted.
   */
  static fromSnapshot(meta: FullTextMeta, postings: Int32Array): FullTextIndex {
    const { shortIds, ids, fieldLengths, terms, documentCount } = meta;
    if (ids.length !== documentCount || shortIds.length !== documentCount || fieldLengths.length !== documentCount * FIELD_COUNT) {
      throw new Error('The index snapshot does not fit together');
    }
    const documents: EngineDocument[] = shortIds.map((shortId, i) => ({
      shortId,
      id: ids[i] as string,
      fieldLengths: fieldLengths.slice(i * FIELD_COUNT, (i + 1) * FIELD_COUNT),
    }));
    const engine = RankedMiniSearch.fromState(OPTIONS, {
      documentCount,
      nextId: meta.nextId,
      dirtCount: meta.dirtCount,
      fieldIds: meta.fieldIds,
      averageFieldLength: meta.averageFieldLength,
      documents,
      postings: decodePostings(terms, postings, meta.nextId),
    });
    return new FullTextIndex(engine);
  }

  get size(): number {
    return this.building?.size ?? this.search.documentCount;
  }

  has(id: string): boolean {
    return this.building?.has(id) ?? this.search.has(id);
  }

  upsert(record: NoteRecord, plainBody: string): void {
    const doc = indexedNote(record, plainBody);
    if (this.building && !this.sealing && !this.building.has(record.id)) return this.building.add(doc);
    this.seal();
    if (this.search.has(record.id)) this.search.replace(doc);
    else this.search.add(doc);
  }

  remove(id: string): void {
    if (!this.has(id)) return;
    this.seal();
    this.search.discard(id);
  }

  /**
   * How many notes passing `visible` (every note when it is undefined)
   * match `query`, and the best `limit` of them: notes holding more of its
   * words first, then by score, equal ones by id, so that the order does
   * not depend on the history of edits (and pages never overlap). `query`
   * may use the syntax of query-syntax.ts, or come already parsed into the
   * index's words (`queryWords`), as the view hands it down: a search
   * parses its query once, however many vaults it searches. `visible` is
   * best a `Visibility`, whose key the ranking statistics are kept by.
   *
   * A phrase of two or more words is looked for in the text of the notes
   * holding all its words, with `check` (at most `budget` notes read in
   * all; past it, the total is estimated and says so: see
   * `RankedMiniSearch#rankReading`); without `check`, such a query throws.
   * `notePhraseCheck` (note-phrases.ts) is the check over a vault's notes.
   * A query that only excludes finds nothing (the view refuses it first).
   */
  query(query: string | QueryWords, visible: VisibleSet, limit: number): RankedPage;
  query(query: string | QueryWords, visible: VisibleSet, limit: number, check: PhraseCheck, budget?: number): Promise<RankedPage>;
  query(query: string | QueryWords, visible: VisibleSet, limit: number, check?: PhraseCheck, budget = PHRASE_READ_BUDGET): RankedPage | Promise<RankedPage> {
    this.seal();
    const words = typeof query === 'string' ? queryWords(parseQuery(query)) : query;
    if (onlyExclusions(words)) return check ? Promise.resolve({ total: 0, hits: [] }) : { total: 0, hits: [] };
    return check ? this.search.rankReading(words, visible, limit, check, budget) : this.search.rank(words, visible, limit);
  }

  /** Take a snapshot; see `FullTextSnapshot`. */
  snapshot(): FullTextSnapshot {
    this.seal();
    const state = this.search.stateColumns();
    const entries = [...state.postings];
    const live = new Uint8Array(state.nextId);
    for (const shortId of state.shortIds) live[shortId] = 1;
    const meta: FullTextMeta = {
      documentCount: state.documentCount,
      nextId: state.nextId,
      // Postings of discarded notes are not written, and a note discarded
      // while the postings are written abandons the snapshot (see cache.ts).
      dirtCount: 0,
      fieldIds: state.fieldIds,
      averageFieldLength: state.averageFieldLength,
      shortIds: state.shortIds,
      ids: state.ids,
      fieldLengths: state.fieldLengths,
      terms: entries.map(([term]) => term),
    };
    function* postings(chunkInts = 1 << 16): Generator<Int32Array> {
      let buffer = new Int32Array(chunkInts + 64);
      let at = 0;
      const push = (value: number): void => {
        if (at === buffer.length) {
          const grown = new Int32Array(buffer.length * 2);
          grown.set(buffer);
          buffer = grown;
        }
        buffer[at++] = value;
      };
      for (const [, data] of entries) {
        // Counts are written once known: postings of discarded notes are left out.
        const fieldsAt = at;
        push(0);
        for (const [fieldId, frequencies] of data) {
          const countAt = at + 1;
          push(fieldId);
          push(0);
          let count = 0;
          frequencies.forEach((frequency, doc) => {
            if (live[doc] !== 1) return;
            push(doc);
            push(frequency);
            count++;
          });
          if (count === 0) at = countAt - 1;
          else {
            buffer[countAt] = count;
            buffer[fieldsAt] = (buffer[fieldsAt] as number) + 1;
          }
        }
        if (at >= chunkInts) {
          yield buffer.subarray(0, at);
          at = 0;
        }
      }
      if (at > 0) yield buffer.subarray(0, at);
    }
    return { meta, postings };
  }
}

/**
 * `snapshot()`'s postings read back, term by term, as lists over `postings`
 * itself (no copy); throws where they do not fit `terms` or `nextId`.
 */
function* decodePostings(terms: readonly string[], postings: Int32Array, nextId: number): Generator<[string, FieldPostings]> {
  let at = 0;
  const take = (): number => {
    if (at >= postings.length) throw new Error('The index snapshot is cut short');
    return postings[at++] as number;
  };
  for (const term of terms) {
    const data: FieldPostings = new Map();
    for (let fields = take(); fields > 0; fields--) {
      const fieldId = take();
      const count = take();
      if (count < 0 || at + count * 2 > postings.length) throw new Error('The index snapshot has a bad field');
      data.set(fieldId, new PostingList(postings, at, count, nextId));
      at += count * 2;
    }
    yield [term, data];
  }
  if (at !== postings.length) throw new Error('The index snapshot is longer than its terms');
}
