import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTE_TEMPLATE, noteUri } from '../../src/server/resources.js';
import { connect, removeDir, writeVault, type Harness } from '../support/helpers.js';
import { BOUNDARY_VAULT, CASES, TEAMMATE_VAULT, TITLES, id, type BoundaryCase } from '../support/access-fixture.js';

/** What a request answers, as text: its result, or the message it was refused with. */
function answerOf(request: Promise<unknown>): Promise<string> {
  return request.then(
    (result) => JSON.stringify(result),
    (error: unknown) => (error as Error).message,
  );
}

/**
 * The fixture with links between its notes, across every boundary: inside
 * notes link out (by bare name, which shows as their own text only), and
 * outside notes link in, by bare name and by path, so that links, backlinks
 * and move_note's rewriting all meet notes the connection may not see.
 * Inside notes' links are chosen so that their own text names nothing
 * outside (no outside folder or title).
 */
const LINKS: Record<string, string> = {
  'Work/Plan.md': '[[Salary]] [[Diary]] [[Office]] [[Deep]]',
  'Work/Sub/Deep.md': '[[Plan]] [[Salary]]',
  'Work/Confidential/Salary.md': '[[Plan]] [[Work/Sub/Deep]] [d](../Sub/Deep.md)',
  'Home/Diary.md': '[[Plan]] [[Work/Sub/Deep|deep work]] [[Office]] [[Salary]]',
  'Home/Office.md': '[[Plan]] [[Diary]] [[Deep]]',
  'Root zebra.md': '[[Plan]] [[Work/Sub/Deep]] [o](Home/Office.md)',
};
const TEAMMATE_LINKS: Record<string, string> = { 'Shared.md': '[[Private]]', 'Private.md': '[[Shared]]' };

function withLinks(vault: Record<string, string>, links: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(vault).map(([rel, content]) => [rel, links[rel] === undefined ? content : `${content}\nLinks: ${links[rel]}\n`]));
}
/** A task in every note, naming the note's title (which an outside note's must never show), on body line 4. */
const taskText = (n: number): string => `follow up on ${TITLES[n] as string}`;
function withTasks(vault: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(vault).map(([rel, content]) => {
      const n = Number(/^id: .*-0*(\d+)$/m.exec(content)?.[1]);
      return [rel, Number.isNaN(n) ? content : `${content}- [ ] ${taskText(n)} 📅 2026-12-0${n}\n`];
    }),
  );
}
const LINKED_VAULT = withTasks(withLinks(BOUNDARY_VAULT, LINKS));

/**
 * The leak test: for each boundary kind, every tool is called with inputs
 * crafted to reach outside, and no outside id, title, folder or tag may appear
 * anywhere in any result or error, except where the caller typed it itself
 * (then the answer must be the same as for a name that does not exist).
 */

function forbiddenStrings(c: BoundaryCase): string[] {
  return [...c.outside.map(id), ...c.outside.map((n) => TITLES[n] as string), ...c.outsideFolders, ...c.outsideTags, 'zebra'];
}

function textOf(result: CallToolResult): string {
  return JSON.stringify(result.content) + JSON.stringify(result.structuredContent ?? null);
}

let vaultDir: string;
let teammateDir: string;
beforeAll(async () => {
  vaultDir = await writeVault(LINKED_VAULT);
  teammateDir = await writeVault(withTasks(withLinks(TEAMMATE_VAULT, TEAMMATE_LINKS)));
});
afterAll(async () => {
  await removeDir(vaultDir);
  await removeDir(teammateDir);
});

