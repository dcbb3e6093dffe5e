/**
 * Links and backlinks through the MCP tools (get_note and the write tools'
 * results), kept live as notes are written here or edited outside, seen
 * through a connection's boundary; and move_note, which files a note into a
 * folder and rewrites the links the move would break, every other byte kept.
 * The pure rules (what a link is, which note it names) are in
 * test/format/links.test.ts.
 */
import { appendFile, mkdir, open as openFile, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshVaults, waitFor, type Harness } from '../support/helpers.js';

interface Ref {
  id: string;
  title: string;
}
interface Full {
  id: string;
  title: string;
  text: string;
  tags: string[];
  updated: string;
  folder?: string;
  links?: { notes: Ref[]; unresolved: string[] };
  backlinks?: { notes: Ref[]; total: number };
}
interface Folders {
  folders: { name: string; note_count: number }[];
  unfiled_count: number;
}

const id = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** A note file with a frontmatter id (so that it keeps its id when renamed outside) and a body. */
const note = (n: number, body: string, extra = ''): string => `---\nid: ${id(n)}\n${extra}---\n${body}`;
const ref = (n: number, title: string): Ref => ({ id: id(n), title });

const { harness, another } = freshVaults();

const get = (h: Harness, n: number | string): Promise<Full> => h.ok<Full>('get_note', { note_id: typeof n === 'number' ? id(n) : n });
const linked = async (h: Harness, n: number): Promise<string[]> => ((await get(h, n)).links?.notes ?? []).map((r) => r.id);
const backlinkIds = async (h: Harness, n: number): Promise<string[]> => ((await get(h, n)).backlinks?.notes ?? []).map((r) => r.id).sort();
const file = (h: Harness, vaultPath: string): Promise<string> => readFile(path.join(h.dir, vaultPath), 'utf8');
const bytes = (h: Harness, vaultPath: string): Promise<Buffer> => readFile(path.join(h.dir, vaultPath));
const exists = (h: Harness, vaultPath: string): Promise<boolean> => stat(path.join(h.dir, vaultPath)).then(() => true, () => false);

describe('backlinks kept live', () => {
  it('follows create_note, update_note, outside renames and edits, and deletions', async () => {
    const h = await harness({
      'Hub.md': note(1, 'See [[Idea]] and [[Target]].\n'),
      'Notes/Target.md': note(2, 'The target.\n'),
      'Other.md': note(3, 'Nothing yet.\n'),
    });
    expect((await get(h, 1)).links).toEqual({ notes: [ref(2, 'Target')], unresolved: ['Idea'] });
    expect((await get(h, 2)).backlinks).toEqual({ notes: [ref(1, 'Hub')], total: 1 });

    // create_note: a note whose title Hub already links to has that backlink at once.
    const idea = await h.ok<Full>('create_note', { title: 'Idea', text: 'A fresh idea.' });
    expect(idea.backlinks).toEqual({ notes: [ref(1, 'Hub')], total: 1 });
    expect(idea.links).toEqual({ notes: [], unresolved: [] });
    expect((await get(h, 1)).links).toEqual({ notes: [{ id: idea.id, title: 'Idea' }, ref(2, 'Target')], unresolved: [] });

    // update_note: adding a link adds a backlink; taking it out takes it away.
    const updated = await h.ok<Full>('update_note', { note_id: id(3), text: 'Now about [[Target]] and [[Nowhere]].\n' });
    expect(updated.links).toEqual({ notes: [ref(2, 'Target')], unresolved: ['Nowhere'] });
    expect((await get(h, 2)).backlinks?.total).toBe(2);
    expect(await backlinkIds(h, 2)).toEqual([id(1), id(3)]);
    await h.ok('update_note', { note_id: id(3), text: 'No link any more.\n' });
    expect((await get(h, 2)).backlinks).toEqual({ notes: [ref(1, 'Hub')], total: 1 });

    // Renamed outside the server into another folder, same name: the bare link follows it.
    await mkdir(path.join(h.dir, 'Archive'));
    await rename(path.join(h.dir, 'Notes/Target.md'), path.join(h.dir, 'Archive/Target.md'));
    await waitFor(async () => (await get(h, 2)).folder === 'Archive', 2000, 'the outside move');
    expect((await get(h, 1)).links).toEqual({ notes: [{ id: idea.id, title: 'Idea' }, ref(2, 'Target')], unresolved: [] });
    expect((await get(h, 2)).backlinks).toEqual({ notes: [ref(1, 'Hub')], total: 1 });

    // Renamed to a new name: the link names nothing now.
    await rename(path.join(h.dir, 'Archive/Target.md'), path.join(h.dir, 'Archive/Goal.md'));
    await waitFor(async () => (await get(h, 2)).title === 'Goal', 2000, 'the outside rename');
    expect((await get(h, 1)).links).toEqual({ notes: [{ id: idea.id, title: 'Idea' }], unresolved: ['Target'] });
    expect((await get(h, 2)).backlinks).toEqual({ notes: [], total: 0 });

    // An outside edit adding a link.
    await writeFile(path.join(h.dir, 'Other.md'), note(3, 'Outside: [[Goal]] and [[Idea]].\n'));
    await waitFor(async () => (await get(h, 2)).backlinks?.total === 1, 2000, 'the outside edit');
    expect((await get(h, 2)).backlinks).toEqual({ notes: [ref(3, 'Other')], total: 1 });
    expect((await get(h, idea.id)).backlinks?.total).toBe(2);

    // delete_note: its links go with it.
    await h.ok('delete_note', { note_id: id(1) });
    expect((await get(h, idea.id)).backlinks).toEqual({ notes: [ref(3, 'Other')], total: 1 });
    // Deleted outside: so do its links.
    await rm(path.join(h.dir, 'Other.md'));
    await waitFor(async () => (await get(h, 2)).backlinks?.total === 0, 2000, 'the outside deletion');
    expect((await get(h, 2)).backlinks).toEqual({ notes: [], total: 0 });
    expect((await get(h, idea.id)).backlinks).toEqual({ notes: [], total: 0 });
  });
});

