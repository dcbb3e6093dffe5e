import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { NOTE_TEMPLATE, noteIdOfUri, noteUri, RESOURCE_PAGE_SIZE } from '../../src/server/resources.js';
import { connect, connectClient, removeDir, waitFor, writeVault, type Harness } from '../support/helpers.js';

const opened: Harness[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((harness) => harness.close()));
  await Promise.all(dirs.splice(0).map((dir) => removeDir(dir)));
});

async function open(files: Record<string, string>, options: Omit<Parameters<typeof connect>[0], 'dir'> = {}): Promise<Harness> {
  const dir = await writeVault(files);
  dirs.push(dir);
  const harness = await connect({ dir, ...options });
  opened.push(harness);
  return harness;
}

describe('noteUri and noteIdOfUri', () => {
  const cases: [string, string | undefined][] = [
    [noteUri('0b7c6f2e-1f7a-4f4e-9f55-3d1c2b0a9e11'), '0b7c6f2e-1f7a-4f4e-9f55-3d1c2b0a9e11'],
    [noteUri('an id/with ?odd# characters'), 'an id/with ?odd# characters'],
    ['dexi-note://', undefined],
    // A path names a note too (note-names.ts); a client may leave its folders unencoded.
    ['dexi-note://a/b', 'a/b'],
    ['dexi-note://%E0%A4%A', undefined],
    ['file:///etc/passwd', undefined],
    ['https://example.com/note', undefined],
  ];
  it.each(cases)('%s', (uri, id) => {
    expect(noteIdOfUri(uri)).toBe(id);
  });
});

describe('notes as resources', () => {
  it('lists every note newest first, a page at a time, with its title and type', async () => {
    const files: Record<string, string> = {};
    const count = RESOURCE_PAGE_SIZE + 30;
    for (let i = 0; i < count; i++) {
      const updated = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
      files[`Notes/n${String(i).padStart(3, '0')}.md`] = `---\ntitle: Note ${i}\nupdated: ${updated}\ncreated: ${updated}\n---\nBody ${i}.\n`;
    }
    const h = await open(files);
    const first = await h.client.listResources();
    expect(first.resources).toHaveLength(RESOURCE_PAGE_SIZE);
    expect(first.nextCursor).toBeDefined();
    const second = await h.client.listResources({ cursor: first.nextCursor as string });
    expect(second.nextCursor).toBeUndefined();
    const all = [...first.resources, ...second.resources];
    expect(all.map((resource) => resource.title)).toEqual(Array.from({ length: count }, (_, i) => `Note ${count - 1 - i}`));
    expect(new Set(all.map((resource) => resource.uri)).size).toBe(count);
    expect(all[0]).toMatchObject({ name: `Notes/n${count - 1}.md`, mimeType: 'text/markdown', description: `Body ${count - 1}.`, annotations: { lastModified: expect.stringMatching(/^2026-01-01T02:09:00/) } });
    await expect(h.client.listResources({ cursor: 'not-a-cursor' })).rejects.toThrow(/This cursor was not given by this server; list the resources again from the first page\./);
  });

  it('reads a note as its Markdown body, with its title, the same text get_note gives', async () => {
    const h = await open({ 'Plan.md': '---\ntitle: The plan\ntags: [work]\n---\n# Steps\n\n- one\n- two\n' });
    const [resource] = (await h.client.listResources()).resources;
    const read = await h.client.readResource({ uri: resource?.uri as string });
    const note = await h.ok<{ id: string; text: string }>('get_note', { note_id: noteIdOfUri(resource?.uri as string) });
    expect(read.contents).toEqual([{ uri: noteUri(note.id), mimeType: 'text/markdown', text: note.text, _meta: { title: 'The plan', path: 'Plan.md', updated: expect.any(String) } }]);
    expect(note.text).toBe('# Steps\n\n- one\n- two\n');
  });

  it('offers one template, a note by id', async () => {
    const h = await open({ 'A.md': 'a\n' });
    const { resourceTemplates } = await h.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'dexi-note://{note_id}', mimeType: 'text/markdown' })]);
  });

  it('answers a URI that names no note, or a note that is gone, in a sentence', async () => {
    const h = await open({ 'A.md': 'a\n' });
    await expect(h.client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow('"file:///etc/passwd" is not a note of this server; note resources look like dexi-note://NOTE_ID.');
    await expect(h.client.readResource({ uri: noteUri('no-such-note') })).rejects.toThrow(/Note not found/);
  });

  it("shows a teammate's shared note by its title, never its path", async () => {
    const teammate = await writeVault({ 'Private/Folder/Shared idea.md': '---\nshared: true\ntitle: Shared idea\n---\nOpen to all.\n', 'Secret.md': 'Not shared.\n' });
    dirs.push(teammate);
    const h = await open({ 'Mine.md': 'mine\n' }, { shared: [{ owner: 'alice', dir: teammate }] });
    const { resources } = await h.client.listResources();
    const shared = resources.find((resource) => resource.title === 'Shared idea');
    expect(shared?.name).toBe('Shared idea');
    expect(JSON.stringify(resources)).not.toContain('Private/Folder');
    expect(JSON.stringify(resources)).not.toContain('Secret');
    const read = await h.client.readResource({ uri: shared?.uri as string });
    expect(read.contents[0]).toMatchObject({ text: 'Open to all.\n', _meta: { title: 'Shared idea', owner: 'alice' } });
  });

  it('tells a subscriber when its note changes on disk or through a tool, and stops when it unsubscribes', async () => {
    const h = await open({ 'Followed.md': 'one\n', 'Other.md': 'other\n' });
    const updates: string[] = [];
    h.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification.params.uri);
    });
    const { resources } = await h.client.listResources();
    const followed = resources.find((resource) => resource.name === 'Followed.md')?.uri as string;
    await h.client.subscribeResource({ uri: followed });
    // Another program edits the file: told within a second (the watcher's promise for every tool).
    await writeFile(path.join(h.dir, 'Followed.md'), 'one, edited outside\n');
    await waitFor(() => updates.length >= 1, 5000, 'the update of an outside edit');
    // A tool's edit, and an edit of a note not followed.
    await h.ok('update_note', { note_id: noteIdOfUri(followed), mode: 'append', text: 'two' });
    await waitFor(() => updates.length >= 2, 5000, 'the update of a tool edit');
    await writeFile(path.join(h.dir, 'Other.md'), 'other, edited\n');
    await h.client.unsubscribeResource({ uri: followed });
    await writeFile(path.join(h.dir, 'Followed.md'), 'three\n');
    // Both edits have been taken in (searchable) before the count is checked.
    await waitFor(async () => ((await h.ok<{ items: unknown[] }>('search_notes', { query: 'three' })).items.length === 1 ? true : undefined), 2000, 'the last edit');
    await waitFor(async () => ((await h.ok<{ items: unknown[] }>('search_notes', { query: 'other edited' })).items.length === 1 ? true : undefined), 2000, 'the other edit');
    expect(updates.every((uri) => uri === followed)).toBe(true);
    expect(updates.length).toBeLessThanOrEqual(3);
    expect(updates.length).toBeGreaterThanOrEqual(2);
  });

  it('tells once when a followed note is deleted, and refuses to follow a note that does not exist', async () => {
    const h = await open({ 'Gone.md': 'soon gone\n' });
    const updates: string[] = [];
    h.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification.params.uri);
    });
    const [resource] = (await h.client.listResources()).resources;
    await h.client.subscribeResource({ uri: resource?.uri as string });
    await h.ok('delete_note', { note_id: noteIdOfUri(resource?.uri as string) });
    await waitFor(() => updates.length === 1, 5000, 'the update of a deletion');
    await expect(h.client.subscribeResource({ uri: noteUri('no-such-note') })).rejects.toThrow(/Note not found/);
    await expect(h.client.subscribeResource({ uri: 'https://example.com/' })).rejects.toThrow(/is not a note of this server/);
  });

  it('offers no resources to a connection that may not read', async () => {
    const h = await open({ 'A.md': 'a\n' }, { scopes: ['notes:write'] });
    expect(h.client.getServerCapabilities()?.resources).toBeUndefined();
    await expect(h.client.listResources()).rejects.toThrow();
  });
});

