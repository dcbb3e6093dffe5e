import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANCHOR_SIMILARITY, MIN_CALIBRATION_NOTES } from '../../src/access/meaning-calibration.js';
import { createPolicy } from '../../src/access/policy.js';
import { similarityFor } from '../../src/index/vectors/calibration.js';
import { connect, removeDir, writeVault, type Harness } from '../support/helpers.js';
import { copyEmbeddedSampleVault, EMBEDDED_SAMPLE_HOOK_MS } from '../support/shared-fixtures.js';

interface Item {
  id: string;
  title: string;
  similarity: number;
}
interface Result {
  items: Item[];
  indexing?: { embedded: number; total: number; message: string };
}

const TOMATOES = 'How much water the tomatoes actually need';

let h: Harness;
beforeAll(async () => {
  h = await connect({ dir: await copyEmbeddedSampleVault(), semantic: true });
}, EMBEDDED_SAMPLE_HOOK_MS);
afterAll(async () => {
  await h.close();
  await removeDir(h.dir);
});

describe('semantic_search', () => {
  it('finds a note that shares no word with the query', async () => {
    const result = await h.ok<Result>('semantic_search', { query: 'notes about my garden', size: 5 });
    const titles = result.items.map((item) => item.title);
    expect(titles).toContain(TOMATOES);
    const page = await h.ok<{ items: { title: string }[] }>('search_notes', { query: 'garden', size: 50 });
    expect(page.items.map((item) => item.title)).not.toContain(TOMATOES);
    expect(result.indexing).toBeUndefined();
  });

  it('puts the sourdough note first for "homemade loaf" and sorts by similarity in 0–1', async () => {
    const result = await h.ok<Result>('semantic_search', { query: 'homemade loaf', size: 10 });
    expect(result.items[0]?.title).toMatch(/sourdough/i);
    const scores = result.items.map((item) => item.similarity);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    for (const score of scores) expect(score).toBeGreaterThanOrEqual(0);
    for (const score of scores) expect(score).toBeLessThanOrEqual(1);
    expect(result).not.toHaveProperty('total');
  });

  // A sentence of the scratchpad note: the vectors alone do not rank that note first.
  const COPIED = 'Try the dal recipe with split mung beans instead of red lentils';

  it('keeps first the note holding every word of a longer query, its similarity raised to the anchor floor, and the rest in order of similarity', async () => {
    const semantic = h.runtime.semantic;
    if (!semantic) throw new Error('the harness runs semantic search');
    const vectorsAlone = await semantic.search(COPIED, 10);
    const result = await h.ok<Result>('semantic_search', { query: COPIED, size: 10 });
    const first = result.items[0];
    expect(first?.title).toBe('Scratchpad');
    expect(vectorsAlone[0]?.id).not.toBe(first?.id);
    expect(first?.similarity).toBeGreaterThanOrEqual(ANCHOR_SIMILARITY);
    const scores = result.items.map((item) => item.similarity);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // The map is increasing for a given query: the rest keep the vectors' order.
    expect(result.items.slice(1).map((item) => item.id)).toEqual(vectorsAlone.filter((hit) => hit.id !== first?.id).slice(0, 9).map((hit) => hit.id));
  });

  // Issue 33: the question's stop words (how, does, the, with) do not count, so the note holding its other words is the word-for-word match.
  it('puts first the note holding every word of a question but its stop words', async () => {
    const semantic = h.runtime.semantic;
    if (!semantic) throw new Error('the harness runs semantic search');
    const question = 'how does the dal recipe with split mung beans';
    const vectorsAlone = await semantic.search(question, 10);
    const result = await h.ok<Result>('semantic_search', { query: question, size: 10 });
    expect(result.items[0]?.title).toBe('Scratchpad');
    expect(vectorsAlone[0]?.id).not.toBe(result.items[0]?.id);
  });

  it('never brings in a note outside the boundary by its words', async () => {
    const bounded = h.runtime.context(createPolicy({ folder: 'Recipes' }));
    const hits = await bounded.view.searchMeaning(COPIED, 10);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.map((hit) => hit.note.record.title)).not.toContain('Scratchpad');
    for (const hit of hits) expect(hit.note.record.path.startsWith('Recipes/')).toBe(true);
  });

  it.each([
    [{ query: '' }, 'query must be 1 to 500 characters'],
    [{ query: 'x'.repeat(501) }, 'query must be 1 to 500 characters'],
    [{ query: 'x', size: 0 }, 'size must be between 1 and 50'],
  ])('rejects %j plainly', async (args, message) => {
    expect(await h.fail('semantic_search', args)).toBe(message);
  });
});

