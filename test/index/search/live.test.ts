import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheFile, CACHE_VERSION, saveSnapshot } from '../../../src/index/cache.js';
import { encodeRecords } from '../../../src/index/record-columns.js';
import { cacheDir } from '../../../src/storage/dexi-dir.js';
import { connect, removeDir, waitFor, writeVault, type Harness } from '../../support/helpers.js';

interface Page {
  items: { id: string; title: string; folder?: string; updated: string }[];
  total: number;
}

const ID = '00000000-0000-4000-8000-000000000001';
const FILES = {
  'Garden/Tomatoes.md': `---\nid: ${ID}\ncreated: 2026-01-01T00:00:00+00:00\nupdated: 2026-01-01T00:00:00+00:00\n---\nWater deeply twice a week.\n`,
  'Other.md': '---\nid: 00000000-0000-4000-8000-000000000002\n---\nSomething else.\n',
};

let h: Harness | undefined;
afterEach(async () => {
  if (h) {
    await h.close();
    await removeDir(h.dir);
    h = undefined;
  }
});

async function open(files: Record<string, string> = FILES): Promise<Harness> {
  h = await connect({ dir: await writeVault(files) });
  // The watcher must be listening before the test edits files.
  await h.runtime.watching;
  return h;
}

const search = async (s: Harness, query: string) => (await s.ok<Page>('search_notes', { query })).items;
const titlesFor = async (s: Harness, query: string) => (await search(s, query)).map((item) => item.title);

