import { describe, expect, it } from 'vitest';
import { DamagedRecords, decodeRecords, encodeRecords } from '../../src/index/record-columns.js';
import { SOURCES, type NoteRecord } from '../../src/vault/note.js';
import { createRng } from '../support/random.js';

function record(overrides: Partial<NoteRecord> = {}): NoteRecord {
  return {
    id: '01JD0000000000000000000000',
    path: 'Work/Plan.md',
    folder: 'Work',
    title: 'Plan',
    source: 'note',
    createdMs: 1_700_000_000_000,
    updatedMs: 1_700_000_500_000,
    tags: ['#work', '#work/q3'],
    snippet: 'The plan for the quarter…',
    shared: false,
    broken: false,
    size: 120,
    mtimeMs: 1_700_000_500_123.456,
    ctimeMs: 1_700_000_500_124.5,
    ino: 9_007_199_254_740_000,
    birthtimeMs: 0,
    hash: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
    ...overrides,
  };
}

function section(records: readonly NoteRecord[]): Buffer {
  return Buffer.concat([...encodeRecords(records)]);
}

function roundTrip(records: readonly NoteRecord[]): NoteRecord[] {
  return decodeRecords(section(records));
}

describe('records by column', () => {
  it.each<[string, NoteRecord[]]>([
    ['no records', []],
    ['one record', [record()]],
    ['a note at the vault root', [record({ folder: null, path: 'Plan.md' })]],
    ['a folder named like nothing else', [record({ folder: '', path: '/Plan.md' })]],
    ['no tags', [record({ tags: [] })]],
    ['stated dates', [record({ statedCreatedMs: 1_600_000_000_000, statedUpdatedMs: -5 })]],
    ['a stated creation date only', [record({ statedCreatedMs: 0 })]],
    ['every source', SOURCES.map((source, i) => record({ source, id: `id-${i}` }))],
    ['shared and broken', [record({ shared: true, broken: true }), record({ shared: true }), record({ broken: true })]],
    ['the keys few records have', [record({ sourceUrl: 'https://example.com/a?b=c', aliases: ['P', 'Plän'], attachment: 'Work/Plan.pdf', review: { due: '2026-12-02', interval: 3, suspended: false } })]],
    ['tasks', [record({ id: 'a', tasks: [{ line: 3, status: 'open', text: 'pay 🦊 #money', tags: ['#money'], due: '2026-12-10', priority: 'high', fields: 'emoji' }, { line: 4, status: 'done', text: '' }] }), record({ id: 'b' })]],
    ['links', [record({ id: 'a', links: ['Plan', 'Projects/Big Plan.md', '../Über/日本語'] }), record({ id: 'b' }), record({ id: 'c', links: ['One'] })]],
    ['text past Latin-1', [record({ title: '日本語のノート 🦊', snippet: 'It’s “quoted” — and 中文 too', path: 'Ünïcode/日本語.md', folder: 'Ünïcode' })]],
    ['a NUL and line breaks in the text', [record({ title: 'a\u0000b', snippet: 'line one\r\nline two\u0000' })]],
    ['empty strings', [record({ title: '', snippet: '', hash: '' })]],
    ['the same tag on many notes', Array.from({ length: 5 }, (_, i) => record({ id: `n${i}`, tags: ['#same', `#own${i}`] }))],
  ])('gives back %s as written', (_name, records) => {
    expect(roundTrip(records)).toStrictEqual(records);
  });

  it('gives back a lone surrogate as U+FFFD, and the text after it intact', () => {
    const [decoded] = roundTrip([record({ title: 'a\uD800b', snippet: 'after' })]);
    expect(decoded?.title).toBe('a\uFFFDb');
    expect(decoded?.snippet).toBe('after');
  });

  it('gives back thousands of random records across chunks, with text past Latin-1 in some chunks only', () => {
    const rng = createRng(17);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
    const words = ['alpha', 'beta', 'Ærø', 'naïve', '東京', '🦊', 'it’s', '', 'x'.repeat(300)];
    const records = Array.from({ length: 3500 }, (_, i) => {
      const plain = i >= 1024 && i < 2048;
      const text = (n: number) => Array.from({ length: n }, () => (plain ? 'plain' : pick(words))).join(' ');
      const r = record({
        id: `id-${i}`,
        path: `F${i % 7}/${text(2)}-${i}.md`,
        folder: i % 5 === 0 ? null : `F${i % 7}`,
        title: text(3),
        snippet: text(Math.floor(rng() * 40)),
        tags: Array.from({ length: Math.floor(rng() * 4) }, () => `#${pick(['a', 'b/c', 'ü'])}`),
        source: pick(SOURCES),
        size: Math.floor(rng() * 1e6),
        mtimeMs: rng() * 1e12,
      });
      if (rng() < 0.3) r.statedCreatedMs = Math.floor(rng() * 1e12);
      if (rng() < 0.1) r.sourceUrl = `https://example.com/${i}`;
      return r;
    });
    expect(roundTrip(records)).toStrictEqual(records);
  });

  it('pauses between pieces rather than encoding every record in one go', () => {
    const pieces = [...encodeRecords(Array.from({ length: 12_000 }, (_, i) => record({ id: `n${i}` })))];
    expect(pieces.filter((piece) => piece.byteLength === 0).length).toBeGreaterThanOrEqual(2);
  });

  it.each<[string, (bytes: Buffer) => Buffer]>([
    ['empty', () => Buffer.alloc(0)],
    ['cut short at the front', (bytes) => bytes.subarray(10)],
    ['cut short at the end', (bytes) => bytes.subarray(0, bytes.length - 10)],
    ['a header length past the start', (bytes) => {
      const copy = Buffer.from(bytes);
      copy.writeUInt32LE(copy.length, copy.length - 4);
      return copy;
    }],
    ['a header that is not JSON', (bytes) => {
      const copy = Buffer.from(bytes);
      copy[copy.length - 5] = 0x7b;
      return copy;
    }],
    ['a byte more in the middle', (bytes) => Buffer.concat([bytes.subarray(0, 100), Buffer.from([1]), bytes.subarray(100)])],
  ])('refuses a section %s', (_name, damage) => {
    const bytes = section([record(), record({ id: 'other', tags: ['#x'] })]);
    expect(() => decodeRecords(damage(bytes))).toThrow(DamagedRecords);
  });
});
