/**
 * Which notes are review cards, and which cards are due: pure functions over
 * note records, so that the tools only add access rules and I/O.
 *
 * - A card is a note carrying one of the review deck tags; nested tags count
 *   (`#flashcards/spanish` is in the deck `#flashcards`), a longer word does
 *   not (`#spanish-study` is not `#spanish`).
 * - A card never graded (no usable `review` state) is new and due from its
 *   `created` time.
 * - Due order: graded cards most overdue first, then new cards oldest first;
 *   ties by path, then id, so that the order is stable.
 * - The `review` state is kept on a note whose deck tag was removed; it simply
 *   stops being a card, and comes back with its old schedule with the tag.
 */

import { fromReviewFrontmatter } from './sm2.js';
import type { NoteRecord } from '../vault/note.js';
import { normaliseTag, tagCovers } from '../format/tags.js';

/** Normalise deck tags as settings may hold them (`flashcards`, `#Flashcards`); drops non-tags. */
export function normaliseDeckTags(reviewTags: readonly string[]): string[] {
  const decks: string[] = [];
  for (const raw of reviewTags) {
    const text = raw.trim();
    const tag = normaliseTag(text.startsWith('#') || text.startsWith('@') ? text : `#${text}`);
    if (tag !== undefined && !decks.includes(tag)) decks.push(tag);
  }
  return decks;
}

/** The first deck tag among `decks` that covers one of the note's tags, if any. */
export function deckOf(tags: readonly string[], decks: readonly string[]): string | undefined {
  return decks.find((deck) => tags.some((tag) => tagCovers(deck, tag)));
}

export function isCard(record: Pick<NoteRecord, 'tags'>, decks: readonly string[]): boolean {
  return deckOf(record.tags, decks) !== undefined;
}

export interface CardSchedule {
  record: NoteRecord;
  /** When the card is due: its review state's `due`, or `created` for a new card. */
  dueMs: number;
  isNew: boolean;
  intervalDays: number;
  repetitions: number;
}

/** The schedule of a card (the caller has checked that it is one). */
export function scheduleOf(record: NoteRecord): CardSchedule {
  const review = fromReviewFrontmatter(record.review);
  if (review === undefined) return { record, dueMs: record.createdMs, isNew: true, intervalDays: 0, repetitions: 0 };
  return { record, dueMs: review.due.getTime(), isNew: false, intervalDays: review.interval, repetitions: review.repetitions };
}

/** Graded before new; graded by due time, new by created time (both oldest first); then path, then id. */
export function compareDue(a: CardSchedule, b: CardSchedule): number {
  if (a.isNew !== b.isNew) return a.isNew ? 1 : -1;
  if (a.dueMs !== b.dueMs) return a.dueMs - b.dueMs;
  if (a.record.path !== b.record.path) return a.record.path < b.record.path ? -1 : 1;
  return a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0;
}

/** Every card among `records` that is due at `now` (due ≤ now), in review order. */
export function dueCards(records: Iterable<NoteRecord>, reviewTags: readonly string[], now: Date): CardSchedule[] {
  const decks = normaliseDeckTags(reviewTags);
  if (decks.length === 0) return [];
  const nowMs = now.getTime();
  const due: CardSchedule[] = [];
  for (const record of records) {
    if (!isCard(record, decks)) continue;
    const schedule = scheduleOf(record);
    if (schedule.dueMs <= nowMs) due.push(schedule);
  }
  return due.sort(compareDue);
}
