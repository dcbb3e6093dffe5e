import { describe, expect, it } from 'vitest';
import { counted } from '../../src/format/counts.js';

describe('counted', () => {
  it.each([
    [0, 'note', undefined, '0 notes'],
    [1, 'note', undefined, '1 note'],
    [2, 'note', undefined, '2 notes'],
    [10_000, 'note', undefined, '10,000 notes'],
    [1, 'match', 'matches', '1 match'],
    [3, 'match', 'matches', '3 matches'],
    [1.5, 'second', undefined, '1.5 seconds'],
  ])('%d %s', (count, noun, pluralNoun, expected) => {
    expect(counted(count, noun, pluralNoun)).toBe(expected);
  });
});
