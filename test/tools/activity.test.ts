import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, removeDir, waitFor, writeVault, type Harness, type HarnessOptions, vaultFiles } from '../support/helpers.js';
import { activityFile, historyDir, parseActivity, type ActivityRecord } from '../../src/vault/record/activity.js';
import { undo } from '../../src/vault/record/undo.js';

const PLAN_ID = '00000000-0000-4000-8000-0000000000a1';
const CARD_ID = '00000000-0000-4000-8000-0000000000a2';
const MAIL_ID = '00000000-0000-4000-8000-0000000000a3';
const IDEA_ID = '00000000-0000-4000-8000-0000000000a4';
const DAILY_ID = '00000000-0000-4000-8000-0000000000a5';

// Rich formatting a replace would lose: a comment in the frontmatter, a table, an HTML comment, CRLF line ends.
const PLAN = [
  '---',
  `id: ${PLAN_ID}`,
  '# the person\'s own comment',
  'created: 2026-11-20T08:00:00+00:00',
  'updated: 2026-11-20T08:00:00+00:00',
  'status: draft',
  '---',
  '# Plan',
  '',
  '| step | owner |',
  '| ---- | ----- |',
  '| one  | me    |',
  '',
  '<!-- keep this -->',
  'Secret plan text that must never be in the log.',
  '',
].join('\r\n');

const VAULT: Record<string, string> = {
  'Projects/Plan.md': PLAN,
  'Cards/Capital.md': `---\nid: ${CARD_ID}\ncreated: 2026-11-01T09:00:00+00:00\n---\nWhat is the capital of Portugal?\n\n**Lisbon.** #flashcards\n`,
  'Mail/Launch.md': `---\nid: ${MAIL_ID}\nsource: email\nattachment: Mail/Launch.eml\ncreated: 2026-11-25T10:00:00+00:00\n---\nThe launch moves to Friday.\n`,
  'Mail/Launch.eml': 'From: bob@example.com\r\nSubject: Launch\r\n\r\nFriday.\r\n',
  'Inbox/Idea.md': `---\nid: ${IDEA_ID}\ncreated: 2026-11-26T10:00:00+00:00\n---\nAn idea.\n`,
  'Daily/2026-11-27.md': `---\nid: ${DAILY_ID}\ncreated: 2026-11-27T10:00:00+00:00\n---\nSee [[Inbox/Idea]] and [the idea](../Inbox/Idea.md).\n`,
  '.dexi/settings.json': JSON.stringify({ reviewTags: ['#flashcards'], noteCap: null }),
};

let h: Harness | undefined;
afterEach(async () => {
  if (!h) return;
  await h.close();
  await removeDir(h.dir);
  h = undefined;
});

async function open(options: Partial<HarnessOptions> = {}): Promise<Harness> {
  h = await connect({ dir: await writeVault(VAULT), ...options });
  return h;
}

const bytes = (harness: Harness, file: string): Promise<Buffer> => readFile(path.join(harness.dir, file));
const entries = async (harness: Harness): Promise<ActivityRecord[]> => parseActivity(await readFile(activityFile(harness.dir), 'utf8').catch(() => ''));
const snapshot = (dir: string): Promise<Record<string, string>> => vaultFiles(dir, 'base64');

