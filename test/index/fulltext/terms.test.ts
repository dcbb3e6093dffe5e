import { describe, expect, it } from 'vitest';
import { normaliseTerm } from '../../../src/index/fulltext/terms.js';

describe('normaliseTerm', () => {
  it.each([
    ['garden', 'garden'],
    ['Garden', 'garden'],
    ['GARDEN', 'garden'],
    ['café', 'cafe'],
    ['CAFÉ', 'cafe'],
    ['naïve', 'naive'],
    ['Ångström', 'angstrom'],
    ['ﬁne', 'fine'], // a ligature decomposes
    ['straße', 'straße'], // ß has no decomposition
    ['日本', '日本'],
    ['x2', 'x2'],
    ['', null],
    // Stop words are words of the index like any other (a query leaves them out: stop-words.ts).
    ['the', 'the'],
    ['The', 'the'],
    ['AND', 'and'],
    ['thé', 'the'],
  ])('%j → %j', (term, expected) => {
    expect(normaliseTerm(term)).toBe(expected);
  });
});

describe('normaliseTerm folds the marks people leave out, and keeps the ones that make the letter', () => {
  it.each([
    // Latin: every mark goes, as before; letters without a decomposition stay.
    ['Über', 'uber'],
    ['résumé', 'resume'],
    ['Tiếng', 'tieng'],
    ['İstanbul', 'istanbul'],
    ['łódź', 'łodz'],
    ['cafe\u0301', 'cafe'], // written decomposed
    ['Ｗｉｎｄｏｗｓ１０', 'windows10'], // full-width forms
    ['\u212bngstr\u00f6m', 'angstrom'], // the Angstrom sign is Å
    ['㎡', 'm2'],
    // Greek: tonos, dialytika and breathings go; final ς is σ.
    ['Ελλάδα', 'ελλαδα'],
    ['ΕΛΛΆΔΑ', 'ελλαδα'],
    ['οδός', 'οδοσ'],
    ['ΟΔΟΣ', 'οδοσ'],
    ['Ϊ', 'ι'],
    ['ἀρχή', 'αρχη'],
    // Cyrillic: ё is е, stress accents go; й, ї, ў, ѓ, ќ are letters of their own.
    ['Ёлка', 'елка'],
    ['молоко́', 'молоко'],
    ['мой', 'мой'],
    ['Київ', 'київ'],
    ['ўсё', 'ўсе'],
    ['ѓубре', 'ѓубре'],
    ['ќе', 'ќе'],
    ['Москва', 'москва'],
    // Arabic: harakat and tatweel go, hamza and madda on alef fold to alef; ؤ and ئ stay.
    ['عَرَبِيّ', 'عربي'],
    ['عـربي', 'عربي'],
    ['أحمد', 'احمد'],
    ['إسلام', 'اسلام'],
    ['آخر', 'اخر'],
    ['مسؤول', 'مسؤول'],
    ['رئيس', 'رئيس'],
    // Hebrew: points go.
    ['שָׁלוֹם', 'שלום'],
    // Kana keep their voicing marks, half-width kana become full-width.
    ['データ', 'データ'],
    ['ください', 'ください'],
    ['パスワード', 'パスワード'],
    ['ﾃﾞｰﾀ', 'データ'],
    ['テ\u3099ータ', 'データ'], // written decomposed
    // Hangul stays composed.
    ['한국어', '한국어'],
    ['데이터를', '데이터를'],
    // Indic vowel signs, viramas and nuktas stay.
    ['हिन्दी', 'हिन्दी'],
    ['क़लम', 'क\u093cलम'],
    ['বাংলা', 'বাংলা'],
    ['தமிழ்', 'தமிழ்'],
    // Thai, Lao, Khmer and Myanmar vowels and tones stay.
    ['ง่าย', 'ง่าย'],
    ['ພາສາ', 'ພາສາ'],
    ['ភាសា', 'ភាសា'],
    ['မြန်မာ', 'မြန်မာ'],
    // Han: compatibility ideographs become the unified ones.
    ['\uf900', '\u8c48'],
  ])('%j → %j', (term, expected) => {
    expect(normaliseTerm(term)).toBe(expected);
  });

  it('gives the same word however it was composed', () => {
    for (const word of ['データ', 'ください', '한국어', 'हिन्दी', 'ที่นี่', 'Ελλάδα', 'Ёлка', 'أحمد', 'café']) {
      expect(normaliseTerm(word.normalize('NFD'))).toBe(normaliseTerm(word.normalize('NFC')));
      expect(normaliseTerm(word.normalize('NFKD'))).toBe(normaliseTerm(word));
    }
  });

  it('is idempotent', () => {
    for (const word of ['データ', 'ﾃﾞｰﾀ', '한국어', 'हिन्दी', 'ง่าย', 'Ελλάδα', 'ΟΔΟΣ', 'Ёлка', 'عَرَبِيّ', 'שָׁלוֹם', 'Ångström', 'x86-64']) {
      const once = normaliseTerm(word);
      expect(once).not.toBeNull();
      expect(normaliseTerm(once as string)).toBe(once);
    }
  });
});
