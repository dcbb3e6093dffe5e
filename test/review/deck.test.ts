import { describe, expect, it } from 'vitest';
import { compareDue, deckOf, dueCards, isCard, normaliseDeckTags, scheduleOf } from '../../src/review/deck.js';
import { toReviewFrontmatter, type ReviewState } from '../../src/review/sm2.js';
import type { NoteRecord } from '../../src/vault/note.js';

const NOW = new Date('2026-11-30T12:00:00Z');
const HOUR = 60 * 60 * 1000;

function note(path: string, tags: string[], created: string, review?: ReviewState): NoteRecord {
  const record: NoteRecord = {
    id: `id-${path}`,
    path,
    folder: null,
    title: path,
    source: 'note',
    createdMs: new Date(created).getTime(),
    updatedMs: new Date(created).getTime(),
    tags,
    snippet: '',
    shared: false,
    broken: false,
    size: 0,
    mtimeMs: 0,
    ctimeMs: 0,
    ino: 0,
    birthtimeMs: 0,
    hash: '',
  };
  // The vault keeps the block as written; the review rules read it.
  if (review) record.review = { ...toReviewFrontmatter(review) };
  return record;
}

const state = (due: string, interval = 6, repetitions = 2): ReviewState => ({ due: new Date(due), interval, ease: 2.5, repetitions });

describe('deck tags', () => {
  it('normalises deck tags as settings may hold them', () => {
    expect(normaliseDeckTags(['#Flashcards', 'spanish', ' #spanish ', '#', '@tutor'])).toEqual(['#flashcards', '#spanish', '@tutor']);
  });

  it('counts nested tags but not longer words', () => {
    const decks = ['#flashcards', '#spanish'];
    expect(deckOf(['#ml', '#flashcards'], decks)).toBe('#flashcards');
    expect(deckOf(['#flashcards/spanish'], decks)).toBe('#flashcards');
    expect(deckOf(['#spanish/verbs'], decks)).toBe('#spanish');
    expect(deckOf(['#spanish-study'], decks)).toBeUndefined();
    expect(deckOf(['#flashcardsx', '#flash'], decks)).toBeUndefined();
    expect(isCard({ tags: ['#spanish'] }, decks)).toBe(true);
    expect(isCard({ tags: ['#spanish'] }, [])).toBe(false);
  });
});

describe('scheduleOf', () => {
  it('makes a never graded card new, due from created', () => {
    const record = note('a.md', ['#flashcards'], '2026-11-01T00:00:00Z');
    expect(scheduleOf(record)).toEqual({ record, dueMs: record.createdMs, isNew: true, intervalDays: 0, repetitions: 0 });
  });

  it('takes a graded card from its review state', () => {
    const record = note('a.md', ['#flashcards'], '2026-11-01T00:00:00Z', state('2026-11-20T00:00:00Z', 15, 3));
    expect(scheduleOf(record)).toMatchObject({ dueMs: Date.parse('2026-11-20T00:00:00Z'), isNew: false, intervalDays: 15, repetitions: 3 });
  });
});

describe('dueCards', () => {
  const records = [
    note('new-late.md', ['#flashcards'], '2026-11-10T00:00:00Z'),
    note('graded-3d.md', ['#flashcards'], '2026-01-01T00:00:00Z', state('2026-11-27T12:00:00Z')),
    note('new-early.md', ['#flashcards/spanish'], '2026-09-01T00:00:00Z'),
    note('graded-10d.md', ['#spanish'], '2026-10-01T00:00:00Z', state('2026-11-20T12:00:00Z')),
    note('graded-future.md', ['#flashcards'], '2026-01-01T00:00:00Z', state('2026-12-10T00:00:00Z')),
    note('graded-exactly-now.md', ['#flashcards'], '2026-01-01T00:00:00Z', state(NOW.toISOString())),
    note('new-future.md', ['#flashcards'], new Date(NOW.getTime() + HOUR).toISOString()),
    note('not-a-card.md', ['#spanish-study'], '2026-01-01T00:00:00Z'),
    note('tag-removed.md', ['#ml'], '2026-01-01T00:00:00Z', state('2026-11-01T00:00:00Z')),
  ];

  it('lists graded cards most overdue first, then new cards oldest first, due ≤ now only', () => {
    const due = dueCards(records, ['#flashcards', '#spanish'], NOW);
    expect(due.map((card) => card.record.path)).toEqual([
      'graded-10d.md',
      'graded-3d.md',
      'graded-exactly-now.md',
      'new-early.md',
      'new-late.md',
    ]);
    expect(due.map((card) => card.isNew)).toEqual([false, false, false, true, true]);
  });

  it('follows the deck tags it is given', () => {
    expect(dueCards(records, ['spanish'], NOW).map((card) => card.record.path)).toEqual(['graded-10d.md']);
    expect(dueCards(records, ['#ml'], NOW).map((card) => card.record.path)).toEqual(['tag-removed.md']);
    expect(dueCards(records, [], NOW)).toEqual([]);
  });

  it('orders ties by path, then id', () => {
    const a = scheduleOf(note('b.md', ['#flashcards'], '2026-11-01T00:00:00Z'));
    const b = scheduleOf(note('a.md', ['#flashcards'], '2026-11-01T00:00:00Z'));
    expect([a, b].sort(compareDue).map((card) => card.record.path)).toEqual(['a.md', 'b.md']);
    expect(compareDue(a, a)).toBe(0);
  });
});
