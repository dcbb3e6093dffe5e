import { describe, expect, it } from 'vitest';
import { DamagedRecords, decodeRecords, encodeRecords } from '../../src/index/record-columns.js';
import { StringColumn } from '../../src/index/string-column.js';
import { decodeStringColumn } from '../support/records.js';
import type { StoredValue } from '../../src/format/property-values.js';
import type { NoteTask } from '../../src/format/tasks.js';
import type { NoteRecord } from '../../src/vault/note.js';
import { catalogRecord } from '../support/records.js';

function record(id: string, extra: Pick<NoteRecord, 'properties' | 'tasks'> = {}): NoteRecord {
  return { ...catalogRecord(id, `${id}.md`, ['#work']), ...extra };
}

function section(records: readonly NoteRecord[]): Buffer {
  return Buffer.concat([...encodeRecords(records)]);
}

/** The blob at `index` of a section, by the lengths its header lists, for a test to damage. */
function blobAt(bytes: Buffer, index: number): Buffer {
  const headerBytes = bytes.readUInt32LE(bytes.length - 4);
  const header = JSON.parse(bytes.toString('utf8', bytes.length - 4 - headerBytes, bytes.length - 4)) as { blobs: number[] };
  const start = header.blobs.slice(0, index).reduce((sum, length) => sum + length, 0);
  return bytes.subarray(start, start + (header.blobs[index] as number));
}

/** Where the blobs of record-extras.ts start: 4 blobs of numbers, flags and tags, 3 for each of 7 text columns, then the JSON extras. */
const FIRST_EXTRA = 4 + 3 * 7 + 1;
const PROPERTY_KINDS = FIRST_EXTRA + 3;
const TASK_BITS = FIRST_EXTRA + 11;

describe('properties and tasks by column', () => {
  it.each<[string, Record<string, StoredValue>]>([
    ['text', { status: 'active', empty: '', note: 'Ünïcode 日本語 🦊' }],
    ['numbers', { priority: 3, ratio: -0.25, huge: 1e300, negativeZero: -0, tiny: 5e-324 }],
    ['checkboxes and an empty value', { done: true, draft: false, status: null }],
    ['lists of every kind', { aliases: ['a', 'b'], mixed: [1, 'two', true, false], none: [] }],
    ['dates as text', { created: '2025-04-14T23:45:25+00:00', due: '2026-12-10' }],
    ['names past Latin-1 and in an order', { zeta: 1, 'größe': 2, alpha: 3, '日付': '2026-01-02' }],
    ['no keys', {}],
  ])('gives back properties: %s', (_name, properties) => {
    const records = [record('a', { properties }), record('b'), record('c', { properties: { status: 'done' } })];
    const decoded = decodeRecords(section(records));
    expect(decoded).toStrictEqual(records);
    expect(Object.keys(decoded[0]?.properties ?? {})).toEqual(Object.keys(properties));
    expect(Object.is(decoded[0]?.properties?.negativeZero, -0)).toBe('negativeZero' in properties);
  });

  it.each<[string, NoteTask[]]>([
    ['an open task with nothing else', [{ line: 1, status: 'open', text: 'call Ann' }]],
    ['every status', [{ line: 1, status: 'open', text: 'a' }, { line: 2, status: 'done', text: 'b' }, { line: 3, status: 'cancelled', text: 'c' }]],
    ['every date and the emoji fields', [{ line: 7, status: 'done', text: 'pay', due: '2026-12-10', scheduled: '2026-12-01', start: '2026-11-30', done: '2026-12-02', cancelled: '2026-12-03', created: '2026-11-01', priority: 'highest', fields: 'emoji' }]],
    ['every priority and the Dataview fields', (['highest', 'high', 'medium', 'low', 'lowest'] as const).map((priority, i) => ({ line: i + 1, status: 'open' as const, text: `t${i}`, priority, fields: 'dataview' as const }))],
    ['tags, also ones no note carries', [{ line: 2, status: 'open', text: '#work and #only/here 🦊', tags: ['#work', '#only/here'] }, { line: 3, status: 'open', text: 'none', tags: [] }]],
    ['empty text and a far line', [{ line: 4_000_000, status: 'open', text: '' }]],
  ])('gives back tasks: %s', (_name, tasks) => {
    const records = [record('a'), record('b', { tasks }), record('c', { tasks: [{ line: 1, status: 'open', text: 'x', due: '2026-01-01' }] })];
    expect(decodeRecords(section(records))).toStrictEqual(records);
  });

  it('gives back properties and tasks across thousands of records', () => {
    const records = Array.from({ length: 2500 }, (_, i) =>
      record(`n${i}`, {
        ...(i % 3 === 0 ? {} : { properties: { created: `2025-01-${String((i % 28) + 1).padStart(2, '0')}`, priority: i % 5, tags2: i % 7 === 0 ? ['x', i] : null } }),
        ...(i % 4 === 0 ? { tasks: [{ line: i, status: 'open' as const, text: `task ${i} é`, ...(i % 8 === 0 ? { tags: [`#t${i % 3}`] } : {}) }] } : {}),
      }),
    );
    expect(decodeRecords(section(records))).toStrictEqual(records);
  });

  it.each<[string, (bytes: Buffer) => void, string]>([
    ['a value of no kind', (bytes) => blobAt(bytes, PROPERTY_KINDS).fill(9), 'value kind'],
    ['a task status past the last', (bytes) => blobAt(bytes, TASK_BITS).fill(3), 'task bits'],
    ['a task priority past the last', (bytes) => blobAt(bytes, TASK_BITS).fill(7 << 4), 'task bits'],
    // The same length as the name written, so that only the name is wrong.
    ['a property named __proto__', (bytes) => blobAt(bytes, FIRST_EXTRA).write('["__proto__"]', 'utf8'), 'property names'],
  ])('refuses a section with %s', (_name, damage, why) => {
    const bytes = section([record('a', { properties: { abcdefghi: 'x' }, tasks: [{ line: 1, status: 'open', text: 't' }] })]);
    expect(blobAt(bytes, FIRST_EXTRA).toString('utf8')).toBe('["abcdefghi"]');
    damage(bytes);
    expect(() => decodeRecords(bytes)).toThrow(new DamagedRecords(why));
  });
});

describe('a column of texts', () => {
  it.each<[string, string[]]>([
    ['none', []],
    ['one empty text', ['']],
    ['texts past Latin-1', ['a', 'Ünï', '日本語', '🦊', '']],
    ['more than a chunk', Array.from({ length: 2500 }, (_, i) => (i % 1000 === 0 ? `é${i}` : `t${i}`))],
  ])('gives back %s', (_name, texts) => {
    const column = new StringColumn();
    for (const text of texts) column.add(text);
    const [text, lengths, chunks] = column.blobs().map((blob) => Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength)) as [Buffer, Buffer, Buffer];
    expect(decodeStringColumn(texts.length, lengths, chunks, text)).toEqual(texts);
    expect(() => decodeStringColumn(texts.length + 1, lengths, chunks, text)).toThrow(DamagedRecords);
  });
});