describe('the resource list, as notes appear and vanish', () => {
  it('tells a client that listed when a note appears or vanishes, a burst as one, and never for a note outside its boundary', async () => {
    const h = await open({ 'Work/Plan.md': 'plan #work\n', 'Home/Chores.md': 'chores\n' });
    const bounded = await connectClient(h.runtime, { folder: 'Work' });
    const told = { all: 0, work: 0 };
    h.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      told.all++;
    });
    bounded.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      told.work++;
    });
    try {
      expect(h.client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
      await h.client.listResources();
      await bounded.listResources();
      // Outside the folder: only the unbounded client hears of it.
      await writeFile(path.join(h.dir, 'Home/Garden.md'), 'garden\n');
      await waitFor(() => told.all === 1, 5000, 'the list change of a note written outside');
      // Three notes at once, through a tool and on disk, inside the folder: one notice to each.
      await h.ok('create_note', { title: 'Fresh', text: 'x' });
      await writeFile(path.join(h.dir, 'Work/Two.md'), 'two\n');
      await writeFile(path.join(h.dir, 'Work/Three.md'), 'three\n');
      await waitFor(async () => ((await bounded.listResources()).resources.length === 3 ? true : undefined), 5000, 'the new notes');
      await waitFor(() => told.work >= 1 && told.all >= 2, 5000, 'the list change of the new notes');
      const afterBurst = told.work;
      expect(afterBurst).toBe(1);
      // An edit is no list change; a deletion is.
      await h.ok('update_note', { note_id: noteIdOfUri((await bounded.listResources()).resources[0]?.uri as string), mode: 'append', text: 'more' });
      const plan = (await bounded.listResources()).resources.find((resource) => resource.name === 'Work/Plan.md');
      await h.ok('delete_note', { note_id: noteIdOfUri(plan?.uri as string) });
      await waitFor(() => told.work === afterBurst + 1, 5000, 'the list change of a deletion');
    } finally {
      await bounded.close();
    }
  });

  it('says nothing to a client that never listed', async () => {
    const h = await open({ 'A.md': 'a\n' });
    let told = 0;
    h.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      told++;
    });
    const watching = await connectClient(h.runtime, {});
    let seen = 0;
    watching.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      seen++;
    });
    try {
      await watching.listResources();
      await h.ok('create_note', { title: 'B', text: 'b' });
      // The listing client is told; by then the other would have been too.
      await waitFor(() => seen === 1, 5000, 'the listing client to be told');
      expect(told).toBe(0);
    } finally {
      await watching.close();
    }
  });
});