describe('the activity record and undo, after each write tool', () => {
  it('update_note replace: recorded without any note text, and undone byte for byte', async () => {
    const harness = await open();
    const before = await snapshot(harness.dir);
    await harness.ok('update_note', { note_id: PLAN_ID, text: 'A rewrite.', mode: 'replace' });
    expect((await bytes(harness, 'Projects/Plan.md')).toString()).toContain('A rewrite.');

    const log = await entries(harness);
    expect(log).toEqual([expect.objectContaining({ tool: 'update_note', by: 'stdio', action: 'changed', id: PLAN_ID, path: 'Projects/Plan.md' })]);
    const raw = await readFile(activityFile(harness.dir), 'utf8');
    expect(raw).not.toContain('Secret plan');
    expect(raw).not.toContain('A rewrite');
    // The replaced version is kept, by its hash, in a folder git ignores.
    expect(await readFile(path.join(historyDir(harness.dir), (log[0] as { before: string }).before))).toEqual(Buffer.from(PLAN));
    expect(await readFile(path.join(historyDir(harness.dir), '.gitignore'), 'utf8')).toBe('*\n');

    const undone = await undo(harness.runtime.activity, { note: PLAN_ID });
    expect(undone.entries).toHaveLength(1);
    expect(await bytes(harness, 'Projects/Plan.md')).toEqual(Buffer.from(PLAN));
    expect(await snapshot(harness.dir)).toEqual(before);
    // The undo is a recorded write of its own, naming the call it undid.
    const after = await entries(harness);
    expect(after[1]).toEqual(expect.objectContaining({ tool: 'undo', by: 'command line', action: 'changed', path: 'Projects/Plan.md', undoes: after[0]?.call }));
    // The server sees the note as it was again.
    await waitFor(async () => (await harness.ok<{ text: string }>('get_note', { note_id: PLAN_ID })).text.includes('Secret plan text'), 5000, 'the undone note to be read again');
  });

  it('update_note append and a new title, by path', async () => {
    const harness = await open();
    await harness.ok('update_note', { note_id: PLAN_ID, text: 'One more line.', mode: 'append', title: 'Big plan' });
    await undo(harness.runtime.activity, { note: 'Projects/Plan.md' });
    expect(await bytes(harness, 'Projects/Plan.md')).toEqual(Buffer.from(PLAN));
  });

  it('grade_review: the review block goes again', async () => {
    const harness = await open();
    const card = await bytes(harness, 'Cards/Capital.md');
    await harness.ok('grade_review', { note_id: CARD_ID, grade: 4 });
    expect((await bytes(harness, 'Cards/Capital.md')).toString()).toContain('review:');
    expect(await entries(harness)).toEqual([expect.objectContaining({ tool: 'grade_review', action: 'changed', id: CARD_ID })]);
    await undo(harness.runtime.activity, { last: true });
    expect(await bytes(harness, 'Cards/Capital.md')).toEqual(card);
  });

  it('create_note: undone by removing the note, whose text stays in the history', async () => {
    const harness = await open();
    const before = await snapshot(harness.dir);
    const created = await harness.ok<{ id: string }>('create_note', { title: 'Fresh', text: 'Made by the assistant.' });
    expect(await entries(harness)).toEqual([expect.objectContaining({ tool: 'create_note', action: 'created', id: created.id, path: 'Fresh.md' })]);
    await undo(harness.runtime.activity, { note: created.id });
    expect(await snapshot(harness.dir)).toEqual(before);
    const undoEntry = (await entries(harness))[1];
    expect(undoEntry).toEqual(expect.objectContaining({ tool: 'undo', action: 'deleted', path: 'Fresh.md' }));
    expect((await readFile(path.join(historyDir(harness.dir), (undoEntry as { before: string }).before), 'utf8'))).toContain('Made by the assistant.');
  });

  it('delete_note: the note and its attachment come back, byte for byte', async () => {
    const harness = await open();
    const before = await snapshot(harness.dir);
    await harness.ok('delete_note', { note_id: MAIL_ID });
    await expect(stat(path.join(harness.dir, 'Mail/Launch.eml'))).rejects.toThrow();
    expect(await entries(harness)).toEqual([
      expect.objectContaining({ tool: 'delete_note', action: 'deleted', id: MAIL_ID, path: 'Mail/Launch.md', attachment: expect.objectContaining({ path: 'Mail/Launch.eml' }) }),
    ]);
    await undo(harness.runtime.activity, { note: MAIL_ID });
    expect(await snapshot(harness.dir)).toEqual(before);
    await waitFor(async () => !(await harness.call('get_note', { note_id: MAIL_ID })).isError, 5000, 'the restored note to be found again');
  });

  it('move_note: the note goes back, and the links rewritten in other notes are put back too', async () => {
    const harness = await open();
    const before = await snapshot(harness.dir);
    await harness.ok('move_note', { note_id: IDEA_ID, folder: 'Projects' });
    expect((await bytes(harness, 'Daily/2026-11-27.md')).toString()).toContain('Projects/Idea');
    const log = await entries(harness);
    expect(log[0]).toEqual(expect.objectContaining({ tool: 'move_note', action: 'moved', id: IDEA_ID, from: 'Inbox/Idea.md', path: 'Projects/Idea.md' }));
    expect(log.slice(1)).toEqual([expect.objectContaining({ tool: 'move_note', action: 'changed', id: DAILY_ID, because: 'links', call: log[0]?.call })]);
    // Named by the moved note, the undo takes back the whole call; the linking note alone points to it.
    expect(await undo(harness.runtime.activity, { note: DAILY_ID }).catch((error: Error) => error.message)).toMatch(
      /^The assistant changed 00000000-0000-4000-8000-0000000000a5 only to keep its links working when it moved another note \(move_note of Inbox\/Idea\.md → Projects\/Idea\.md on .*\); to put that back, undo the move: dexi-vault undo Projects\/Idea\.md$/,
    );
    await undo(harness.runtime.activity, { note: 'Inbox/Idea.md' });
    expect(await snapshot(harness.dir)).toEqual(before);
  });
});

