import { describe, expect, it } from 'vitest';
import { apartFromHangul, isHangulSyllables } from '../../../src/index/fulltext/korean.js';
import { FullTextIndex, type FullTextPage } from '../../../src/index/fulltext/fulltext.js';
import { phraseTerms, searchTerms } from '../../../src/index/fulltext/terms.js';
import type { NoteRecord } from '../../../src/vault/note.js';

describe('Hangul beside other scripts', () => {
  it.each([
    ['Obsidian에서', 'Obsidian 에서'],
    ['API를 호출', 'API 를 호출'],
    ['v1.4.0에서', 'v1.4.0 에서'],
    ['3개의 파일', '3 개의 파일'],
    ['한국어 텍스트입니다', '한국어 텍스트입니다'],
    ['no Korean here', 'no Korean here'],
    ['데이터(data)를', '데이터(data)를'], // punctuation already ends a word
  ])('apartFromHangul(%j) is %j', (text, expected) => {
    expect(apartFromHangul(text)).toBe(expected);
  });

  it.each([
    ['Obsidian에서', 'obsidian 에서'],
    ['x86-64를', 'x86-64 x86 64 를'],
    ['한국어 텍스트입니다', '한국어 텍스트입니다'],
  ])('searchTerms(%j) is %s', (text, expected) => {
    expect(searchTerms(text).join(' ')).toBe(expected);
    expect(phraseTerms(text).join(' ')).toBe(expected.replace('x86-64 ', ''));
  });

  it.each([
    ['데이터', true],
    ['탭', true],
    ['데이터2', false],
    ['data', false],
    ['ᄒᆞᆫ', false], // old jamo, not syllables
    ['', false],
  ])('isHangulSyllables(%j) is %s', (term, expected) => {
    expect(isHangulSyllables(term)).toBe(expected);
  });
});

const NOTES: Record<string, string> = {
  object: '데이터를 저장합니다.',
  topic: '데이터는 로컬에 있습니다.',
  possessive: '데이터의 형식.',
  place: '데이터에서 찾기.',
  bare: '데이터 동기화 설정.',
  compound: '데이터베이스가 필요합니다.',
  update: '업데이트를 설치합니다.',
  tabObject: '탭을 닫습니다.',
  tabPlace: '새 탭에서 열기.',
  tabBare: '탭 하나.',
  sync: '동기화를 켜십시오.',
  latin: 'Obsidian에서 노트를 엽니다.',
};

function index(): FullTextIndex {
  const built = FullTextIndex.empty();
  for (const [id, body] of Object.entries(NOTES)) built.upsert({ id, title: '', tags: [] } as unknown as NoteRecord, body);
  return built;
}

async function found(query: string): Promise<string[]> {
  const page = (await index().query(query, undefined, 50, async (id, phrases) => {
    const words = phraseTerms(NOTES[id] ?? '');
    return phrases.map(({ terms }) => words.some((_, i) => terms.every((term, j) => words[i + j] === term)));
  })) as FullTextPage;
  return page.hits.map((hit) => hit.id);
}

describe('a Korean word is found with the particles and endings written after it', () => {
  it.each([
    ['데이터', ['bare', 'compound', 'object', 'place', 'possessive', 'topic']],
    ['데이터를', ['object']],
    ['탭', ['tabBare', 'tabObject', 'tabPlace']], // one syllable: the words it begins
    ['동기화', ['bare', 'sync']],
    ['obsidian', ['latin']],
    ['노트', ['latin']],
  ])('%j finds %j', async (query, expected) => {
    expect((await found(query)).sort()).toEqual(expected.sort());
  });

  it('does not find a word inside another (업데이트 holds 데이트, not 데이터 at its start)', async () => {
    expect(await found('데이트')).toEqual([]);
  });

  it('ranks the note holding every word of the query first', async () => {
    expect((await found('데이터 동기화'))[0]).toBe('bare');
  });

  it('matches a quoted Korean phrase as written', async () => {
    expect(await found('"데이터를 저장합니다"')).toEqual(['object']);
    expect(await found('"데이터 동기화"')).toEqual(['bare']);
    expect(await found('"데이터 저장합니다"')).toEqual([]);
  });
});
