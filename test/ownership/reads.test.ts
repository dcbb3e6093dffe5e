import { execFileSync } from 'node:child_process';
import { cp, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathId } from '../../src/format/identity.js';
import { Vault } from '../../src/vault/vault.js';
import { TestClock, waitFor, type Harness, type HarnessOptions } from '../support/helpers.js';
import { sessions } from '../support/sessions.js';
import { git, gitStatus, initRepo } from '../support/git.js';

/**
 * The vault belongs to the person: reading, indexing, watching and starting
 * write nothing outside `.dexi/`, ids come from paths rather than from
 * stamps in the files, and dates come from what the person and git say.
 */

const COMMITTED = '2026-01-15T10:00:00Z';

const FILES: Record<string, string> = {
  'Plain.md': 'Just some text about gardening #garden\n',
  'With frontmatter.md': '---\ntitle: Something else\ntags: [reading]\n---\nBody text\n',
  'Daily/2025-04-01.md': 'Standup: nothing to report\n',
  'Daily/2025-04-02 Retro.md': 'Retro notes\n',
  'Dated.md': '---\ndate: 2023-07-26\n---\nAn old thought\n',
  'Has id.md': '---\nid: kept-id-1\n---\nA note that carries its id\n',
  'Broken.md': '---\ntitle: [unclosed\n---\nBody of a broken note\n',
};

const session = sessions({ clock: new TestClock(new Date()) });
const close = (h: Harness): Promise<void> => session.close(h);

async function repoVault(files = FILES): Promise<string> {
  const dir = await session.vault(files);
  initRepo(dir, COMMITTED);
  return dir;
}

async function serve(dir: string, options: Partial<HarnessOptions> = {}): Promise<Harness> {
  const h = await session.connect(dir, options);
  await h.runtime.own.gitSettled;
  return h;
}

type Item = { id: string; title: string; created: string; updated: string; snippet: string };

async function everyNote(h: Harness): Promise<Item[]> {
  const items: Item[] = [];
  for (let page = 1; ; page++) {
    const result = await h.ok<{ items: Item[]; total: number }>('list_notes', { page, size: 50 });
    items.push(...result.items);
    if (result.items.length === 0 || items.length >= result.total) return items;
  }
}

function idsByPath(h: Harness): Record<string, string> {
  return Object.fromEntries([...h.runtime.own.all()].map((record) => [record.path, record.id]));
}

describe('a session that only reads', () => {
  it('leaves a git work tree clean: not a byte written outside .dexi/', async () => {
    const dir = await repoVault();
    const h = await serve(dir, { scopes: ['notes:read'] });
    for (const item of await everyNote(h)) await h.ok('get_note', { note_id: item.id });
    await h.ok('search_notes', { query: 'gardening' });
    await h.ok('list_tags', {});
    await h.ok('list_folders', {});
    await h.runtime.flush();
    await close(h);
    expect(gitStatus(dir)).toBe('');
    // Only the cache was made, and git ignores it.
    expect(await readFile(path.join(dir, '.dexi', 'cache', '.gitignore'), 'utf8')).toBe('*\n');
  });

  it('with write scope too, reading writes nothing either', async () => {
    const dir = await repoVault();
    const h = await serve(dir);
    for (const item of await everyNote(h)) await h.ok('get_note', { note_id: item.id });
    await close(h);
    expect(gitStatus(dir)).toBe('');
  });

  it('reading the vault and its git history alone, before any index is saved, leaves git status clean', async () => {
    const dir = await repoVault();
    const vault = await Vault.open({ root: dir, clock: new TestClock(), log: () => undefined });
    await vault.load();
    await vault.gitSettled;
    await vault.close();
    expect(await readFile(path.join(dir, '.dexi', 'cache', 'git-history.json'), 'utf8')).toContain(git(dir, ['rev-parse', 'HEAD']).trim());
    expect(gitStatus(dir)).toBe('');
  });
});

