/**
 * Korean words, as the index and a query read them. Korean is written with
 * spaces, but a spaced word (an eojeol) is a stem with particles and endings
 * attached: 데이터를, 데이터는, 데이터의, 검색하려면. `Intl.Segmenter` does not
 * cut them apart, and a search for 데이터 found only the notes holding the
 * bare word.
 *
 * A query word made of Hangul syllables therefore also finds the index words
 * it begins, whatever its length (fulltext.ts's prefix rule, through
 * `isHangulSyllables`): 데이터 finds 데이터를 and 데이터베이스, 탭 finds 탭을.
 * The index is unchanged apart from `apartFromHangul`. Measured on 129 Korean
 * notes and 41 nouns (BENCHMARKS.md, issue 33), this found 97.5 % of the
 * notes holding the word and no note that does not, against 99 % found and
 * 91 % right for indexing every pair of adjacent syllables (as Han text is:
 * 북마크's pair 마크 found every note about 마크다운, Markdown), and 93 % found,
 * 98 % right, for stripping a list of particles (verb endings and compounds
 * such as 검색하려면, 검색어 are not particles). A word found by its beginning
 * scores as MiniSearch scores any prefix match, below the word itself.
 * Quoted, a Korean word is matched as written, as any quoted word is.
 */

/** Hangul syllables (precomposed), the letters of nearly all Korean text. */
const SYLLABLE = /[\uac00-\ud7a3]/;
const SYLLABLES = /^[\uac00-\ud7a3]+$/;
/** Where Hangul meets another script's letters or digits. */
const HANGUL_EDGES = /(?<=[\p{L}\p{N}])(?<![\uac00-\ud7a3])(?=[\uac00-\ud7a3])|(?<=[\uac00-\ud7a3])(?=[\p{L}\p{N}])(?![\uac00-\ud7a3])/gu;

/** Whether `term` is made only of Hangul syllables. */
export function isHangulSyllables(term: string): boolean {
  return SYLLABLES.test(term);
}

/**
 * `text` with a space where Hangul meets another script's letters or
 * digits: a particle attached to a Latin word (`Obsidian에서`, `API를`)
 * leaves the word a word of its own, so `api` finds it.
 */
export function apartFromHangul(text: string): string {
  return SYLLABLE.test(text) ? text.replace(HANGUL_EDGES, ' ') : text;
}
