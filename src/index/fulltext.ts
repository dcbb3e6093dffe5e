import MiniSearch, { type AsPlainObject, type SearchResult } from 'minisearch';
import type { NoteRecord } from '../vault/note.js';

interface IndexedNote {
  id: string;
  title: string;
  body: string;
  tags: string;
}

/**
 * The commonest English function words. They occur in nearly every note, so
 * they carry no ranking signal, yet they would be most of the index's
 * postings and make every query touch most notes.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ('a an and are as at be but by for from had has have he her his i if in into is it its me my not of on or our she so ' +
    'than that the their them then there these they this to was we were what when which who will with would you your').split(' '),
);

/** Lower case and strip accents, so `café` finds `cafe` and the reverse; drop stop words. */
export function normaliseTerm(term: string): string | null {
  const folded = term.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return folded.length === 0 || STOP_WORDS.has(folded) ? null : folded;
}

const OPTIONS = {
  idField: 'id',
  fields: ['title', 'body', 'tags'],
  storeFields: [] as string[],
  processTerm: normaliseTerm,
  searchOptions: {
    // A title match outranks a passing mention in the body.
    boost: { title: 3, tags: 2 },
    // Several words are OR-ed: a note lacking one of them is still found,
    // ranked below notes that have them all.
    combineWith: 'OR' as const,
    // Prefixes and small typos help with words half remembered; only on
    // longer terms, where they do not flood the results.
    prefix: (term: string) => term.length >= 4,
    fuzzy: (term: string) => (term.length >= 6 ? 0.15 : false),
  },
};

export interface FullTextHit {
  id: string;
  score: number;
  /** The words of the notes that matched the query (after prefix and typo matching). */
  terms: string[];
}

/**
 * Full-text index over titles, bodies and tags, ranked by BM25. Kept in step
 * incrementally and saved as a snapshot with the note cache.
 */
export class FullTextIndex {
  private constructor(private readonly search: MiniSearch<IndexedNote>) {}

  static empty(): FullTextIndex {
    return new FullTextIndex(new MiniSearch<IndexedNote>(OPTIONS));
  }

  static fromSnapshot(snapshot: AsPlainObject): FullTextIndex {
    return new FullTextIndex(MiniSearch.loadJS<IndexedNote>(snapshot, OPTIONS));
  }

  get size(): number {
    return this.search.documentCount;
  }

  has(id: string): boolean {
    return this.search.has(id);
  }

  upsert(record: NoteRecord, plainBody: string): void {
    const doc: IndexedNote = { id: record.id, title: record.title, body: plainBody, tags: record.tags.map((tag) => tag.slice(1)).join(' ') };
    if (this.search.has(record.id)) this.search.replace(doc);
    else this.search.add(doc);
  }

  remove(id: string): void {
    if (this.search.has(id)) this.search.discard(id);
  }

  /** Ranked ids of the notes matching `query` that pass `visible`. */
  query(query: string, visible: (id: string) => boolean): FullTextHit[] {
    const results: SearchResult[] = this.search.search(query, { filter: (result) => visible(String(result.id)) });
    return results
      .map((result) => ({ id: String(result.id), score: result.score, terms: result.terms }))
      // Equal scores are ordered by id, so that the order does not depend on
      // the history of edits (and pages never overlap).
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  toSnapshot(): AsPlainObject {
    return this.search.toJSON();
  }
}