describe.each(CASES)('boundary: $name', (c) => {
  let h: Harness;
  let before: Record<string, string>;
  beforeAll(async () => {
    const options: Parameters<typeof connect>[0] = { dir: vaultDir, shared: [{ owner: 'alice', dir: teammateDir }], settings: { reviewTags: ['#flashcards'] }, semantic: true };
    if (c.folder) options.folder = c.folder;
    if (c.tag) options.tag = c.tag;
    h = await connect(options);
    before = {};
    for (const rel of Object.keys(LINKED_VAULT)) before[rel] = await readFile(path.join(vaultDir, rel), 'utf8');
  });
  afterAll(async () => {
    await h.close();
  });

  const calls: [string, Record<string, unknown>][] = [
    ['list_notes', { size: 50 }],
    ['list_notes', { size: 50, folder: 'unfiled' }],
    ['list_notes', { size: 50, period: 'week', sort: 'updated' }],
    ['list_notes', { size: 50, source: 'note' }],
    ['list_notes', { size: 50, where: [{ property: 'created', op: 'exists' }] }],
    ['list_notes', { size: 50, where: [{ property: 'tags', op: '!=', value: '#nosuchtag' }, { property: 'updated', op: '>', value: '2020-01-01' }] }],
    ['list_tags', { limit: 200 }],
    ['list_tags', { kind: 'mention', limit: 200 }],
    ['list_properties', {}],
    ['list_folders', {}],
    ['search_notes', { query: 'zebra', size: 50 }],
    ['search_notes', { query: 'salary diary therapist teammate', size: 50 }],
    ['search_notes', { query: 'salarysecret rootsecret teamzebra raise', size: 50 }],
    ['get_due_reviews', { limit: 50 }],
    ['semantic_search', { query: 'zebra', size: 50 }],
    ['semantic_search', { query: 'private salary numbers and diary', size: 50 }],
    ['find_similar', { note_id: id(1), size: 50 }],
    ['find_similar', { note_id: id(2), size: 50 }],
    // Links and backlinks of every inside note (the notes each case sees: 1, 2, and 5 or 3).
    ['get_note', { note_id: id(1) }],
    ['get_note', { note_id: id(2) }],
    ['get_note', { note_id: id(3) }],
    ['get_note', { note_id: id(5) }],
    // By part: lines of inside notes, and a heading an inside note does not have.
    ['get_note', { note_id: id(1), from_line: 1, max_lines: 1 }],
    ['get_note', { note_id: id(2), from_line: 2 }],
    ['get_note', { note_id: id(1), heading: 'Plan' }],
    // Tasks: every note has one, naming its title.
    ['list_tasks', { size: 50, status: 'all' }],
    ['list_tasks', { size: 50, query: 'follow up' }],
    ['list_tasks', { size: 50, due_before: '2027-01-01' }],
    ['get_daily_note', { date: '2026-11-27' }],
  ];

  it.each(calls)('%s %j reveals nothing outside', async (tool, args) => {
    const listed = (await h.client.listTools()).tools.map((t) => t.name);
    expect(listed).toContain(tool);
    const text = textOf(await h.call(tool, args));
    for (const secret of forbiddenStrings(c)) expect(text, `${tool} leaked ${secret}`).not.toContain(secret);
  });

  it('counts only what it may show: each total equals its items when they fit on one page', async () => {
    let checked = 0;
    for (const [tool, args] of calls) {
      const page = (await h.call(tool, args)).structuredContent as { items?: unknown[]; total?: number } | undefined;
      if (page?.total === undefined || !page.items) continue;
      expect(page.items.length, `${tool} ${JSON.stringify(args)} fits on a page`).toBeLessThan(50);
      expect(page.total, `${tool} ${JSON.stringify(args)}`).toBe(page.items.length);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(7);
  });

  it('answers calls naming outside notes, folders and tags exactly as for ones that do not exist', async () => {
    const listed = (await h.client.listTools()).tools.map((t) => t.name);
    type Probe = [string, (value: string) => Record<string, unknown>, string[], string];
    const probes: Probe[] = [
      ['get_note', (v) => ({ note_id: v }), c.outside.map(id), id(999)],
      ['get_note', (v) => ({ note_id: v, heading: 'Zebra' }), c.outside.map(id), id(999)],
      ['get_note', (v) => ({ note_id: v, from_line: 1, max_lines: 1 }), c.outside.map(id), id(999)],
      ['get_note', (v) => ({ note_id: v, from_line: 999 }), c.outside.map(id), id(999)],
      ['find_similar', (v) => ({ note_id: v }), c.outside.map(id), id(999)],
      ['update_note', (v) => ({ note_id: v, text: 'x', mode: 'append' }), c.outside.map(id), id(999)],
      ['update_note', (v) => ({ note_id: v, title: 'x' }), c.outside.map(id), id(999)],
      ['delete_note', (v) => ({ note_id: v }), c.outside.map(id), id(999)],
      // edit_note: a text or heading the outside note holds, or not, is "Note not found" all the same.
      ['edit_note', (v) => ({ note_id: v, operation: 'replace_text', old_text: 'salary', new_text: 'x' }), c.outside.map(id), id(999)],
      ['edit_note', (v) => ({ note_id: v, operation: 'replace_text', old_text: 'no such text', new_text: 'x' }), c.outside.map(id), id(999)],
      ['edit_note', (v) => ({ note_id: v, operation: 'insert', heading: 'No such heading', text: 'x' }), c.outside.map(id), id(999)],
      ['move_note', (v) => ({ note_id: v, folder: 'Work/Sub' }), c.outside.map(id), id(999)],
      ['move_note', (v) => ({ note_id: v, name: 'Renamed' }), c.outside.map(id), id(999)],
      // Into a folder outside a folder boundary; one inside it (Work/Confidential under the tag as well) is a folder this connection may file into.
      ...(c.folder === undefined
        ? []
        : [['move_note', (v: string) => ({ note_id: id(1), folder: v }), c.outsideFolders.filter((f) => !f.startsWith(`${c.folder}/`)), 'No Such Folder'] as Probe]),
      ['set_properties', (v) => ({ note_id: v, properties: { status: 'x', tags: null } }), c.outside.map(id), id(999)],
      // create_note into a folder outside a folder boundary: "Folder not found", as for one that does not exist.
      ...(c.folder === undefined
        ? []
        : [['create_note', (v: string) => ({ title: 'Probe', folder: v, properties: { a: 1 } }), c.outsideFolders.filter((f) => !f.startsWith(`${c.folder}/`)), 'No Such Folder'] as Probe]),
      ['grade_review', (v) => ({ note_id: v, grade: 3 }), c.outside.map(id), id(999)],
      // The outside note's own task, by its line and text: "Note not found", as for an id that does not exist.
      ['complete_task', (v) => ({ note_id: v, line: 4, text: taskText(Number(v.slice(-3))) }), c.outside.map(id), id(999)],
      ['list_tasks', (v) => ({ folder: v }), c.outsideFolders, 'No Such Folder'],
      ['list_tasks', (v) => ({ tag: v, size: 50 }), c.outsideTags, '#nosuchtag'],
      ['list_notes', (v) => ({ folder: v }), c.outsideFolders, 'No Such Folder'],
      ['list_notes', (v) => ({ tag: v, size: 50 }), c.outsideTags, '#nosuchtag'],
      // rename_tag of a tag only outside notes carry: nothing renamed, nothing counted, as for a tag no note carries.
      ['rename_tag', (v) => ({ from: v, to: '#renamed-probe' }), c.outsideTags.filter((t) => t.startsWith('#')), '#nosuchtag'],
      ['rename_tag', (v) => ({ from: v, to: '@renamed-probe' }), c.outsideTags.filter((t) => t.startsWith('@')), '@nosuchmention'],
    ];
    for (const [tool, args, values, unknown] of probes) {
      if (!listed.includes(tool)) continue;
      const baseline = textOf(await h.call(tool, args(unknown))).split(unknown).join('<name>');
      for (const value of values) {
        const result = await h.call(tool, args(value));
        const text = textOf(result);
        expect(text.split(value).join('<name>'), `${tool} on ${value}`).toBe(baseline);
        for (const secret of forbiddenStrings(c)) {
          if (secret === value || value.includes(secret) || secret.includes(value)) continue;
          expect(text, `${tool} on ${value} leaked ${secret}`).not.toContain(secret);
        }
      }
    }
    // And none of those calls changed a file.
    for (const [rel, content] of Object.entries(before)) expect(await readFile(path.join(vaultDir, rel), 'utf8'), rel).toBe(content);
  });

  it('offers as resources exactly the inside notes, and reads an outside one as one that does not exist', async () => {
    const uris: string[] = [];
    let text = '';
    let cursor: string | undefined;
    do {
      const page = await h.client.listResources(cursor === undefined ? {} : { cursor });
      text += JSON.stringify(page);
      uris.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    text += JSON.stringify(await h.client.listResourceTemplates());
    for (const secret of forbiddenStrings(c)) expect(text, `resources leaked ${secret}`).not.toContain(secret);
    expect(uris.sort()).toEqual(c.inside.map((n) => noteUri(id(n))).sort());
    const failure = (uri: string): Promise<string> => answerOf(h.client.readResource({ uri }));
    const baseline = (await failure(noteUri(id(999)))).split(id(999)).join('<id>');
    expect(baseline).toMatch(/Note not found/);
    for (const n of c.outside) expect((await failure(noteUri(id(n)))).split(id(n)).join('<id>'), `resources/read of ${id(n)}`).toBe(baseline);
    const refusal = (uri: string): Promise<string> => answerOf(h.client.subscribeResource({ uri }));
    const unknownRefusal = (await refusal(noteUri(id(999)))).split(id(999)).join('<id>');
    expect(unknownRefusal).toMatch(/Note not found/);
    for (const n of c.outside) expect((await refusal(noteUri(id(n)))).split(id(n)).join('<id>'), `resources/subscribe of ${id(n)}`).toBe(unknownRefusal);
    // The template's note_id completes to the names (titles, unique here) of inside notes only, whatever is typed:
    // an outside title or id completes to none of its own; each name offered reads its note.
    const insideTitles = new Set(c.inside.map((n) => TITLES[n] as string));
    const all = await h.client.complete({ ref: { type: 'ref/resource', uri: NOTE_TEMPLATE }, argument: { name: 'note_id', value: '' } });
    expect([...all.completion.values].sort()).toEqual([...insideTitles].sort());
    for (const name of all.completion.values) expect((await h.client.readResource({ uri: noteUri(name) })).contents[0]?._meta?.title).toBe(name);
    for (const value of [...forbiddenStrings(c), ...c.outside.map(id)]) {
      const answer = await h.client.complete({ ref: { type: 'ref/resource', uri: NOTE_TEMPLATE }, argument: { name: 'note_id', value } });
      for (const completed of answer.completion.values) expect(insideTitles.has(completed), `note_id "${value}" completed to ${completed}`).toBe(true);
    }
    // An outside note's title or path reads as a note that does not exist.
    for (const n of c.outside) expect((await failure(noteUri(TITLES[n] as string))).split(TITLES[n] as string).join('<id>'), `resources/read of "${TITLES[n] as string}"`).toBe(baseline);
    for (const n of c.inside) {
      const read = await h.client.readResource({ uri: noteUri(id(n)) });
      const body = JSON.stringify(read);
      for (const secret of forbiddenStrings(c)) expect(body, `resources/read ${id(n)} leaked ${secret}`).not.toContain(secret);
    }
  });

  it('completes and fills prompts from inside only: no outside folder or tag is offered, and one named reads as unknown', async () => {
    let text = JSON.stringify(await h.client.listPrompts());
    for (const [prompt, argument] of [['weekly-digest', 'folder'], ['tidy-inbox', 'folder'], ['review-session', 'deck']] as const) {
      for (const value of ['', '#', 'h', 'w', 'Hid', '#s', '#d', '@']) {
        text += JSON.stringify(await h.client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value } }));
      }
    }
    // plan-my-day takes no argument: its message names tools and dates, nothing of the vault.
    text += JSON.stringify(await h.client.getPrompt({ name: 'plan-my-day' }));
    for (const secret of forbiddenStrings(c)) expect(text, `prompts leaked ${secret}`).not.toContain(secret);
    const failure = (folder: string): Promise<string> => answerOf(h.client.getPrompt({ name: 'weekly-digest', arguments: { folder } }));
    const baseline = (await failure('No Such Folder')).split('No Such Folder').join('<name>');
    expect(baseline).toMatch(/Folder not found/);
    for (const folder of c.outsideFolders) expect((await failure(folder)).split(folder).join('<name>'), `weekly-digest in ${folder}`).toBe(baseline);
  });

  it('still sees every inside note', async () => {
    const page = await h.ok<{ items: { id: string }[]; total: number }>('list_notes', { size: 50 });
    expect(page.items.map((item) => item.id).sort()).toEqual(c.inside.map(id).sort());
    for (const n of c.inside) expect((await h.ok<{ id: string }>('get_note', { note_id: id(n) })).id).toBe(id(n));
  });
});

