import { describe, expect, it } from 'vitest';
import type { StoredValue } from '../../src/format/property-values.js';
import type { NoteRecord } from '../../src/vault/note.js';
import { PropertyIndex } from '../../src/vault/property-index.js';

const record = (id: string, properties?: Record<string, StoredValue>): NoteRecord => ({ id, tags: [], ...(properties ? { properties } : {}) }) as unknown as NoteRecord;

function byName(index: PropertyIndex): Record<string, string[]> {
  return Object.fromEntries([...index.names()].map(([name, notes]) => [name, [...notes.keys()].map((note) => note.id).sort()]));
}

describe('the property index, kept in step', () => {
  it('puts, replaces and removes notes, and forgets a name no note has', () => {
    const index = new PropertyIndex();
    const a = record('a', { status: 'active', due: '2026-12-01' });
    const b = record('b', { status: 'done' });
    index.put(a);
    index.put(b);
    index.put(record('c'));
    expect(byName(index)).toEqual({ status: ['a', 'b'], due: ['a'] });
    const a2 = record('a', { status: 'done' });
    index.put(a2, a);
    expect(byName(index)).toEqual({ status: ['a', 'b'] });
    expect(index.notesWith('status')?.get(a2)).toEqual([{ kind: 'text', text: 'done', n: Number.NaN }]);
    index.remove(b);
    index.remove(a2);
    expect(byName(index)).toEqual({});
  });

  it('keeps the typed elements of a record made again with the same properties (new dates, a move)', () => {
    const index = new PropertyIndex();
    const properties = { due: '2026-12-01' };
    const first = record('a', properties);
    index.put(first);
    const elements = index.notesWith('due')?.get(first);
    const moved = { ...first, path: 'Elsewhere/A.md' };
    index.put(moved, first);
    expect(index.notesWith('due')?.get(moved)).toBe(elements);
    expect(index.notesWith('due')?.has(first)).toBe(false);
  });
});
