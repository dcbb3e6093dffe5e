import { describe, expect, it } from 'vitest';
import { holdsPhrase, onlyExclusions, parseQuery, queryWords, wordForWordCoverage, type ParsedQuery, type QueryPart } from '../../../src/index/fulltext/query-syntax.js';
import { phraseTerms, searchTerms } from '../../../src/index/fulltext/terms.js';

const w = (text: string): QueryPart => ({ phrase: false, text });
const p = (text: string): QueryPart => ({ phrase: true, text });
const q = (groups: QueryPart[][], exclude: QueryPart[] = []): ParsedQuery => ({ groups, exclude });

describe('parseQuery', () => {
  it.each<[string, ParsedQuery]>([
    // Words, as before.
    ['vim mode', q([[w('vim')], [w('mode')]])],
    ['  vim\t\nmode  ', q([[w('vim')], [w('mode')]])],
    ['', q([])],
    ['   ', q([])],
    // Phrases.
    ['"exact phrase"', q([[p('exact phrase')]])],
    ['"exact phrase" other', q([[p('exact phrase')], [w('other')]])],
    ['a"b c"d', q([[w('a')], [p('b c')], [w('d')]])],
    // A quote left open runs to the end.
    ['"unbalanced phrase', q([[p('unbalanced phrase')]])],
    ['a "b c', q([[w('a')], [p('b c')]])],
    ['a "b" c"', q([[w('a')], [p('b')], [w('c')]])],
    // Empty phrases are nothing.
    ['""', q([])],
    ['"   "', q([])],
    ['a "" b', q([[w('a')], [w('b')]])],
    ['-""', q([])],
    ['"', q([])],
    // Exclusions: a `-` starting a word, followed by a word or a quote.
    ['sync -publish', q([[w('sync')]], [w('publish')])],
    ['-"a phrase" word', q([[w('word')]], [p('a phrase')])],
    ['-"open phrase', q([], [p('open phrase')])],
    ['-publish', q([], [w('publish')])],
    ['a\u3000-b', q([[w('a')]], [w('b')])],
    ['-x86-64 assembly', q([[w('assembly')]], [w('x86-64')])],
    // A `-` inside a word, alone, doubled, or right after a closing quote, is text.
    ['x86-64 assembly', q([[w('x86-64')], [w('assembly')]])],
    ['well-known', q([[w('well-known')]])],
    ['-', q([[w('-')]])],
    ['a - b', q([[w('a')], [w('-')], [w('b')]])],
    ['a -', q([[w('a')], [w('-')]])],
    ['--force', q([[w('--force')]])],
    ['git push --force', q([[w('git')], [w('push')], [w('--force')]])],
    ['"a"-b', q([[p('a')], [w('-b')]])],
    ['a- b', q([[w('a-')], [w('b')]])],
    // OR between words or phrases joins them into one group.
    ['vim OR neovim mode', q([[w('vim'), w('neovim')], [w('mode')]])],
    ['a OR b OR c', q([[w('a'), w('b'), w('c')]])],
    ['"a b" OR "c d"', q([[p('a b'), p('c d')]])],
    ['"a b" OR c', q([[p('a b'), w('c')]])],
    // An OR with nothing to join on one side means nothing.
    ['OR vim', q([[w('vim')]])],
    ['vim OR', q([[w('vim')]])],
    ['a OR OR b', q([[w('a'), w('b')]])],
    ['OR', q([])],
    ['a OR -b c', q([[w('a')], [w('c')]], [w('b')])],
    ['-a OR b', q([[w('b')]], [w('a')])],
    ['a OR "" b', q([[w('a'), w('b')]])],
    // Only an upper-case OR standing alone is the operator; inside a phrase it is text.
    ['a or b', q([[w('a')], [w('or')], [w('b')]])],
    ['a Or b', q([[w('a')], [w('Or')], [w('b')]])],
    ['ORACLE db', q([[w('ORACLE')], [w('db')]])],
    ['"a OR b"', q([[p('a OR b')]])],
    ['-OR', q([], [w('OR')])],
    // Regex metacharacters are text.
    ['.* (x|y) [ \\ $^ +?', q([[w('.*')], [w('(x|y)')], [w('[')], [w('\\')], [w('$^')], [w('+?')]])],
  ])('%j', (query, expected) => {
    expect(parseQuery(query)).toEqual(expected);
  });
});

