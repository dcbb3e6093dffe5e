import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, removeDir, writeVault, type Harness } from '../support/helpers.js';
import { teammateNoteId } from '../../src/format/identity.js';
import { BOUNDARY_VAULT, TEAMMATE_VAULT, id } from '../support/access-fixture.js';

interface Full {
  id: string;
  title: string;
  text: string;
  tags: string[];
  folder?: string;
  shared?: boolean;
  owner?: string;
}

const open: Harness[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

async function harness(options: Omit<Parameters<typeof connect>[0], 'dir'>, files = BOUNDARY_VAULT): Promise<Harness> {
  const dir = await writeVault(files);
  dirs.push(dir);
  const h = await connect({ dir, ...options });
  open.push(h);
  return h;
}

describe('writes inside a boundary', () => {
  it('files new notes into the boundary folder, creating it when needed', async () => {
    const h = await harness({ folder: 'work' });
    const note = await h.ok<Full>('create_note', { title: 'New idea', text: 'Something.' });
    expect(note.folder).toBe('Work');
    expect(await readFile(path.join(h.dir, 'Work/New idea.md'), 'utf8')).toContain('Something.');
    const fresh = await harness({ folder: 'Projects/New' });
    const made = await fresh.ok<Full>('create_note', { title: 'First', text: 'x' });
    expect(made.folder).toBe('Projects/New');
  });

  it('appends the boundary tag when the text lacks it, and not twice', async () => {
    const h = await harness({ tag: '#work' });
    const a = await h.ok<Full>('create_note', { title: 'A', text: 'No tag here.' });
    expect(a.text).toBe('No tag here.\n\n#work');
    expect(a.tags).toEqual(['#work']);
    const b = await h.ok<Full>('create_note', { title: 'B', text: 'Already #work/deep tagged.' });
    expect(b.text).toBe('Already #work/deep tagged.');
    const c = await h.ok<Full>('create_note', { title: 'C' });
    expect(c.text).toBe('#work');
  });

  it('refuses an edit that would drop the boundary tag, naming it, and leaves the file untouched', async () => {
    const h = await harness({ tag: '#work' });
    const before = await readFile(path.join(h.dir, 'Work/Plan.md'), 'utf8');
    const message = await h.fail('update_note', { note_id: id(1), text: 'Rewritten without the tag.' });
    expect(message).toBe('This edit would remove the tag #work, which this connection is limited to; keep #work in the text.');
    expect(await readFile(path.join(h.dir, 'Work/Plan.md'), 'utf8')).toBe(before);
    const kept = await h.ok<Full>('update_note', { note_id: id(1), text: 'Rewritten, still #work.' });
    expect(kept.text).toBe('Rewritten, still #work.\n');
    const appended = await h.ok<Full>('update_note', { note_id: id(1), text: 'More.', mode: 'append' });
    expect(appended.tags).toContain('#work');
  });

  it('deletes only inside notes', async () => {
    const h = await harness({ folder: 'Work' });
    expect(await h.fail('delete_note', { note_id: id(4) })).toBe('Note not found');
    expect(await h.ok('delete_note', { note_id: id(2) })).toMatchObject({ deleted: true });
  });

  it('lists only folders under a folder boundary, empty subfolders included', async () => {
    const h = await harness({ folder: 'Work' });
    const result = await h.ok<{ folders: { name: string; note_count: number }[]; unfiled_count: number }>('list_folders');
    expect(result).toEqual({
      folders: [
        { name: 'Work', note_count: 1 },
        { name: 'Work/Confidential', note_count: 1 },
        { name: 'Work/Sub', note_count: 1 },
      ],
      unfiled_count: 0,
    });
  });

  it('lists folders holding an in-boundary note under a tag boundary, with in-boundary counts', async () => {
    const h = await harness({ tag: '#work' });
    const result = await h.ok<{ folders: { name: string; note_count: number }[]; unfiled_count: number }>('list_folders');
    expect(result).toEqual({
      folders: [
        { name: 'Home', note_count: 1 },
        { name: 'Work', note_count: 1 },
        { name: 'Work/Sub', note_count: 1 },
      ],
      unfiled_count: 0,
    });
  });
});

describe('scopes', () => {
  it('hides write tools from a read-only connection and refuses them by name', async () => {
    const h = await harness({ scopes: ['notes:read'] });
    const names = (await h.client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('create_note');
    expect(names).not.toContain('update_note');
    expect(names).not.toContain('delete_note');
    expect(names).not.toContain('grade_review');
    expect(names).toContain('get_note');
    expect(await h.fail('create_note', { title: 'x' })).toBe('This connection lacks the notes:write scope that create_note needs.');
    expect(await h.fail('delete_note', { note_id: id(1) })).toBe('This connection lacks the notes:write scope that delete_note needs.');
  });

  it('hides read tools from a write-only connection', async () => {
    const h = await harness({ scopes: ['notes:write'] });
    const names = (await h.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['create_note', 'update_note', 'delete_note']));
    expect(names).not.toContain('get_note');
    expect(await h.fail('get_note', { note_id: id(1) })).toBe('This connection lacks the notes:read scope that get_note needs.');
  });
});

describe("teammates' shared vaults", () => {
  // A teammate's note has an id of its own, derived from its owner and its frontmatter id.
  const ALICE_SHARED = teammateNoteId('alice', id(7));

  async function withTeammate(options: Omit<Parameters<typeof connect>[0], 'dir'> = {}): Promise<Harness> {
    const teammate = await writeVault(TEAMMATE_VAULT);
    dirs.push(teammate);
    return harness({ ...options, shared: [{ owner: 'alice', dir: teammate }] });
  }

  it('shows shared notes read-only with shared and owner, never a folder', async () => {
    const h = await withTeammate();
    const note = await h.ok<Full>('get_note', { note_id: ALICE_SHARED });
    expect(note).toMatchObject({ title: 'Teammate zebra brief', shared: true, owner: 'alice' });
    expect(note).not.toHaveProperty('folder');
    expect(await h.fail('get_note', { note_id: id(8) })).toBe('Note not found');
    const listed = await h.ok<{ items: Full[] }>('list_notes', { size: 50 });
    expect(listed.items.filter((item) => item.shared).map((item) => item.id)).toEqual([ALICE_SHARED]);
    const found = await h.ok<{ items: Full[] }>('search_notes', { query: 'teammate' });
    expect(found.items.map((item) => item.id)).toEqual([ALICE_SHARED]);
  });

  it('refuses to change them with a plain message', async () => {
    const h = await withTeammate();
    const before = await readFile(path.join(h.runtime.teammates[0]?.root as string, 'Shared.md'), 'utf8');
    expect(await h.fail('update_note', { note_id: ALICE_SHARED, text: 'x', mode: 'append' })).toBe('This note is shared by alice; it can be read but not changed.');
    expect(await h.fail('delete_note', { note_id: ALICE_SHARED })).toBe('This note is shared by alice; it can be read but not changed.');
    expect(await readFile(path.join(h.runtime.teammates[0]?.root as string, 'Shared.md'), 'utf8')).toBe(before);
  });

  it('keeps them out of personal views: tags, folders, folder filters', async () => {
    const h = await withTeammate();
    const { tags } = await h.ok<{ tags: { tag: string }[] }>('list_tags', { limit: 200 });
    expect(tags.map((t) => t.tag)).not.toContain('#teamzebra');
    const folders = await h.ok<{ folders: unknown[]; unfiled_count: number }>('list_folders');
    expect(folders.unfiled_count).toBe(1);
    const unfiled = await h.ok<{ items: Full[] }>('list_notes', { folder: 'unfiled' });
    expect(unfiled.items.map((item) => item.id)).toEqual([id(6)]);
  });

  it('never writes into the teammate vault', async () => {
    const teammate = await writeVault({ 'No id.md': 'shared: maybe\n', 'Shared no id.md': '---\nshared: true\n---\nHello.\n' });
    dirs.push(teammate);
    const h = await harness({ shared: [{ owner: 'bob', dir: teammate }] });
    expect(await readFile(path.join(teammate, 'Shared no id.md'), 'utf8')).toBe('---\nshared: true\n---\nHello.\n');
    const found = await h.ok<{ items: Full[] }>('search_notes', { query: 'hello' });
    expect(found.items[0]?.owner).toBe('bob');
  });
});
