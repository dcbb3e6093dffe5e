import { describe, expect, it } from 'vitest';
import { phraseTerms, searchTerms, splitWords } from '../../../src/index/fulltext/terms.js';
import { createRng } from '../../support/random.js';

describe('compounds: words joined by . - _ : / @ are a word of their own, before their parts', () => {
  it.each([
    ['v1.4.0', 'v1.4.0 v1 4 0'],
    ['Release v1.4.0.', 'release v1.4.0 v1 4 0'], // the full stop ends the sentence
    ['1.4.0', '1.4.0 1 4 0'],
    ['x86-64', 'x86-64 x86 64'],
    ['X86-64', 'x86-64 x86 64'],
    ['node:fs', 'node:fs node fs'],
    ['foo_bar', 'foo_bar foo bar'],
    ['e-mail', 'e-mail e mail'],
    ['work/project', 'work/project work project'],
    ['alice@example.com', 'alice@example.com alice example com'],
    ['2024-01-05', '2024-01-05 2024 01 05'],
    ['10:30', '10:30 10 30'],
    ['Node.js', 'node.js node js'],
    ['state-of-the-art', 'state-of-the-art state of the art'],
    ['café-crème', 'cafe-creme cafe creme'],
    ['Ελλάδα-Κύπρος', 'ελλαδα-κυπροσ ελλαδα κυπροσ'],
  ])('%j → %s', (text, expected) => {
    expect(searchTerms(text).join(' ')).toBe(expected);
  });

  it.each([
    // Only one joiner between two words makes a compound.
    ['wait...done', 'wait done'],
    ['a -- b', 'a b'],
    ['--force', 'force'],
    ['-5', '5'],
    ['@alice', 'alice'],
    ['#tag', 'tag'],
    ['end. Next', 'end next'],
    ['x86 - 64', 'x86 64'],
    ['https://example.com/a/b', 'https example.com/a/b example com a b'],
    // Other punctuation never joins.
    ["don't", 'don t'],
    ['a,b', 'a b'],
    ['1,000', '1 000'],
    ['C:\\Users', 'c users'],
    ['(v1.4.0)', 'v1.4.0 v1 4 0'],
    ['"x86-64"', 'x86-64 x86 64'],
  ])('%j → %s', (text, expected) => {
    expect(searchTerms(text).join(' ')).toBe(expected);
  });

  it('leaves the compound out of phraseTerms, so that adjacent means adjacent in the text', () => {
    expect(phraseTerms('import node:fs today')).toEqual(['import', 'node', 'fs', 'today']);
    expect(phraseTerms('Release v1.4.0.')).toEqual(['release', 'v1', '4', '0']);
    expect(phraseTerms('x86-64 assembly')).toEqual(['x86', '64', 'assembly']);
  });

  it('adds few words to ordinary prose', () => {
    const prose = 'The garden needs watering twice a week, and the tomatoes are ripe. Compost helps; so does mulch.';
    expect(searchTerms(prose)).toEqual(phraseTerms(prose));
  });
});

