import { describe, expect, it } from 'vitest';
import { parseQuery, queryWords, wordForWordCoverage } from '../../../src/index/fulltext/query-syntax.js';
import { isStopWord, STOP_WORD_LISTS } from '../../../src/index/fulltext/stop-words.js';
import { normaliseTerm, searchTerms } from '../../../src/index/fulltext/terms.js';

const words = (query: string) => queryWords(parseQuery(query));
const terms = (query: string) => words(query).terms.map(({ term }) => term);

describe('stop words beside other words are left out of a query', () => {
  it.each([
    ['en', 'how does RSA encryption work', 'rsa encryption work'],
    ['en', 'what is the capital of France', 'capital france'],
    ['de', 'wie funktioniert der Schlüssel', 'funktioniert schlüssel'],
    ['fr', 'le chiffrement des données', 'chiffrement données'],
    ['es', 'cómo funciona la clave', 'funciona clave'],
    ['pt', 'como funciona a chave', 'funciona chave'],
    ['it', 'la chiave della porta', 'chiave porta'],
    ['nl', 'hoe werkt de sleutel', 'werkt sleutel'],
    ['sv', 'nyckeln och dörren', 'nyckeln dörren'],
    ['da', 'nøglen og døren', 'nøglen døren'],
    ['pl', 'jak działa klucz', 'działa klucz'],
    ['tr', 'bu anahtar ve kapı', 'anahtar kapı'],
    ['id', 'kunci untuk pintu', 'kunci pintu'],
    ['ru', 'как работает ключ', 'работает ключ'],
    ['uk', 'як працює ключ', 'працює ключ'],
    ['el', 'το κλειδί και η πόρτα', 'κλειδί πόρτα'],
    ['ar', 'المفتاح في الباب', 'المفتاح الباب'],
    ['he', 'המפתח של הדלת', 'המפתח הדלת'],
    ['hi', 'दरवाज़े की चाबी', 'दरवाज़े चाबी'],
    ['th', 'กุญแจ ของ ประตู', 'กุญแจ ประตู'],
    ['ja', 'データの同期', 'データ 同期'],
    ['zh', '数据 的 同步', '数据 同步'],
    ['ko', 'Obsidian에서 동기화 및 백업', 'Obsidian 동기화 백업'],
  ])('%s: %j ranks by %j', (_language, query, content) => {
    expect(terms(query)).toEqual(searchTerms(content));
  });

  it('leaves the parts of a compound that are stop words out, and keeps the compound', () => {
    expect(terms('state-of-the-art parser')).toEqual(['state-of-the-art', 'state', 'art', 'parser']);
  });

  it('leaves a stop word out of an OR group, and a group of nothing else out of the query', () => {
    expect(words('cats OR the dogs').groups).toEqual([{ words: [0], phrases: [] }, { words: [1], phrases: [] }]);
    expect(terms('cats OR the dogs')).toEqual(['cats', 'dogs']);
    expect(words('cats the OR a').groups).toEqual([{ words: [0], phrases: [] }]);
  });

  it('leaves stop words out beside a phrase too', () => {
    expect(words('the "exact phrase"').groups).toEqual([{ words: [], phrases: [['exact', 'phrase']] }]);
  });
});

describe('stop words are kept where they are what is asked for', () => {
  it.each([
    ['the who', ['the', 'who']],
    ['how does', ['how', 'does']],
    ['The Who OR it', ['the', 'who', 'it']],
    ['の', ['の']],
    ['的', ['的']],
    ['그리고', ['그리고']],
  ])('a query of stop words alone, %j, looks for them', (query, expected) => {
    expect(terms(query)).toEqual(expected);
    expect(words(query).groups.length).toBeGreaterThan(0);
  });

  it.each([
    ['"how does" RSA', [['how', 'does']]],
    ['"to be or not to be"', [['to', 'be', 'or', 'not', 'to', 'be']]],
    ['"the art of war" strategy', [['the', 'art', 'of', 'war']]],
  ])('quoted, %j keeps its stop words, in order', (query, phrases) => {
    expect(words(query).groups.flatMap((group) => group.phrases)).toEqual(phrases);
  });

  it('an excluded stop word leaves notes out', () => {
    expect(words('encryption -the').excludeWords).toEqual([{ term: 'the', prefix: true }]);
  });
});

describe('the semantic anchor counts what ranks', () => {
  it.each([
    ['how does RSA encryption work', 3],
    ['how does it work', undefined],
    ['what is the capital of France', undefined],
    ['"how does" RSA encryption', 3],
  ])('wordForWordCoverage(%j) is %s', (query, expected) => {
    expect(wordForWordCoverage(query)).toBe(expected);
  });
});

describe('the lists', () => {
  it('hold words the index reads as one word each, in the form a query has', () => {
    for (const [language, list] of Object.entries(STOP_WORD_LISTS)) {
      for (const word of list) {
        expect(searchTerms(word), `${language}: ${word}`).toEqual([normaliseTerm(word)]);
        expect(isStopWord(normaliseTerm(word) as string), `${language}: ${word}`).toBe(true);
      }
    }
  });

  it.each(['rsa', 'encryption', 'work', 'die', 'war', 'man', 'door', 'want', 'sin', 'son', 'dal', 'dan', 'ada', 'fur', 'uber', 'c', 'go', 'python', '데이터', '目的', 'もの'])(
    '%j, a word people search for, is not a stop word in any language',
    (word) => {
      expect(isStopWord(normaliseTerm(word) as string)).toBe(false);
    },
  );
});