describe('a move onto a taken name', () => {
  it('records the move and the title it kept, and its undo puts the note back byte for byte', async () => {
    const harness = await open();
    await writeFile(path.join(harness.dir, 'Projects/Idea.md'), 'Another idea, already there.\n');
    await waitFor(async () => (await harness.ok<{ total: number }>('list_notes', { folder: 'Projects' })).total === 2, 5000, 'the other idea to be read');
    const before = await snapshot(harness.dir);
    const moved = await harness.ok<{ title: string }>('move_note', { note_id: IDEA_ID, folder: 'Projects' });
    expect(moved.title).toBe('Idea');
    expect(await readFile(path.join(harness.dir, 'Projects/Idea 2.md'), 'utf8')).toContain('title: Idea\n');
    expect(await readFile(path.join(harness.dir, 'Projects/Idea.md'), 'utf8')).toBe('Another idea, already there.\n');
    const log = await entries(harness);
    expect(log.slice(0, 2)).toEqual([
      expect.objectContaining({ action: 'moved', id: IDEA_ID, from: 'Inbox/Idea.md', path: 'Projects/Idea 2.md' }),
      expect.objectContaining({ action: 'changed', id: IDEA_ID, path: 'Projects/Idea 2.md', call: log[0]?.call }),
    ]);
    await undo(harness.runtime.activity, { last: true });
    expect(await snapshot(harness.dir)).toEqual(before);
  });
});

describe('folders a call made', () => {
  it('go again with its undo once empty, but not one the person has put a file in', async () => {
    const harness = await open();
    const before = await snapshot(harness.dir);
    await harness.ok('move_note', { note_id: IDEA_ID, folder: 'Archive/2026/December' });
    expect((await entries(harness))[0]).toEqual(expect.objectContaining({ action: 'moved', madeFolder: 'Archive' }));
    await undo(harness.runtime.activity, { last: true });
    await expect(stat(path.join(harness.dir, 'Archive'))).rejects.toThrow();
    expect(await snapshot(harness.dir)).toEqual(before);

    await harness.ok('move_note', { note_id: PLAN_ID, folder: 'Archive/2026' });
    await writeFile(path.join(harness.dir, 'Archive/mine.txt'), 'my own file\n');
    await undo(harness.runtime.activity, { last: true });
    await expect(stat(path.join(harness.dir, 'Archive/2026'))).rejects.toThrow();
    expect(await readFile(path.join(harness.dir, 'Archive/mine.txt'), 'utf8')).toBe('my own file\n');
  });
});