describe('names shared by two folders', () => {
  it('resolves [[Name]] to the note closest to the linking note, and gives each its own backlinks', async () => {
    const h = await harness({
      'A/Name.md': note(10, 'Name in A.\n'),
      'B/Name.md': note(11, 'Name in B.\n'),
      'A/Linker.md': note(12, 'Beside: [[Name]].\n'),
      'A/Sub/Linker.md': note(13, 'One up: [[Name]].\n'),
      'B/Deep/Linker.md': note(14, 'One up in B: [[Name]].\n'),
    });
    expect(await linked(h, 12)).toEqual([id(10)]);
    expect(await linked(h, 13)).toEqual([id(10)]);
    expect(await linked(h, 14)).toEqual([id(11)]);
    expect(await backlinkIds(h, 10)).toEqual([id(12), id(13)]);
    expect((await get(h, 10)).backlinks?.total).toBe(2);
    expect((await get(h, 11)).backlinks).toEqual({ notes: [ref(14, 'Linker')], total: 1 });
  });
});

describe('backlinks order and cap', () => {
  it('lists the 50 most recently updated of 55 linking notes, with total 55', async () => {
    // Updated times in an order unrelated to the file names: hour (7n mod 55).
    const hour = (n: number): number => (n * 7) % 55;
    const stamp = (n: number): string => new Date(Date.UTC(2026, 0, 1, hour(n))).toISOString().replace('.000Z', '+00:00');
    const files: Record<string, string> = { 'Target.md': note(99, 'The target.\n', 'updated: 2025-01-01T00:00:00+00:00\n') };
    const linkers = Array.from({ length: 55 }, (_, k) => k + 1);
    for (const n of linkers) files[`Linkers/Linker ${String(n).padStart(2, '0')}.md`] = note(100 + n, `Links to [[Target]].\n`, `updated: ${stamp(n)}\n`);
    const h = await harness(files);
    const expected = [...linkers].sort((a, b) => hour(b) - hour(a)).slice(0, 50).map((n) => ref(100 + n, `Linker ${String(n).padStart(2, '0')}`));
    const target = await get(h, 99);
    expect(target.backlinks?.total).toBe(55);
    expect(target.backlinks?.notes).toHaveLength(50);
    expect(target.backlinks?.notes).toEqual(expected);
  });
});

