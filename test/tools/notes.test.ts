import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { connect, removeDir, TestClock, writeVault, type Harness } from '../support/helpers.js';
import { pathId } from '../../src/format/identity.js';
import { FIXTURE } from '../support/tools-fixture.js';

interface Item {
  id: string;
  title: string;
  snippet: string;
  tags: string[];
  source: string;
  source_url?: string;
  created: string;
  updated: string;
  folder?: string;
}
interface Page {
  items: Item[];
  total: number;
  page: number;
}
interface Full extends Omit<Item, 'snippet'> {
  text: string;
}

let h: Harness;
const openFixture = async (): Promise<Harness> => connect({ dir: await writeVault(FIXTURE), settings: { noteCap: null } });
const closeFixture = async (): Promise<void> => {
  await h.close();
  await removeDir(h.dir);
};

/**
 * The tests of a block that only read share one vault, runtime and client:
 * opening them took about 2.7 s a test (54 tests, 148 s), most of it the
 * vault's first read. Only the clock is set back before each.
 */
function readingTests(): void {
  beforeAll(async () => {
    h = await openFixture();
  });
  afterAll(closeFixture);
  beforeEach(() => {
    h.clock.current = new TestClock().current;
  });
}

/** The tests of a block that write get a fresh vault each. */
function writingTests(): void {
  beforeEach(async () => {
    h = await openFixture();
  });
  afterEach(closeFixture);
}

/** A fresh vault for one test that writes in a block of reading tests: `h` is the shared one again after. */
async function freshFixture(): Promise<Harness> {
  const shared = h;
  h = await openFixture();
  onTestFinished(async () => {
    await closeFixture();
    h = shared;
  });
  return h;
}

describe('tools/list', () => {
  readingTests();

  it('lists the twelve-tool contract subset with schemas, titles and annotations', async () => {
    const { tools } = await h.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['list_notes', 'get_note', 'list_tags', 'list_folders', 'create_note', 'update_note', 'delete_note']));
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.outputSchema, tool.name).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.get_note?.annotations?.readOnlyHint).toBe(true);
    expect(byName.list_notes?.annotations?.readOnlyHint).toBe(true);
    expect(byName.delete_note?.annotations?.destructiveHint).toBe(true);
  });
});

