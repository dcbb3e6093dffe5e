/**
 * Search queries for `npm run bench -- --vault DIR`, drawn from the vault's
 * own words as the generated vaults' queries are drawn from the generator's
 * vocabulary: words by how many notes hold them, the commonest left out (the
 * generator leaves out its function words), 1–3 words a query in the
 * generator's proportions, from a seeded PRNG so that a vault gives the same
 * queries on every run.
 */

import { isStopWord } from '../src/index/fulltext/stop-words.js';
import { phraseTerms } from '../src/index/fulltext/terms.js';
import { createRng } from '../test/support/random.js';

/** How many notes hold each word, a note's words taken as the index takes them, stop words left out as a query leaves them out. */
export function countWords(texts: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const word of new Set(phraseTerms(text))) if (!isStopWord(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

export interface DrawOptions {
  seed: number;
  count: number;
  /**
   * The commonest words left out, the vault's own function words (those of
   * every language it is written in; the index's stop words are gone
   * already). At most half of the words are left out, so a small vault still
   * has words to draw.
   */
  skipCommonest?: number;
  /** How many words, after those, are drawn from: the generator's vocabulary is as large. */
  vocabulary?: number;
}

/** A word a person might search for: two characters or more, a letter among them (no bare numbers). */
function searchable(word: string): boolean {
  return [...word].length >= 2 && /\p{L}/u.test(word);
}

/** The words queries are drawn from, commonest first (ties in code-point order), with their note counts. */
export function queryVocabulary(counts: ReadonlyMap<string, number>, options: Pick<DrawOptions, 'skipCommonest' | 'vocabulary'> = {}): [string, number][] {
  const ranked = [...counts].filter(([word, count]) => count > 0 && searchable(word)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const skipped = Math.min(options.skipCommonest ?? 100, Math.floor(ranked.length / 2));
  return ranked.slice(skipped, skipped + (options.vocabulary ?? 3000));
}

/** `count` queries of 1–3 distinct words (45 % one word, 40 % two, 15 % three), each word drawn by how many notes hold it. */
export function drawQueries(counts: ReadonlyMap<string, number>, options: DrawOptions): string[] {
  const words = queryVocabulary(counts, options);
  if (words.length === 0) throw new Error('the notes hold no words to search for');
  const cumulative: number[] = [];
  let total = 0;
  for (const [, count] of words) cumulative.push((total += count));
  const rng = createRng(options.seed);
  const draw = (): string => {
    const u = rng() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] ?? total) > u) hi = mid;
      else lo = mid + 1;
    }
    return (words[lo] as [string, number])[0];
  };
  const queries: string[] = [];
  for (let i = 0; i < options.count; i++) {
    const u = rng();
    const length = Math.min(u < 0.45 ? 1 : u < 0.85 ? 2 : 3, words.length);
    const terms: string[] = [];
    // Bounded: with a few heavy words the same one may come up again and again.
    for (let guard = 0; terms.length < length && guard < 50; guard++) {
      const word = draw();
      if (!terms.includes(word)) terms.push(word);
    }
    queries.push(terms.join(' '));
  }
  return queries;
}
