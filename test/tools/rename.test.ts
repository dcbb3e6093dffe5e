/**
 * move_note's `name` (issue 30): a rename, alone or with a move, through the
 * in-process client. Links to the note are rewritten (and nothing else in
 * any file changes), the shortest form that names it unambiguously in the
 * vault is written, a name another note the connection sees holds is
 * refused, an outside note changes nothing the connection reads, and undo
 * takes the whole rename back byte for byte. The pure rules are in
 * test/format/link-forms.test.ts.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { activityFile, parseActivity } from '../../src/vault/record/activity.js';
import { undo } from '../../src/vault/record/undo.js';
import { freshVaults, vaultFiles } from '../support/helpers.js';

interface Full {
  id: string;
  title: string;
  text: string;
  folder?: string;
  links?: { notes: { id: string; title: string }[]; unresolved: string[] };
  backlinks?: { notes: { id: string; title: string }[]; total: number };
}

const id = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const note = (n: number, body: string, extra = ''): string => `---\nid: ${id(n)}\ncreated: 2026-11-01T10:00:00+00:00\n${extra}---\n${body}`;

const { harness } = freshVaults();

const snapshot = (dir: string): Promise<Record<string, string>> => vaultFiles(dir);

const LINKS = [
  'Plain [[Old name]], heading [[Old name#Part|shown]], block [[Old name#^b1]], path [[Notes/Old name]], .md [[Old name.md]].',
  'Embed ![[Old name]] and [[Old name]](a wikilink followed by text).',
  'Markdown [m](../Notes/Old%20name.md#part "title") and [a](</Notes/Old name.md>).',
  'Code `[[Old name]]` and %%[[Old name]]%% stay.',
].join('\r\n');
const RENAMED_LINKS = [
  'Plain [[New name]], heading [[New name#Part|shown]], block [[New name#^b1]], path [[New name]], .md [[New name.md]].',
  'Embed ![[New name]] and [[New name]](a wikilink followed by text).',
  'Markdown [m](../Notes/New%20name.md#part "title") and [a](</Notes/New name.md>).',
  'Code `[[Old name]]` and %%[[Old name]]%% stay.',
].join('\r\n');

describe('move_note with name', () => {
  it('renames the file and the title, and rewrites every link to it, every other byte kept', async () => {
    const target = note(1, 'The note itself links [[Old name]].\n');
    const h = await harness({
      'Notes/Old name.md': target,
      'Other/Linker.md': note(2, `${LINKS}\r\n`, 'up: "[[Old name]]"\n'),
      'Other/Bystander.md': note(3, 'Links [[Something else]].\n'),
    });
    const renamed = await h.ok<Full>('move_note', { note_id: id(1), name: 'New name' });
    expect(renamed).toMatchObject({ id: id(1), title: 'New name', folder: 'Notes' });
    // A self-link is a link and a backlink, and it was rewritten too.
    expect(renamed.links?.notes.map((n) => n.id)).toEqual([id(1)]);
    expect(renamed.backlinks?.notes.map((n) => n.id).sort()).toEqual([id(1), id(2)]);
    const files = await snapshot(h.dir);
    expect(files['Notes/Old name.md']).toBeUndefined();
    expect(files['Notes/New name.md']).toBe(target.replace('[[Old name]]', '[[New name]]'));
    expect(files['Other/Linker.md']).toBe(note(2, `${RENAMED_LINKS}\r\n`, 'up: "[[Old name]]"\n'));
    expect(files['Other/Bystander.md']).toBe(note(3, 'Links [[Something else]].\n'));
    const listed = await h.ok<{ items: { id: string; title: string }[] }>('list_notes', { folder: 'Notes' });
    expect(listed.items.map((item) => item.title)).toEqual(['New name']);
  });

  it('renames and moves at once', async () => {
    const h = await harness({
      'Inbox/Draft.md': note(1, 'A draft.\n'),
      'Linker.md': note(2, 'See [[Draft]] and [d](Inbox/Draft.md).\n'),
    });
    const moved = await h.ok<Full>('move_note', { note_id: id(1), folder: 'Projects/Budget', name: 'Budget 2027' });
    expect(moved).toMatchObject({ title: 'Budget 2027', folder: 'Projects/Budget', text: 'A draft.\n' });
    const files = await snapshot(h.dir);
    expect(Object.keys(files).sort()).toEqual(['Linker.md', 'Projects/Budget/Budget 2027.md']);
    expect(files['Linker.md']).toBe(note(2, 'See [[Budget 2027]] and [d](Projects/Budget/Budget%202027.md).\n'));
  });

  it('writes a path where another note has the name: the Language/Language case', async () => {
    const h = await harness({
      'Programming/Language.md': note(1, 'Programming languages.\n'),
      'Philosophy/Language.md': note(2, 'Philosophy of language.\n'),
      'Programming/Lang.md': note(3, 'Short.\n'),
      'Notes/A.md': note(4, 'See [[Programming/Language]] and [[Lang]] and [[Philosophy/Language]].\n'),
    });
    // Moving beside nothing of the name, but another Language is in the vault: never a bare [[Language]].
    await h.ok('move_note', { note_id: id(1), folder: 'Code' });
    expect(await readFile(path.join(h.dir, 'Notes/A.md'), 'utf8')).toBe(note(4, 'See [[Code/Language]] and [[Lang]] and [[Philosophy/Language]].\n'));
    // A rename onto a name another folder's note has: its folder is written too.
    await h.ok('move_note', { note_id: id(3), name: 'Language' });
    expect(await readFile(path.join(h.dir, 'Notes/A.md'), 'utf8')).toBe(
      note(4, 'See [[Code/Language]] and [[Programming/Language]] and [[Philosophy/Language]].\n'),
    );
    const a = await h.ok<Full>('get_note', { note_id: id(4) });
    expect(a.links?.notes.map((n) => n.id)).toEqual([id(1), id(3), id(2)]);
  });

  it('sets a frontmatter title to the new name, so the title shown is the name asked for', async () => {
    const h = await harness({ 'Plan.md': note(1, 'Text.\n', 'title: A long plan title\n# a comment kept\n') });
    expect((await h.ok<Full>('get_note', { note_id: id(1) })).title).toBe('A long plan title');
    const renamed = await h.ok<Full>('move_note', { note_id: id(1), name: 'Plan B' });
    expect(renamed.title).toBe('Plan B');
    expect(await readFile(path.join(h.dir, 'Plan B.md'), 'utf8')).toBe(note(1, 'Text.\n', 'title: Plan B\n# a comment kept\n'));
  });

  it('renames in the case alone (a link that still names it is left as written), and changes nothing for its own name', async () => {
    const h = await harness({ 'Notes/plan.md': note(1, 'Text.\n'), 'L.md': note(2, '[[plan]]\n') });
    const before = await snapshot(h.dir);
    expect((await h.ok<Full>('move_note', { note_id: id(1), name: 'plan' })).title).toBe('plan');
    expect(await snapshot(h.dir)).toEqual(before);
    expect((await h.ok<Full>('move_note', { note_id: id(1), name: 'Plan' })).title).toBe('Plan');
    const files = await snapshot(h.dir);
    expect(Object.keys(files).sort()).toEqual(['L.md', 'Notes/Plan.md']);
    expect(files['L.md']).toBe(note(2, '[[plan]]\n'));
    expect((await h.ok<Full>('get_note', { note_id: id(2) })).links?.notes.map((n) => n.id)).toEqual([id(1)]);
  });

  it('refuses, in plain sentences and writing nothing: no folder or name, a bad name, a name taken in the folder', async () => {
    const h = await harness({
      'Notes/Plan.md': note(1, 'Text.\n'),
      'Notes/Budget.md': note(2, 'Budget.\n'),
      'Archive/budget.md': note(3, 'Old budget.\n'),
    });
    const before = await snapshot(h.dir);
    expect(await h.fail('move_note', { note_id: id(1) })).toBe('Give folder (where to move the note), name (what to rename it to), or both.');
    expect(await h.fail('move_note', { note_id: id(1), name: 'a/b' })).toBe(
      'Cannot rename the note to "a/b": it contains "/", which file names or links cannot hold. Give a name without those, e.g. "Meeting notes 2026-12".',
    );
    expect(await h.fail('move_note', { note_id: id(1), name: 'nul' })).toContain('"nul" is a name Windows reserves for a device');
    const taken = 'Another note in that folder is already named "BUDGET" (names are compared ignoring case); choose another name, or rename or move that note first.';
    expect(await h.fail('move_note', { note_id: id(1), name: 'BUDGET' })).toBe(taken);
    expect(await h.fail('move_note', { note_id: id(1), folder: 'Archive', name: 'BUDGET' })).toBe(taken);
    expect(await h.fail('move_note', { note_id: id(999), name: 'X' })).toBe('Note not found');
    expect(await snapshot(h.dir)).toEqual(before);
    // A move without a name still numbers: the contract's move.
    await h.ok('move_note', { note_id: id(2), folder: 'Archive' });
    expect(Object.keys(await snapshot(h.dir)).sort()).toEqual(['Archive/Budget 2.md', 'Archive/budget.md', 'Notes/Plan.md']);
  });

  it('is one call in the record of writes, and undo takes back the name and the links byte for byte', async () => {
    const h = await harness({
      'Notes/Old name.md': note(1, 'Itself: [[Old name]].\r\n'),
      'Other/Linker.md': note(2, `${LINKS}\r\n`),
    });
    const before = await snapshot(h.dir);
    await h.ok('move_note', { note_id: id(1), folder: 'Moved', name: 'New name' });
    expect((await snapshot(h.dir))['Other/Linker.md']).toContain('[[New name#Part|shown]]');
    const log = parseActivity(await readFile(activityFile(h.dir), 'utf8'));
    expect(log[0]).toEqual(expect.objectContaining({ tool: 'move_note', action: 'moved', id: id(1), from: 'Notes/Old name.md', path: 'Moved/New name.md' }));
    expect(new Set(log.map((entry) => entry.call))).toEqual(new Set([log[0]?.call]));
    await undo(h.runtime.activity, { last: true });
    expect(await snapshot(h.dir)).toEqual(before);
  });
});

describe('move_note with name under a boundary', () => {
  const INSIDE = {
    'Work/Topic.md': note(1, '#work A topic.\n'),
    'Work/Sub/Linker.md': note(2, '#work See [[Topic]], [[Topic#Part|that]] and [t](../Topic.md).\n'),
    'Work/Other.md': note(3, '#work Another.\n'),
  };
  /** Outside notes of the names the calls use, in folders and without the tag. */
  const OUTSIDE = {
    'Private/Fresh.md': 'An outside note of the new name.\n',
    'Private/Work/Fresh.md': 'Another, whose path ends as the renamed note\'s.\n',
    'Private/Other.md': 'An outside Other.\n',
  };
  const BOUNDARIES: { name: string; folder?: string; tag?: string }[] = [
    { name: 'folder Work', folder: 'Work' },
    { name: 'tag #work', tag: '#work' },
  ];

  async function session(boundary: { folder?: string; tag?: string }, withOutside: boolean): Promise<{ answers: unknown[]; inside: Record<string, string> }> {
    const h = await harness({ ...INSIDE, ...(withOutside ? OUTSIDE : {}) }, boundary);
    const answers: unknown[] = [];
    for (const args of [
      { note_id: id(1), name: 'Fresh' },
      { note_id: id(3), name: 'fresh' },
      { note_id: id(3), folder: 'Work/Sub', name: 'Topic' },
      { note_id: id(1), folder: 'Work/Deeper', name: 'Other' },
    ]) {
      const answer = await h.call('move_note', args);
      answers.push([answer.isError === true, answer.content]);
    }
    for (const n of [1, 2, 3]) answers.push((await h.call('get_note', { note_id: id(n) })).content);
    const files = await snapshot(h.dir);
    const inside = Object.fromEntries(Object.entries(files).filter(([rel]) => rel.startsWith('Work/')));
    return { answers: JSON.parse(JSON.stringify(answers).replace(/\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})/g, '<time>')) as unknown[], inside };
  }

  it.each(BOUNDARIES)('$name: an outside note of the name changes neither the answers nor the links written inside', async (boundary) => {
    const bare = await session(boundary, false);
    const crowded = await session(boundary, true);
    expect(crowded.answers).toEqual(bare.answers);
    expect(crowded.inside).toEqual(bare.inside);
    // The renames happened, and the linker names the note by its full path, whatever else the vault holds.
    expect(bare.inside['Work/Sub/Linker.md']).toBe(note(2, '#work See [[Work/Deeper/Other]], [[Work/Deeper/Other#Part|that]] and [t](../Deeper/Other.md).\n'));
    expect(Object.keys(bare.inside).sort()).toEqual(['Work/Deeper/Other.md', 'Work/Sub/Linker.md', 'Work/Sub/Topic.md']);
    expect(JSON.stringify(crowded.answers)).not.toMatch(/Private|outside/);
  });

  it('tag #work: a name only a hidden note holds there is numbered unseen, a name a seen note has is refused, the same with and without it', async () => {
    const run = async (withHidden: boolean): Promise<[boolean, string][]> => {
      const h = await harness({ ...INSIDE, ...(withHidden ? { 'Work/Hidden.md': 'Untagged, outside the boundary.\n' } : {}) }, { tag: '#work' });
      const answers: [boolean, string][] = [];
      for (const args of [{ note_id: id(3), name: 'hidden' }, { note_id: id(1), name: 'HIDDEN' }, { note_id: id(1), name: 'hidden 2' }]) {
        const answer = await h.call('move_note', args);
        const text = (answer.content[0] as { text: string }).text.replace(/\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})/g, '<time>');
        answers.push([answer.isError === true, text]);
      }
      if (withHidden) {
        expect(await readFile(path.join(h.dir, 'Work/Hidden.md'), 'utf8')).toBe('Untagged, outside the boundary.\n');
        expect(await readFile(path.join(h.dir, 'Work/hidden 2.md'), 'utf8')).toContain('title: hidden\n');
      }
      return answers;
    };
    const bare = await run(false);
    expect(await run(true)).toEqual(bare);
    expect(bare.map(([failed]) => failed)).toEqual([false, true, false]);
    expect(bare[1]?.[1]).toBe('Another note in that folder is already named "HIDDEN" (names are compared ignoring case); choose another name, or rename or move that note first.');
  });
});