describe('list_notes', () => {
  readingTests();

  it('lists every note newest first by created, skipping dot-folders and node_modules', async () => {
    const page = await h.ok<Page>('list_notes', { size: 50 });
    expect(page.total).toBe(6);
    // Broken and Plain note have no dates: theirs come from the file, i.e. the test's run time.
    const titles = page.items.map((item) => item.title).filter((title) => title !== 'Broken' && title !== 'Plain note');
    expect(titles).toEqual(['Welcome', 'Attention is all you need', 'Launch', 'LoRA']);
    expect(page.items.map((item) => item.title)).toEqual(expect.arrayContaining(['Plain note', 'Broken']));
    expect(JSON.stringify(page)).not.toContain('workspace');
  });

  it('returns the contract item shape', async () => {
    const page = await h.ok<Page>('list_notes', { tag: '#papers' });
    expect(page.items).toEqual([
      {
        id: '00000000-0000-4000-8000-000000000002',
        title: 'Attention is all you need',
        snippet: 'Reading notes on the transformer paper by @vaswani. #ml/papers #papers See the paper.',
        tags: ['@vaswani', '#ml/papers', '#papers'],
        source: 'bookmark',
        source_url: 'https://arxiv.org/abs/1706.03762',
        created: '2026-11-29T09:12:00+00:00',
        updated: '2026-11-30T09:00:00+00:00',
        folder: 'Reading',
      },
    ]);
  });

  it.each([
    [{ source: 'bookmark' }, ['Attention is all you need']],
    [{ source: 'email' }, ['Launch']],
    [{ source: 'feed' }, ['LoRA']],
    [{ tag: '#ml' }, ['Welcome', 'Attention is all you need', 'LoRA']],
    [{ tag: 'ml' }, ['Welcome', 'Attention is all you need', 'LoRA']],
    [{ tag: '@bob' }, ['Launch']],
    [{ tag: 'bob' }, ['Launch']],
    [{ tag: '#notatag' }, []],
    [{ tag: '#start' }, ['Welcome']],
    [{ folder: 'reading' }, ['Attention is all you need']],
    [{ folder: 'Reading/Papers' }, ['LoRA']],
    [{ folder: 'Empty' }, []],
    [{ sort: 'updated', source: 'bookmark' }, ['Attention is all you need']],
    [{ sort: 'updated', folder: 'unfiled', tag: 'ml' }, ['Welcome']],
  ])('filters %j', async (args, titles) => {
    const page = await h.ok<Page>('list_notes', { size: 50, ...args });
    expect(page.items.map((item) => item.title)).toEqual(titles);
    expect(page.total).toBe(titles.length);
  });

  it('lists unfiled notes', async () => {
    const page = await h.ok<Page>('list_notes', { folder: 'unfiled', size: 50 });
    expect(page.items.map((item) => item.title).sort()).toEqual(['Broken', 'Plain note', 'Welcome']);
    expect(page.items.every((item) => item.folder === undefined)).toBe(true);
  });

  it('filters by period on the sort timestamp, in calendar days', async () => {
    h.clock.current = new Date(2026, 10, 30, 15, 0, 0); // local time
    const today = await h.ok<Page>('list_notes', { period: 'today', size: 50 });
    expect(today.items.map((item) => item.title)).toContain('Welcome');
    const week = await h.ok<Page>('list_notes', { period: 'week', size: 50 });
    expect(week.items.map((item) => item.title)).toEqual(expect.arrayContaining(['Welcome', 'Attention is all you need', 'Launch']));
    expect(week.items.map((item) => item.title)).not.toContain('LoRA');
  });

  it('paginates with a stable total', async () => {
    const first = await h.ok<Page>('list_notes', { size: 4 });
    const second = await h.ok<Page>('list_notes', { size: 4, page: 2 });
    expect(first.total).toBe(6);
    expect(second.page).toBe(2);
    expect(second.items).toHaveLength(2);
    const ids = [...first.items, ...second.items].map((item) => item.id);
    expect(new Set(ids).size).toBe(6);
  });

  it('pages through notes of equal timestamps in one order, newest first, then by id', async () => {
    const note = (id: string, updated: string): string => `---\nid: ${id}\ncreated: 2026-01-01T00:00:00+00:00\nupdated: ${updated}\n---\nBody of ${id}. #paged\n`;
    const dir = await writeVault({
      'n3.md': note('n3', '2026-03-02T00:00:00+00:00'),
      'n7.md': note('n7', '2026-03-01T00:00:00+00:00'),
      'n1.md': note('n1', '2026-03-02T00:00:00+00:00'),
      'n6.md': note('n6', '2026-03-01T12:00:00+00:00'),
      'n4.md': note('n4', '2026-03-03T00:00:00+00:00'),
      'n2.md': note('n2', '2026-03-02T00:00:00+00:00'),
      'n5.md': note('n5', '2026-03-01T12:00:00+00:00'),
    });
    const paged = await connect({ dir });
    try {
      const pages = [];
      for (let page = 1; page <= 3; page++) pages.push(await paged.ok<Page>('list_notes', { tag: '#paged', sort: 'updated', size: 3, page }));
      expect(pages.map((p) => p.items.map((item) => item.id))).toEqual([['n4', 'n1', 'n2'], ['n3', 'n5', 'n6'], ['n7']]);
      expect(pages.map((p) => p.total)).toEqual([7, 7, 7]);
      expect((await paged.ok<Page>('list_notes', { tag: '#paged', size: 3, page: 4 })).items).toEqual([]);
    } finally {
      await paged.close();
      await removeDir(dir);
    }
  });

  it.each([
    [{ folder: 'Nope' }, 'Folder not found: Nope'],
    [{ size: 0 }, 'size must be between 1 and 50'],
    [{ size: 51 }, 'size must be between 1 and 50'],
    [{ size: 2.5 }, 'size must be a whole number'],
    [{ page: 0 }, 'page must be 1 or more'],
    [{ source: 'tweet' }, 'source must be one of: all, note, bookmark, email, feed'],
    [{ period: 'month' }, 'period must be one of: today, yesterday, week'],
    [{ sort: 'title' }, 'sort must be one of: created, updated'],
    [{ colour: 'red' }, 'list_notes does not take colour; it takes: page, size, source, tag, folder, period, sort, where.'],
    [{ tag: '#' }, 'tag must be a tag such as "#ml", "@alice" or a bare word; "#" is not one.'],
  ])('rejects %j plainly', async (args, message) => {
    expect(await h.fail('list_notes', args)).toBe(message);
  });
});

