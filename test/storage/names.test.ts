import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FoldedNameSet, foldMatches, foldName, resolveName } from '../../src/storage/names.js';

/**
 * casefolding.json: for every code point below U+20000 that Python's Unicode
 * database assigns, its canonical caseless key NFC(NFD(casefold(NFD(c))))
 * where that is not the character itself (Python's `str.casefold` is full
 * case folding, C + F of CaseFolding.txt), and the ranges that database does
 * not assign. Made with Python 3.11 (Unicode 14.0) by:
 *
 *   import json, unicodedata
 *   N = lambda form, s: unicodedata.normalize(form, s)
 *   folds, gaps, start = {}, [], None
 *   for cp in range(0x20001):
 *       gap = cp < 0x20000 and not 0xD800 <= cp <= 0xDFFF and unicodedata.category(chr(cp)) == 'Cn'
 *       if gap and start is None: start = cp
 *       if not gap and start is not None: gaps.append([start, cp - 1]); start = None
 *       if cp == 0x20000 or gap or 0xD800 <= cp <= 0xDFFF: continue
 *       key = N('NFC', N('NFD', N('NFD', chr(cp)).casefold()))
 *       if key != chr(cp): folds[format(cp, 'x')] = key
 *   print(json.dumps({'unicode': unicodedata.unidata_version, 'folds': folds, 'unassigned': gaps}, ensure_ascii=False))
 */
const TABLE = JSON.parse(readFileSync(new URL('./casefolding.json', import.meta.url), 'utf8')) as {
  unicode: string;
  folds: Record<string, string>;
  unassigned: [number, number][];
};

describe('foldName', () => {
  it.each([
    ['Work', 'work'],
    ['WORK', 'work'],
    ['work', 'work'],
    ['WOR\u212A', 'work'], // KELVIN SIGN, canonically K
    ['Wor\u212A', 'work'],
    ['Straße', 'strasse'],
    ['STRASSE', 'strasse'],
    ['\u1E9E', 'ss'], // capital sharp s
    ['ﬁle', 'file'],
    ['ΣΑΣ', 'σας'],
    ['σασ', 'σας'],
    ['\u212Bngstr\u00f6m', 'ångström'], // ANGSTROM SIGN
    ['Cafe\u0301', 'café'], // NFD
    ['Café', 'café'],
    ['İstanbul', 'i\u0307stanbul'],
    ['ſ', 's'], // long s
    ['µ', 'μ'], // micro sign
    ['ᾼ', 'αι'],
    ['Projects/Alpha', 'projects/alpha'],
  ])('%j → %j', (name, key) => {
    expect(foldName(name)).toBe(key);
  });

  it('keeps the dotless ı apart from i, as full case folding does', () => {
    expect(foldName('KIRMIZI')).toBe('kirmizi');
    expect(foldName('kırmızı')).not.toBe(foldName('KIRMIZI'));
  });

  it(`gives exactly the classes of Unicode full case folding (Python's casefold, Unicode ${TABLE.unicode}) over planes 0 and 1`, () => {
    const skip = new Set<number>();
    for (const [from, to] of TABLE.unassigned) for (let cp = from; cp <= to; cp++) skip.add(cp);
    const theirKey = (cp: number): string => TABLE.folds[cp.toString(16)] ?? String.fromCodePoint(cp);
    // Same class there → same key here (nothing split); same key here → same class there (nothing merged).
    const classOfKey = new Map<string, string>();
    const merged: string[] = [];
    const split: string[] = [];
    for (let cp = 0; cp < 0x20000; cp++) {
      if ((cp >= 0xd800 && cp <= 0xdfff) || skip.has(cp)) continue;
      const ours = foldName(String.fromCodePoint(cp));
      const theirs = theirKey(cp);
      if (ours !== foldName(theirs)) split.push(cp.toString(16));
      const seen = classOfKey.get(ours);
      if (seen === undefined) classOfKey.set(ours, theirs);
      else if (seen !== theirs) merged.push(cp.toString(16));
    }
    expect(split).toEqual([]);
    expect(merged).toEqual([]);
  });
});

describe('resolveName', () => {
  const folders = ['Work', 'WORK', 'work', 'WOR\u212A', 'Home', 'Projects/Alpha', 'notes'];

  it.each([
    // The exact spelling first, whatever look-alikes exist.
    ['Work', 'Work'],
    ['WORK', 'WORK'],
    ['work', 'work'],
    ['WOR\u212A', 'WOR\u212A'],
    // Otherwise the only folder that folds alike…
    ['home', 'Home'],
    ['projects/alpha', 'Projects/Alpha'],
    ['NOTES', 'notes'],
    // …and none when several do, or none does.
    ['wORK', undefined],
    ['Wor\u212A', undefined],
    ['Elsewhere', undefined],
    ['Projects', undefined],
  ])('%j → %j', (name, expected) => {
    expect(resolveName(name, folders)).toBe(expected);
  });

  it('lists the look-alikes of a name', () => {
    expect(foldMatches('wORK', folders)).toEqual(['Work', 'WORK', 'work', 'WOR\u212A']);
    expect(foldMatches('STRASSE', ['Straße', 'Strasse', 'Street'])).toEqual(['Straße', 'Strasse']);
  });
});

describe('FoldedNameSet', () => {
  it('resolves like resolveName while names come and go', () => {
    const set = new FoldedNameSet();
    set.add('work').add('Home').add('work');
    expect(set.size).toBe(2);
    expect(set.resolve('Work')).toBe('work');
    set.add('WORK');
    expect(set.resolve('Work')).toBeUndefined();
    expect(set.resolve('WORK')).toBe('WORK');
    expect(set.matches('Work')).toEqual(['work', 'WORK']);
    set.add('Work');
    expect(set.resolve('Work')).toBe('Work');
    expect(set.delete('Work')).toBe(true);
    expect(set.delete('Work')).toBe(false);
    expect(set.delete('WORK')).toBe(true);
    expect(set.resolve('Work')).toBe('work');
    expect(set.resolve('HOME')).toBe('Home');
    set.clear();
    expect(set.size).toBe(0);
    expect(set.resolve('home')).toBeUndefined();
    expect(set.matches('home')).toEqual([]);
  });

  it('agrees with resolveName on random sets of look-alikes', () => {
    const spellings = ['Work', 'WORK', 'work', 'wOrK', 'WOR\u212A', 'Wor\u212A', 'Home', 'home', 'Straße', 'STRASSE'];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const set = new FoldedNameSet();
    for (let step = 0; step < 400; step++) {
      const name = spellings[next(spellings.length)] as string;
      if (next(3) === 0) set.delete(name);
      else set.add(name);
      for (const probe of spellings) if (set.resolve(probe) !== resolveName(probe, [...set])) throw new Error(`${probe} in ${[...set].join(', ')}`);
    }
  });
});
