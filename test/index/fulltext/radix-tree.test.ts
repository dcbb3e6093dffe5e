import SearchableMap from 'minisearch/SearchableMap';
import { describe, expect, it } from 'vitest';
import { radixTreeOf } from '../../../src/index/fulltext/radix-tree.js';
import { createRng } from '../../support/random.js';

const TABLE: { name: string; words: string[] }[] = [
  { name: 'nothing', words: [] },
  { name: 'one word', words: ['river'] },
  { name: 'a word and its prefix', words: ['ab', 'abc', 'a'] },
  { name: 'shared stems', words: ['river', 'rivers', 'riverbank', 'rival', 'garden', 'gardens', 'gate'] },
  { name: 'the empty word', words: ['', 'x'] },
  { name: 'many scripts', words: ['東京', '東', '京都', 'café', 'cafe', 'naïve', '𝔘nicode', '1.2.3', '1.2', 'données'] },
];

function sortedEntries(words: readonly string[]): [string, number][] {
  return [...new Set(words)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((word, i) => [word, i]);
}

describe('radixTreeOf', () => {
  it.each(TABLE)('makes the tree MiniSearch makes word by word: $name', ({ words }) => {
    const entries = sortedEntries(words);
    const byInsertion = new SearchableMap<number>();
    for (const [word, value] of entries) byInsertion.set(word, value);
    // Map equality ignores the order of branches.
    expect(radixTreeOf(entries)).toEqual(byInsertion._tree);
  });

  it('answers lookups, prefixes and typos like the tree built word by word (random words)', () => {
    const rng = createRng(5);
    const letters = 'abcé東京';
    const words = Array.from({ length: 2000 }, () => Array.from({ length: 1 + Math.floor(rng() * 7) }, () => letters[Math.floor(rng() * letters.length)]).join(''));
    const entries = sortedEntries(words);
    const byInsertion = new SearchableMap<number>();
    for (const [word, value] of [...entries].reverse()) byInsertion.set(word, value);
    const built = new SearchableMap<number>();
    built._tree = radixTreeOf(entries) as typeof built._tree;
    expect(radixTreeOf(entries)).toEqual(byInsertion._tree);
    for (const probe of ['a', 'ab', 'é東', '京京', 'abcab', 'zz']) {
      expect(built.get(probe)).toBe(byInsertion.get(probe));
      expect(new Map(built.atPrefix(probe))).toEqual(new Map(byInsertion.atPrefix(probe)));
      expect(built.fuzzyGet(probe, 1)).toEqual(byInsertion.fuzzyGet(probe, 1));
    }
    expect(built.size).toBe(entries.length);
  });
});