describe('links seen through a boundary', () => {
  // Plan (inside) links to Secret (only outside), Budget (inside) and Shared:
  // one inside, deep in Work, and one outside at the top, closer to Plan.
  const VAULT: Record<string, string> = {
    'Work/Plan.md': note(20, 'See [[Secret]], [[Budget]] and [[Shared]]. #work\n'),
    'Work/Budget.md': note(21, 'Budget. #work\n'),
    'Private/Secret.md': note(22, 'Secret: [[Plan]] and [[Work/Budget]].\n'),
    'Shared.md': note(23, 'Outside shared: [[Budget]].\n'),
    'Work/Deep/Deeper/Shared.md': note(24, 'Inside shared. #work\n'),
  };
  const OUTSIDE = [id(22), id(23), 'Secret', 'Outside shared'];

  it('resolves among every note for an unbounded connection (the baseline)', async () => {
    const h = await harness(VAULT);
    expect((await get(h, 20)).links).toEqual({ notes: [ref(22, 'Secret'), ref(21, 'Budget'), ref(23, 'Shared')], unresolved: [] });
    expect(await backlinkIds(h, 21)).toEqual([id(20), id(22), id(23)]);
    expect((await get(h, 20)).backlinks).toEqual({ notes: [ref(22, 'Secret')], total: 1 });
  });

  it.each([
    ['folder Work', { folder: 'Work' }],
    ['tag #work', { tag: '#work' }],
  ])('with a %s boundary, notes outside are as if they did not exist', async (_what, boundary) => {
    const h = await harness(VAULT, boundary);
    const plan = await get(h, 20);
    expect(plan.links).toEqual({ notes: [ref(21, 'Budget'), ref(24, 'Shared')], unresolved: ['Secret'] });
    expect(plan.backlinks).toEqual({ notes: [], total: 0 });
    expect((await get(h, 21)).backlinks).toEqual({ notes: [ref(20, 'Plan')], total: 1 });
    expect((await get(h, 24)).backlinks).toEqual({ notes: [ref(20, 'Plan')], total: 1 });
    const json = JSON.stringify([plan, await get(h, 21), await get(h, 24)]);
    for (const word of [id(22), id(23)]) expect(json).not.toContain(word);
    expect(await h.fail('get_note', { note_id: id(22) })).toBe('Note not found');
    expect(await h.fail('move_note', { note_id: id(22), folder: 'Work' })).toBe('Note not found');
    expect(await h.fail('move_note', { note_id: id(23), folder: 'unfiled' })).toBe('Note not found');
    expect(await h.fail('move_note', { note_id: 'no-such-note', folder: 'Work' })).toBe('Note not found');
    expect(await exists(h, 'Private/Secret.md')).toBe(true);
  });

  it('refuses, under a folder boundary, a move to a folder outside it or to unfiled, moving nothing', async () => {
    const h = await harness(VAULT, { folder: 'Work' });
    const before = await file(h, 'Work/Budget.md');
    expect(await h.fail('move_note', { note_id: id(21), folder: 'Other' })).toBe('Folder not found: Other');
    expect(await h.fail('move_note', { note_id: id(21), folder: 'private' })).toBe('Folder not found: private');
    expect(await h.fail('move_note', { note_id: id(21), folder: 'unfiled' })).toBe('Folder not found: unfiled');
    expect(await file(h, 'Work/Budget.md')).toBe(before);
    expect(await exists(h, 'Other')).toBe(false);
    expect(await exists(h, 'Budget.md')).toBe(false);
    expect(await exists(h, 'Private/Budget.md')).toBe(false);
    expect(await file(h, 'Private/Secret.md')).toBe(VAULT['Private/Secret.md']);
  });

  it.each([
    ['folder Work', { folder: 'Work' }, 'Work/Archive'],
    ['tag #work', { tag: '#work' }, 'Archive'],
  ])('with a %s boundary, a move rewrites links in an outside note on disk but never names it', async (_what, boundary, folder) => {
    const h = await harness(VAULT, boundary);
    const result = await h.call('move_note', { note_id: id(21), folder });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const moved = result.structuredContent as unknown as Full;
    expect(moved.id).toBe(id(21));
    expect(moved.folder).toBe(folder);
    expect(moved.backlinks).toEqual({ notes: [ref(20, 'Plan')], total: 1 });
    const json = JSON.stringify(result);
    for (const word of OUTSIDE) expect(json).not.toContain(word);
    expect(await exists(h, 'Work/Budget.md')).toBe(false);
    expect(await file(h, `${folder}/Budget.md`)).toBe(VAULT['Work/Budget.md']);
    // [[Work/Budget]] named nothing after the move: rewritten. [[Budget]] still names it everywhere.
    expect(await file(h, 'Private/Secret.md')).toBe(note(22, 'Secret: [[Plan]] and [[Budget]].\n'));
    expect(await file(h, 'Shared.md')).toBe(VAULT['Shared.md']);
    expect(await file(h, 'Work/Plan.md')).toBe(VAULT['Work/Plan.md']);
    // The outside note's backlink is real, for a connection that sees it.
    const all = await another(h.dir, {});
    expect(await backlinkIds(all, 21)).toEqual([id(20), id(22), id(23)]);
  });
});