describe('the watcher keeps search in step with outside edits', () => {
  it('finds a word typed in an editor within a second', async () => {
    const s = await open();
    const file = path.join(s.dir, 'Garden/Tomatoes.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('deeply', 'mulched'));
    await waitFor(async () => (await titlesFor(s, 'mulched')).includes('Tomatoes'), 1000, 'the edit to be searchable');
    expect(await titlesFor(s, 'deeply')).toEqual([]);
  });

  it('moves updated to the file time after an outside edit of a note without an updated key, and past a stale stated one', async () => {
    const s = await open();
    const other = path.join(s.dir, 'Other.md');
    await writeFile(other, (await readFile(other, 'utf8')) + 'More.\n');
    const when = new Date('2026-06-01T10:00:00Z');
    await utimes(other, when, when);
    await waitFor(async () => (await search(s, 'more'))[0]?.updated === '2026-06-01T10:00:00+00:00', 2000, 'updated to move');
    const tomatoes = path.join(s.dir, 'Garden/Tomatoes.md');
    await writeFile(tomatoes, (await readFile(tomatoes, 'utf8')) + 'Mulch.\n');
    // Its frontmatter still says 2026-01-01: the edit seen is later, and wins (spec/vault.md, "Dates").
    const editedAt = (await stat(tomatoes)).mtimeMs;
    await waitFor(async () => Math.abs(Date.parse((await search(s, 'mulch'))[0]?.updated ?? '') - editedAt) < 1000, 2000, 'the edit, later than its stated date');
  });

  it('adds new files, writing nothing into them, and drops deleted ones', async () => {
    const s = await open();
    await writeFile(path.join(s.dir, 'Fresh.md'), 'A brand new thought about zeppelins.\n');
    await waitFor(async () => (await titlesFor(s, 'zeppelins')).includes('Fresh'), 1000, 'the new note');
    await s.runtime.settled();
    expect(await readFile(path.join(s.dir, 'Fresh.md'), 'utf8')).toBe('A brand new thought about zeppelins.\n');
    await rm(path.join(s.dir, 'Fresh.md'));
    await waitFor(async () => (await titlesFor(s, 'zeppelins')).length === 0, 1000, 'the deletion');
  });

  it('keeps the id of a note moved to another folder', async () => {
    const s = await open();
    await mkdir(path.join(s.dir, 'Archive'));
    await rename(path.join(s.dir, 'Garden/Tomatoes.md'), path.join(s.dir, 'Archive/Tomatoes.md'));
    await waitFor(async () => (await search(s, 'water'))[0]?.folder === 'Archive', 1000, 'the move');
    const items = await search(s, 'water');
    expect(items.map((item) => item.id)).toEqual([ID]);
    expect((await s.ok<Page>('list_notes', { size: 50 })).total).toBe(2);
  });

  it('follows a whole folder renamed and then deleted', async () => {
    const s = await open();
    await rename(path.join(s.dir, 'Garden'), path.join(s.dir, 'Allotment'));
    await waitFor(async () => (await search(s, 'water'))[0]?.folder === 'Allotment', 1500, 'the folder move');
    await waitFor(async () => {
      const { folders } = await s.ok<{ folders: { name: string }[] }>('list_folders');
      return folders.map((folder) => folder.name).join() === 'Allotment';
    }, 1500, 'the folder list');
    await rm(path.join(s.dir, 'Allotment'), { recursive: true });
    await waitFor(async () => (await s.ok<Page>('list_notes', {})).total === 1, 1500, 'the folder deletion');
    expect(await titlesFor(s, 'water')).toEqual([]);
  });

  it('reads every note of a folder tree moved in from outside the vault, and watches its folders', async () => {
    const s = await open();
    const outside = await writeVault({ 'Trip/Day one.md': 'Ferry to the island.\n', 'Trip/Food/Bakery.md': 'Custard tarts at dawn.\n' });
    try {
      await rename(path.join(outside, 'Trip'), path.join(s.dir, 'Trip'));
      await waitFor(async () => (await titlesFor(s, 'custard')).includes('Bakery') && (await titlesFor(s, 'ferry')).includes('Day one'), 1500, 'the moved-in notes');
      // A note written later into the moved-in subfolder is seen too: the folder is watched.
      await writeFile(path.join(s.dir, 'Trip/Food/Market.md'), 'Sardines grilled on the street.\n');
      await waitFor(async () => (await titlesFor(s, 'sardines')).includes('Market'), 1500, 'a note in the new subfolder');
    } finally {
      await removeDir(outside);
    }
  });

  // A file replaced by a rename and deleted at once (a batching watcher folds the two away).
  it('drops a note replaced through a rename and deleted at once', async () => {
    const s = await open();
    const file = path.join(s.dir, 'Other.md');
    await writeFile(`${file}.tmp~`, 'Something else, rewritten.\n');
    await rename(`${file}.tmp~`, file);
    await rm(file);
    await waitFor(async () => (await s.ok<Page>('list_notes', {})).total === 1, 1500, 'the deletion');
    expect(await titlesFor(s, 'something')).toEqual([]);
  });

  it('sees an editor saving through a temporary file and a rename as one edit, not a delete and a new note', async () => {
    const s = await open();
    const removed: string[] = [];
    s.runtime.own.on('removed', (record) => removed.push(record.id));
    const file = path.join(s.dir, 'Garden/Tomatoes.md');
    const temp = path.join(s.dir, 'Garden/Tomatoes.md.tmp~');
    await writeFile(temp, (await readFile(file, 'utf8')).replace('deeply', 'sparingly'));
    await rename(temp, file);
    await waitFor(async () => (await titlesFor(s, 'sparingly')).includes('Tomatoes'), 1000, 'the save');
    expect((await search(s, 'sparingly'))[0]?.id).toBe(ID);
    expect(removed).toEqual([]);
    expect((await s.ok<Page>('list_notes', {})).total).toBe(2);
  });

  it('gives a copied note its own id, keeping the original', async () => {
    const s = await open();
    const content = await readFile(path.join(s.dir, 'Garden/Tomatoes.md'), 'utf8');
    await writeFile(path.join(s.dir, 'Garden/Tomatoes copy.md'), content);
    // The watcher may see the copy before its text is in, and reads it again once it is.
    await waitFor(async () => (await search(s, 'water')).length === 2, 1500, 'the copy');
    expect((await s.ok<Page>('list_notes', {})).total).toBe(3);
    const items = await search(s, 'water');
    expect(items).toHaveLength(2);
    expect(items.find((item) => item.title === 'Tomatoes')?.id).toBe(ID);
    expect(items.find((item) => item.title === 'Tomatoes copy')?.id).not.toBe(ID);
  });
});

describe('edits made while the vault is first read', () => {
  it('are picked up once the watcher starts', async () => {
    const files: Record<string, string> = { ...FILES };
    for (let i = 0; i < 300; i++) files[`Bulk/n${i}.md`] = `---\nid: 10000000-0000-4000-8000-${String(i).padStart(12, '0')}\n---\nfiller ${i}\n`;
    const dir = await writeVault(files);
    h = await connect({ dir, waitLoaded: false });
    // Written while the first read is under way, before any watcher exists.
    await writeFile(path.join(dir, 'Garden/Tomatoes.md'), FILES['Garden/Tomatoes.md'].replace('deeply', 'duringload'));
    await writeFile(path.join(dir, 'Late.md'), 'Appeared during the read: quokka.\n');
    await rm(path.join(dir, 'Other.md'));
    await h.runtime.watching;
    expect(await titlesFor(h, 'duringload')).toEqual(['Tomatoes']);
    expect(await titlesFor(h, 'quokka')).toEqual(['Late']);
    expect(await titlesFor(h, 'something')).toEqual([]);
  });
});

describe('the index cache', () => {
  it('restarts on an unchanged vault without reading a note', async () => {
    const s = await open();
    await s.close();
    const cache = path.join(s.dir, '.dexi/cache');
    expect(await readFile(path.join(cache, '.gitignore'), 'utf8')).toBe('*\n');
    expect((await stat(cacheFile(cacheDir(s.dir)))).size).toBeGreaterThan(0);
    h = await connect({ dir: s.dir });
    expect(h.runtime.own.stats.filesRead).toBe(0);
    expect(await titlesFor(h, 'water')).toEqual(['Tomatoes']);
  });

  it("keeps a teammate's records and index in ours, and restarts without reading their notes", async () => {
    const mine = await writeVault(FILES);
    const theirs = await writeVault({
      'Shared/Quinces.md': '---\nid: 00000000-0000-4000-8000-0000000000a1\nshared: true\n---\nQuince paste wants patience.\n',
      'Private.md': '---\nid: 00000000-0000-4000-8000-0000000000a2\n---\nNot shared.\n',
    });
    try {
      const shared = [{ owner: 'ana', dir: theirs }];
      h = await connect({ dir: mine, shared });
      expect(await titlesFor(h, 'quince')).toEqual(['Quinces']);
      await h.close();
      h = undefined;
      expect((await stat(cacheFile(path.join(cacheDir(mine), 'shared', 'ana')))).size).toBeGreaterThan(0);
      // Their vault is never written, not even a .dexi folder.
      expect((await readdir(theirs)).sort()).toEqual(['Private.md', 'Shared']);
      h = await connect({ dir: mine, shared });
      const teammate = h.runtime.teammates[0];
      expect(teammate?.stats.filesRead).toBe(0);
      expect(h.runtime.own.stats.filesRead).toBe(0);
      expect(await titlesFor(h, 'quince')).toEqual(['Quinces']);
      expect(await titlesFor(h, 'shared')).toEqual([]);
    } finally {
      await removeDir(theirs);
    }
  });

  it('finds a change made while the server was down', async () => {
    const s = await open();
    await s.close();
    const file = path.join(s.dir, 'Garden/Tomatoes.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('deeply', 'nightly'));
    const when = new Date('2026-07-01T00:00:00Z');
    await utimes(file, when, when);
    await rm(path.join(s.dir, 'Other.md'));
    h = await connect({ dir: s.dir });
    expect(h.runtime.own.stats.filesRead).toBe(1);
    const items = await search(h, 'nightly');
    expect(items.map((item) => item.title)).toEqual(['Tomatoes']);
    // Its frontmatter says an older time: the edit found at start (at its file's time) is later, and wins.
    expect(items[0]?.updated).toBe('2026-07-01T00:00:00+00:00');
    expect(await titlesFor(h, 'deeply')).toEqual([]);
    expect(await titlesFor(h, 'something')).toEqual([]);
  });

  const noRecords = Buffer.concat([...encodeRecords([])]);

  /** A cache file framed as index.bin is, around the given parts. */
  function framed(version: number, postings: Buffer, records: Buffer, meta: string, hash?: Buffer): Buffer {
    const body = Buffer.concat([postings, records, Buffer.from(meta)]);
    const footer = Buffer.alloc(64);
    footer.write('dexi-idx', 0, 'latin1');
    footer.writeUInt32LE(version, 8);
    footer.writeDoubleLE(postings.length, 16);
    footer.writeDoubleLE(records.length, 24);
    footer.writeDoubleLE(Buffer.byteLength(meta), 32);
    (hash ?? createHash('sha1').update(body).digest()).copy(footer, 40);
    return Buffer.concat([body, footer]);
  }

  it.each([
    ['damaged', 'index.bin', Buffer.from('not a cache at all')],
    ['from another version', 'index.bin', framed(CACHE_VERSION + 1, Buffer.alloc(0), noRecords, '{}')],
    ['from another version', 'notes.json', Buffer.from(JSON.stringify({ version: 2, records: [], fulltext: {} }))],
    ['damaged', 'index.bin', framed(CACHE_VERSION, Buffer.alloc(0), Buffer.from('[{"id":1}]'), '{}')],
    ['damaged', 'index.bin', framed(CACHE_VERSION, Buffer.alloc(0), noRecords, '{}', Buffer.alloc(20, 7))],
    ['damaged', 'index.bin', framed(CACHE_VERSION, Buffer.from(new Int32Array([1, 0, 5, 1, 1]).buffer), noRecords, '{"documentCount":0,"nextId":0,"dirtCount":0,"fieldIds":{"title":0,"body":1,"tags":2},"averageFieldLength":[0,0,0],"shortIds":[],"ids":[],"fieldLengths":[],"terms":["x"]}')],
  ])('rebuilds a cache that is %s (%s)', async (what, name, content) => {
    const s = await open();
    await s.close();
    await rm(cacheFile(cacheDir(s.dir)));
    await writeFile(path.join(s.dir, '.dexi/cache', name), content);
    h = await connect({ dir: s.dir });
    expect(h.runtime.own.stats.filesRead).toBe(2);
    expect(h.logs.join('\n')).toContain(`index cache is ${what}; rebuilding it`);
    expect(await titlesFor(h, 'water')).toEqual(['Tomatoes']);
  });

  it('abandons a save when a note changes under it, and keeps the previous cache', async () => {
    const s = await open();
    await s.close();
    h = await connect({ dir: s.dir });
    const before = await stat(cacheFile(cacheDir(s.dir)));
    const index = h.runtime.fulltext.get(h.runtime.own);
    if (!index) throw new Error('no index');
    let current = true;
    const abandoned = saveSnapshot(cacheDir(s.dir), { records: [...h.runtime.own.all()], fulltext: index.snapshot() }, { stillCurrent: () => current });
    current = false;
    expect(await abandoned).toBe(false);
    expect((await stat(cacheFile(cacheDir(s.dir)))).mtimeMs).toBe(before.mtimeMs);
    expect((await readdir(path.join(s.dir, '.dexi/cache'))).filter((name) => name.startsWith('.dexi-tmp-'))).toEqual([]);
  });
});
