import { describe, expect, it } from 'vitest';
import {
  LABELED_NOTES,
  LABELED_QUERIES,
  TOPICLESS_WORDS,
  queriesSharingNoWord,
  sharedContentWords,
  stem,
} from '../../bench/semantic-set.js';

const byKey = new Map(LABELED_NOTES.map((note) => [note.key, note]));
const noteText = (key: string): string => {
  const note = byKey.get(key);
  return note === undefined ? '' : `${note.title}\n${note.body}`;
};
const wordCount = (text: string): number => (text.match(/[\p{L}\p{N}'’]+/gu) ?? []).length;

describe('sharedContentWords', () => {
  it('ignores case, stop words and request-framing words', () => {
    expect(sharedContentWords('Notes about THE Loaf', 'the loaf and a note')).toEqual(['loaf']);
    expect(sharedContentWords('what did I write about it', 'what I wrote about it')).toEqual([]);
    expect(TOPICLESS_WORDS.has('the')).toBe(true);
  });

  it('treats inflections of one word as shared (crude stemming)', () => {
    expect(sharedContentWords('baking', 'She bakes bread')).toEqual(['baking']);
    expect(sharedContentWords('bake', 'baked goods')).toEqual(['bake']);
    expect(sharedContentWords('running', 'went for a run')).toEqual(['running']);
    expect(sharedContentWords('berries', 'a berry tart')).toEqual(['berries']);
    expect(sharedContentWords('quickly', 'quick lunch')).toEqual(['quickly']);
    expect(stem('notes')).toBe(stem('note'));
  });

  it('does not relate different words with the same meaning', () => {
    expect(sharedContentWords('bread rising', 'the loaf grew tall')).toEqual([]);
  });

  it('folds accents and drops apostrophes', () => {
    expect(sharedContentWords('cafe', 'Café visit')).toEqual(['cafe']);
    expect(sharedContentWords("Maya's nap", 'Maya')).toEqual(['mayas']);
    expect(sharedContentWords("don't", 'dont')).toEqual([]);
  });
});

describe('LABELED_NOTES', () => {
  it('has about 240–300 notes with unique topic-N keys', () => {
    expect(LABELED_NOTES.length).toBeGreaterThanOrEqual(240);
    expect(LABELED_NOTES.length).toBeLessThanOrEqual(300);
    const keys = LABELED_NOTES.map((note) => note.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^[a-z]+-\d+$/);
  });

  it('spreads the notes over about 30 topics, several notes each', () => {
    const perTopic = new Map<string, number>();
    for (const { key } of LABELED_NOTES) {
      const topic = key.replace(/-\d+$/, '');
      perTopic.set(topic, (perTopic.get(topic) ?? 0) + 1);
    }
    expect(perTopic.size).toBeGreaterThanOrEqual(28);
    for (const count of perTopic.values()) expect(count).toBeGreaterThanOrEqual(6);
  });

  it('has a title and a body of 40–120 words on every note', () => {
    for (const note of LABELED_NOTES) {
      expect(note.title.trim(), note.key).not.toBe('');
      const count = wordCount(note.body);
      expect(count, note.key).toBeGreaterThanOrEqual(40);
      expect(count, note.key).toBeLessThanOrEqual(120);
    }
  });
});

describe('LABELED_QUERIES', () => {
  it('has at least 40 distinct queries', () => {
    expect(LABELED_QUERIES.length).toBeGreaterThanOrEqual(40);
    const texts = LABELED_QUERIES.map((q) => q.query.toLowerCase());
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('labels at least 2 relevant notes per query, all existing, none twice', () => {
    for (const { query, relevant } of LABELED_QUERIES) {
      expect(relevant.length, query).toBeGreaterThanOrEqual(2);
      expect(new Set(relevant).size, query).toBe(relevant.length);
      for (const key of relevant) expect(byKey.has(key), `${query}: ${key}`).toBe(true);
    }
  });

  it('mostly (≥ 75%) shares no content word with any of the relevant notes', () => {
    let none = 0;
    const sharing: string[] = [];
    for (const { query, relevant } of LABELED_QUERIES) {
      const shared = new Set(relevant.flatMap((key) => sharedContentWords(query, noteText(key))));
      if (shared.size === 0) none++;
      else sharing.push(`${query} → ${[...shared].join(', ')}`);
    }
    const percent = (100 * none) / LABELED_QUERIES.length;
    console.log(
      `semantic set: ${LABELED_NOTES.length} notes, ${LABELED_QUERIES.length} queries, ` +
        `${none} (${percent.toFixed(1)}%) share no content word with their relevant notes; ` +
        `sharing:\n  ${sharing.join('\n  ')}`,
    );
    expect(queriesSharingNoWord()).toBe(none);
    expect(percent).toBeGreaterThanOrEqual(75);
  });
});