describe('scripts written without spaces are segmented', () => {
  it.each([
    // Japanese: words, particles, and Han pairs that are not words.
    ['同期設定のデータをセットアップしてください', '同期 設定 の データ を セットアップ し て くだ さい 期設'],
    ['データ', 'データ'],
    ['セットアップ', 'セットアップ'],
    ['ﾃﾞｰﾀをｾｯﾄｱｯﾌﾟ', 'データ を セットアップ'],
    // Chinese: the segmenter's words, then each pair of adjacent characters that is not one of them.
    ['数据链接和同步设置', '数据 链 接 和 同步 设置 据链 链接 接和 和同 步设'],
    ['链接', '链 接 链接'],
    ['链', '链'],
    ['数据', '数据'],
    // Thai, Lao.
    ['ภาษาไทยง่ายนิดเดียว', 'ภาษา ไทย ง่าย นิด เดียว'],
    ['ພາສາລາວ', 'ພາສາ ລາວ'],
    // Mixed with Latin: the unspaced run is apart from what touches it.
    ['Node.jsのセットアップ', 'node.js node js の セットアップ'],
    ['v1.4.0から', 'v1.4.0 v1 4 0 から'],
    ['x86-64の環境', 'x86-64 x86 64 の 環境'],
    ['2024年', '2024 年'],
    ['Obsidian Syncのセットアップ', 'obsidian sync の セットアップ'],
    // Korean is written with spaces and is not segmented.
    ['한국어 텍스트입니다', '한국어 텍스트입니다'],
  ])('%j → %s', (text, expected) => {
    expect(searchTerms(text).join(' ')).toBe(expected);
  });

  it.each([
    ['同期設定のデータをセットアップしてください', '同期 設定 の データ を セットアップ し て くだ さい'],
    ['数据链接和同步设置', '数据 链 接 和 同步 设置'],
    ['Node.jsのセットアップ', 'node js の セットアップ'],
  ])('phraseTerms(%j) → %s (no pairs, no compounds)', (text, expected) => {
    expect(phraseTerms(text).join(' ')).toBe(expected);
  });

  it('keeps the text order across scripts', () => {
    expect(phraseTerms('Sync 同期 and Publish 公開 v2')).toEqual(['sync', '同期', 'and', 'publish', '公開', 'v2']);
  });

  it('finds a Chinese word wherever it is written, however the segmenter cut it there', () => {
    // 链接 is 链 / 接 in one place and 链 / 接到 in another: the pair is indexed in both.
    for (const text of ['数据链接和同步设置', '图片会链接到其网络', '或链接到最近添加的笔记', '内部链接']) {
      expect(searchTerms(text)).toContain('链接');
    }
  });

  it('gives a note every pair of adjacent Han characters it holds, as a word or a pair', () => {
    const texts = ['数据链接和同步设置都保存在本地', '我们的笔记应用支持离线使用', '同期設定のデータ', '中华人民共和国成立'];
    for (const text of texts) {
      const terms = new Set(searchTerms(text));
      const characters = [...text];
      for (let i = 0; i + 1 < characters.length; i++) {
        const pair = `${characters[i]}${characters[i + 1]}`;
        if (/^\p{Script=Han}{2}$/u.test(pair)) expect(terms.has(pair), `${text}: ${pair}`).toBe(true);
      }
    }
  });

  it('segments runs together or alone, short or long, into the same words', () => {
    const sentences = [
      '同期設定のデータをセットアップしてください',
      '数据链接和同步设置',
      'ノートはプレーンテキストファイルとして保存されます',
      'ภาษาไทยง่ายนิดเดียว',
      '我们的笔记应用支持离线使用',
      'ファイルシステム',
      '中华人民共和国',
    ];
    const rng = createRng(16);
    // Runs joined by punctuation: segmented in batches, as in a note.
    const picks = Array.from({ length: 400 }, () => sentences[Math.floor(rng() * sentences.length)] as string);
    const alone = picks.flatMap((sentence) => phraseTerms(sentence));
    expect(phraseTerms(picks.join('。'))).toEqual(alone);
    expect(phraseTerms(picks.join(' '))).toEqual(alone);
    // One run far longer than a window (no punctuation at all): every word of the short runs is still there.
    const long = phraseTerms(picks.join(''));
    const words = new Set(long);
    for (const word of new Set(alone)) if (word.length > 1) expect(words.has(word), word).toBe(true);
    expect(long.join('')).toBe(alone.join(''));
  });

  it('cuts a long unspaced text in time proportional to its length', () => {
    const text = '同期設定のデータをセットアップしてください'.repeat(5000); // 105,000 characters, no punctuation
    const started = performance.now();
    const terms = searchTerms(text);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(terms.filter((term) => term === 'データ')).toHaveLength(5000);
  });

  it('gives MiniSearch the raw words, compounds and pairs (splitWords)', () => {
    expect(splitWords('Node.jsの链接 v1.4.0')).toEqual(['Node.js', 'Node', 'js', 'の', '链', '接', '链接', 'v1.4.0', 'v1', '4', '0']);
  });

  it('cuts at tabs and zero-width spaces too', () => {
    expect(searchTerms('garden\tcompost')).toEqual(['garden', 'compost']);
    expect(searchTerms('ភាសា\u200bខ្មែរ')).toEqual(['ភាសា', 'ខ្មែរ']);
  });
});