describe('completing the template\'s note_id from titles', () => {
  const complete = (h: Harness, value: string) =>
    h.client.complete({ ref: { type: 'ref/resource', uri: NOTE_TEMPLATE }, argument: { name: 'note_id', value } });

  it('offers the titles of the notes whose title starts so, then those with a word that does, then those holding it, newest first; paths where titles repeat', async () => {
    const note = (id: string, title: string, updated: string) => `---\nid: ${id}\ntitle: ${title}\nupdated: ${updated}\n---\nbody\n`;
    const h = await open({
      'a.md': note('id-garden-old', 'Garden plan', '2026-11-01T00:00:00+00:00'),
      'b.md': note('id-garden-new', 'GARDEN log', '2026-11-20T00:00:00+00:00'),
      'c.md': note('id-my-garden', 'My garden', '2026-11-25T00:00:00+00:00'),
      'd.md': note('id-kitchen', 'Kitchen', '2026-11-26T00:00:00+00:00'),
      'Private/e.md': note('id-secret-garden', 'Garden secrets', '2026-11-27T00:00:00+00:00'),
      'Work/plan.md': note('id-work-plan', 'Plan', '2026-11-10T00:00:00+00:00'),
      'Home/plan.md': note('id-home-plan', 'Plan', '2026-11-11T00:00:00+00:00'),
      'ja.md': note('id-sync', '同期の設定', '2026-11-12T00:00:00+00:00'),
    });
    expect((await complete(h, 'gar')).completion).toEqual({ values: ['Garden secrets', 'GARDEN log', 'Garden plan', 'My garden'], total: 4, hasMore: false });
    expect((await complete(h, 'id-kit')).completion.values).toEqual(['id-kitchen']);
    expect((await complete(h, 'plan')).completion.values).toEqual(['Home/plan', 'Work/plan', 'Garden plan']);
    expect((await complete(h, '同期')).completion.values).toEqual(['同期の設定']);
    expect((await complete(h, 'zzz')).completion).toEqual({ values: [], total: 0, hasMore: false });
    expect((await complete(h, '')).completion.total).toBe(8);
    // Each name a completion offers reads its note.
    for (const [name, file] of [['Garden secrets', 'Private/e.md'], ['Home/plan', 'Home/plan.md'], ['同期の設定', 'ja.md'], ['garden LOG', 'b.md'], ['id-kitchen', 'd.md']] as const) {
      const read = await h.client.readResource({ uri: `dexi-note://${encodeURIComponent(name)}` });
      expect(read.contents[0]?._meta?.path, name).toBe(file);
    }
    await expect(h.client.readResource({ uri: 'dexi-note://Plan' })).rejects.toThrow('2 notes are titled "Plan"; name one by its path, such as "Home/plan" or "Work/plan".');
    // A subscription follows the id URI its changes are told by: a name is answered with that id.
    await expect(h.client.subscribeResource({ uri: 'dexi-note://Home/plan' })).rejects.toThrow('Follow a note by its id: dexi-note://id-home-plan.');
    // A connection limited to a folder completes from its own notes alone, and a title repeated outside it is its own.
    const bounded = await connectClient(h.runtime, { folder: 'Work' });
    try {
      const answer = await bounded.complete({ ref: { type: 'ref/resource', uri: NOTE_TEMPLATE }, argument: { name: 'note_id', value: 'pl' } });
      expect(answer.completion).toEqual({ values: ['Plan'], total: 1, hasMore: false });
      expect((await bounded.readResource({ uri: 'dexi-note://Plan' })).contents[0]?._meta?.path).toBe('Work/plan.md');
      await expect(bounded.readResource({ uri: 'dexi-note://Garden%20secrets' })).rejects.toThrow('Note not found');
      await expect(bounded.readResource({ uri: 'dexi-note://Home/plan' })).rejects.toThrow('Note not found');
    } finally {
      await bounded.close();
    }
    // Another template or variable completes to nothing.
    expect((await h.client.complete({ ref: { type: 'ref/resource', uri: 'dexi-note://{other}' }, argument: { name: 'other', value: 'gar' } })).completion.values).toEqual([]);
  });

  it('caps the answer at 100 and says there is more', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 150; i++) files[`Note ${i}.md`] = `note ${i}\n`;
    const h = await open(files);
    const { completion } = await complete(h, 'note');
    expect(completion.values).toHaveLength(100);
    expect(completion).toMatchObject({ total: 150, hasMore: true });
  });
});