describe('undo refused', () => {
  it('after the person edited the note: nothing is changed, and the sentence says why', async () => {
    const harness = await open();
    await harness.ok('update_note', { note_id: PLAN_ID, text: 'A rewrite.', mode: 'replace' });
    const edited = (await bytes(harness, 'Projects/Plan.md')).toString().replace('A rewrite.', 'A rewrite, then my own words.');
    await writeFile(path.join(harness.dir, 'Projects/Plan.md'), edited);
    const message = await undo(harness.runtime.activity, { last: true }).catch((error: Error) => error.message);
    expect(message).toMatch(/^Cannot undo the assistant's update_note of Projects\/Plan\.md on \d{4}-\d\d-\d\d \d\d:\d\d: Projects\/Plan\.md has been changed since, by you or another program; undoing would lose that change\. Nothing was changed\.$/);
    expect((await bytes(harness, 'Projects/Plan.md')).toString()).toBe(edited);
    expect(await entries(harness)).toHaveLength(1);
  });

  it('after a later call changed it: that one is named, and --last walks back through both', async () => {
    const harness = await open();
    await harness.ok('update_note', { note_id: PLAN_ID, text: 'First.', mode: 'replace' });
    const first = await bytes(harness, 'Projects/Plan.md');
    await harness.ok('update_note', { note_id: PLAN_ID, text: 'Second.', mode: 'append' });
    expect((await entries(harness)).map((entry) => entry.tool)).toEqual(['update_note', 'update_note']);
    await undo(harness.runtime.activity, { last: true });
    expect(await bytes(harness, 'Projects/Plan.md')).toEqual(first);
    await undo(harness.runtime.activity, { last: true });
    expect(await bytes(harness, 'Projects/Plan.md')).toEqual(Buffer.from(PLAN));
    expect(await undo(harness.runtime.activity, { last: true }).catch((error: Error) => error.message)).toBe('Every change the assistant made that is on record has been undone already.');
  });

  it('names the later call when the assistant changed the note again since', async () => {
    const harness = await open();
    await harness.ok('move_note', { note_id: PLAN_ID, folder: 'Archive' });
    await harness.ok('update_note', { note_id: PLAN_ID, text: 'Later.', mode: 'append' });
    // The move's own note was changed since, at its new place.
    const message = await undo(harness.runtime.activity, { note: 'Projects/Plan.md' }).catch((error: Error) => error.message);
    expect(message).toMatch(/^Cannot undo the assistant's move_note of Projects\/Plan\.md → Archive\/Plan\.md on .*: Archive\/Plan\.md has been changed since, by the assistant's update_note of Archive\/Plan\.md on .*; undo that first\. Nothing was changed\.$/);
  });

  it('after a deleted note was made again by the person', async () => {
    const harness = await open();
    await harness.ok('delete_note', { note_id: IDEA_ID });
    await writeFile(path.join(harness.dir, 'Inbox/Idea.md'), 'My own new idea.\n');
    expect(await undo(harness.runtime.activity, { last: true }).catch((error: Error) => error.message)).toMatch(/there is a file at Inbox\/Idea\.md again\. Nothing was changed\.$/);
    expect(await readFile(path.join(harness.dir, 'Inbox/Idea.md'), 'utf8')).toBe('My own new idea.\n');
  });

  it('when the replaced version is no longer kept', async () => {
    const harness = await open();
    await harness.ok('update_note', { note_id: PLAN_ID, text: 'A rewrite.', mode: 'replace' });
    const written = await bytes(harness, 'Projects/Plan.md');
    await rm(historyDir(harness.dir), { recursive: true });
    expect(await undo(harness.runtime.activity, { last: true }).catch((error: Error) => error.message)).toMatch(/the version it replaced is no longer kept \(\.dexi\/history keeps them 30 days, 256 MB at most\)\. Nothing was changed\.$/);
    expect(await bytes(harness, 'Projects/Plan.md')).toEqual(written);
  });
});

describe('writes are not made when the replaced version cannot be kept', () => {
  it('an update, a delete and a grade are refused in a sentence, and nothing changes', async () => {
    const harness = await open();
    const before = await snapshot(harness.dir);
    // A file where the history folder should be: it cannot be made, even by root.
    await writeFile(historyDir(harness.dir), 'not a folder');
    const refused = /^The version this would replace could not be kept in \.dexi\/history \(E[A-Z]+\), so nothing was changed; check that the vault's \.dexi folder can be written\.$/;
    expect(await harness.fail('update_note', { note_id: PLAN_ID, text: 'A rewrite.', mode: 'replace' })).toMatch(refused);
    expect(await harness.fail('delete_note', { note_id: MAIL_ID })).toMatch(refused);
    expect(await harness.fail('grade_review', { note_id: CARD_ID, grade: 4 })).toMatch(refused);
    expect(await snapshot(harness.dir)).toEqual(before);
    expect(await entries(harness)).toEqual([]);
  });
});
