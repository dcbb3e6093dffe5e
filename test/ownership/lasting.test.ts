import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TestClock, waitFor, type Harness } from '../support/helpers.js';
import { sessions } from '../support/sessions.js';
import { git, initRepo } from '../support/git.js';

/**
 * Dates and ids last (spec/vault.md, "Dates" and "Lasting"): a moved or
 * renamed note keeps its `created` and `updated`, in a git vault too and
 * after a restart, and an edit the server sees moves a stale stated
 * `updated`.
 */

const session = sessions({ clock: new TestClock(new Date()) });

type Item = { id: string; title: string; created: string; updated: string };

/** A git vault whose notes were committed long ago, one commit each: their files are born today, their dates are git's. */
async function datedRepo(): Promise<string> {
  const dir = await session.vault({ 'Oldest.md': 'The oldest thought\n' });
  initRepo(dir, '2024-01-10T09:00:00Z');
  await writeFile(path.join(dir, 'Middle.md'), 'A thought from the spring\n');
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'middle'], '2024-05-10T09:00:00Z');
  await writeFile(path.join(dir, 'Newest.md'), 'A thought from the summer\n');
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'newest'], '2024-08-10T09:00:00Z');
  return dir;
}

async function serve(dir: string): Promise<Harness> {
  const h = await session.connect(dir);
  await h.runtime.own.gitSettled;
  return h;
}

/** The notes newest first, with their ids and dates only (a moved note's folder changes, as it should). */
async function newestFirst(h: Harness, sort: 'created' | 'updated' = 'created'): Promise<Item[]> {
  const { items } = await h.ok<{ items: Item[] }>('list_notes', { sort });
  return items.map(({ id, title, created, updated }) => ({ id, title, created, updated }));
}

const titles = (items: Item[]): string[] => items.map((item) => item.title);

describe('a moved note keeps its dates', () => {
  it('in a git vault, moved by move_note: created and updated unchanged, newest-first unchanged, after a restart too', async () => {
    const dir = await datedRepo();
    const h = await serve(dir);
    const before = await newestFirst(h);
    expect(titles(before)).toEqual(['Newest', 'Middle', 'Oldest']);
    const middle = before.find((item) => item.title === 'Middle') as Item;
    expect(middle.created).toMatch(/^2024-05-10/);

    const moved = await h.ok<Item & { path: string }>('move_note', { note_id: middle.id, folder: 'Archive' });
    expect([moved.created, moved.updated]).toEqual([middle.created, middle.updated]);
    expect(await newestFirst(h)).toEqual(before);
    const updatedOrder = titles(await newestFirst(h, 'updated'));
    expect(updatedOrder).toEqual(['Newest', 'Middle', 'Oldest']);

    // A restart: the dates come back from the cache with the note's id.
    await session.close(h);
    const again = await serve(dir);
    expect(await newestFirst(again)).toEqual(before);
    expect(again.runtime.own.get(middle.id)?.path).toBe('Archive/Middle.md');

    // Once a commit records the rename, git follows it to the same first commit; the move is still no edit.
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', 'filed'], '2025-02-01T09:00:00Z');
    await again.runtime.own.refreshGit();
    expect(await newestFirst(again)).toEqual(before);
  });

  it('renamed on disk while the server watches, and found moved at the next start', async () => {
    const dir = await datedRepo();
    const h = await serve(dir);
    const before = await newestFirst(h);
    const oldest = before.find((item) => item.title === 'Oldest') as Item;
    await mkdir(path.join(dir, 'Filed'));
    await rename(path.join(dir, 'Oldest.md'), path.join(dir, 'Filed', 'Oldest.md'));
    await waitFor(() => h.runtime.own.atPath('Filed/Oldest.md'), 5000, 'the rename');
    await h.runtime.settled();
    expect(h.runtime.own.get(oldest.id)?.path).toBe('Filed/Oldest.md');
    expect(await newestFirst(h)).toEqual(before);
    await session.close(h);

    // Renamed again while no server runs: the vanished path and the new one with the same content are one note.
    await rename(path.join(dir, 'Middle.md'), path.join(dir, 'Filed', 'Middle.md'));
    const again = await serve(dir);
    const after = await newestFirst(again);
    expect(after).toEqual(before);
    expect(again.runtime.own.atPath('Filed/Middle.md')?.id).toBe(before.find((item) => item.title === 'Middle')?.id);
  });
});

