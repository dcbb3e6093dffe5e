import { isStopWord } from './stop-words.js';
import { phraseTerms, searchTerms } from './terms.js';

/**
 * The syntax of a full-text query, as people type it into Obsidian's search
 * and web search engines:
 *
 * - `"exact phrase"`: the words adjacent and in order. Every note found holds
 *   it. A quote opens a phrase wherever it stands and the next one closes it;
 *   a quote left open runs to the end of the query. An empty phrase (`""`) is
 *   nothing.
 * - `-word` and `-"a phrase"`: notes holding it are left out. Only a `-` that
 *   starts a word (at the start of the query or after a space) and is
 *   followed by a word or a quote excludes: `x86-64` is one word, and `-` on
 *   its own or `--force` (a `-` followed by another) is an ordinary word.
 * - `OR` (upper case, a word of its own) between two words or phrases makes
 *   them alternatives: a note holding either has that word. Anywhere else it
 *   means nothing (`or` in lower case is a stop word, as before).
 * - Everything else is a word, OR-ed with the others and ranked, as before.
 *
 * `parseQuery` reads the syntax alone, without knowing the index's words;
 * `queryWords` then turns each part into the index's words, so that
 * tokenising stays in one place (terms.ts): `searchTerms` for the words that
 * score, `phraseTerms` (one word per place, without compound forms or
 * character pairs) for the sequence a phrase is matched by, in the query and
 * in a note's text alike.
 *
 * Stop words (stop-words.ts) outside quotes are left out of a query that
 * has other words to look for: they neither count among the words a note
 * holds nor add to its score, so `how does RSA encryption work` ranks by
 * `rsa`, `encryption` and `work`. Quoted, they are words like any other
 * (`"how does"`, `"art of war"`, which "art in war" does not match), and a
 * query made of stop words alone (`the who`) looks for them.
 */

/** A word or a phrase of a query, as typed. */
export interface QueryPart {
  /** Quoted: its words adjacent and in order, each word exactly (no prefix or typo matches). */
  phrase: boolean;
  text: string;
}

export interface ParsedQuery {
  /** What to look for, in query order: parts joined by `OR` share a group; every other part is a group of its own. */
  groups: QueryPart[][];
  /** What to leave out: words and phrases after a `-`. */
  exclude: QueryPart[];
}

interface Token {
  part: QueryPart;
  negated: boolean;
  /** An unquoted `OR`. */
  or: boolean;
}

const SPACE = /\s/u;

function tokens(query: string): Token[] {
  const out: Token[] = [];
  const n = query.length;
  let i = 0;
  while (i < n) {
    const startsWord = i === 0 || SPACE.test(query[i - 1] as string);
    if (SPACE.test(query[i] as string)) {
      i++;
      continue;
    }
    let negated = false;
    const next = query[i + 1];
    if (startsWord && query[i] === '-' && next !== undefined && next !== '-' && !SPACE.test(next)) {
      negated = true;
      i++;
    }
    if (query[i] === '"') {
      const close = query.indexOf('"', i + 1);
      const text = query.slice(i + 1, close < 0 ? n : close);
      i = close < 0 ? n : close + 1;
      if (text.trim() !== '') out.push({ part: { phrase: true, text }, negated, or: false });
      continue;
    }
    // A word runs to the next space, or to a quote, which opens a phrase.
    let end = i;
    while (end < n && query[end] !== '"' && !SPACE.test(query[end] as string)) end++;
    const text = query.slice(i, end);
    i = end;
    out.push({ part: { phrase: false, text }, negated, or: !negated && text === 'OR' });
  }
  return out;
}

/** The parts of a query; pure, and never fails (any text is a query). */
export function parseQuery(query: string): ParsedQuery {
  const groups: QueryPart[][] = [];
  const exclude: QueryPart[] = [];
  // An OR joins the part before it, when that is something to look for, to the next such part.
  let joinNext = false;
  let lastWasWanted = false;
  for (const token of tokens(query)) {
    if (token.or) {
      joinNext = lastWasWanted;
      continue;
    }
    if (token.negated) {
      exclude.push(token.part);
      joinNext = false;
      lastWasWanted = false;
      continue;
    }
    const last = groups[groups.length - 1];
    if (joinNext && last) last.push(token.part);
    else groups.push([token.part]);
    joinNext = false;
    lastWasWanted = true;
  }
  return { groups, exclude };
}

/** One group of a query in the index's words. */
export interface WordGroup {
  /**
   * Its unquoted alternatives, as indices into `QueryWords.terms`: a note
   * holding any of them (or, as in any search, a word one begins or a near
   * miss) has the group.
   */
  words: number[];
  /** Its quoted alternatives, each as the sequence of index words it is matched by (`phraseTerms`; one word: that word exactly). */
  phrases: string[][];
}