describe('move_note rewrites links byte for byte', () => {
  const FENCE = '```';
  /** A linking note's lines, before the moves (`Old`) and after (`New`): only link paths differ. */
  const lines = (n: number, after: boolean): string[] => [
    '---',
    '# a comment the rewrite keeps',
    'zeta: first key   # and this one',
    `id: ${id(n)}`,
    'alpha: [b, a]',
    '---',
    after ? 'Wiki [[Name]] and [[Name#Heading|alias]] here.' : 'Wiki [[Old/Name]] and [[Old/Name#Heading|alias]] here.',
    after ? 'Embed: ![[Name]]' : 'Embed: ![[Old/Name]]',
    after
      ? 'Markdown [x](../New/Name.md), [y](<../New/Name.md>) and [z](../New/Big%20Plan.md "The plan").'
      : 'Markdown [x](Old/Name.md), [y](<Old/Name.md>) and [z](Old/Big%20Plan.md "The plan").',
    after ? 'Relative [up](../New/Name.md#Heading).' : 'Relative [up](../Old/Name.md#Heading).',
    'Code `[[Old/Name]]` and `[w](Old/Name.md)` stay.',
    '',
    `${FENCE}md`,
    '[[Old/Name]] [v](Old/Name.md)',
    FENCE,
    '',
  ];
  const lf = (n: number, after: boolean): string => lines(n, after).join('\n');
  const crlf = (n: number, after: boolean): string => lines(n, after).join('\r\n');

  it('changes only the link paths in an LF and a CRLF note, keeping line endings, aliases, headings, code and frontmatter', async () => {
    const NAME = note(30, '# Heading\n\nThe named note. [[Big Plan]]\n');
    const PLAN = note(31, 'The big plan.\r\n');
    const h = await harness({ 'Old/Name.md': NAME, 'Old/Big Plan.md': PLAN, 'Notes/LF.md': lf(32, false), 'Notes/CRLF.md': crlf(33, false) });
    expect((await get(h, 32)).links).toEqual({ notes: [ref(30, 'Name'), ref(31, 'Big Plan')], unresolved: [] });

    const moved = await h.ok<Full>('move_note', { note_id: id(30), folder: 'New' });
    expect(moved.folder).toBe('New');
    expect(moved.backlinks?.total).toBe(2);
    await h.ok('move_note', { note_id: id(31), folder: 'new' });

    expect(await file(h, 'Notes/LF.md')).toBe(lf(32, true));
    expect(await file(h, 'Notes/CRLF.md')).toBe(crlf(33, true));
    expect(await file(h, 'New/Name.md')).toBe(NAME);
    expect(await file(h, 'New/Big Plan.md')).toBe(PLAN);
    for (const n of [32, 33]) expect((await get(h, n)).links).toEqual({ notes: [ref(30, 'Name'), ref(31, 'Big Plan')], unresolved: [] });
    expect(await backlinkIds(h, 30)).toEqual([id(32), id(33)]);
    expect(await backlinkIds(h, 31)).toEqual([id(30), id(32), id(33)]);
  });

  it('percent-encodes a parenthesis in a rewritten Markdown link, so that the link still names the note', async () => {
    // A note named "1) Intro", linked with its ")" encoded; and a folder named "Draft)". Unbalanced
    // parentheses written bare would end the destination early.
    const h = await harness({
      'Old/1) Intro.md': note(34, 'Intro.\n'),
      'Old/Plain.md': note(35, 'Plain.\n'),
      'Intro link.md': note(36, 'See [i](Old/1%29%20Intro.md).\n'),
      'Plain link.md': note(37, 'See [p](Old/Plain.md).\n'),
    });
    expect(await linked(h, 36)).toEqual([id(34)]);
    await h.ok('move_note', { note_id: id(34), folder: 'New' });
    await h.ok('move_note', { note_id: id(35), folder: 'Draft)' });
    expect(await linked(h, 36)).toEqual([id(34)]);
    expect(await linked(h, 37)).toEqual([id(35)]);
    expect(await file(h, 'Intro link.md')).toBe(note(36, 'See [i](New/1%29%20Intro.md).\n'));
    expect(await file(h, 'Plain link.md')).toBe(note(37, 'See [p](Draft%29/Plain.md).\n'));
  });

  it('rewrites a link that the moved note would otherwise take over, so that it names what it named', async () => {
    // From X, [[Name]] names Y/Name (the closer of the two); moved into X, Z/Other/Name would be beside it.
    const h = await harness({
      'Y/Name.md': note(38, 'Y.\n'),
      'Z/Other/Name.md': note(39, 'Z.\n'),
      'X/Linker.md': note(29, 'Link [[Name]].\n'),
    });
    expect(await linked(h, 29)).toEqual([id(38)]);
    const moved = await h.ok<Full>('move_note', { note_id: id(39), folder: 'X' });
    expect(moved.backlinks).toEqual({ notes: [], total: 0 });
    expect(await file(h, 'X/Linker.md')).toBe(note(29, 'Link [[Y/Name]].\n'));
    expect(await linked(h, 29)).toEqual([id(38)]);
  });
});