describe('queryWords', () => {
  const words = (query: string) => queryWords(parseQuery(query));

  it('keeps plain words as before: a group per distinct word, repeats scoring twice', () => {
    expect(words('vim mode vim')).toEqual({
      terms: [
        { term: 'vim', exact: false },
        { term: 'mode', exact: false },
        { term: 'vim', exact: false },
      ],
      groups: [
        { words: [0, 2], phrases: [] },
        { words: [1], phrases: [] },
      ],
      excludeWords: [],
      excludePhrases: [],
    });
  });

  it('reads each part with searchTerms: an unquoted word the index splits gives a group per word', () => {
    const split = searchTerms('x86-64');
    const got = words('x86-64 assembly');
    expect(got.terms.map((t) => t.term)).toEqual([...split, 'assembly']);
    expect(got.groups).toHaveLength(new Set(split).size + 1);
  });

  it('makes a phrase one required group whose words score exactly', () => {
    expect(words('"vim mode" OR emacs')).toEqual({
      terms: [
        { term: 'vim', exact: true },
        { term: 'mode', exact: true },
        { term: 'emacs', exact: false },
      ],
      groups: [{ words: [2], phrases: [['vim', 'mode']] }],
      excludeWords: [],
      excludePhrases: [],
    });
    expect(words('vim OR neovim').groups).toEqual([{ words: [0, 1], phrases: [] }]);
  });

  it('matches a phrase by its phraseTerms (one word per place) and scores it by its searchTerms', () => {
    const got = words('"node:fs module"');
    expect(got.groups).toEqual([{ words: [], phrases: [phraseTerms('node:fs module')] }]);
    expect(got.terms).toEqual(searchTerms('node:fs module').map((term) => ({ term, exact: true })));
  });

  it('drops parts without index words: punctuation, a phrase of punctuation', () => {
    expect(words('"..." - -. ,').groups).toEqual([]);
    expect(words('"..." - -. ,').excludeWords).toEqual([]);
  });

  it('excludes an unquoted word with the words it begins, a quoted one exactly, and several words as a phrase', () => {
    const got = words('sync -publish -"Draft" -"vim mode" -x86-64');
    expect(got.excludeWords).toEqual([
      { term: 'publish', prefix: true },
      { term: 'draft', prefix: false },
    ]);
    expect(got.excludePhrases).toEqual([['vim', 'mode'], phraseTerms('x86-64')]);
  });

  it.each([
    ['-publish', true],
    ['-"vim mode"', true],
    ['-publish the', false], // the only word looked for is a stop word: it is looked for
    ['sync -publish', false],
    ['"sync" -publish', false],
    ['the', false],
    ['-"the of"', true],
    ['-the', true],
    ['-', false],
    ['', false],
  ])('onlyExclusions(%j) is %s', (query, expected) => {
    expect(onlyExclusions(words(query))).toBe(expected);
  });
});

describe('holdsPhrase', () => {
  it.each<[string[], string[], boolean]>([
    [['a', 'b', 'c'], ['a', 'b'], true],
    [['a', 'b', 'c'], ['b', 'c'], true],
    [['a', 'b', 'c'], ['a', 'c'], false],
    [['a', 'b', 'c'], ['b', 'a'], false],
    [['a', 'b'], ['a', 'b', 'c'], false],
    [['a', 'a', 'b'], ['a', 'b'], true],
    [['b', 'a'], ['a'], true],
    [[], ['a'], false],
    [['a'], [], true],
  ])('%j holds %j: %s', (text, phrase, expected) => {
    expect(holdsPhrase(text, phrase)).toBe(expected);
  });
});

describe('wordForWordCoverage', () => {
  it.each([
    { query: 'sourdough starter', expected: undefined, why: 'two words say too little' },
    { query: 'the sourdough of it', expected: undefined, why: 'stop words do not count' },
    { query: 'sourdough starter feeding', expected: 3, why: 'three words' },
    { query: 'Try the dal recipe with split mung beans instead of red lentils', expected: 9, why: 'a copied sentence: its words, without stop words' },
    { query: 'dal dal dal', expected: undefined, why: 'a repeated word is one group' },
    { query: 'dal OR curry recipe beans', expected: 3, why: 'alternatives are one group' },
    { query: '-dal -curry -beans', expected: undefined, why: 'only words left out' },
    { query: '"split mung beans" recipe dal', expected: 3, why: 'a phrase is one group' },
  ])('$query: $why', ({ query, expected }) => {
    expect(wordForWordCoverage(query)).toBe(expected);
  });
});