/** A query in the index's words, ready to rank. */
export interface QueryWords {
  /**
   * The words that score, in query order, repeats kept (each occurrence adds
   * its score, as in MiniSearch); a phrase's words score too (its
   * `searchTerms`, compound forms included), `exact`: the word itself,
   * without prefix or typo matches.
   */
  terms: { term: string; exact: boolean }[];
  /**
   * What to look for. A group with a phrase must be held by every note
   * found; the others are OR-ed, and notes holding more of them rank first.
   * An unquoted word outside an `OR` that the index reads as several words
   * (`x86-64`) gives a group per word, as a query without syntax always has.
   */
  groups: WordGroup[];
  /** Words that leave a note out, with whether a word they begin does too (an unquoted word). */
  excludeWords: { term: string; prefix: boolean }[];
  /** Phrases that leave a note out, of two or more words (an unquoted excluded word of several words in `phraseTerms`, such as `x86-64`, is one too). */
  excludePhrases: string[][];
}

/**
 * The index words of each unquoted part (`searchTerms`), by part, without
 * the stop words when the query has anything else to look for: another
 * word, or a phrase. Pure.
 */
function unquotedWords(groups: readonly (readonly QueryPart[])[]): Map<QueryPart, string[]> {
  const words = new Map<QueryPart, string[]>();
  let somethingElse = false;
  for (const part of groups.flat()) {
    if (part.phrase) somethingElse ||= phraseTerms(part.text).length > 0;
    else {
      const terms = searchTerms(part.text);
      words.set(part, terms);
      somethingElse ||= terms.some((term) => !isStopWord(term));
    }
  }
  if (somethingElse) for (const [part, terms] of words) words.set(part, terms.filter((term) => !isStopWord(term)));
  return words;
}

/** `parsed` in the index's words: parts without any (punctuation, empty phrases, stop words beside other words) are left out. */
export function queryWords(parsed: ParsedQuery): QueryWords {
  const terms: { term: string; exact: boolean }[] = [];
  const groups: WordGroup[] = [];
  // A word repeated outside OR groups is one group, as a repeated word counts once in MiniSearch.
  const single = new Map<string, WordGroup>();
  const add = (term: string, exact: boolean): number => terms.push({ term, exact }) - 1;
  const unquoted = unquotedWords(parsed.groups);
  for (const parts of parsed.groups) {
    const only = parts.length === 1 ? parts[0] : undefined;
    if (only && !only.phrase) {
      for (const term of unquoted.get(only) ?? []) {
        const at = add(term, false);
        const known = single.get(term);
        if (known) known.words.push(at);
        else {
          const group: WordGroup = { words: [at], phrases: [] };
          single.set(term, group);
          groups.push(group);
        }
      }
      continue;
    }
    const group: WordGroup = { words: [], phrases: [] };
    for (const part of parts) {
      if (!part.phrase) {
        group.words.push(...(unquoted.get(part) ?? []).map((term) => add(term, false)));
        continue;
      }
      const sequence = phraseTerms(part.text);
      if (sequence.length === 0) continue;
      for (const term of searchTerms(part.text)) add(term, true);
      group.phrases.push(sequence);
    }
    if (group.words.length > 0 || group.phrases.length > 0) groups.push(group);
  }
  const excludeWords: { term: string; prefix: boolean }[] = [];
  const excludePhrases: string[][] = [];
  for (const part of parsed.exclude) {
    const sequence = phraseTerms(part.text);
    if (sequence.length > 1) excludePhrases.push(sequence);
    else if (sequence.length === 1) excludeWords.push({ term: sequence[0] as string, prefix: !part.phrase });
  }
  return { terms, groups, excludeWords, excludePhrases };
}

/** Whether a query leaves notes out but looks for nothing: such a query is refused rather than answered with every other note. */
export function onlyExclusions(words: QueryWords): boolean {
  return words.groups.length === 0 && words.excludeWords.length + words.excludePhrases.length > 0;
}

/** The sentence a query made only of exclusions is refused with. */
/**
 * Query groups from which full-text evidence may put a note first in a
 * semantic search: a note holding every word of a query this long is very
 * likely what was asked for (a copied sentence, a name with its context),
 * while one holding both words of a two-word query often is not.
 */
export const ANCHOR_MIN_GROUPS = 3;

/**
 * How many groups a full-text hit must hold (its `coverage`) to be a
 * word-for-word match of `query`; undefined when the query is too short
 * for that to mean much (`ANCHOR_MIN_GROUPS`) or only leaves words out. Pure.
 */
export function wordForWordCoverage(query: string): number | undefined {
  return wordForWordCoverageOf(queryWords(parseQuery(query)));
}

/** `wordForWordCoverage` of a query already in the index's words (a search parses its query once). Pure. */
export function wordForWordCoverageOf(words: QueryWords): number | undefined {
  return words.groups.length < ANCHOR_MIN_GROUPS || onlyExclusions(words) ? undefined : words.groups.length;
}

export const ONLY_EXCLUSIONS = 'A search needs at least one word to look for, not only words to leave out (-word); add one, or use list_notes to browse.';

/** Whether `words` (a text's `phraseTerms`) hold `phrase` (a query phrase's `phraseTerms`) adjacent and in order. */
export function holdsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  const n = phrase.length;
  if (n === 0) return true;
  outer: for (let i = 0; i + n <= words.length; i++) {
    for (let j = 0; j < n; j++) if (words[i + j] !== phrase[j]) continue outer;
    return true;
  }
  return false;
}