describe('move_note keeps the note', () => {
  const INBOX_NAME = `---\r\nid: ${id(40)}\r\ntags: [keep]\r\n---\r\nMoving me — café ☕ [[Friend]]\r\nno newline at the end`;
  const FILES: Record<string, string> = {
    'Inbox/Name.md': INBOX_NAME,
    'Inbox/Friend.md': note(46, 'A friend.\n'),
    'Inbox/Bare.md': note(44, 'Beside: [[Name]].\n'),
    'Archive/Name.md': note(41, 'Already here.\n'),
    'Archive/Local.md': note(45, 'Beside: [[Name]].\n'),
    'Refs/ToMoved.md': note(42, 'Path: [[Inbox/Name]].\n'),
    'Refs/ToOther.md': note(43, 'Path: [[Archive/Name]].\n'),
    'Inbox/Loose.md': note(47, 'Loose.\n'),
  };

  it('keeps id, title and text, numbers the name on a clash, and points the links that named it at the new name', async () => {
    const h = await harness(FILES);
    const moved = await h.ok<Full>('move_note', { note_id: id(40), folder: 'archive' });
    expect(moved.id).toBe(id(40));
    expect(moved.folder).toBe('Archive');
    // The numbered file name cannot hold the title, so the title goes into the frontmatter, as create_note writes it.
    expect(moved.title).toBe('Name');
    expect(moved.text).toBe('Moving me — café ☕ [[Friend]]\r\nno newline at the end');
    expect(moved.links).toEqual({ notes: [ref(46, 'Friend')], unresolved: [] });
    expect(moved.backlinks?.total).toBe(2);
    expect(await exists(h, 'Inbox/Name.md')).toBe(false);
    expect(await file(h, 'Archive/Name 2.md')).toBe(INBOX_NAME.replace('tags: [keep]\r\n', 'tags: [keep]\r\ntitle: Name\r\n'));
    expect(await file(h, 'Archive/Name.md')).toBe(FILES['Archive/Name.md']);

    expect(await file(h, 'Refs/ToMoved.md')).toBe(note(42, 'Path: [[Name 2]].\n'));
    expect(await file(h, 'Inbox/Bare.md')).toBe(note(44, 'Beside: [[Name 2]].\n'));
    expect(await file(h, 'Refs/ToOther.md')).toBe(FILES['Refs/ToOther.md']);
    expect(await file(h, 'Archive/Local.md')).toBe(FILES['Archive/Local.md']);
    expect(await backlinkIds(h, 40)).toEqual([id(42), id(44)]);
    expect(await backlinkIds(h, 41)).toEqual([id(43), id(45)]);
    expect((await get(h, 40)).tags).toEqual(['#keep']);
  });

  it('creates a new nested folder, which list_folders then shows', async () => {
    const h = await harness(FILES);
    const before = await bytes(h, 'Inbox/Loose.md');
    const moved = await h.ok<Full>('move_note', { note_id: id(47), folder: 'Projects/Alpha/Deep' });
    expect(moved.folder).toBe('Projects/Alpha/Deep');
    expect((await bytes(h, 'Projects/Alpha/Deep/Loose.md')).equals(before)).toBe(true);
    const { folders } = await h.ok<Folders>('list_folders');
    expect(folders).toEqual(expect.arrayContaining([{ name: 'Projects/Alpha/Deep', note_count: 1 }]));
    expect(folders.map((f) => f.name)).toEqual(expect.arrayContaining(['Projects', 'Projects/Alpha']));
    expect((await h.ok<{ total: number }>('list_notes', { folder: 'projects/alpha/deep' })).total).toBe(1);
  });

  it('changes nothing on disk when the note is in that folder already', async () => {
    const h = await harness(FILES);
    const info = await stat(path.join(h.dir, 'Archive/Name.md'));
    const before = await bytes(h, 'Archive/Name.md');
    for (const folder of ['Archive', 'ARCHIVE']) {
      const same = await h.ok<Full>('move_note', { note_id: id(41), folder });
      expect(same.folder).toBe('Archive');
      expect(same.title).toBe('Name');
    }
    const after = await stat(path.join(h.dir, 'Archive/Name.md'));
    expect(after.mtimeMs).toBe(info.mtimeMs);
    expect(after.ino).toBe(info.ino);
    expect((await bytes(h, 'Archive/Name.md')).equals(before)).toBe(true);
    expect(await exists(h, 'Archive/Name 2.md')).toBe(false);
  });

  it('moves to unfiled, the top level', async () => {
    const h = await harness(FILES);
    const moved = await h.ok<Full>('move_note', { note_id: id(47), folder: 'Unfiled' });
    expect(moved).not.toHaveProperty('folder');
    expect(await file(h, 'Loose.md')).toBe(FILES['Inbox/Loose.md']);
  });

  it("rewrites the moved note's own links where its new place changes what they name", async () => {
    const h = await harness({
      'A/Self.md': note(50, 'Local [[Local]], [r](Local.md) and [u](../Top.md); far [[Far]].\n'),
      'A/Local.md': note(51, 'Local in A.\n'),
      'B/Local.md': note(52, 'Local in B.\n'),
      'Top.md': note(53, 'Top.\n'),
      'C/Far.md': note(54, 'Far.\n'),
    });
    const moved = await h.ok<Full>('move_note', { note_id: id(50), folder: 'B/Inner' });
    expect(await file(h, 'B/Inner/Self.md')).toBe(note(50, 'Local [[A/Local]], [r](../../A/Local.md) and [u](../../Top.md); far [[Far]].\n'));
    expect(moved.links).toEqual({ notes: [ref(51, 'Local'), ref(53, 'Top'), ref(54, 'Far')], unresolved: [] });
    expect(moved.text).toBe('Local [[A/Local]], [r](../../A/Local.md) and [u](../../Top.md); far [[Far]].\n');
  });
});

