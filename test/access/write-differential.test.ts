import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, connectClient, removeDir, writeVault, type Harness } from '../support/helpers.js';

/**
 * The differential leak test for the write tools (issue 29): the same calls
 * under a boundary, on a vault holding only the inside notes and on one that
 * also holds hundreds of outside notes named and placed to collide with them
 * (the same names elsewhere, the targets of the inside notes' links that
 * point outside, a note of a created note's name, outside linkers of every
 * inside note, and under a tag boundary untagged notes inside the very
 * folders used). Every answer, and every inside note read afterwards, must
 * be the same: create_note (with a folder and properties too), edit_note,
 * move_note (moves and renames), set_properties, list_tasks and complete_task, and each link form a move rewrites (wikilink,
 * wikilink with a path, relative and absolute, embed, Markdown link
 * relative and absolute, with anchors, aliases and titles).
 */

const id = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const note = (n: number, body: string): string => `---\nid: ${id(n)}\ncreated: 2026-11-01T10:00:00+00:00\nupdated: 2026-11-02T10:00:00+00:00\n---\n${body}\n`;

const INSIDE: Record<string, string> = {
  'Work/Plan.md': note(
    1,
    '#work The plan. [[Deep]] ![[Deep]] [[Work/Sub/Deep]] [[Sub/Deep#Part|focus]] [[./Sub/Deep]] [[/Work/Sub/Deep]] ' +
      '[d](Sub/Deep.md) [d](Sub/Deep.md#part "t") [d](<Sub/Deep.md>) [d](/Work/Sub/Deep.md) [[Target]] [[salary]] [[../Private/secret]] [s](../Private/secret.md) [[Nowhere]]',
  ),
  'Work/Sub/Deep.md': note(2, '#work Deep work. [[Plan]] [[../Plan]] [p](../Plan.md) [[Target]] [[secret]] [[HR/salary]] [x](../../Private/HR/salary.md) [[Private/other]]'),
  'Work/Sub/Target.md': note(3, '#work Target. [[Deep]] [[Plan#Goals]] [[salary]] ![[Plan]]'),
  '.obsidian/daily-notes.json': JSON.stringify({ folder: 'Work/Daily', template: 'Work/Daily template' }),
  'Work/Daily template.md': '# {{title}}\n\n#work\n',
  'Work/Linker.md': note(4, '#work #todo/later Links in. [[Deep|the deep one]] [[Sub/Deep]] [t](Sub/Target.md) [[Plan]] [[Deep.md]] [d](./Sub/Deep.md#x)'),
};

/** Outside every boundary here: not in Work/, without #work. */
function outside(tagBoundary: boolean): Record<string, string> {
  const files: Record<string, string> = {
    'Private/secret.md': 'Secret.\n',
    'Private/other.md': 'Other.\n',
    'Private/HR/salary.md': 'Salary.\n',
    'HR/salary.md': 'Salary again.\n',
    'Deep.md': 'A deep note at the top.\n',
    'Private/Deep.md': 'A private deep note.\n',
    'X/Sub/Deep.md': 'Another Sub/Deep.\n',
    'Plan.md': 'A plan at the top.\n',
    'Private/Target.md': 'A private target.\n',
    'probe.md': 'A note named as the probe is.\n',
    'Private/probe.md': 'Another.\n',
  };
  for (let i = 0; i < 300; i++) {
    const folder = ['Private', 'HR', 'Archive/Old', 'X/Sub', 'Zed'][i % 5] as string;
    const up = '../'.repeat(folder.split('/').length);
    files[`${folder}/Filler ${i}.md`] =
      i % 3 === 0
        ? `Links in from outside: [[Deep]] [[Work/Sub/Deep]] [p](${up}Work/Plan.md) [[Target]] [[Plan]]\n`
        : `Filler ${i}, salary and secrets. #todo #todo/later\n- [ ] filler task ${i} 📅 2026-12-0${(i % 9) + 1}\n`;
  }
  // A note at the top of a created note's name. Under a tag boundary a create files at the top, and takes the
  // next free file name (`salary 2.md`): its answers hide that (move-leaks.test.ts), but a link by file name,
  // [[salary]], then names no note of the connection's: the limit SECURITY.md states. So only outside it here.
  if (!tagBoundary) files['salary.md'] = 'Salary at the top.\n';
  // Under a tag boundary, untagged notes in the folders the calls use are outside too.
  if (tagBoundary) {
    Object.assign(files, {
      'Work/Other/Deep.md': 'An untagged deep note.\n',
      'Work/Archive/Old.md': 'An untagged note in a folder a move goes to.\n',
      'Work/A/Secret plan.md': 'Untagged, in a folder on a move\'s path.\n',
      'Work/Sub/Hidden.md': 'Untagged, beside the inside notes: [[Deep]] [[Plan]] [t](Target.md)\n- [ ] a hidden task 📅 2026-11-01\n',
      'Work/Moved/Deeper/secret.md': 'Untagged, where the probe goes.\n',
      'Work/Todo elsewhere.md': 'Without the boundary tag, but with the tag rename_tag renames: #todo\n',
      // The person's own daily note, untagged: get_daily_note's note for that day is numbered beside it, unseen.
      'Work/Daily/2026-11-20.md': 'An untagged daily note.\n',
    });
  }
  return files;
}

