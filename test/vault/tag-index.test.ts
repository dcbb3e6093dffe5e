import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/vault/catalog.js';
import type { NoteRecord } from '../../src/vault/note.js';
import { coveringKeys, TagIndex } from '../../src/vault/tag-index.js';
import { noteHasTag, tagFilterCandidates } from '../../src/format/tags.js';
import { createRng } from '../support/random.js';
import { catalogRecord as record } from '../support/records.js';

interface Note {
  id: string;
  tags: string[];
  version?: number;
}

const KELVIN = '#wor\u212A'; // KELVIN SIGN, canonically the letter K

function indexOf(notes: readonly Note[]): TagIndex<Note> {
  const index = new TagIndex<Note>();
  for (const note of notes) index.put(note);
  return index;
}

/** The ids a tag filter finds, sorted; each must come once. */
function found(index: TagIndex<Note>, filter: string): string[] {
  const ids = [...index.tagged(tagFilterCandidates(filter) ?? [])].map((note) => note.id);
  expect(new Set(ids).size, `${filter} finds a note twice`).toBe(ids.length);
  return ids.sort();
}

describe('coveringKeys', () => {
  it.each([
    [[], []],
    [['#ml'], ['#ml']],
    [['#ml/papers/2024'], ['#ml', '#ml/papers', '#ml/papers/2024']],
    [['#ML/Papers'], ['#ml', '#ml/papers']],
    [['#straße'], ['#strasse']],
    [[KELVIN], ['#work']],
    [['#ml', '#ml/x', '@ml'], ['#ml', '#ml/x', '@ml']],
    [['#a//b'], ['#a', '#a/', '#a//b']],
  ])('%j → %j', (tags, keys) => {
    expect([...coveringKeys(tags)].sort()).toEqual([...keys].sort());
  });
});

describe('TagIndex', () => {
  const notes: Note[] = [
    { id: 'ml', tags: ['#ml'] },
    { id: 'papers', tags: ['#ml/papers'] },
    { id: 'deep', tags: ['#ml/papers/2024'] },
    { id: 'mlops', tags: ['#mlops'] },
    { id: 'mention', tags: ['@ml'] },
    { id: 'both', tags: ['#ml', '@ml', '#ml/papers'] },
    { id: 'strasse', tags: ['#straße'] },
    { id: 'kelvin', tags: [KELVIN] },
    { id: 'work', tags: ['#work/x'] },
    { id: 'none', tags: [] },
  ];

  it.each([
    ['#ml', ['both', 'deep', 'ml', 'papers']],
    ['#ML', ['both', 'deep', 'ml', 'papers']],
    ['#ml/papers', ['both', 'deep', 'papers']],
    ['#ml/papers/2024', ['deep']],
    ['#ml/pap', []],
    ['#mlops', ['mlops']],
    ['@ml', ['both', 'mention']],
    ['ml', ['both', 'deep', 'mention', 'ml', 'papers']],
    ['ml/papers', ['both', 'deep', 'papers']],
    ['#STRASSE', ['strasse']],
    ['#straße', ['strasse']],
    ['#work', ['kelvin', 'work']],
    ['#wor\u212A/x', ['work']],
    ['#missing', []],
  ])('%s finds %j', (filter, ids) => {
    expect(found(indexOf(notes), filter)).toEqual(ids);
  });

  it('finds a note once when several candidates or tags cover it', () => {
    const index = indexOf(notes);
    const ids = [...index.tagged(['#ml', '#ML', '#ml/papers', '@ml'])].map((note) => note.id).sort();
    expect(ids).toEqual(['both', 'deep', 'mention', 'ml', 'papers']);
  });

  it('forgets a removed note under every key', () => {
    const index = indexOf(notes);
    const byId = (id: string): Note => notes.find((note) => note.id === id) as Note;
    index.remove(byId('both'));
    expect(found(index, 'ml')).toEqual(['deep', 'mention', 'ml', 'papers']);
    expect(found(index, '#ml/papers')).toEqual(['deep', 'papers']);
    index.remove(byId('mention'));
    expect(found(index, '@ml')).toEqual([]);
    index.remove(byId('mention'));
    index.put({ id: 'mention', tags: ['@ML'] });
    expect(found(index, '@ml')).toEqual(['mention']);
  });

  it.each([
    ['to a sibling tag', ['#ml/papers'], ['#ml/talks'], { '#ml': true, '#ml/papers': false, '#ml/talks': true }],
    ['to another tag', ['#ml'], ['#garden'], { '#ml': false, '#garden': true }],
    ['to no tag', ['#ml', '@ml'], [], { '#ml': false, '@ml': false, ml: false }],
    ['from no tag', [], ['@ml'], { '@ml': true, ml: true, '#ml': false }],
    ['in case only', ['#straße'], ['#STRASSE'], { '#strasse': true }],
  ])('follows a retag %s', (_what, before, after, expected) => {
    const index = indexOf([{ id: 'other', tags: ['#ml/papers', '#garden'] }]);
    const old: Note = { id: 'x', tags: before };
    index.put(old);
    index.put({ id: 'x', tags: after }, old);
    for (const [filter, holds] of Object.entries(expected)) expect(found(index, filter).includes('x'), filter).toBe(holds);
  });

  it('hands out the note as last put, once, also when only its dates changed (the same tags)', () => {
    const index = new TagIndex<Note>();
    const tags = ['#ml/papers'];
    const first: Note = { id: 'x', tags, version: 1 };
    index.put(first);
    index.put({ id: 'x', tags, version: 2 }, first);
    expect([...index.tagged(['#ml'])].map((note) => note.version)).toEqual([2]);
    expect([...index.tagged(['#ml/papers'])].map((note) => note.version)).toEqual([2]);
    expect([...index.tagged(['#ml', '#ml/papers'])].map((note) => note.version)).toEqual([2]);
  });

  it('finds exactly the notes noteHasTag accepts, through random adds, retags and removals', () => {
    const rng = createRng(17);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
    const words = ['ml', 'ML', 'papers', 'straße', 'STRASSE', 'wor\u212A', 'work', 'mlops', 'a'];
    const randomTag = (): string => {
      const parts = Array.from({ length: 1 + Math.floor(rng() * 3) }, () => pick(words));
      return `${pick(['#', '#', '@'])}${parts.join('/')}`;
    };
    const filters = ['ml', '#ml', '@ml', '#ml/papers', 'work', '#WORK', '#strasse', 'straße/ml', '#a/a', 'papers', '#mlops/ml'];
    const index = new TagIndex<Note>();
    const live = new Map<string, Note>();
    let matches = 0;
    for (let step = 0; step < 2000; step++) {
      const id = `n${Math.floor(rng() * 60)}`;
      const old = live.get(id);
      if (old && rng() < 0.25) {
        index.remove(old);
        live.delete(id);
      } else {
        // Now and then the same tags, as a record with new dates has them.
        const tags = old && rng() < 0.2 ? old.tags : Array.from({ length: Math.floor(rng() * 4) }, randomTag);
        const note: Note = { id, tags };
        index.put(note, old);
        live.set(id, note);
      }
      if (step % 50 !== 0) continue;
      for (const filter of filters) {
        const candidates = tagFilterCandidates(filter) ?? [];
        const expected = [...live.values()].filter((note) => noteHasTag(note.tags, candidates)).map((note) => note.id).sort();
        expect(found(index, filter), `${filter} at step ${step}`).toEqual(expected);
        matches += expected.length;
      }
    }
    expect(matches).toBeGreaterThan(1000);
  });
});

