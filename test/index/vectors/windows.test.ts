import { describe, expect, it } from 'vitest';
import { openingMark, parseOpeningMark } from '../../../src/index/vectors/stored-hashes.js';
import { tokenWindows, windowWords } from '../../../src/index/vectors/windows.js';

describe('tokenWindows', () => {
  const options = { tokens: 10, overlap: 3, maxWindows: 48 };
  it.each([
    { name: 'no words: no window', lengths: [], options, expected: [] },
    { name: 'fits in one window', lengths: [2, 3, 5], options, expected: [[0, 3]] },
    { name: 'a word over: the next window repeats the words that fit in the overlap', lengths: [2, 3, 5, 1], options, expected: [[0, 3], [3, 4]] },
    { name: 'overlap by whole words', lengths: [4, 4, 1, 1, 4, 4], options, expected: [[0, 4], [2, 6]] },
    { name: 'no overlap', lengths: [5, 5, 5], options: { ...options, overlap: 0 }, expected: [[0, 2], [2, 3]] },
    { name: 'a word longer than a window is a window alone', lengths: [1, 30, 1], options, expected: [[0, 1], [1, 2], [2, 3]] },
    { name: 'the overlap never goes back to the window start', lengths: [1, 1, 9, 1], options, expected: [[0, 2], [1, 3], [3, 4]] },
    { name: 'window cap', lengths: Array.from({ length: 100 }, () => 5), options: { tokens: 10, overlap: 0, maxWindows: 3 }, expected: [[0, 2], [2, 4], [4, 6]] },
  ])('$name', ({ lengths, options: opts, expected }) => {
    expect(tokenWindows(lengths, opts)).toEqual(expected);
  });

  it('covers every word of a long text, each window within its tokens', () => {
    const lengths = Array.from({ length: 500 }, (_, i) => 1 + (i % 4));
    const windows = tokenWindows(lengths, { tokens: 128, overlap: 16, maxWindows: 48 });
    expect(windows[0]?.[0]).toBe(0);
    expect(windows.at(-1)?.[1]).toBe(500);
    windows.forEach(([start, end], i) => {
      expect(lengths.slice(start, end).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(128);
      const previous = windows[i - 1];
      if (previous) expect(start).toBeLessThanOrEqual(previous[1]);
    });
  });

  const lead = { tokens: 10, overlap: 0, maxWindows: 48, lead: 4 };
  it.each([
    { name: 'lead: a text of one window has none (the window is cheap enough)', lengths: [2, 3, 5], expected: [[0, 3]] },
    { name: 'lead: a longer text starts with the words that fit it, then its windows from its start', lengths: [2, 2, 3, 3, 5], expected: [[0, 2], [0, 4], [4, 5]] },
    { name: 'lead: a first word longer than the lead is the lead alone', lengths: [6, 4, 5], expected: [[0, 1], [0, 2], [2, 3]] },
    { name: 'lead: every word fits the lead but not one window', lengths: [1, 1, 1, 1, 30], expected: [[0, 4], [0, 4], [4, 5]] },
    { name: 'lead: the window cap counts full windows only', lengths: Array.from({ length: 10 }, () => 5), options: { ...lead, maxWindows: 2 }, expected: [[0, 1], [0, 2], [2, 4]] },
    { name: 'lead: none when the cap leaves one window', lengths: Array.from({ length: 10 }, () => 5), options: { ...lead, maxWindows: 1 }, expected: [[0, 2]] },
  ])('$name', ({ lengths, options: opts, expected }) => {
    expect(tokenWindows(lengths, opts ?? lead)).toEqual(expected);
  });

  it.each([{ tokens: 0 }, { tokens: 5, overlap: 5 }, { overlap: -1 }, { maxWindows: 0 }, { lead: 0 }, { lead: 10 }])('rejects %o', (bad) => {
    expect(() => tokenWindows([1], { ...options, ...bad })).toThrow(RangeError);
  });
});

describe('windowWords', () => {
  it.each([
    { text: '', expected: [] },
    { text: '  Sourdough\n\nloaf\tnotes ', expected: ['Sourdough', 'loaf', 'notes'] },
    { text: 'abcdefghij xy', max: 4, expected: ['abcd', 'efgh', 'ij', 'xy'] },
    { text: '😀😀😀', max: 2, expected: ['😀😀', '😀'] },
  ])('$text', ({ text, max, expected }) => {
    expect(windowWords(text, max ?? 32)).toEqual(expected);
  });
});

describe('opening marks', () => {
  it.each([
    { stored: openingMark('3fa9', 4), expected: { hash: '3fa9', windows: 4 } },
    { stored: '3fa9', expected: undefined },
    { stored: '3fa9+opening/', expected: undefined },
    { stored: 'x+opening/2', expected: undefined },
  ])('$stored', ({ stored, expected }) => {
    expect(parseOpeningMark(stored)).toEqual(expected);
  });
});
