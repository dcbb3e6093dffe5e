import { describe, expect, it } from 'vitest';
import { chunkText, DEFAULT_CHUNK_OPTIONS } from '../../../src/index/vectors/chunking.js';

const words = (n: number, from = 0): string => Array.from({ length: n }, (_, i) => `w${i + from}`).join(' ');
const span = (chunk: string): [string, string, number] => {
  const parts = chunk.split(' ');
  return [parts[0] as string, parts[parts.length - 1] as string, parts.length];
};

describe('chunkText', () => {
  it.each([
    { name: 'empty text', text: '', options: {}, expected: [] },
    { name: 'only whitespace', text: ' \n\t ', options: {}, expected: [] },
    { name: 'short note: one chunk, whitespace collapsed', text: '  Sourdough\n\nloaf  notes ', options: {}, expected: ['Sourdough loaf notes'] },
    { name: 'exactly one chunk long', text: words(5), options: { words: 5, overlap: 2 }, expected: [words(5)] },
    { name: 'one word over: second chunk overlaps', text: words(6), options: { words: 5, overlap: 2 }, expected: [words(5), words(3, 3)] },
    { name: 'several chunks', text: words(11), options: { words: 5, overlap: 2 }, expected: [words(5), words(5, 3), words(5, 6)] },
    { name: 'no overlap', text: words(7), options: { words: 3, overlap: 0 }, expected: [words(3), words(3, 3), words(1, 6)] },
    { name: 'long words are cut', text: 'abcdefghij xy', options: { maxWordChars: 4 }, expected: ['abcd efgh ij xy'] },
    { name: 'cut by code point, not UTF-16 unit', text: '😀😀😀', options: { maxWordChars: 2 }, expected: ['😀😀 😀'] },
    { name: 'chunk cap', text: words(100), options: { words: 10, overlap: 0, maxChunks: 3 }, expected: [words(10), words(10, 10), words(10, 20)] },
  ])('$name', ({ text, options, expected }) => {
    expect(chunkText(text, options)).toEqual(expected);
  });

  it('cuts a 300-word note into two overlapping ~200-word chunks by default', () => {
    const chunks = chunkText(words(300));
    expect(chunks.map(span)).toEqual([
      ['w0', 'w199', 200],
      ['w160', 'w299', 140],
    ]);
  });

  it('keeps every word of a long note in some chunk, up to the cap', () => {
    const { words: size, overlap, maxChunks } = DEFAULT_CHUNK_OPTIONS;
    const chunks = chunkText(words(10_000));
    expect(chunks).toHaveLength(maxChunks);
    chunks.forEach((chunk, i) => expect(span(chunk)[0]).toBe(`w${i * (size - overlap)}`));
  });

  it.each([{ words: 0 }, { words: 5, overlap: 5 }, { overlap: -1 }, { maxWordChars: 0 }, { maxChunks: 0 }])('rejects %o', (options) => {
    expect(() => chunkText('a b c', options)).toThrow(RangeError);
  });
});
