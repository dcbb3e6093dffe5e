import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshVaults, type Harness, type HarnessOptions } from '../support/helpers.js';
import { activityFile, parseActivity } from '../../src/vault/record/activity.js';
import { activityRows } from '../../src/cli/activity.js';
import { undo } from '../../src/vault/record/undo.js';

const TASK_ID = '00000000-0000-4000-8000-0000000000b1';
const WIN_ID = '00000000-0000-4000-8000-0000000000b2';
const CARD_ID = '00000000-0000-4000-8000-0000000000b4';
const ALPHA_ID = '00000000-0000-4000-8000-0000000000b5';
const BETA_ID = '00000000-0000-4000-8000-0000000000b6';

const TASK = [
  '---',
  `id: ${TASK_ID}`,
  '# the person\'s own comment',
  'status: "draft" # quoted on purpose',
  "owner: 'me'",
  'tags: [project, q3]',
  'due: 2026-12-10',
  'updated: 2026-11-20T08:00:00+00:00',
  'notes: |',
  '  first line',
  '  second line',
  '---',
  '# Task',
  '',
  'Some text #work',
  '',
].join('\n');
const WIN = `---\r\nid: ${WIN_ID}\r\ndone: false # tick me\r\nrating: 3\r\n---\r\nWindows body.\r\n`;
const PLAIN = 'A note with no frontmatter at all.\n';
const CARD = `---\nid: ${CARD_ID}\nreview:\n  due: 2026-12-01\n  interval: 3\n---\nQuestion #flashcards\n`;
const ALPHA = `---\nid: ${ALPHA_ID}\ntags: [alpha]\n---\nAlpha work.\n`;
const BETA = `---\nid: ${BETA_ID}\ntags: [alpha]\n---\nBeta work, tagged in the body too #alpha\n`;

const VAULT: Record<string, string> = {
  'Work/Task.md': TASK,
  'Work/Windows.md': WIN,
  'Plain.md': PLAIN,
  'Cards/Card.md': CARD,
  'Tagged/Alpha.md': ALPHA,
  'Tagged/Beta.md': BETA,
  '.dexi/settings.json': JSON.stringify({ reviewTags: ['#flashcards'], noteCap: null }),
};

const vaults = freshVaults();
const harness = (options: Omit<HarnessOptions, 'dir'> = {}): Promise<Harness> => vaults.harness(VAULT, options);

/** A note without frontmatter has the id the server derives from its path. */
async function idOf(h: Harness, title: string): Promise<string> {
  const { items } = await h.ok<{ items: { id: string; title: string }[] }>('list_notes', { size: 50 });
  const found = items.find((item) => item.title === title);
  if (!found) throw new Error(`no note titled ${title}`);
  return found.id;
}

const file = (h: Harness, vaultPath: string): Promise<string> => readFile(path.join(h.dir, vaultPath), 'utf8');
const NOW = '2026-11-30T12:00:00+00:00';

interface FullNote {
  id: string;
  title: string;
  text: string;
  tags: string[];
  folder?: string;
  updated: string;
  properties?: Record<string, unknown>;
}

describe('get_note shows properties', () => {
  it('gives every key but id and review, with dates as written', async () => {
    const h = await harness();
    const note = await h.ok<FullNote>('get_note', { note_id: TASK_ID });
    expect(note.properties).toEqual({ status: 'draft', owner: 'me', tags: ['project', 'q3'], due: '2026-12-10', updated: '2026-11-20T08:00:00+00:00', notes: 'first line\nsecond line\n' });
    expect(Object.keys(note.properties ?? {})).toEqual(['status', 'owner', 'tags', 'due', 'updated', 'notes']);
    expect((await h.ok<FullNote>('get_note', { note_id: CARD_ID })).properties).toEqual({});
    expect((await h.ok<FullNote>('get_note', { note_id: await idOf(h, 'Plain') })).properties).toEqual({});
  });
});

