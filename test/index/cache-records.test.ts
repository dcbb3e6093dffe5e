import { open, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheFile, readCachedRecords, saveSnapshot } from '../../src/index/cache.js';
import { FullTextIndex } from '../../src/index/fulltext/fulltext.js';
import { readSnapshotSummary } from '../../src/index/vectors/snapshot-meta.js';
import type { NoteRecord } from '../../src/vault/note.js';
import { removeDir, tempDir } from '../support/helpers.js';

/** What `dexi-vault status` reads of the caches (issue 34): the text index's records and the vector snapshot's meta.json, nothing built, nothing written. */

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => removeDir(dir)));
});

async function folder(): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  return dir;
}

function record(id: string, vaultPath: string): NoteRecord {
  return { id, path: vaultPath, folder: null, title: id, source: 'note', createdMs: 1, updatedMs: 2, tags: ['#a'], snippet: 's', hash: 'h', size: 3, mtimeMs: 4, ctimeMs: 5, ino: 6, birthtimeMs: 7, shared: false, broken: false };
}

async function saved(dir: string, records: NoteRecord[]): Promise<void> {
  const index = FullTextIndex.empty();
  for (const item of records) index.upsert(item, `words of ${item.title}`);
  expect(await saveSnapshot(dir, { records, fulltext: index.snapshot() })).toBe(true);
}

/** Overwrite one byte of `file` at `position` (negative: from the end). */
async function poke(file: string, position: number, byte: number): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    const at = position < 0 ? (await handle.stat()).size + position : position;
    await handle.write(Buffer.from([byte]), 0, 1, at);
  } finally {
    await handle.close();
  }
}

describe('readCachedRecords', () => {
  it('gives the records saved, with the file size and time, and writes nothing', async () => {
    const dir = await folder();
    const records = [record('n1', 'a.md'), record('n2', 'Work/b.md')];
    await saved(dir, records);
    const before = await readdir(dir);
    const found = await readCachedRecords(dir);
    expect(found.state).toBe('saved');
    if (found.state !== 'saved') return;
    expect(found.records.map((item) => [item.id, item.path, item.mtimeMs, item.ino])).toEqual([
      ['n1', 'a.md', 4, 6],
      ['n2', 'Work/b.md', 4, 6],
    ]);
    expect(found.bytes).toBeGreaterThan(64);
    expect(await readdir(dir)).toEqual(before);
  });

  it.each<[string, (file: string) => Promise<void>, string]>([
    ['a byte of the postings changed: the checksum no longer holds', (file) => poke(file, 0, 0xff), 'damaged'],
    ['the footer of another version', (file) => poke(file, -56, 99), 'other-version'],
    ['a file too short to hold a footer', (file) => writeFile(file, 'short'), 'damaged'],
  ])('%s', async (_name, spoil, state) => {
    const dir = await folder();
    await saved(dir, [record('n1', 'a.md')]);
    await spoil(cacheFile(dir));
    expect((await readCachedRecords(dir)).state).toBe(state);
  });

  it('says missing for a folder with no cache, or no folder at all', async () => {
    const dir = await folder();
    expect(await readCachedRecords(dir)).toEqual({ state: 'missing' });
    expect(await readCachedRecords(path.join(dir, 'nowhere'))).toEqual({ state: 'missing' });
  });
});

describe('readSnapshotSummary', () => {
  const meta = (notes: unknown[], extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ format: 'dexi-vectors', version: 1, embedderId: 'use-lite-512', dimensions: 2, vectors: { file: 'vectors-a.f32', sha256: '0', chunks: 3 }, graph: null, notes, ...extra });

  it('splits the notes into those embedded in full and those only by their opening, and sizes the files it names', async () => {
    const dir = await folder();
    await writeFile(path.join(dir, 'meta.json'), meta([['n1', 'ab12', [0, 1]], ['n2', 'cd34+opening/5', [2]], ['n3', 'ef56', []]]));
    await writeFile(path.join(dir, 'vectors-a.f32'), Buffer.alloc(24));
    const summary = await readSnapshotSummary(dir);
    expect(summary).toMatchObject({ embedderId: 'use-lite-512', dimensions: 2, complete: ['n1', 'n3'], opening: ['n2'] });
    if (typeof summary === 'object' && 'bytes' in summary) expect(summary.bytes).toBe(Buffer.byteLength(meta([['n1', 'ab12', [0, 1]], ['n2', 'cd34+opening/5', [2]], ['n3', 'ef56', []]])) + 24);
  });

  it.each([
    ['not JSON', '{', 'the snapshot index is not valid JSON'],
    ['another format version', meta([], { version: 2 }), 'the snapshot has format version 2, not 1'],
    ['labels that do not add up', meta([['n1', 'ab', [0]]]), 'the snapshot index is malformed'],
  ])('%s: why it cannot be used', async (_name, text, problem) => {
    const dir = await folder();
    await writeFile(path.join(dir, 'meta.json'), text);
    expect(await readSnapshotSummary(dir)).toEqual({ problem });
  });

  it('says missing for a folder with no snapshot', async () => {
    expect(await readSnapshotSummary(path.join(await folder(), 'vectors'))).toBe('missing');
  });
});
