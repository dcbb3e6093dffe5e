import { describe, expect, it } from 'vitest';
import { decodeRecordTable, encodeRecords } from '../../src/index/record-columns.js';
import { Catalog } from '../../src/vault/catalog.js';
import type { GitHistory } from '../../src/vault/git/git-history.js';
import type { NoteRecord } from '../../src/vault/note.js';
import { tableOf, tableRecords, type RecordTable } from '../../src/vault/record-table.js';
import { StagedRows } from '../../src/vault/staged-rows.js';
import { catalogRecord } from '../support/records.js';

/** Records as the cache gives them back: by column, each row made when asked. */
function cachedTable(records: readonly NoteRecord[]): RecordTable {
  return decodeRecordTable(Buffer.concat([...encodeRecords(records)]));
}

function notes(count: number): NoteRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    ...catalogRecord(`n${i}`, `F${i % 3}/Sub/N${i}.md`, [`#t${i % 4}`]),
    snippet: `text ${i}`,
    ...(i % 2 === 0 ? { properties: { status: 'open', rank: i } } : {}),
    ...(i % 5 === 0 ? { tasks: [{ line: 3, status: 'open' as const, text: `task ${i}` }] } : {}),
  }));
}

function placedRows(records: readonly NoteRecord[], catalog = new Catalog()): { catalog: Catalog; table: RecordTable } {
  const table = cachedTable(records);
  catalog.adoptRows(new StagedRows(table));
  return { catalog, table };
}

describe('a catalog of cached rows', () => {
  it('knows every row by id, path and content before any is made, and makes each as the cache held it', () => {
    const records = notes(12);
    const { catalog } = placedRows(records);
    expect(catalog.size).toBe(12);
    expect(catalog.atPath('F1/Sub/N4.md')).toStrictEqual(records[4]);
    expect(catalog.holderOfContent('hash-n9')).toStrictEqual(records[9]);
    // Made once: asked again, the same object.
    expect(catalog.get('n4')).toBe(catalog.atPath('F1/Sub/N4.md'));
    expect([...catalog.all()]).toStrictEqual(records);
  });

  it('makes every row in steps, and then hands out the records it made', async () => {
    const records = notes(2500);
    const { catalog } = placedRows(records);
    const early = catalog.get('n2499');
    await catalog.makeRowsInSteps();
    const all = [...catalog.all()];
    expect(all).toStrictEqual(records);
    expect(all[2499]).toBe(early);
  });

  it('finds tagged notes among rows: the tag index makes them first', () => {
    const { catalog } = placedRows(notes(8));
    expect([...catalog.tagged(['#t1'])].map((record) => record.id).sort()).toEqual(['n1', 'n5']);
  });

  it('dates a row with the git history known when it is made, and counts only the rows git changes', () => {
    const records = notes(3).map((record) => ({ ...record, createdMs: 1000, updatedMs: 2000, birthtimeMs: 1000, mtimeMs: 2000 }));
    const { catalog } = placedRows(records);
    const history: GitHistory = {
      head: 'h',
      objectFormat: 'sha1',
      files: new Map([['F1/Sub/N1.md', { firstAddedMs: 500, lastCommitMs: 1500, blob: 'hash-n1' }]]),
    };
    expect(catalog.setGit(history)).toBe(1);
    expect(catalog.get('n1')).toMatchObject({ createdMs: 500, updatedMs: 1500 });
    expect(catalog.get('n0')).toMatchObject({ createdMs: 1000, updatedMs: 2000 });
    // The same history again changes nothing.
    expect(catalog.setGit(history)).toBe(0);
  });

  it('lets a record placed over a row replace it, and unplaces a row as a record', () => {
    const records = notes(3);
    const { catalog } = placedRows(records);
    catalog.place({ ...(records[1] as NoteRecord), path: 'Moved.md', folder: null });
    expect(catalog.atPath('F1/Sub/N1.md')).toBeUndefined();
    expect(catalog.atPath('Moved.md')?.id).toBe('n1');
    catalog.unplace(records[2] as NoteRecord);
    expect(catalog.get('n2')).toBeUndefined();
    expect([...catalog.all()].map((record) => record.id)).toEqual(['n0', 'n1']);
  });

  it('stages the rows a listing confirms: a row dropped is not placed, and a repeated id or path is left out', () => {
    const records = notes(4);
    const twice = [...records, { ...(records[0] as NoteRecord), path: 'Elsewhere.md' }, { ...(records[1] as NoteRecord), id: 'other' }];
    const staged = new StagedRows(cachedTable(twice));
    expect(staged.rows()).toEqual([0, 1, 2, 3]);
    expect(staged.rowAt('F1/Sub/N1.md')).toBe(1);
    staged.drop(2);
    staged.drop(5);
    expect(staged.rowAt('F2/Sub/N2.md')).toBeUndefined();
    const catalog = new Catalog();
    catalog.adoptRows(staged);
    expect([...catalog.all()].map((record) => record.id)).toEqual(['n0', 'n1', 'n3']);
    expect(catalog.holderOfContent('hash-n2')).toBeUndefined();
  });

  it('places each row as a record when the catalog already holds notes or an index', () => {
    const records = notes(6);
    const catalog = new Catalog();
    catalog.place(catalogRecord('first', 'First.md', ['#t1']));
    expect([...catalog.tagged(['#t1'])].map((record) => record.id)).toEqual(['first']);
    placedRows(records, catalog);
    expect(catalog.size).toBe(7);
    expect([...catalog.tagged(['#t1'])].map((record) => record.id).sort()).toEqual(['first', 'n1', 'n5']);
  });

  it('reads records already made as a table of the very objects', () => {
    const records = notes(4);
    const table = tableOf(records);
    expect(table.count).toBe(4);
    expect(table.record(2)).toBe(records[2]);
    expect(tableRecords(table)).toEqual(records);
    expect(() => table.record(4)).toThrow(RangeError);
  });
});