describe.each(CASES)('move_note under boundary: $name', (c) => {
  let h: Harness;
  let dir: string;
  beforeAll(async () => {
    dir = await writeVault(LINKED_VAULT);
    const options: Parameters<typeof connect>[0] = { dir };
    if (c.folder) options.folder = c.folder;
    if (c.tag) options.tag = c.tag;
    h = await connect(options);
  });
  afterAll(async () => {
    await h.close();
    await removeDir(dir);
  });

  it('rewrites the links of notes it cannot see, and never names them', async () => {
    const result = await h.call('move_note', { note_id: id(2), folder: 'Work/Moved' });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const text = textOf(result);
    for (const secret of forbiddenStrings(c)) expect(text, `move_note leaked ${secret}`).not.toContain(secret);
    // The outside notes' links were repaired all the same: the person's links must not break.
    const diary = await readFile(path.join(dir, 'Home/Diary.md'), 'utf8');
    expect(diary).toContain('[[Deep|deep work]]');
    expect(diary).not.toContain('Work/Sub/Deep');
    const root = await readFile(path.join(dir, 'Root zebra.md'), 'utf8');
    expect(root).toContain('Links: [[Plan]] [[Deep]] [o](Home/Office.md)');
    const salary = await readFile(path.join(dir, 'Work/Confidential/Salary.md'), 'utf8');
    // Issue 30: in a note the connection sees, a rewritten wikilink is the target's full vault path (it must not depend on outside notes).
    expect(salary).toContain(c.inside.includes(3) ? '[[Work/Moved/Deep]] [d](../Moved/Deep.md)' : '[[Deep]] [d](../Moved/Deep.md)');
    // And the note that moved still has its backlinks, those this connection sees only.
    const moved = await h.ok<{ folder?: string; backlinks: { notes: { id: string }[]; total: number } }>('get_note', { note_id: id(2) });
    expect(moved.folder).toBe('Work/Moved');
    const linkers = [1, 3, 4, 5, 6].filter((n) => c.inside.includes(n)).map(id);
    expect(moved.backlinks.notes.map((n) => n.id).sort()).toEqual(linkers.sort());
    expect(moved.backlinks.total).toBe(linkers.length);
  });
});