describe('get_note', () => {
  readingTests();

  it('returns the full body and the item fields', async () => {
    const note = await h.ok<Full>('get_note', { note_id: '00000000-0000-4000-8000-000000000004' });
    expect(note.text).toBe('The launch moves to Friday. @bob #work\n');
    expect(note.folder).toBe('Inbox');
    expect(note.source).toBe('email');
    expect(note).not.toHaveProperty('snippet');
  });

  it('says Note not found for unknown ids', async () => {
    expect(await h.fail('get_note', { note_id: 'nope' })).toBe('Note not found');
    expect(await h.fail('get_note', {})).toBe('note_id is required');
  });

  it('sees an edit made in an editor at once', async () => {
    await freshFixture();
    const file = path.join(h.dir, 'Inbox/Launch.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('Friday', 'Monday'));
    const note = await h.ok<Full>('get_note', { note_id: '00000000-0000-4000-8000-000000000004' });
    expect(note.text).toContain('Monday');
  });

  it('lists a note with broken frontmatter as all body', async () => {
    const page = await h.ok<Page>('list_notes', { folder: 'unfiled', size: 50 });
    const broken = page.items.find((item) => item.title === 'Broken');
    expect(broken?.tags).toEqual(['#note']);
    const note = await h.ok<Full>('get_note', { note_id: broken?.id });
    expect(note.text.startsWith('---\ntags: [unclosed')).toBe(true);
  });
});

describe('reading writes nothing', () => {
  readingTests();

  it('writes nothing into a file it reads: a note without frontmatter keeps every byte and has its path id', async () => {
    const file = path.join(h.dir, 'Plain note.md');
    expect(await readFile(file, 'utf8')).toBe(FIXTURE['Plain note.md']);
    const page = await h.ok<Page>('list_notes', { tag: 'garden' });
    expect(page.items[0]?.id).toBe(pathId('Plain note.md'));
  });

  it('never rewrites a file whose frontmatter is broken', async () => {
    expect(await readFile(path.join(h.dir, 'Broken.md'), 'utf8')).toBe(FIXTURE['Broken.md']);
  });
});

describe('list_tags and list_folders', () => {
  readingTests();

  it('counts hashtags, most used first, frontmatter tags included', async () => {
    const { tags } = await h.ok<{ tags: { tag: string; count: number }[] }>('list_tags');
    expect(tags[0]).toEqual({ tag: '#ml', count: 2 });
    expect(tags.map((t) => t.tag)).toEqual(expect.arrayContaining(['#start', '#ml/papers', '#papers', '#work', '#garden', '#note']));
    expect(tags.map((t) => t.tag)).not.toContain('#notatag');
    expect(tags.every((t) => t.tag.startsWith('#'))).toBe(true);
  });

  it('lists mentions separately and honours limit', async () => {
    const { tags } = await h.ok<{ tags: { tag: string; count: number }[] }>('list_tags', { kind: 'mention' });
    expect(tags.map((t) => t.tag).sort()).toEqual(['@alice', '@bob', '@vaswani']);
    const limited = await h.ok<{ tags: unknown[] }>('list_tags', { limit: 2 });
    expect(limited.tags).toHaveLength(2);
    expect(await h.fail('list_tags', { limit: 201 })).toBe('limit must be between 1 and 200');
  });

  it('lists every folder, empty ones too, with direct note counts', async () => {
    const result = await h.ok<{ folders: { name: string; note_count: number }[]; unfiled_count: number }>('list_folders');
    expect(result).toEqual({
      folders: [
        { name: 'Attachments', note_count: 0 },
        { name: 'Empty', note_count: 0 },
        { name: 'Inbox', note_count: 1 },
        { name: 'Reading', note_count: 1 },
        { name: 'Reading/Papers', note_count: 1 },
      ],
      unfiled_count: 3,
    });
  });
});

describe('create_note', () => {
  writingTests();

  it('writes <title>.md with id, created and updated, and returns the full note', async () => {
    h.clock.current = new Date('2026-12-01T10:00:00Z');
    const note = await h.ok<Full>('create_note', { title: 'Garden plan', text: 'Plant #tomatoes with @carol.' });
    expect(note).toMatchObject({ title: 'Garden plan', text: 'Plant #tomatoes with @carol.', tags: ['#tomatoes', '@carol'], source: 'note', created: '2026-12-01T10:00:00+00:00', updated: '2026-12-01T10:00:00+00:00' });
    expect(note).not.toHaveProperty('folder');
    const content = await readFile(path.join(h.dir, 'Garden plan.md'), 'utf8');
    expect(content).toBe(`---\nid: ${note.id}\ncreated: 2026-12-01T10:00:00+00:00\nupdated: 2026-12-01T10:00:00+00:00\n---\nPlant #tomatoes with @carol.`);
    const listed = await h.ok<Page>('list_notes', { tag: 'tomatoes' });
    expect(listed.items.map((item) => item.id)).toEqual([note.id]);
  });

  it('numbers taken names and keeps titles a file name cannot hold', async () => {
    const a = await h.ok<Full>('create_note', { title: 'Welcome', text: 'again' });
    expect(a.title).toBe('Welcome');
    expect(await readFile(path.join(h.dir, 'Welcome 2.md'), 'utf8')).toContain('title: Welcome\n');
    const b = await h.ok<Full>('create_note', { title: 'Q3: plan/budget?', text: '' });
    expect(b.title).toBe('Q3: plan/budget?');
    expect(await readFile(path.join(h.dir, 'Q3- plan-budget-.md'), 'utf8')).toContain('title: "Q3: plan/budget?"');
    const c = await h.ok<Full>('create_note', {});
    expect(c.title).toBe('Untitled');
    expect(await stat(path.join(h.dir, 'Untitled.md'))).toBeTruthy();
  });

  it('cannot be steered outside the vault by its title', async () => {
    const note = await h.ok<Full>('create_note', { title: '../../etc/passwd', text: 'x' });
    expect(note.title).toBe('../../etc/passwd');
    const listed = await h.ok<Page>('list_notes', { folder: 'unfiled', size: 50 });
    expect(listed.items.map((item) => item.id)).toContain(note.id);
  });

  it('refuses at the note cap with the limit message', async () => {
    await h.close();
    h = await connect({ dir: h.dir, settings: { noteCap: 6 } });
    expect(await h.fail('create_note', { title: 'One too many' })).toMatch(/^Note limit reached: this vault's plan allows 6 notes/);
    expect(await h.fail('create_note', { title: 'x'.repeat(501) })).toBe('title must be at most 500 characters');
  });
});

describe('update_note', () => {
  writingTests();

  const id = '00000000-0000-4000-8000-000000000002';
  const file = () => path.join(h.dir, 'Reading/Attention.md');

  it('appends on a new line, keeping the frontmatter bytes but updated', async () => {
    h.clock.current = new Date('2026-12-02T00:00:00Z');
    const before = await readFile(file(), 'utf8');
    const note = await h.ok<Full>('update_note', { note_id: id, text: 'A later thought. #followup', mode: 'append' });
    expect(note.text.endsWith('arxiv.org/abs/1706.03762#section-3).\n\nA later thought. #followup\n')).toBe(true);
    expect(note.tags).toContain('#followup');
    expect(note.updated).toBe('2026-12-02T00:00:00+00:00');
    const after = await readFile(file(), 'utf8');
    expect(after).toBe(before.replace('updated: 2026-11-30T09:00:00+00:00', 'updated: 2026-12-02T00:00:00+00:00') + '\nA later thought. #followup\n');
  });

  it('replaces the body and sets a new title in the frontmatter without moving the file', async () => {
    const note = await h.ok<Full>('update_note', { note_id: id, title: 'Transformers', text: 'New body.' });
    // The note ended with a newline, and so does its new body.
    expect(note).toMatchObject({ title: 'Transformers', text: 'New body.\n', folder: 'Reading' });
    const after = await readFile(file(), 'utf8');
    expect(after).toContain('# a comment the server must keep\nrating: 4\n');
    expect(after).toContain('title: Transformers\n');
    expect(after.endsWith('---\nNew body.\n')).toBe(true);
  });

  it('keeps an edit made in an editor a moment before an append', async () => {
    await writeFile(file(), (await readFile(file(), 'utf8')) + 'Typed in the editor.\n');
    const note = await h.ok<Full>('update_note', { note_id: id, text: 'From the assistant.', mode: 'append' });
    expect(note.text.endsWith('Typed in the editor.\n\nFrom the assistant.\n')).toBe(true);
  });

  it('lands all of 50 concurrent appends', async () => {
    await Promise.all(Array.from({ length: 50 }, (_, i) => h.ok('update_note', { note_id: id, text: `line ${i}`, mode: 'append' })));
    const after = await readFile(file(), 'utf8');
    for (let i = 0; i < 50; i++) expect(after).toContain(`\nline ${i}`);
  });

  it.each([
    [{ note_id: id }, 'Nothing to update'],
    [{ note_id: 'missing', text: 'x' }, 'Note not found'],
    [{ note_id: id, mode: 'prepend', text: 'x' }, 'mode must be one of: replace, append'],
  ])('rejects %j plainly', async (args, message) => {
    expect(await h.fail('update_note', args)).toBe(message);
  });

  it('refuses to rewrite a note with broken frontmatter, leaving it untouched', async () => {
    const page = await h.ok<Page>('list_notes', { tag: '#note' });
    const message = await h.fail('update_note', { note_id: page.items[0]?.id, text: 'x', mode: 'append' });
    expect(message).toMatch(/frontmatter is not valid YAML/);
    expect(await readFile(path.join(h.dir, 'Broken.md'), 'utf8')).toBe(FIXTURE['Broken.md']);
  });
});

describe('delete_note', () => {
  writingTests();

  it('deletes the file and its attachment', async () => {
    const result = await h.ok('delete_note', { note_id: '00000000-0000-4000-8000-000000000004' });
    expect(result).toEqual({ deleted: true, id: '00000000-0000-4000-8000-000000000004', title: 'Launch' });
    await expect(stat(path.join(h.dir, 'Inbox/Launch.md'))).rejects.toThrow();
    await expect(stat(path.join(h.dir, 'Attachments/launch.eml'))).rejects.toThrow();
    expect(await h.fail('get_note', { note_id: '00000000-0000-4000-8000-000000000004' })).toBe('Note not found');
    expect(await h.fail('delete_note', { note_id: '00000000-0000-4000-8000-000000000004' })).toBe('Note not found');
  });

  it('never deletes an attachment outside the vault', async () => {
    const outside = await writeVault({ 'secret.txt': 'keep me' });
    await writeFile(path.join(h.dir, 'Evil.md'), `---\nid: 00000000-0000-4000-8000-0000000000ee\nattachment: ${path.join(outside, 'secret.txt')}\n---\nx\n`);
    await h.close();
    h = await connect({ dir: h.dir });
    await h.ok('delete_note', { note_id: '00000000-0000-4000-8000-0000000000ee' });
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('keep me');
    await removeDir(outside);
  });
});
