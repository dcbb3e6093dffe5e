import { describe, expect, it } from 'vitest';
import { createPolicy, keepsBoundaryTag, noteInBoundary } from '../../src/access/policy.js';
import { countTags } from '../../src/tools/tags-folders.js';
import { frontmatterTags, mergeTags, normaliseTag, noteHasTag, tagCovers, tagFilterCandidates, tagKey } from '../../src/format/tags.js';

describe('normaliseTag', () => {
  it.each([
    ['#ML', '#ml'],
    ['@Alice', '@alice'],
    ['#ml/papers', '#ml/papers'],
    ['#ml/', '#ml'],
    ['#2024-goals', '#2024-goals'],
    ['#123', undefined],
    ['#', undefined],
    ['ml', undefined],
    ['#a b', undefined],
    ['#café', '#café'],
    ['#_', '#_'],
  ])('%j → %j', (raw, expected) => {
    expect(normaliseTag(raw)).toBe(expected);
  });
});

describe('frontmatterTags', () => {
  it.each([
    [['ml', '#Papers'], ['#ml', '#papers']],
    ['ml, papers', ['#ml', '#papers']],
    ['ml papers', ['#ml', '#papers']],
    [['ml', 'ml'], ['#ml']],
    [[2024, 'x'], ['#x']],
    [null, []],
    [{ a: 1 }, []],
  ])('%j → %j', (value, expected) => {
    expect(frontmatterTags(value)).toEqual(expected);
  });
});

describe('tag filters', () => {
  it.each([
    ['#ml', '#ml', true],
    ['#ml', '#ml/papers', true],
    ['#ml', '#mlops', false],
    ['#ml/papers', '#ml', false],
    ['#spanish', '#spanish-study', false],
  ])('%s covers %s: %s', (filter, tag, expected) => {
    expect(tagCovers(filter, tag)).toBe(expected);
  });

  it.each([
    ['#ml', ['#ml']],
    ['@bob', ['@bob']],
    ['ml', ['#ml', '@ml']],
    ['ML', ['#ml', '@ml']],
    ['#', undefined],
    ['two words', undefined],
  ])('candidates of %j', (filter, expected) => {
    expect(tagFilterCandidates(filter)).toEqual(expected);
  });

  it('matches notes by any candidate', () => {
    expect(noteHasTag(['@ml'], ['#ml', '@ml'])).toBe(true);
    expect(noteHasTag(['#ml/x'], ['#ml'])).toBe(true);
    expect(noteHasTag(['#other'], ['#ml'])).toBe(false);
  });
});

describe('tags that differ only in case are one tag (full case folding, as folders)', () => {
  const KELVIN = '#wor\u212A'; // KELVIN SIGN, canonically the letter K

  it.each([
    ['#work', '#work', true],
    ['#work', KELVIN, true],
    ['#work', `${KELVIN}/deep`, true],
    ['#strasse', '#straße', true],
    ['#straße', '#strasse/x', true],
    ['#file', '#ﬁle', true],
    ['#λογοσ', '#λογος', true],
    ['#café', '#cafe\u0301', true],
    ['#work', '#workshop', false],
    ['#kirmizi', '#kırmızı', false],
    ['#work', '@work', false],
  ])('%s covers %s: %s', (filter, tag, expected) => {
    expect(tagCovers(filter, tag)).toBe(expected);
    expect(noteHasTag([tag], [filter])).toBe(expected);
  });

  it('treats a tag boundary and a tag filter alike', () => {
    const boundary = createPolicy({ tag: '#work' });
    const filter = tagFilterCandidates('#work') ?? [];
    for (const tags of [[KELVIN], ['#work'], ['#work/x'], [`${KELVIN}/x`], ['#strasse'], ['#workshop'], ['@work']]) {
      const inFilter = noteHasTag(tags, filter);
      expect(noteInBoundary(boundary, { folder: null, tags })).toBe(inFilter);
      expect(keepsBoundaryTag(boundary, tags)).toBe(inFilter);
    }
    expect(noteInBoundary(createPolicy({ tag: '#STRASSE' }), { folder: null, tags: ['#straße'] })).toBe(true);
  });

  it('keeps the first spelling when lists merge', () => {
    expect(mergeTags(['#straße', '#ml'], ['#strasse', KELVIN, '#work'])).toEqual(['#straße', '#ml', KELVIN]);
    expect(frontmatterTags(['Straße', 'STRASSE', 'ml'])).toEqual(['#straße', '#ml']);
    expect(tagKey('#Straße')).toBe(tagKey('#strasse'));
  });

  it('counts look-alike tags once per note in list_tags, in the spelling most notes use', () => {
    const lists = [['#straße'], ['#straße'], ['#strasse', '#straße'], ['#ml']];
    expect(countTags(lists, '#', 10)).toEqual([
      { tag: '#straße', count: 3 },
      { tag: '#ml', count: 1 },
    ]);
  });
});