const CASES: { name: string; folder?: string; tag?: string }[] = [
  { name: 'folder Work', folder: 'Work' },
  { name: 'tag #work', tag: '#work' },
  { name: 'folder Work and tag #work', folder: 'Work', tag: '#work' },
];

/** Everything that differs from run to run whatever lies outside: created notes' ids, times. */
function normalised(transcript: unknown[]): string {
  const ids = new Map<string, string>();
  return JSON.stringify(transcript, null, 1)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (uuid) => {
      if (!ids.has(uuid)) ids.set(uuid, `<id ${ids.size}>`);
      return ids.get(uuid) as string;
    })
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g, '<time>');
}

interface Answer {
  isError?: boolean;
  content: unknown;
  structuredContent?: unknown;
}

const dirs: string[] = [];
const open: Harness[] = [];
afterAll(async () => {
  for (const h of open.splice(0)) await h.close();
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

/** The calls, and what the connection reads afterwards; `h` for the files and an unbounded client for the outside linkers. */
async function session(c: (typeof CASES)[number], withOutside: boolean): Promise<{ transcript: unknown[]; h: Harness; everything: Client }> {
  const dir = await writeVault({ ...INSIDE, ...(withOutside ? outside(c.tag !== undefined) : {}) });
  dirs.push(dir);
  const h = await connect({ dir, ...(c.folder ? { folder: c.folder } : {}), ...(c.tag ? { tag: c.tag } : {}) });
  open.push(h);
  const transcript: unknown[] = [];
  const call = async (tool: string, args: Record<string, unknown>): Promise<Answer> => {
    const answer = (await h.call(tool, args)) as Answer;
    transcript.push([tool, args, answer.isError === true, answer.content, answer.structuredContent ?? null]);
    return answer;
  };
  const probeText =
    'Probe: [[Deep]] [[Plan|the plan]] ![[Target]] [[Work/Sub/Deep#Part]] [[/Work/Plan]] [p](Work/Plan.md) [p](/Work/Plan.md#goals "g") ' +
    '[[../Private/secret]] [s](../Private/secret.md) [[../Private/nope]] [[salary]] [[Private/other]] [o](Private/other.md) [[secret]] [[nonexistent-name]]';
  const probe = (await call('create_note', { title: 'probe', text: probeText })).structuredContent as { id: string };
  // edit_note on inside notes: written links resolve among the notes the connection sees; a refusal (a missing heading, the boundary tag taken away) reads the same.
  await call('edit_note', { note_id: id(3), operation: 'replace_text', old_text: 'Target.', new_text: 'Target, edited: [[salary]] [[Deep]]' });
  await call('edit_note', { note_id: id(4), operation: 'insert', position: 'start', text: '- a bullet [[Deep]] [[secret]]' });
  await call('edit_note', { note_id: id(4), operation: 'insert', heading: 'Missing', text: 'x' });
  await call('edit_note', { note_id: id(2), operation: 'replace_text', old_text: '#work ', new_text: '' });
  await call('move_note', { note_id: probe.id, folder: 'Work/Moved/Deeper' });
  await call('move_note', { note_id: id(2), folder: 'Work/A/B/C' });
  await call('move_note', { note_id: id(1), folder: 'Work/Archive' });
  const decoy = (await call('create_note', { title: 'salary', text: 'A decoy salary. [[Deep]] [[secret]]' })).structuredContent as { id: string };
  await call('move_note', { note_id: decoy.id, folder: 'Work/x/y/z/w' });
  const linker = (await call('create_note', { title: 'linker', text: 'see [[salary]] and [[Deep]] and [d](../Deep.md) and [[nonexistent-name]]' })).structuredContent as { id: string };
  await call('move_note', { note_id: linker.id, folder: 'Work/x/y/z/w' });
  // Renames (issue 30): refused for a name a note the connection sees holds; a name only a hidden note holds is numbered unseen.
  await call('move_note', { note_id: decoy.id, name: 'LINKER' });
  await call('move_note', { note_id: id(2), name: 'Deep thoughts' });
  await call('move_note', { note_id: linker.id, folder: 'Work/Sub', name: 'Hidden' });
  await call('move_note', { note_id: probe.id, folder: 'Work' });
  await call('move_note', { note_id: id(3), folder: 'unfiled' });
  await call('move_note', { note_id: id(4), folder: 'Private' });
  // set_properties, and create_note with a folder and properties: into folders that hold outside notes of the same names.
  await call('set_properties', { note_id: id(1), properties: { status: 'done', tags: ['work', 'planned'], due: '2026-12-10' } });
  await call('set_properties', { note_id: id(2), properties: { title: 'Deep renamed', rating: 4 } });
  await call('set_properties', { note_id: id(2), properties: { rating: null, tags: null } });
  await call('set_properties', { note_id: id(999), properties: { status: 'x' } });
  // rename_tag: outside notes carrying the tag are neither renamed nor counted; under a tag boundary renaming it is refused.
  await call('rename_tag', { from: '#todo', to: '#task' });
  await call('rename_tag', { from: '#work', to: '#job' });
  const hidden = (await call('create_note', { title: 'Hidden', text: '#work Beside hidden notes. [[Deep]]', folder: 'work/sub', properties: { status: 'new' } })).structuredContent as { id?: string } | undefined;
  // Names outside notes hold there (a numbered file name, its title kept in its frontmatter), but no link names:
  // a link by file name to a name a hidden note holds, and a hidden folder named in another case, are the
  // limits SECURITY.md states (see `outside`); the folder's answer in another case is look-alike-folders.test.ts's.
  const secret = (await call('create_note', { title: 'Filler 5', text: '#work In a folder of outside notes.', folder: 'Private', properties: { kind: 'probe' } })).structuredContent as { id?: string } | undefined;
  await call('create_note', { title: 'Filler 3', text: '#work', folder: 'X/Sub', properties: { created: '2026-01-01', title: 'Filler 3' } });
  // get_daily_note: made from the template, then found again, where outside notes hold the day's file.
  await call('get_daily_note', { date: '2026-11-20', create: true });
  await call('get_daily_note', { date: '2026-11-20' });
  await call('get_daily_note', { date: '2026-11-21' });
  const made = [hidden?.id, secret?.id].filter((made): made is string => made !== undefined);
  // Tasks (list_tasks, complete_task) beside outside notes holding tasks of their own, due earlier and later.
  const tasks = (await call('create_note', { title: 'Tasks', text: '#work\n\n- [ ] ask about [[salary]] 📅 2026-12-10\n- [ ] read [[Deep]]', folder: 'Work/Sub' })).structuredContent as { id: string };
  await call('list_tasks', { status: 'all', size: 50 });
  await call('list_tasks', { folder: 'Work/Sub', due_before: '2026-12-31' });
  await call('complete_task', { note_id: tasks.id, line: 3, text: 'ask about [[salary]]' });
  await call('complete_task', { note_id: tasks.id, line: 4, text: 'read a different note' });
  await call('list_tasks', { status: 'done', size: 50 });
  await call('complete_task', { note_id: tasks.id, line: 3, text: 'ask about [[salary]]', done: false });
  await call('list_tasks', { size: 50 });
  // What the connection reads afterwards: every note it sees, with its links and backlinks, and the folders.
  // Notes created at one moment list in no fixed order among themselves: the listing is kept sorted by title, folder
  // and snippet (two notes end up titled Hidden in Work/Sub: the one renamed so, and the one created there, numbered).
  const listed = ((await h.call('list_notes', { size: 50 })).structuredContent as { items: { id: string; title: string; folder?: string; snippet: string }[] }).items;
  const order = (item: (typeof listed)[number]): string => `${item.title}/${item.folder}/${item.snippet}`;
  transcript.push(['list_notes', [...listed].sort((a, b) => order(a).localeCompare(order(b)))]);
  for (const note of [id(1), id(2), id(3), id(4), probe.id, decoy.id, linker.id, ...made]) await call('get_note', { note_id: note });
  await call('list_folders', {});
  const everything = await connectClient(h.runtime, {});
  return { transcript, h, everything };
}

describe.each(CASES)('writes under boundary: $name', (c) => {
  it('answer the same with and without hundreds of outside notes, and keep the outside links working', async () => {
    const bare = await session(c, false);
    const crowded = await session(c, true);
    expect(normalised(crowded.transcript)).toBe(normalised(bare.transcript));

    // The comparison is not between two refusals: the moves happened, and the links that named Deep name it still.
    const text = normalised(bare.transcript);
    expect(text).toContain('Work/A/B/C');
    expect(text).toContain('Target, edited: [[salary]] [[Deep]]');
    expect(text).toContain('- a bullet [[Deep]] [[secret]]');
    expect(text).toContain('Heading not found: Missing');
    expect(text).toContain('The task has changed since it was listed');
    expect(text).toContain('"done": "2026-11-30"');
    // The daily note was made from the template, found again, and the next day's is missing.
    expect(text.split('"text": "# 2026-11-20').length).toBe(3);
    expect(text).toContain('No daily note for 2026-11-21');
    if (c.tag !== undefined) expect(text).toContain('This edit would remove the tag #work');
    expect(text).toContain('"renamed_notes": 1');
    expect(text).toContain('#task/later');
    if (c.tag !== undefined) expect(text).toContain('renaming #work would rename it');
    const deep = (await crowded.h.ok<{ folder: string; backlinks: { notes: { id: string }[] } }>('get_note', { note_id: id(2) }));
    expect(deep.folder).toBe('Work/A/B/C');
    expect(deep.backlinks.notes.map((n) => n.id)).toEqual(expect.arrayContaining([id(3), id(4)]));

    // Outside, nothing was overwritten, and the outside linkers were repaired: they still name the moved notes.
    const files = outside(c.tag !== undefined);
    for (const [rel, content] of Object.entries(files)) {
      if (content.includes('[[')) continue;
      expect(await readFile(path.join(crowded.h.dir, rel), 'utf8'), rel).toBe(content);
    }
    const filler = (await crowded.everything.callTool({ name: 'get_note', arguments: { note_id: await idOf(crowded.everything, 'Filler 0') } })).structuredContent as {
      links: { notes: { id: string }[] };
    };
    expect(filler.links.notes.map((n) => n.id)).toEqual(expect.arrayContaining([id(2), id(1)]));
    await crowded.everything.close();
    await bare.everything.close();
  }, 120_000);
});

async function idOf(client: Client, title: string): Promise<string> {
  const found = (await client.callTool({ name: 'search_notes', arguments: { query: `"${title}"`, size: 5 } })).structuredContent as { items: { id: string; title: string }[] };
  const item = found.items.find((candidate) => candidate.title === title);
  if (!item) throw new Error(`no note titled ${title}`);
  return item.id;
}
