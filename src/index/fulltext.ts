import MiniSearch, { type AsPlainObject } from 'minisearch';
import type { NoteRecord } from '../vault/note.js';
import { rankedQuery, type RankedPage, type RankingOptions } from './ranked-query.js';

export interface IndexedNote {
  id: string;
  title: string;
  body: string;
  tags: string;
}

/** What the index holds of a note: tags without their `#`, so that `#work` and `work` both find them. */
export function indexedNote(record: NoteRecord, plainBody: string): IndexedNote {
  return { id: record.id, title: record.title, body: plainBody, tags: record.tags.map((tag) => tag.slice(1)).join(' ') };
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

/** A title match outranks a passing mention in the body. */
const BOOST = { title: 3, body: 1, tags: 2 };
/**
 * Prefixes and small typos help with words half remembered; only on longer
 * terms, where they do not flood the results.
 */
const prefix = (term: string): boolean => term.length >= 4;
const fuzzy = (term: string): number | false => (term.length >= 6 ? 0.15 : false);

/** How MiniSearch indexes, and how `MiniSearch#search` would rank: a test checks `RANKING` against it. */
export const OPTIONS = {
  idField: 'id',
  fields: ['title', 'body', 'tags'],
  storeFields: [] as string[],
  processTerm: normaliseTerm,
  searchOptions: {
    boost: BOOST,
    // Several words are OR-ed: a note lacking one of them is still found,
    // ranked below notes that have them all.
    combineWith: 'OR' as const,
    prefix,
    fuzzy,
  },
};

/** The same ranking for `rankedQuery`, with MiniSearch's default weights and BM25 parameters. */
const RANKING: RankingOptions = {
  fields: OPTIONS.fields.map((name) => ({ name, boost: BOOST[name as keyof typeof BOOST] })),
  prefix,
  fuzzy,
  maxFuzzy: 6,
  prefixWeight: 0.375,
  fuzzyWeight: 0.45,
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
};

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

export type { RankedHit as FullTextHit, RankedPage as FullTextPage } from './ranked-query.js';

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
    const doc = indexedNote(record, plainBody);
    if (this.search.has(record.id)) this.search.replace(doc);
    else this.search.add(doc);
  }

  remove(id: string): void {
    if (this.search.has(id)) this.search.discard(id);
  }

  /**
   * How many notes passing `visible` match `query`, and the best `limit` of
   * them. Equal scores are ordered by id, so that the order does not depend
   * on the history of edits (and pages never overlap).
   */
  query(query: string, visible: (id: string) => boolean, limit: number): RankedPage {
    const terms = tokenize(query).flatMap((token) => normaliseTerm(token) ?? []);
    return rankedQuery(this.search, terms, RANKING, visible, limit);
  }

  toSnapshot(): AsPlainObject {
    return this.search.toJSON();
  }
}
