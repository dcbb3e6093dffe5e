import { describe, expect, it } from 'vitest';
import { normaliseTerm } from '../../src/index/terms.js';

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
    ['the', null],
    ['The', null],
    ['AND', null],
    ['thé', null], // folds to a stop word
  ])('%j → %j', (term, expected) => {
    expect(normaliseTerm(term)).toBe(expected);
  });
});
