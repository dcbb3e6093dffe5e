import { describe, expect, it } from 'vitest';
import { frontmatterTags, normaliseTag, noteHasTag, tagCovers, tagFilterCandidates } from '../../src/vault/tags.js';

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
