import { describe, expect, it } from 'vitest';
import { countWords, drawQueries, queryVocabulary } from '../../bench/vault-queries.js';

/** Word counts with `n` words `w0`…: word `wi` held by `n - i` notes, so w0 is the commonest. */
function ladder(n: number, prefix = 'word'): Map<string, number> {
  return new Map(Array.from({ length: n }, (_, i) => [`${prefix}${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`, n - i]));
}

describe('countWords', () => {
  it.each([
    { name: 'counts notes, not occurrences', texts: ['garden garden garden', 'garden path'], want: { garden: 2, path: 1 } },
    { name: 'takes the index words: lower-cased, stop words gone', texts: ['The Garden and the Path'], want: { garden: 1, path: 1 } },
    { name: 'folds marks as the index does', texts: ['Café', 'cafe'], want: { cafe: 2 } },
    { name: 'no notes, no words', texts: [], want: {} },
  ])('$name', ({ texts, want }) => {
    expect(Object.fromEntries(countWords(texts))).toEqual(want);
  });
});

describe('queryVocabulary', () => {
  it.each([
    {
      name: 'commonest first, ties in code-point order',
      counts: new Map([['beta', 2], ['alpha', 2], ['gamma', 5]]),
      options: { skipCommonest: 0 },
      want: ['gamma', 'alpha', 'beta'],
    },
    {
      name: 'the commonest words are left out',
      counts: ladder(10),
      options: { skipCommonest: 2 },
      want: [...ladder(10).keys()].slice(2),
    },
    {
      name: 'at most half the words are left out',
      counts: ladder(6),
      options: { skipCommonest: 100 },
      want: [...ladder(6).keys()].slice(3),
    },
    {
      name: 'the vocabulary is cut after the skipped words',
      counts: ladder(10),
      options: { skipCommonest: 1, vocabulary: 3 },
      want: [...ladder(10).keys()].slice(1, 4),
    },
    {
      name: 'bare numbers, single characters and unused words are not searched for',
      counts: new Map([['2024', 9], ['x', 9], ['ok', 1], ['链接', 3], ['unused', 0]]),
      options: { skipCommonest: 0 },
      want: ['链接', 'ok'],
    },
  ])('$name', ({ counts, options, want }) => {
    expect(queryVocabulary(counts, options).map(([word]) => word)).toEqual(want);
  });
});

describe('drawQueries', () => {
  const counts = ladder(400);

  it.each([
    { name: 'the same seed, the same queries', a: 7, b: 7, same: true },
    { name: 'another seed, other queries', a: 7, b: 8, same: false },
  ])('$name', ({ a, b, same }) => {
    const first = drawQueries(counts, { seed: a, count: 50 });
    const second = drawQueries(counts, { seed: b, count: 50 });
    if (same) expect(second).toEqual(first);
    else expect(second).not.toEqual(first);
  });

  it('draws 1–3 distinct words a query, about in the generator proportions, from the vocabulary only', () => {
    const queries = drawQueries(counts, { seed: 7, count: 2000, skipCommonest: 100, vocabulary: 200 });
    const allowed = new Set([...counts.keys()].slice(100, 300));
    const lengths = [0, 0, 0, 0];
    for (const query of queries) {
      const words = query.split(' ');
      expect(new Set(words).size).toBe(words.length);
      for (const word of words) expect(allowed.has(word)).toBe(true);
      lengths[words.length] = (lengths[words.length] ?? 0) + 1;
    }
    expect(queries).toHaveLength(2000);
    expect(lengths[0]).toBe(0);
    expect((lengths[1] ?? 0) / 2000).toBeCloseTo(0.45, 1);
    expect((lengths[2] ?? 0) / 2000).toBeCloseTo(0.4, 1);
    expect((lengths[3] ?? 0) / 2000).toBeCloseTo(0.15, 1);
  });

  it('draws a word by how many notes hold it', () => {
    const queries = drawQueries(new Map([['common', 90], ['rare', 10], ['filler', 1000]]), { seed: 3, count: 4000, skipCommonest: 1 });
    const singles = queries.filter((query) => !query.includes(' '));
    const common = singles.filter((query) => query === 'common').length;
    expect(common / singles.length).toBeCloseTo(0.9, 1);
  });

  it.each([
    { name: 'one word: every query is that word', counts: new Map([['garden', 3]]), want: 'garden' },
    { name: 'two words: no query repeats a word', counts: new Map([['garden', 3], ['path', 3]]), want: /^(garden|path|garden path|path garden)$/ },
  ])('a small vault: $name', ({ counts: small, want }) => {
    for (const query of drawQueries(small, { seed: 1, count: 30, skipCommonest: 0 })) expect(query).toMatch(want);
  });

  it('says so when there is nothing to draw', () => {
    expect(() => drawQueries(new Map([['42', 3]]), { seed: 1, count: 5 })).toThrow('the notes hold no words to search for');
  });
});
