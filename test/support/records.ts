import { TextColumn } from '../../src/index/string-column.js';
import type { NoteRecord } from '../../src/vault/note.js';

/** A note record as the catalog holds one, for tests of the catalog's own indexes. */
export function catalogRecord(id: string, path: string, tags: string[] = [], hash = `hash-${id}`): NoteRecord {
  return {
    id,
    path,
    folder: path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : null,
    title: id,
    source: 'note',
    createdMs: 1000,
    updatedMs: 2000,
    tags,
    snippet: '',
    shared: false,
    broken: false,
    size: 10,
    mtimeMs: 2000,
    ctimeMs: 2000,
    ino: 1,
    birthtimeMs: 1000,
    hash,
  };
}

/** Every text of a column's blobs (`TextColumn`), read at once; throws DamagedRecords when the blobs do not agree. */
export function decodeStringColumn(count: number, lengthBlob: Buffer, chunkBlob: Buffer, text: Buffer): string[] {
  const column = new TextColumn(count, lengthBlob, chunkBlob, text);
  return Array.from({ length: count }, (_, i) => column.at(i));
}