describe('set_properties', () => {
  it('changes, adds and removes keys, and every other byte stays', async () => {
    const h = await harness();
    const note = await h.ok<FullNote>('set_properties', { note_id: TASK_ID, properties: { status: 'done', owner: null, priority: 2, tags: ['project'] } });
    expect(await file(h, 'Work/Task.md')).toBe(
      [
        '---',
        `id: ${TASK_ID}`,
        '# the person\'s own comment',
        'status: "done" # quoted on purpose',
        'tags: [project]',
        'due: 2026-12-10',
        `updated: ${NOW}`,
        'notes: |',
        '  first line',
        '  second line',
        'priority: 2',
        '---',
        '# Task',
        '',
        'Some text #work',
        '',
      ].join('\n'),
    );
    // The note in full, with its properties as they are now.
    expect(note.properties).toEqual({ status: 'done', tags: ['project'], due: '2026-12-10', updated: NOW, notes: 'first line\nsecond line\n', priority: 2 });
    expect(note.tags).toEqual(['#project', '#work']);
    expect(note.text).toBe('# Task\n\nSome text #work\n');
    expect(note.updated).toBe(NOW);
  });

  it('ticks a property in a CRLF note, keeping its comment and line endings', async () => {
    const h = await harness();
    await h.ok('set_properties', { note_id: WIN_ID, properties: { done: true } });
    expect(await file(h, 'Work/Windows.md')).toBe(`---\r\nid: ${WIN_ID}\r\ndone: true # tick me\r\nrating: 3\r\n---\r\nWindows body.\r\n`);
  });

  it('gives a note without frontmatter a block, keeping the id the server knows it by', async () => {
    const h = await harness();
    const plainId = await idOf(h, 'Plain');
    const note = await h.ok<FullNote>('set_properties', { note_id: plainId, properties: { status: 'todo' } });
    expect(await file(h, 'Plain.md')).toBe(`---\nstatus: todo\n---\n${PLAIN}`);
    expect(note.id).toBe(plainId);
    expect((await h.ok<FullNote>('get_note', { note_id: plainId })).properties).toEqual({ status: 'todo' });
  });

  it('setting title changes the title the note is listed under, not its file', async () => {
    const h = await harness();
    const note = await h.ok<FullNote>('set_properties', { note_id: WIN_ID, properties: { title: 'Renamed' } });
    expect(note.title).toBe('Renamed');
    // Not among the properties: whether a title is written tells whether a file name was taken (see propertiesOf).
    expect(note.properties).toEqual({ done: false, rating: 3 });
    expect(await stat(path.join(h.dir, 'Work/Windows.md'))).toBeTruthy();
    const back = await h.ok<FullNote>('set_properties', { note_id: WIN_ID, properties: { title: null } });
    expect(back.title).toBe('Windows');
  });

  it('writes nothing when nothing would change', async () => {
    const h = await harness();
    await h.ok('set_properties', { note_id: WIN_ID, properties: { rating: 3, absent: null } });
    expect(await file(h, 'Work/Windows.md')).toBe(WIN);
    expect(await readFile(activityFile(h.dir), 'utf8').catch(() => '')).toBe('');
  });

  it.each([
    [{ id: 'other' }, /id is the note's identity/],
    [{ review: null }, /which grade_review keeps/],
    [{ attachment: 'Work/Task.md' }, /cannot be set or removed/],
    [{}, /at least one property/],
    [{ a: { nested: 1 } }, /properties\.a|each property must be/],
    [{ a: [['x']] }, /each property must be/],
    [{ a: 'x'.repeat(5_001) }, /at most 5,000 characters/],
  ])('refuses %j plainly, the same for any id, and writes nothing', async (properties, message) => {
    const h = await harness();
    expect(await h.fail('set_properties', { note_id: CARD_ID, properties })).toMatch(message);
    expect(await h.fail('set_properties', { note_id: '00000000-0000-4000-8000-000000000099', properties })).toMatch(message);
    expect(await file(h, 'Cards/Card.md')).toBe(CARD);
  });

  it('is "Note not found" for an unknown id', async () => {
    const h = await harness();
    expect(await h.fail('set_properties', { note_id: '00000000-0000-4000-8000-000000000099', properties: { a: 1 } })).toBe('Note not found');
  });

  it('needs notes:write', async () => {
    const h = await harness({ scopes: ['notes:read'] });
    expect(await h.fail('set_properties', { note_id: WIN_ID, properties: { done: true } })).toMatch(/notes:write/);
    expect(await file(h, 'Work/Windows.md')).toBe(WIN);
  });

  it('answers a write-only connection with the id and the new updated time only', async () => {
    const h = await harness({ scopes: ['notes:write'] });
    const result = await h.call('set_properties', { note_id: TASK_ID, properties: { status: 'done' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ id: TASK_ID, updated: NOW });
    expect(JSON.stringify(result)).not.toMatch(/draft|project|Some text|first line/);
    expect(await file(h, 'Work/Task.md')).toContain('status: "done" # quoted on purpose');
  });

  it('under a folder boundary, a note outside is not found and nothing is written', async () => {
    const h = await harness({ folder: 'Work' });
    await h.ok('set_properties', { note_id: WIN_ID, properties: { done: true } });
    expect(await h.fail('set_properties', { note_id: CARD_ID, properties: { a: 1 } })).toBe('Note not found');
    expect(await file(h, 'Cards/Card.md')).toBe(CARD);
    // A title is set, never removed, under a boundary: the file name it would fall back to may be numbered beside a hidden note.
    for (const noteId of [WIN_ID, CARD_ID]) {
      expect(await h.fail('set_properties', { note_id: noteId, properties: { title: null } })).toBe(
        'This connection cannot remove the title property; set it to the title wanted instead.',
      );
    }
    expect(await h.fail('create_note', { title: 'T', properties: { title: null } })).toMatch(/cannot remove the title/);
  });

  it('under a tag boundary, the boundary tag cannot be taken out of tags', async () => {
    const h = await harness({ tag: '#alpha' });
    expect(await h.fail('set_properties', { note_id: ALPHA_ID, properties: { tags: ['beta'] } })).toBe(
      'This change would remove the tag #alpha, which this connection is limited to; keep #alpha in tags.',
    );
    expect(await h.fail('set_properties', { note_id: ALPHA_ID, properties: { tags: null } })).toMatch(/remove the tag #alpha/);
    expect(await file(h, 'Tagged/Alpha.md')).toBe(ALPHA);
    // Kept, with another beside it; or still in the body: allowed.
    await h.ok('set_properties', { note_id: ALPHA_ID, properties: { tags: ['alpha', 'beta'] } });
    await h.ok('set_properties', { note_id: BETA_ID, properties: { tags: null } });
    expect(await file(h, 'Tagged/Beta.md')).toBe(`---\nid: ${BETA_ID}\n---\nBeta work, tagged in the body too #alpha\n`);
    // A note outside the tag is not found.
    expect(await h.fail('set_properties', { note_id: WIN_ID, properties: { done: true } })).toBe('Note not found');
  });

  it('is recorded in the activity, shown by `dexi-vault activity`, and undone byte for byte', async () => {
    const h = await harness();
    await h.ok('set_properties', { note_id: TASK_ID, properties: { status: 'done', owner: null, extra: [1, 2] } });
    const entries = parseActivity(await readFile(activityFile(h.dir), 'utf8'));
    expect(entries).toEqual([expect.objectContaining({ tool: 'set_properties', by: 'stdio', action: 'changed', id: TASK_ID, path: 'Work/Task.md' })]);
    expect(activityRows(entries, undefined).some((row) => row.includes('set_properties') && row.some((cell) => cell.includes('Work/Task.md')))).toBe(true);
    await undo(h.runtime.activity, { last: true });
    expect(await file(h, 'Work/Task.md')).toBe(TASK);
  });
});

describe('create_note with folder and properties', () => {
  it('files the note into a folder made if missing, with its properties in its first write', async () => {
    const h = await harness();
    const note = await h.ok<FullNote>('create_note', { title: 'Plan', text: 'Body.', folder: 'Projects/New', properties: { status: 'todo', due: '2026-12-10', tags: ['plan'] } });
    expect(note.folder).toBe('Projects/New');
    const content = await file(h, 'Projects/New/Plan.md');
    expect(content).toBe(`---\nid: ${note.id}\ncreated: ${NOW}\nupdated: ${NOW}\nstatus: todo\ndue: 2026-12-10\ntags:\n  - plan\n---\nBody.`);
    expect(note.properties).toEqual({ created: NOW, updated: NOW, status: 'todo', due: '2026-12-10', tags: ['plan'] });
    expect(note.tags).toEqual(['#plan']);
    // One write: one entry, a create.
    expect(parseActivity(await readFile(activityFile(h.dir), 'utf8'))).toEqual([expect.objectContaining({ tool: 'create_note', action: 'created', path: 'Projects/New/Plan.md' })]);
  });

  it('takes an existing folder in any case, and "unfiled" for the top level', async () => {
    const h = await harness();
    expect((await h.ok<FullNote>('create_note', { title: 'In work', folder: 'work' })).folder).toBe('Work');
    expect((await h.ok<FullNote>('create_note', { title: 'Top', folder: 'unfiled' })).folder).toBeUndefined();
    await stat(path.join(h.dir, 'Top.md'));
  });

  it('refuses id, review and attachment, and writes nothing', async () => {
    const h = await harness();
    for (const key of ['id', 'review', 'attachment']) {
      expect(await h.fail('create_note', { title: 'X', properties: { [key]: 'y' } })).toMatch(/cannot be set|grade_review/);
    }
    await expect(stat(path.join(h.dir, 'X.md'))).rejects.toThrow();
  });

  it('under a folder boundary: inside it only, and into the boundary folder without one', async () => {
    const h = await harness({ folder: 'Work' });
    expect((await h.ok<FullNote>('create_note', { title: 'Sub', folder: 'Work/Sub' })).folder).toBe('Work/Sub');
    expect((await h.ok<FullNote>('create_note', { title: 'Default' })).folder).toBe('Work');
    expect(await h.fail('create_note', { title: 'Out', folder: 'Cards' })).toBe('Folder not found: Cards');
    expect(await h.fail('create_note', { title: 'Out', folder: 'unfiled' })).toBe('Folder not found: unfiled');
    expect(await h.fail('create_note', { title: 'Out', folder: 'Elsewhere' })).toBe('Folder not found: Elsewhere');
    await expect(stat(path.join(h.dir, 'Elsewhere'))).rejects.toThrow();
  });

  it('under a tag boundary the tag still goes into the text, whatever tags the properties set', async () => {
    const h = await harness({ tag: '#alpha' });
    const note = await h.ok<FullNote>('create_note', { title: 'Tagged', text: 'New.', folder: 'Tagged', properties: { tags: ['other'] } });
    expect(note.tags).toEqual(['#other', '#alpha']);
    expect(await file(h, 'Tagged/Tagged.md')).toMatch(/tags:\n {2}- other\n---\nNew\.\n\n#alpha$/);
  });
});
