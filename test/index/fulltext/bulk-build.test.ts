import { describe, expect, it } from 'vitest';
import { BulkBuilder } from '../../../src/index/fulltext/bulk-build.js';
import { StatefulMiniSearch, type EngineState } from '../../../src/index/fulltext/engine-state.js';
import { FullTextIndex, OPTIONS, type IndexedNote } from '../../../src/index/fulltext/fulltext.js';
import type { NoteRecord } from '../../../src/vault/note.js';
import { createRng } from '../../support/random.js';

const WORDS = ['river', 'rivers', 'Café', 'cafe', '東京の地図', 'v1.2.3', 'naïve', 'the', 'garden', 'my-tool', 'GARDEN'];

function notes(count: number, seed: number): IndexedNote[] {
  const rng = createRng(seed);
  const words = (n: number): string => Array.from({ length: n }, () => WORDS[Math.floor(rng() * WORDS.length)] as string).join(' ');
  return Array.from({ length: count }, (_, i) => ({
    id: `n${i}`,
    title: words(Math.floor(rng() * 4)),
    body: words(Math.floor(rng() * 40)),
    tags: rng() < 0.5 ? words(1) : '',
  }));
}

/** A state's postings as plain sorted entries, and the rest as is. */
function plain(state: EngineState): unknown {
  const postings = [...state.postings]
    .map(([term, data]) => [term, [...data].map(([field, frequencies]) => [field, [...frequencies]]).sort((a, b) => (a[0] as number) - (b[0] as number))])
    .sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1));
  return { ...state, postings };
}

describe('BulkBuilder', () => {
  // 3,000 notes make 45,692 postings: pieces of 4,096, 8,192 and 16,384 postings and part of a fourth.
  it.each([0, 1, 7, 300, 3000])('builds exactly the state MiniSearch#add builds (%i notes)', (count) => {
    const docs = notes(count, count + 1);
    const builder = new BulkBuilder<IndexedNote>(OPTIONS);
    const added = new StatefulMiniSearch<IndexedNote>(OPTIONS);
    for (const doc of docs) {
      builder.add(doc);
      added.add(doc);
    }
    expect(builder.size).toBe(count);
    const built = builder.state();
    const want = added.state();
    // With no note MiniSearch has no averages yet; the builder's are 0, which ranking reads alike (restoring needs one per field).
    if (count === 0) want.averageFieldLength = [0, 0, 0];
    // Field lengths and their running averages to the last bit, and every posting.
    expect(plain(built)).toEqual(plain(want));
  });

  it('refuses a note twice', () => {
    const builder = new BulkBuilder<IndexedNote>(OPTIONS);
    builder.add({ id: 'a', title: 'x', body: '', tags: '' });
    expect(builder.has('a')).toBe(true);
    expect(() => builder.add({ id: 'a', title: 'y', body: '', tags: '' })).toThrow(/already/);
  });
});

describe('FullTextIndex built in bulk', () => {
  const docs = notes(400, 9).map((doc) => ({ record: { id: doc.id, title: doc.title, tags: doc.tags ? [`#${doc.tags}`] : [] } as unknown as NoteRecord, body: doc.body }));
  const answers = (index: FullTextIndex): unknown => ['river', 'cafe garden', 'naive', '東京'].map((query) => index.query(query, undefined, 20));

  it('answers alike sealed at once, in steps, or by a search or a change in the middle of its steps', async () => {
    const make = (): FullTextIndex => {
      const index = FullTextIndex.empty();
      for (const { record, body } of docs) index.upsert(record, body);
      return index;
    };
    const atOnce = make();
    atOnce.seal();
    const want = answers(atOnce);

    const inSteps = make();
    await inSteps.sealInSteps();
    expect(answers(inSteps)).toEqual(want);

    const searchedMeanwhile = make();
    const sealing = searchedMeanwhile.sealInSteps();
    expect(answers(searchedMeanwhile)).toEqual(want);
    await sealing;
    expect(answers(searchedMeanwhile)).toEqual(want);

    // A change while sealing lands in the made index, as it would have after.
    const changedMeanwhile = make();
    const sealing2 = changedMeanwhile.sealInSteps();
    const extra = { record: { id: 'extra', title: 'river river', tags: [] } as unknown as NoteRecord, body: 'naive' };
    changedMeanwhile.upsert(extra.record, extra.body);
    await sealing2;
    atOnce.upsert(extra.record, extra.body);
    expect(answers(changedMeanwhile)).toEqual(answers(atOnce));
    expect(changedMeanwhile.size).toBe(401);
  });
});

describe('FullTextIndex after many edits (MiniSearch vacuums the discarded notes)', () => {
  it('answers as an index made afresh from the notes as they end, with new words added between the edits', async () => {
    const docs = notes(300, 21).map((doc) => ({ record: { id: doc.id, title: doc.title, tags: [] } as unknown as NoteRecord, body: doc.body }));
    const edited = FullTextIndex.empty();
    for (const { record, body } of docs) edited.upsert(record, body);
    edited.seal();
    const final = new Map(docs.map((doc) => [doc.record.id, doc]));
    // A third of the notes rewritten with words the index has not seen, with turns of the event loop between.
    for (let i = 0; i < 100; i++) {
      const doc = docs[i * 3] as (typeof docs)[number];
      const next = { record: doc.record, body: `${doc.body} fresh${i} fresher${i}x` };
      edited.upsert(next.record, next.body);
      final.set(doc.record.id, next);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const fresh = FullTextIndex.empty();
    for (const { record, body } of final.values()) fresh.upsert(record, body);
    for (const query of ['river', 'fresh7', 'fresher42x', 'cafe garden', 'fresh']) {
      const a = edited.query(query, undefined, 50);
      const b = fresh.query(query, undefined, 50);
      expect(a.total, query).toBe(b.total);
      expect(new Set(a.hits.map((hit) => hit.id)), query).toEqual(new Set(b.hits.map((hit) => hit.id)));
    }
  });
});