describe('a move during an outside edit', () => {
  it('loses neither the outside text nor the rewritten link', async () => {
    const LINKER = note(61, 'See [[Old/Target]].\n');
    const h = await harness({ 'Old/Target.md': note(60, 'The target.\n'), 'Linker.md': LINKER });
    const linker = path.join(h.dir, 'Linker.md');
    let done = false;
    const move = h.ok<Full>('move_note', { note_id: id(60), folder: 'New' }).finally(() => {
      done = true;
    });
    const appended: string[] = [];
    // Appends while the call runs (a bounded number, so that the file goes quiet for the rewrite in the end).
    for (let n = 0; !done && n < 20; n++) {
      const line = `outside ${n}\n`;
      await appendFile(linker, line);
      appended.push(line);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const moved = await move;
    expect(moved.folder).toBe('New');
    expect(appended.length).toBeGreaterThan(0);
    const expected = note(61, `See [[Target]].\n${appended.join('')}`);
    await h.runtime.own.writesSettled();
    await waitFor(async () => (await file(h, 'Linker.md')) === expected, 5000, 'the linking note to hold both changes');
    await waitFor(async () => (await get(h, 61)).text === `See [[Target]].\n${appended.join('')}`, 2000, 'the watcher to read it');
    expect((await get(h, 61)).links).toEqual({ notes: [ref(60, 'Target')], unresolved: [] });
    expect((await get(h, 60)).backlinks).toEqual({ notes: [ref(61, 'Linker')], total: 1 });
    // No conflict copy was needed.
    expect(await exists(h, 'Linker.md')).toBe(true);
    expect((await h.ok<{ total: number }>('list_notes', { size: 50 })).total).toBe(2);
  });

  it('keeps an outside edit written just before the call', async () => {
    const h = await harness({ 'Old/Target.md': note(60, 'The target.\n'), 'Linker.md': note(61, 'See [[Old/Target]].\n') });
    await appendFile(path.join(h.dir, 'Linker.md'), 'Written outside.\n');
    await h.ok('move_note', { note_id: id(60), folder: 'New' });
    const expected = note(61, 'See [[Target]].\nWritten outside.\n');
    await h.runtime.own.writesSettled();
    await waitFor(async () => (await file(h, 'Linker.md')) === expected, 5000, 'the linking note to hold both changes');
    await waitFor(async () => (await get(h, 61)).text === 'See [[Target]].\nWritten outside.\n', 2000, 'the watcher to read it');
  });
  it('brings back text written through a descriptor the outside program held across the rewrite', async () => {
    const h = await harness({ 'Old/Target.md': note(60, 'The target.\n'), 'Linker.md': note(61, 'See [[Old/Target]].\n') });
    const linker = path.join(h.dir, 'Linker.md');
    const handle = await openFile(linker, 'a');
    try {
      await handle.write('first\n');
      const move = h.ok<Full>('move_note', { note_id: id(60), folder: 'New' });
      // The server replaces the file once it has been quiet; the program still writes into the file it opened.
      await waitFor(async () => (await file(h, 'Linker.md')).includes('[[Target]]'), 5000, 'the rewrite');
      await handle.write('second\n');
      await move;
    } finally {
      await handle.close();
    }
    const expected = note(61, 'See [[Target]].\nfirst\nsecond\n');
    await waitFor(async () => (await file(h, 'Linker.md')) === expected, 5000, 'the late text to be brought back');
    await h.runtime.own.writesSettled();
    expect(await file(h, 'Linker.md')).toBe(expected);
    expect(h.runtime.own.stats.writesRecovered + h.runtime.own.stats.writesPutBack).toBeGreaterThan(0);
    expect(h.runtime.own.stats.conflictCopies).toBe(0);
    await waitFor(async () => (await get(h, 61)).text === 'See [[Target]].\nfirst\nsecond\n', 2000, 'the watcher to read it');
  });
});

describe('a write-only connection', () => {
  it('gets no links or backlinks from create_note, update_note or move_note', async () => {
    const h = await harness(
      { 'Hub.md': note(70, 'See [[Fresh]] and [[Old/Target]].\n'), 'Old/Target.md': note(71, 'Target: [[Hub]].\n') },
      { scopes: ['notes:write'] },
    );
    const results: Record<string, unknown>[] = [
      await h.ok('create_note', { title: 'Fresh', text: 'Links to [[Old/Target]].' }),
      await h.ok('update_note', { note_id: id(71), text: 'Target: [[Fresh]] now.\n' }),
      await h.ok('update_note', { note_id: id(71), text: 'And more.', mode: 'append' }),
      await h.ok('move_note', { note_id: id(71), folder: 'New' }),
    ];
    for (const result of results) {
      expect(result).not.toHaveProperty('links');
      expect(result).not.toHaveProperty('backlinks');
      expect(JSON.stringify(result)).not.toContain('Hub');
      expect(JSON.stringify(result)).not.toContain(id(70));
    }
    expect(results[3]).toEqual({ id: id(71), updated: expect.any(String) as unknown });
    // The move still rewrote the links on disk.
    expect(await file(h, 'Hub.md')).toBe(note(70, 'See [[Fresh]] and [[Target]].\n'));
    expect(await file(h, 'Fresh.md')).toMatch(/\nLinks to \[\[Target\]\]\.$/);
  });
});

describe('tools/list', () => {
  it('lists move_note as a write that destroys nothing', async () => {
    const h = await harness({ 'A.md': note(80, 'a\n') });
    const { tools } = await h.client.listTools();
    const move = tools.find((tool) => tool.name === 'move_note');
    expect(move?.annotations?.readOnlyHint).toBe(false);
    expect(move?.annotations?.destructiveHint).toBe(false);
    // Issue 30: folder, name or both (the handler refuses neither).
    expect(move?.inputSchema.required).toEqual(['note_id']);
    expect(Object.keys(move?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['folder', 'name']));
  });

  it('does not list move_note for a read-only connection', async () => {
    const h = await harness({ 'A.md': note(80, 'a\n') }, { scopes: ['notes:read'] });
    const names = (await h.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('get_note');
    expect(names).not.toContain('move_note');
    expect(names).not.toContain('create_note');
  });
});