describe('the catalog keeps its notes by tag', () => {
  const tagged = (catalog: Catalog, filter: string): NoteRecord[] => [...catalog.tagged(tagFilterCandidates(filter) ?? [])];
  const ids = (catalog: Catalog, filter: string): string[] => tagged(catalog, filter).map((note) => note.id).sort();

  it('through place, a retag, a move and unplace', () => {
    const catalog = new Catalog();
    catalog.place(record('a', 'A.md', ['#ml/papers']));
    catalog.place(record('b', 'Work/B.md', ['@ml', '#work']));
    expect(ids(catalog, 'ml')).toEqual(['a', 'b']);
    catalog.place(record('a', 'A.md', ['#garden'], 'hash-a2'));
    expect(ids(catalog, 'ml')).toEqual(['b']);
    expect(ids(catalog, '#garden')).toEqual(['a']);
    catalog.place(record('b', 'Moved/B.md', ['@ml', '#work']));
    expect(tagged(catalog, '#work').map((note) => note.path)).toEqual(['Moved/B.md']);
    // Unplacing a path the note has left changes nothing.
    catalog.unplace(record('b', 'Work/B.md', ['@ml', '#work']));
    expect(ids(catalog, '@ml')).toEqual(['b']);
    catalog.unplace(record('b', 'Moved/B.md', []));
    expect(ids(catalog, 'ml')).toEqual([]);
    expect(ids(catalog, '#work')).toEqual([]);
  });

  it('makes its index in steps with notes placed, retagged and unplaced between the steps', async () => {
    const catalog = new Catalog();
    const count = 12_000;
    for (let i = 0; i < count; i++) catalog.place(record(`n${i}`, `N${i}.md`, i % 3 === 0 ? ['#ml/papers'] : ['#garden']));
    const making = catalog.indexTagsInSteps();
    // Between the first steps (5,000 notes each): changes to notes already indexed, not yet indexed, and new ones.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    catalog.place(record('n0', 'N0.md', ['#garden'], 'hash-n0b'));
    catalog.place(record('n11999', 'N11999.md', ['#ml'], 'hash-last'));
    catalog.unplace(record('n3', 'N3.md', ['#ml/papers']));
    catalog.unplace(record('n11997', 'N11997.md', ['#garden']));
    catalog.place(record('new', 'New.md', ['#ml']));
    await making;
    const want = (filter: string): string[] =>
      [...catalog.all()].filter((note) => (filter === 'ml' ? note.tags.some((tag) => tag.startsWith('#ml')) : note.tags.includes('#garden'))).map((note) => note.id).sort();
    expect(ids(catalog, 'ml')).toEqual(want('ml'));
    expect(ids(catalog, '#garden')).toEqual(want('garden'));
    expect(ids(catalog, 'ml')).toContain('new');
    expect(ids(catalog, 'ml')).not.toContain('n0');
    expect(ids(catalog, '#garden')).not.toContain('n11997');
  });

  it('hands out the records with the dates git history gave them', () => {
    const catalog = new Catalog();
    catalog.place(record('a', 'A.md', ['#ml']));
    catalog.place(record('b', 'B.md', ['#ml', '@ml']));
    catalog.setGit({ head: 'c1', objectFormat: 'sha1', files: new Map([['A.md', { firstAddedMs: 500, lastCommitMs: 3000, blob: 'hash-a' }]]) });
    const byId = new Map(tagged(catalog, 'ml').map((note) => [note.id, note]));
    expect(byId.get('a')).toBe(catalog.get('a'));
    expect(byId.get('a')).toMatchObject({ createdMs: 500, updatedMs: 3000 });
    expect(byId.get('b')).toBe(catalog.get('b'));
    expect(tagged(catalog, 'ml')).toHaveLength(2);
  });
});