/**
 * get_daily_note over daily notes on both sides of each boundary: Home holds
 * the daily notes (outside the folder Work; under the tag #work, only the one
 * tagged #work is inside), and the daily template is outside every boundary.
 */
const DAILY_VAULT: Record<string, string> = {
  ...BOUNDARY_VAULT,
  '.obsidian/daily-notes.json': JSON.stringify({ folder: 'Home', template: 'Templates/Daily zebra' }),
  'Templates/Daily zebra.md': '---\nmood: zebra\n---\nzebra template #diary\n',
  'Home/2026-11-28.md': 'Zebra day. #diary\n',
  'Home/2026-11-29.md': 'Office day. #work\n',
};

describe.each(CASES)('get_daily_note under boundary: $name', (c) => {
  let h: Harness;
  let dir: string;
  beforeAll(async () => {
    dir = await writeVault(DAILY_VAULT);
    const options: Parameters<typeof connect>[0] = { dir };
    if (c.folder) options.folder = c.folder;
    if (c.tag) options.tag = c.tag;
    h = await connect(options);
  });
  afterAll(async () => {
    await h.close();
    await removeDir(dir);
  });

  /** An answer with the day and the new note's id and times made alike. */
  const shape = (result: CallToolResult, day: string): string =>
    textOf(result)
      .split(day)
      .join('<day>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>');

  it('answers for an outside daily note exactly as for a missing one, and never fills in an outside template', async () => {
    const secrets = [...forbiddenStrings(c), 'Zebra day', 'mood'];
    // 2026-11-28 is outside every boundary; 2026-11-27 has no note.
    const missing = shape(await h.call('get_daily_note', { date: '2026-11-27' }), '2026-11-27');
    expect(missing).toMatch(/No daily note for <day>/);
    expect(shape(await h.call('get_daily_note', { date: '2026-11-28' }), '2026-11-28')).toBe(missing);
    const made = await h.call('get_daily_note', { date: '2026-11-26', create: true });
    const outsideMade = await h.call('get_daily_note', { date: '2026-11-28', create: true });
    expect(shape(outsideMade, '2026-11-28')).toBe(shape(made, '2026-11-26'));
    // A daily folder outside a folder boundary is refused with create_note's sentence, naming the folder the settings give
    // (the same sentence whether that folder exists or not); nothing else may name an outside folder.
    const told = (result: CallToolResult): string => textOf(result).split('Folder not found: Home').join('');
    for (const result of [made, outsideMade]) for (const secret of secrets) expect(told(result), `leaked ${secret}`).not.toContain(secret);
    // The person's own daily note is untouched.
    expect(await readFile(path.join(dir, 'Home/2026-11-28.md'), 'utf8')).toBe('Zebra day. #diary\n');
  });

  it('finds the daily note inside it', async () => {
    const result = await h.call('get_daily_note', { date: '2026-11-29' });
    if (c.folder === undefined) expect(textOf(result)).toContain('Office day.');
    else expect(shape(result, '2026-11-29')).toBe(shape(await h.call('get_daily_note', { date: '2026-11-27' }), '2026-11-27'));
  });
});