describe('ids without writing', () => {
  it('are the same on two clones of one vault', async () => {
    const dir = await repoVault();
    const clone = path.join(path.dirname(dir), `${path.basename(dir)}-clone`);
    session.keep(clone);
    git(path.dirname(dir), ['clone', '-q', dir, clone]);
    const a = await serve(dir);
    const b = await serve(clone);
    expect(idsByPath(b)).toEqual(idsByPath(a));
    expect(idsByPath(a)['Plain.md']).toBe(pathId('Plain.md'));
    expect(idsByPath(a)['Has id.md']).toBe('kept-id-1');
    // A note whose frontmatter cannot be read gets its path id too.
    expect(idsByPath(a)['Broken.md']).toBe(pathId('Broken.md'));
  });

  it('are kept across a rename the server sees', async () => {
    const dir = await repoVault();
    const h = await serve(dir);
    const before = idsByPath(h);
    await mkdir(path.join(dir, 'Moved'));
    await rename(path.join(dir, 'Plain.md'), path.join(dir, 'Moved', 'Plain.md'));
    await rename(path.join(dir, 'With frontmatter.md'), path.join(dir, 'Renamed.md'));
    await waitFor(() => h.runtime.own.atPath('Moved/Plain.md') && h.runtime.own.atPath('Renamed.md'), 5000, 'the moves');
    await h.runtime.settled();
    expect(h.runtime.own.atPath('Moved/Plain.md')?.id).toBe(before['Plain.md']);
    expect(h.runtime.own.atPath('Renamed.md')?.id).toBe(before['With frontmatter.md']);
    expect(h.runtime.own.atPath('Plain.md')).toBeUndefined();
    // The note is found under its old id, at its new place.
    const note = await h.ok<{ text: string }>('get_note', { note_id: before['Plain.md'] });
    expect(note.text).toContain('gardening');
  });

  it('are kept across a rename made while the server was stopped', async () => {
    const dir = await repoVault();
    const first = await serve(dir);
    const before = idsByPath(first);
    await first.runtime.flush();
    await close(first);
    await rename(path.join(dir, 'Plain.md'), path.join(dir, 'Daily', 'Gardening.md'));
    const second = await serve(dir);
    expect(second.runtime.own.atPath('Daily/Gardening.md')?.id).toBe(before['Plain.md']);
  });

  it('go to the original when a note is copied with its frontmatter id, and neither file is rewritten', async () => {
    const dir = await repoVault();
    const h = await serve(dir);
    const copy = path.join(dir, 'Has id 1.md');
    await cp(path.join(dir, 'Has id.md'), copy);
    await waitFor(() => h.runtime.own.atPath('Has id 1.md'), 5000, 'the copy');
    expect(h.runtime.own.atPath('Has id.md')?.id).toBe('kept-id-1');
    expect(h.runtime.own.atPath('Has id 1.md')?.id).toBe(pathId('Has id 1.md'));
    expect(await readFile(copy, 'utf8')).toBe(FILES['Has id.md']);
  });

  it('go to the shorter path when two files claiming one id are met at once, the same on every start', async () => {
    const files = { ...FILES, 'A copy of it/Has id.md': FILES['Has id.md'] as string };
    const dir = await repoVault(files);
    const h = await serve(dir);
    expect(h.runtime.own.atPath('Has id.md')?.id).toBe('kept-id-1');
    expect(h.runtime.own.atPath('A copy of it/Has id.md')?.id).toBe(pathId('A copy of it/Has id.md'));
    expect(gitStatus(dir)).toBe('');
  });
});

