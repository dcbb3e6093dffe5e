import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/bench/generate.js';
import { FullTextIndex, indexedNote, OPTIONS, type IndexedNote } from '../../src/index/fulltext.js';
import type { NoteRecord } from '../../src/vault/note.js';

// Words chosen to meet each other through prefixes (river, rivers,
// riverbank) and small typos (garden, gardens, warden), so that every kind
// of expansion adds into the same notes.
const WORDS = [
  'river', 'rivers', 'riverbank', 'garden', 'gardens', 'gardening', 'warden', 'tomato', 'tomatoes', 'violin', 'violins',
  'practice', 'practise', 'budget', 'budgets', 'meeting', 'meetings', 'castle', 'castles', 'compost', 'neural', 'network',
  'the', 'and', 'of', 'lisbon', 'sourdough', 'starter', 'café', 'cafe', 'naïve',
];
const QUERIES = [
  'river', 'riv', 'rive', 'gardn', 'gardenning', 'tomato garden', 'violin practice budget', 'the river', 'river river',
  'castle of lisbon', 'cafe', 'café naive', 'sourdogh startr', 'meeting meetings meet', 'network neural compost castle',
  'nothingmatches', 'the and of', 'riverbank warden', 'Gardens, tomatoes!', 'practise-practice',
];

function record(id: string, title: string, tags: string[]): NoteRecord {
  return { id, title, tags } as unknown as NoteRecord;
}

/** A deterministic set of notes over WORDS, with titles, tags and bodies of different lengths. */
function notes(count: number, seed: number): { record: NoteRecord; body: string }[] {
  const rng = createRng(seed);
  const pick = (): string => WORDS[Math.floor(rng() * WORDS.length)] as string;
  return Array.from({ length: count }, (_, i) => {
    const id = `n${String(i).padStart(4, '0')}`;
    const title = Array.from({ length: 1 + Math.floor(rng() * 3) }, pick).join(' ');
    const tags = rng() < 0.4 ? [`#${pick()}`] : [];
    const body = Array.from({ length: 5 + Math.floor(rng() * 60) }, pick).join(' ');
    return { record: record(id, title, tags), body };
  });
}

function reference(docs: IndexedNote[]): MiniSearch<IndexedNote> {
  const search = new MiniSearch<IndexedNote>(OPTIONS);
  search.addAll(docs);
  return search;
}

/** MiniSearch's answer in our order: score, then id. */
function expected(search: MiniSearch<IndexedNote>, query: string, visible: (id: string) => boolean = () => true) {
  return search
    .search(query)
    .filter((result) => visible(String(result.id)))
    .map((result) => ({ id: String(result.id), score: result.score, terms: result.terms }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

describe('ranked full-text query', () => {
  const all = notes(600, 7);
  const docs = all.map(({ record, body }) => indexedNote(record, body));

  it('gives exactly MiniSearch#search scores, order and matched words on the same index', () => {
    const index = FullTextIndex.empty();
    for (const { record, body } of all) index.upsert(record, body);
    const search = reference(docs);
    for (const query of QUERIES) {
      const want = expected(search, query);
      const got = index.query(query, () => true, Infinity);
      expect(got.total, query).toBe(want.length);
      expect(got.hits, query).toEqual(want);
    }
    // The table reaches every kind of expansion, and some queries match nothing.
    const allTerms = QUERIES.flatMap((query) => index.query(query, () => true, Infinity).hits.flatMap((hit) => hit.terms));
    expect(allTerms).toEqual(expect.arrayContaining(['riverbank', 'gardens', 'warden', 'sourdough', 'cafe']));
    expect(index.query('nothingmatches', () => true, 10)).toEqual({ total: 0, hits: [] });
  });

  it('keeps the best `limit` visible notes and counts every visible match', () => {
    const index = FullTextIndex.empty();
    for (const { record, body } of all) index.upsert(record, body);
    const search = reference(docs);
    const visible = (id: string): boolean => Number(id.slice(1)) % 3 !== 0;
    for (const query of QUERIES) {
      const want = expected(search, query, visible);
      for (const limit of [0, 1, 10, 50]) {
        const got = index.query(query, visible, limit);
        expect(got.total, query).toBe(want.length);
        expect(got.hits, `${query} top ${limit}`).toEqual(want.slice(0, limit));
      }
    }
  });

  it('after replaced and removed notes, scores as a vacuumed MiniSearch with the same history', async () => {
    const index = FullTextIndex.empty();
    const search = reference([]);
    const apply = (changes: { record: NoteRecord; body: string }[], removals: string[]): void => {
      for (const { record, body } of changes) {
        index.upsert(record, body);
        const doc = indexedNote(record, body);
        if (search.has(doc.id)) search.replace(doc);
        else search.add(doc);
      }
      for (const id of removals) {
        index.remove(id);
        if (search.has(id)) search.discard(id);
      }
    };
    apply(all, []);
    // New text for 10 notes and 5 removed: few enough that MiniSearch does not
    // vacuum on its own, so the index still holds their old postings.
    const changed = notes(600, 99).filter((_, i) => i % 60 === 0);
    apply(changed, all.filter((_, i) => i % 120 === 7).map(({ record }) => record.id));
    await search.vacuum({ batchSize: Number.MAX_SAFE_INTEGER });
    expect(search.dirtCount).toBe(0);
    for (const query of QUERIES) {
      const want = expected(search, query);
      const got = index.query(query, () => true, Infinity);
      expect(got.total, query).toBe(want.length);
      expect(got.hits.map((hit) => hit.id), query).toEqual(want.map((hit) => hit.id));
      got.hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(want[i]?.score ?? NaN, 9));
    }
  });
});
