import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, removeDir, writeVault, type Harness } from '../../support/helpers.js';

/**
 * search_notes over notes in many languages and scripts, written for this
 * test: the words of unspaced scripts are found inside sentences, the marks
 * that make a letter are kept, the ones people leave out are folded, and
 * versions and identifiers are words of their own as well as their parts.
 */

interface Hit {
  title: string;
  matched_terms?: string[];
}
interface Page {
  items: Hit[];
  total: number;
}

let n = 0;
const note = (title: string, body: string) => `---\nid: 00000000-0000-4000-8000-${String(++n).padStart(12, '0')}\ntitle: ${title}\n---\n${body}\n`;

const NOTES: Record<string, string> = {
  // Japanese
  'ja/sync.md': note('同期の手順', '同期設定のデータをセットアップしてください。設定画面から始めます。'),
  'ja/text.md': note('書き方', 'ノートはプレーンテキストファイルとして保存されます。'),
  'ja/db.md': note('記録', 'テータという言葉はありません。'),
  // Chinese: 链接 is cut 链 / 接 in one sentence and 链 / 接到 in the other.
  'zh/data.md': note('说明', '数据链接和同步设置都保存在本地。'),
  'zh/images.md': note('图片', '图片会链接到其网络地址。'),
  'zh/other.md': note('其他', '我们的笔记应用支持离线使用。'),
  // Thai
  'th/lang.md': note('ภาษา', 'ภาษาไทยง่ายนิดเดียว'),
  // Russian, Ukrainian
  'ru/tree.md': note('Праздник', 'Ёлка стоит в углу, и мой кот спит под ней.'),
  'ru/mine.md': note('Вещи', 'Это мои книги.'),
  'uk/city.md': note('Місто', 'Київ восени.'),
  // German
  'de/cheese.md': note('Einkauf', 'Käse und Brötchen für die Straße.'),
  // Greek
  'el/country.md': note('Ταξίδι', 'ΕΛΛΆΔΑ και Κύπρος.'),
  // Arabic, vocalised
  'ar/name.md': note('اسم', 'أَحْمَد يتعلم اللغة العَرَبِيَّة.'),
  // Hebrew, pointed
  'he/hello.md': note('ברכה', 'שָׁלוֹם עֲלֵיכֶם'),
  // Korean
  'ko/lang.md': note('언어', '한국어 텍스트입니다.'),
  // Hindi
  'hi/lang.md': note('भाषा', 'हिन्दी एक भाषा है।'),
  // Versions and identifiers
  'rel/140.md': note('Release 140', 'Changes in v1.4.0: faster sync.'),
  'rel/104.md': note('Release 104', 'Changes in v1.0.4: a fix.'),
  'code/x86.md': note('Targets', 'We build for x86-64 and arm64.'),
  'code/apart.md': note('Apart', 'The x86 manual, page 64.'),
  'code/fs.md': note('Files', 'Import node:fs and read foo_bar from the e-mail.'),
  'code/mail.md': note('Mail', 'The mail came late.'),
};

let h: Harness;
beforeAll(async () => {
  h = await connect({ dir: await writeVault(NOTES) });
});
afterAll(async () => {
  await h.close();
  await removeDir(h.dir);
});

const search = (query: string) => h.ok<Page>('search_notes', { query, size: 50 });
const titles = async (query: string) => (await search(query)).items.map((item) => item.title);

describe('scripts written without spaces', () => {
  it.each([
    ['データ', ['同期の手順']],
    ['セットアップ', ['同期の手順']],
    ['同期', ['同期の手順']],
    ['テキストファイル', ['書き方']],
    ['数据', ['说明']],
    ['设置', ['说明']],
    ['笔记', ['其他']],
    ['ภาษาไทย', ['ภาษา']],
    ['ง่าย', ['ภาษา']],
  ])('%j finds a word inside a sentence', async (query, expected) => {
    expect(await titles(query)).toEqual(expected);
  });

  it('keeps kana voicing marks: データ is not テータ', async () => {
    const page = await search('データ');
    expect(page.items.map((item) => item.matched_terms)).toEqual([['データ']]);
    expect(await titles('テータ')).toEqual(['記録']);
  });

  it('finds 链接 in both sentences, however the segmenter cut it', async () => {
    const found = await titles('链接');
    expect(found.slice(0, 2).sort()).toEqual(['图片', '说明']);
  });

  it('ranks the note holding a Japanese compound as typed first', async () => {
    expect((await titles('同期設定'))[0]).toBe('同期の手順');
  });

  it('finds a Han word typed inside a longer query', async () => {
    expect((await titles('数据链接'))[0]).toBe('说明');
  });
});

describe('marks', () => {
  it.each([
    ['елка', ['Праздник']],
    ['ЁЛКА', ['Праздник']],
    ['мой', ['Праздник']],
    ['мои', ['Вещи']], // й is a letter of its own
    ['київ', ['Місто']],
    ['kase', ['Einkauf']],
    ['Käse', ['Einkauf']],
    ['brotchen', ['Einkauf']],
    ['ελλαδα', ['Ταξίδι']],
    ['Ελλάδα', ['Ταξίδι']],
    ['احمد', ['اسم']],
    ['أحمد', ['اسم']],
    ['العربية', ['اسم']],
    ['שלום', ['ברכה']],
    ['한국어', ['언어']],
    ['हिन्दी', ['भाषा']],
  ])('%j → %j', async (query, expected) => {
    expect(await titles(query)).toEqual(expected);
  });

  it('reports intact words as matched terms', async () => {
    expect((await search('हिन्दी')).items[0]?.matched_terms).toEqual(['हिन्दी']);
    expect((await search('한국어')).items[0]?.matched_terms).toEqual(['한국어']);
  });
});

describe('versions and identifiers', () => {
  it('ranks the note holding v1.4.0 above the one holding v1.0.4', async () => {
    const found = await titles('v1.4.0');
    expect(found[0]).toBe('Release 140');
    expect(found).toContain('Release 104');
    expect((await search('v1.4.0')).items[0]?.matched_terms).toContain('v1.4.0');
  });

  it('finds a compound by its parts', async () => {
    expect(await titles('x86')).toEqual(expect.arrayContaining(['Targets', 'Apart']));
    expect(await titles('fs')).toEqual(['Files']);
    expect(await titles('bar')).toEqual(['Files']);
  });

  it('ranks the compound as typed above its parts apart', async () => {
    expect((await titles('x86-64'))[0]).toBe('Targets');
    expect((await titles('node:fs'))[0]).toBe('Files');
    expect((await titles('foo_bar'))[0]).toBe('Files');
    expect((await titles('e-mail'))[0]).toBe('Files');
  });
});
