import { describe, expect, it } from 'vitest';
import { CHUNK, chunkBytesOf, DamagedRecords, StringColumn } from '../../src/index/string-column.js';
import { decodeStringColumn } from '../support/records.js';

function roundTrip(texts: readonly string[]): string[] {
  const column = new StringColumn();
  for (const text of texts) column.add(text);
  const [text, lengths, chunks] = column.blobs().map((blob) => Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength)) as [Buffer, Buffer, Buffer];
  return decodeStringColumn(texts.length, lengths, chunks, text);
}

describe('a chunk of texts as stored', () => {
  it.each([
    { name: 'ASCII', joined: 'plain text', bytes: 10 },
    { name: 'Latin-1 letters', joined: 'café naïve', bytes: 10 },
    { name: 'a character past U+00FF', joined: 'plan…', bytes: 10 },
    { name: 'a surrogate pair', joined: 'a😀', bytes: 6 },
    { name: 'nothing', joined: '', bytes: 0 },
  ])('is a byte a character in Latin-1, else two: $name', ({ joined, bytes }) => {
    expect(chunkBytesOf(joined).length).toBe(bytes);
  });
});

describe('decodeStringColumn', () => {
  it.each<[string, string[]]>([
    ['no texts', []],
    ['ASCII and empty texts', ['a', '', 'bc', '']],
    ['Latin-1 beside ASCII', ['café', 'plain']],
    ['wide characters and surrogate pairs', ['plan…', '☐ task', 'a😀b', '漢字']],
    ['chunks of each kind', Array.from({ length: CHUNK * 3 + 5 }, (_, i) => (Math.floor(i / CHUNK) === 1 ? `wide ${i} …` : `narrow ${i} é`))],
  ])('gives back what was stored: %s', (_, texts) => {
    expect(roundTrip(texts)).toEqual(texts);
  });

  it.each<[string, string, string]>([
    ['a lone high surrogate', 'a\uD800b…', 'a\uFFFDb…'],
    ['a lone low surrogate', '\uDC00x…', '\uFFFDx…'],
    ['a pair kept', '\uD83D\uDE00…', '\uD83D\uDE00…'],
  ])('gives back %s as U+FFFD, one unit long like itself', (_, stored, read) => {
    expect(roundTrip([stored, 'after'])).toEqual([read, 'after']);
  });

  it('refuses a chunk whose bytes fit neither a byte nor two a character', () => {
    const column = new StringColumn();
    column.add('abc');
    const [text, lengths, chunks] = column.blobs().map((blob) => Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength)) as [Buffer, Buffer, Buffer];
    expect(() => decodeStringColumn(1, lengths, chunks, Buffer.concat([text, Buffer.from('d')]))).toThrow(DamagedRecords);
    chunks.writeUInt32LE(4, 0);
    expect(() => decodeStringColumn(1, lengths, chunks, Buffer.concat([text, Buffer.from('d')]))).toThrow(DamagedRecords);
  });
});