describe('find_similar', () => {
  it('returns related notes, never the note itself', async () => {
    const found = await h.ok<Result>('semantic_search', { query: TOMATOES, size: 1 });
    const id = found.items[0]?.id as string;
    const result = await h.ok<Result>('find_similar', { note_id: id, size: 5 });
    expect(result.items.map((item) => item.id)).not.toContain(id);
    expect(result.items.length).toBe(5);
    expect(result.items.map((item) => item.title).join(' ')).toMatch(/tomato|soil|plot|seedling|blossom/i);
  });

  it('scores with the calibration fitted on the vault, in the order of the raw cosines', async () => {
    const found = await h.ok<Result>('semantic_search', { query: TOMATOES, size: 1 });
    const id = found.items[0]?.id as string;
    const result = await h.ok<Result>('find_similar', { note_id: id, size: 5 });
    const semantic = h.runtime.semantic;
    if (!semantic) throw new Error('the harness runs semantic search');
    const raw = await semantic.similar(id, 5);
    expect(result.items.map((item) => item.id)).toEqual(raw.map((hit) => hit.id));
    const scores = result.items.map((item) => item.similarity);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // The sample vault's 44 notes are enough to fit a calibration of their own: the fixed table's numbers are not what is shown.
    expect(scores).not.toEqual(raw.map((hit) => similarityFor(semantic.embedderId, 'note')(hit.score)));
  });

  it(`falls back on the model's fixed table while fewer than ${MIN_CALIBRATION_NOTES} notes are embedded`, async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 10; i++) files[`n${i}.md`] = `Note ${i} about ${['bread and ovens', 'rivers and boats'][i % 2]}, number ${i}.\n`;
    const dir = await writeVault(files);
    const s = await connect({ dir, semantic: true });
    try {
      const semantic = s.runtime.semantic;
      if (!semantic) throw new Error('the harness runs semantic search');
      const source = [...s.runtime.context().view.allNotes()][0]?.record.id as string;
      const result = await s.ok<Result>('find_similar', { note_id: source, size: 5 });
      const raw = await semantic.similar(source, 5);
      expect(result.items.map((item) => item.similarity)).toEqual(raw.map((hit) => similarityFor(semantic.embedderId, 'note')(hit.score)));
    } finally {
      await s.close();
      await removeDir(dir);
    }
  }, 60_000);

  it('says Note not found for unknown ids', async () => {
    expect(await h.fail('find_similar', { note_id: 'nope' })).toBe('Note not found');
  });
});

describe('while notes are being embedded', () => {
  it('says so in the result, with progress, and answers from what is embedded', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 80; i++) files[`n${i}.md`] = `Note ${i} about bread, rivers and violins, number ${i}.\n`;
    const dir = await writeVault(files);
    const s = await connect({ dir, semantic: 'no-wait' });
    try {
      const result = await s.ok<Result>('semantic_search', { query: 'music practice', size: 5 });
      expect(result.indexing?.total).toBe(80);
      expect(result.indexing?.embedded).toBeLessThan(80);
      expect(result.indexing?.message).toMatch(/^Still embedding notes: \d+ of 80 done/);
      expect(result.items.length).toBeLessThanOrEqual(result.indexing?.embedded ?? 0);
    } finally {
      await s.close();
      await removeDir(dir);
    }
  }, 60_000);

  it('right after a warm start, an answer without `indexing` is the complete answer', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`n${i}.md`] = `Note ${i} about ${['bread', 'rivers', 'violins'][i % 3]}, number ${i}.\n`;
    const dir = await writeVault(files);
    try {
      const first = await connect({ dir, semantic: true });
      const complete = await first.ok<Result>('semantic_search', { query: 'music practice', size: 5 });
      expect(complete.indexing).toBeUndefined();
      await first.close();
      // The vectors come from the cache at once; until every note has been checked against them, answers say so.
      const s = await connect({ dir, semantic: 'no-wait', waitLoaded: false });
      try {
        for (;;) {
          const result = await s.ok<Result>('semantic_search', { query: 'music practice', size: 5 });
          if (result.indexing === undefined) {
            expect(result.items.map((item) => item.id)).toEqual(complete.items.map((item) => item.id));
            break;
          }
          expect(result.indexing.embedded).toBeLessThan(result.indexing.total);
          expect(result.indexing.total).toBe(300);
        }
      } finally {
        await s.close();
      }
    } finally {
      await removeDir(dir);
    }
  }, 90_000);

  it('is not listed by a server running without a model', async () => {
    const dir = await writeVault({ 'a.md': 'x' });
    const plain = await connect({ dir });
    const names = (await plain.client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('semantic_search');
    expect(names).not.toContain('find_similar');
    await plain.close();
    await removeDir(dir);
  });
});