describe('true dates', () => {
  it('come from the frontmatter, the file name and the git history, never created after updated', async () => {
    const dir = await repoVault();
    const h = await serve(dir);
    const byTitle = Object.fromEntries((await everyNote(h)).map((item) => [item.title, item]));
    const at = (iso: string): number => new Date(iso).getTime();
    const local = (y: number, m: number, d: number): number => new Date(y, m - 1, d).getTime();
    expect(at(byTitle['Plain']?.created as string)).toBe(at(COMMITTED));
    expect(at(byTitle['Plain']?.updated as string)).toBe(at(COMMITTED));
    expect(at(byTitle['2025-04-01']?.created as string)).toBe(local(2025, 4, 1));
    expect(at(byTitle['2025-04-02 Retro']?.created as string)).toBe(local(2025, 4, 2));
    expect(at(byTitle['Dated']?.created as string)).toBe(local(2023, 7, 26));
    for (const item of Object.values(byTitle)) expect(at(item.created)).toBeLessThanOrEqual(at(item.updated));
    expect(at(byTitle['2025-04-01']?.updated as string)).toBe(at(COMMITTED));
  });

  it('follow an edit: a file changed since its last commit is updated at its modification time', async () => {
    const dir = await repoVault();
    const h = await serve(dir);
    await writeFile(path.join(dir, 'Plain.md'), 'Just some text about gardening and compost #garden\n');
    const mtime = (await stat(path.join(dir, 'Plain.md'))).mtimeMs;
    // A read takes a file's times from before it reads (note-files.ts): one that meets the file between
    // writeFile's truncation and its write holds the text with the truncation's time, until the write's own
    // change event is read. So the record is waited for until it has both.
    await waitFor(() => {
      const seen = h.runtime.own.atPath('Plain.md');
      return seen?.snippet.includes('compost') === true && seen.updatedMs === mtime;
    }, 5000, 'the edit, at its modification time');
    const record = h.runtime.own.atPath('Plain.md');
    expect(record?.updatedMs).toBe(mtime);
    expect(record?.createdMs).toBe(new Date(COMMITTED).getTime());
  });

  it('give period "today" on a fresh clone only the notes made today', async () => {
    const dir = await repoVault();
    const clone = path.join(path.dirname(dir), `${path.basename(dir)}-fresh`);
    session.keep(clone);
    git(path.dirname(dir), ['clone', '-q', dir, clone]);
    await writeFile(path.join(clone, 'Made today.md'), 'A new thought\n');
    const h = await serve(clone);
    const today = await h.ok<{ items: Item[]; total: number }>('list_notes', { period: 'today' });
    expect(today.items.map((item) => item.title)).toEqual(['Made today']);
    const updatedToday = await h.ok<{ items: Item[] }>('list_notes', { period: 'today', sort: 'updated' });
    expect(updatedToday.items.map((item) => item.title)).toEqual(['Made today']);
  });

  it('follow a commit made while serving', async () => {
    const dir = await repoVault();
    const h = await serve(dir);
    await writeFile(path.join(dir, 'New.md'), 'Committed later\n');
    await waitFor(() => h.runtime.own.atPath('New.md'), 5000, 'the new note');
    git(dir, ['add', 'New.md']);
    git(dir, ['commit', '-q', '-m', 'new'], '2025-01-02T03:04:05Z');
    await h.runtime.own.refreshGit();
    expect(h.runtime.own.atPath('New.md')?.createdMs).toBe(new Date('2025-01-02T03:04:05Z').getTime());
  });
});

describe('a change made while the server was down', () => {
  it('is found even when size and modification time match (touch -r)', async () => {
    const dir = await repoVault();
    const first = await serve(dir);
    await first.runtime.flush();
    await close(first);
    const file = path.join(dir, 'Plain.md');
    const reference = path.join(path.dirname(dir), `${path.basename(dir)}-reference.md`);
    session.keep(reference);
    execFileSync('cp', ['-p', file, reference]);
    const before = await stat(file);
    const same = 'Just some text about honeybees #garden\n';
    expect(Buffer.byteLength(same)).toBe(before.size);
    await writeFile(file, same);
    execFileSync('touch', ['-r', reference, file]);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    const second = await serve(dir);
    const found = await second.ok<{ total: number }>('search_notes', { query: 'honeybees' });
    expect(found.total).toBe(1);
  });
});