describe('an edit the server sees', () => {
  it('moves updated past a stale frontmatter updated, and created stays no later than updated', async () => {
    const dir = await session.vault({ 'Stale.md': '---\ncreated: 2020-01-01\nupdated: 2020-02-01\n---\nFirst words\n' });
    const h = await serve(dir);
    const before = h.runtime.own.atPath('Stale.md');
    expect(new Date(before?.updatedMs ?? 0).toISOString()).toMatch(/^2020-0[12]/);
    // An editor that keeps the frontmatter as it was.
    const file = path.join(dir, 'Stale.md');
    await writeFile(file, '---\ncreated: 2020-01-01\nupdated: 2020-02-01\n---\nFirst words, and more\n');
    const edited = await waitFor(() => {
      const record = h.runtime.own.atPath('Stale.md');
      return record?.snippet.includes('more') ? record : undefined;
    }, 5000, 'the edit');
    const startedAt = Date.now() - 60_000;
    expect(edited.updatedMs).toBeGreaterThan(startedAt);
    expect(edited.createdMs).toBe(new Date(2020, 0, 1).getTime());

    // The edit outlasts a restart, and one made while the server was down counts the same.
    await session.close(h);
    const again = await serve(dir);
    expect(again.runtime.own.atPath('Stale.md')?.updatedMs).toBe(edited.updatedMs);
    await session.close(again);
    await writeFile(file, '---\ncreated: 2020-01-01\nupdated: 2020-02-01\n---\nFirst words, more, and an end\n');
    const third = await serve(dir);
    expect(third.runtime.own.atPath('Stale.md')?.snippet).toContain('an end');
    expect(third.runtime.own.atPath('Stale.md')?.updatedMs).toBeGreaterThan(startedAt);
  });
});

describe('what the server learned lasts', () => {
  it('a move is in the journal before move_note answers, and the journal goes once a saved cache holds it', async () => {
    const dir = await session.vault({ 'One.md': 'The first note\n', 'Two.md': 'The second note\n' });
    const h = await serve(dir);
    await h.runtime.flush();
    const id = h.runtime.own.atPath('One.md')?.id as string;
    await h.ok('move_note', { note_id: id, folder: 'Filed' });
    const journal = path.join(dir, '.dexi', 'cache', 'moves.jsonl');
    const lines = (await readFile(journal, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { from: string; record: { id: string; path: string } });
    expect(lines.map(({ from, record }) => [from, record.id, record.path])).toEqual([['One.md', id, 'Filed/One.md']]);
    await h.runtime.flush();
    await expect(stat(journal)).rejects.toThrow();
  });

  it('a stop that cannot wait abandons the save: the last cache stays whole and no temporary file is left', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`Note ${i}.md`] = `Words of note ${i}\n`;
    const dir = await session.vault(files);
    const h = await serve(dir);
    await h.runtime.flush();
    const cacheFolder = path.join(dir, '.dexi', 'cache');
    const saved = await readFile(path.join(cacheFolder, 'index.bin'));
    await h.ok('create_note', { title: 'Late', text: 'written as the server stops' });
    await h.runtime.close(0);
    expect((await readFile(path.join(cacheFolder, 'index.bin'))).equals(saved)).toBe(true);
    expect((await readdir(cacheFolder)).filter((name) => name.startsWith('.dexi-tmp-'))).toEqual([]);
    expect(h.logs.join('\n')).toMatch(/Stopped before the index cache was saved/);
  });
});
