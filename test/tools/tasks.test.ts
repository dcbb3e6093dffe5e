import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { activityFile, parseActivity } from '../../src/vault/record/activity.js';
import { undo } from '../../src/vault/record/undo.js';
import type { NoteRecord } from '../../src/vault/note.js';
import { connectClient, freshVaults, type Harness, type HarnessOptions } from '../support/helpers.js';

const id = (n: number): string => `00000000-0000-4000-8000-0000000000c${n}`;

const PLAN = [
  '---',
  `id: ${id(1)}`,
  'title: Plan',
  'updated: 2026-11-20T08:00:00+00:00',
  '---',
  '# Plan #work',
  '',
  '- [ ] write the report 📅 2026-12-10 ⏫',
  '- [x] book the room ✅ 2026-11-01',
  '- [-] old idea',
  '- [ ] no date at all #later',
  '```',
  '- [ ] not a task, code',
  '```',
  '',
].join('\n');
// CRLF line endings, Dataview fields, a tag of its own.
const HOME = [`---`, `id: ${id(2)}`, `---`, `Chores`, `* [ ] pay rent [due:: 2026-12-01] #money`, `1. [ ] call Ann (scheduled:: 2026-12-05)`, ``].join('\r\n');
const DEEP = `---\nid: ${id(3)}\n---\n> - [ ] quoted, due first 📅 2026-11-25\n`;
const LOOSE = `---\nid: ${id(4)}\n---\n- [ ] a loose task 📅 2026-12-02\n`;

const VAULT: Record<string, string> = { 'Work/Plan.md': PLAN, 'Home/Home.md': HOME, 'Work/Sub/Deep.md': DEEP, 'Loose.md': LOOSE };

interface Task {
  note_id: string;
  note_title: string;
  line: number;
  text: string;
  status: string;
  due?: string;
  done?: string;
  tags: string[];
}
interface Page {
  items: Task[];
  total: number;
  page: number;
}

const vaults = freshVaults();
const harness = (options: Omit<HarnessOptions, 'dir'> = {}): Promise<Harness> => vaults.harness(VAULT, options);

const file = (h: Harness, rel: string): Promise<string> => readFile(path.join(h.dir, rel), 'utf8');
const brief = (page: Page): string[] => page.items.map((task) => `${task.note_title}:${task.line} ${task.text}`);

describe('list_tasks', () => {
  it('lists open tasks, earliest due first and those without one after, by path and line', async () => {
    const h = await harness();
    const page = await h.ok<Page>('list_tasks', {});
    expect(brief(page)).toEqual([
      'Deep:1 quoted, due first',
      'Home:2 pay rent #money',
      'Loose:1 a loose task',
      'Plan:3 write the report',
      'Home:3 call Ann',
      'Plan:6 no date at all #later',
    ]);
    expect(page.total).toBe(6);
    expect(page.items[3]).toEqual({ note_id: id(1), note_title: 'Plan', line: 3, text: 'write the report', status: 'open', due: '2026-12-10', priority: 'high', tags: [] });
    expect(page.items[4]).toEqual({ note_id: id(2), note_title: 'Home', line: 3, text: 'call Ann', status: 'open', scheduled: '2026-12-05', tags: [] });
  });

  it('filters by status, due dates, folder, tag and words, and pages', async () => {
    const h = await harness();
    const list = async (args: Record<string, unknown>): Promise<string[]> => brief(await h.ok<Page>('list_tasks', args));
    expect(await list({ status: 'done' })).toEqual(['Plan:4 book the room']);
    expect((await h.ok<Page>('list_tasks', { status: 'done' })).items[0]?.done).toBe('2026-11-01');
    expect(await list({ status: 'cancelled' })).toEqual(['Plan:5 old idea']);
    expect(await list({ status: 'all' })).toHaveLength(8);
    // The test clock's today is 2026-11-30: before it, and after it up to a day.
    expect(await list({ due_before: 'today' })).toEqual(['Deep:1 quoted, due first']);
    expect(await list({ due_after: '2026-12-01', due_before: '2026-12-10' })).toEqual(['Loose:1 a loose task']);
    expect(await list({ due_after: 'tomorrow' })).toEqual(['Loose:1 a loose task', 'Plan:3 write the report']);
    expect(await list({ folder: 'work' })).toEqual(['Deep:1 quoted, due first', 'Plan:3 write the report', 'Plan:6 no date at all #later']);
    expect(await list({ folder: 'unfiled' })).toEqual(['Loose:1 a loose task']);
    expect(await list({ tag: 'money' })).toEqual(['Home:2 pay rent #money', 'Home:3 call Ann']);
    expect(await list({ tag: '#work' })).toEqual(['Plan:3 write the report', 'Plan:6 no date at all #later']);
    expect(await list({ query: 'REPORT write' })).toEqual(['Plan:3 write the report']);
    const second = await h.ok<Page>('list_tasks', { size: 4, page: 2 });
    expect([brief(second), second.total, second.page]).toEqual([['Home:3 call Ann', 'Plan:6 no date at all #later'], 6, 2]);
    expect(await h.fail('list_tasks', { due_before: 'next week' })).toMatch(/due_before must be a date as YYYY-MM-DD/);
    expect(await h.fail('list_tasks', { folder: 'Nowhere' })).toBe('Folder not found: Nowhere');
  });

  it('shows only the tasks of notes the connection sees, under a folder and a tag boundary', async () => {
    const h = await harness();
    const work = await connectClient(h.runtime, { folder: 'Work' });
    const money = await connectClient(h.runtime, { tag: '#money' });
    const titles = async (client: typeof work): Promise<[string[], number]> => {
      const page = (await client.callTool({ name: 'list_tasks', arguments: { status: 'all' } })).structuredContent as Page;
      return [[...new Set(page.items.map((task) => task.note_title))], page.total];
    };
    expect(await titles(work)).toEqual([['Deep', 'Plan'], 5]);
    expect(await titles(money)).toEqual([['Home'], 2]);
    const refused = await work.callTool({ name: 'complete_task', arguments: { note_id: id(2), line: 2, text: 'pay rent #money' } });
    expect(refused.content).toEqual([{ type: 'text', text: 'Note not found' }]);
    expect(await file(h, 'Home/Home.md')).toBe(HOME);
    await work.close();
    await money.close();
  });
});

describe('complete_task', () => {
  it('ticks a Tasks-plugin task with today\'s done date, every other byte kept, recorded and undone byte for byte', async () => {
    const h = await harness();
    const task = await h.ok<Task>('complete_task', { note_id: id(1), line: 3, text: 'write the report' });
    expect(task).toEqual({ note_id: id(1), note_title: 'Plan', line: 3, text: 'write the report', status: 'done', due: '2026-12-10', done: '2026-11-30', priority: 'high', tags: [] });
    const after = await file(h, 'Work/Plan.md');
    expect(after).toBe(PLAN.replace('- [ ] write the report 📅 2026-12-10 ⏫', '- [x] write the report 📅 2026-12-10 ⏫ ✅ 2026-11-30').replace('2026-11-20T08:00:00+00:00', '2026-11-30T12:00:00+00:00'));
    expect(parseActivity(await readFile(activityFile(h.dir), 'utf8'))).toEqual([expect.objectContaining({ tool: 'complete_task', action: 'changed', id: id(1), path: 'Work/Plan.md' })]);
    await undo(h.runtime.activity, { last: true });
    expect(await file(h, 'Work/Plan.md')).toBe(PLAN);
  });

  it('unticks, taking the done date away', async () => {
    const h = await harness();
    const task = await h.ok<Task>('complete_task', { note_id: id(1), line: 4, text: 'book the room', done: false });
    expect(task).toEqual({ note_id: id(1), note_title: 'Plan', line: 4, text: 'book the room', status: 'open', tags: [] });
    expect(await file(h, 'Work/Plan.md')).toContain('\n- [ ] book the room\n');
  });

  it('keeps a CRLF note\'s line endings and writes a Dataview completion field', async () => {
    const h = await harness();
    await h.ok('complete_task', { note_id: id(2), line: 2, text: 'pay rent #money' });
    expect(await file(h, 'Home/Home.md')).toBe(HOME.replace('* [ ] pay rent [due:: 2026-12-01] #money', '* [x] pay rent [due:: 2026-12-01] #money [completion:: 2026-11-30]'));
  });

  it('refuses a task changed since it was listed, and a line holding none, writing nothing', async () => {
    const h = await harness();
    const changed = 'The task has changed since it was listed; list the tasks again';
    expect(await h.fail('complete_task', { note_id: id(1), line: 3, text: 'write the memo' })).toBe(changed);
    expect(await h.fail('complete_task', { note_id: id(1), line: 4, text: 'write the report' })).toBe(changed);
    expect(await h.fail('complete_task', { note_id: id(1), line: 9, text: 'not a task, code' })).toBe(changed);
    expect(await h.fail('complete_task', { note_id: id(1), line: 999, text: 'x' })).toBe(changed);
    expect(await file(h, 'Work/Plan.md')).toBe(PLAN);
    await expect(readFile(activityFile(h.dir), 'utf8')).rejects.toThrow();
  });

  it('writes nothing for a task already as asked', async () => {
    const h = await harness();
    const task = await h.ok<Task>('complete_task', { note_id: id(1), line: 4, text: 'book the room' });
    expect(task.status).toBe('done');
    expect(await file(h, 'Work/Plan.md')).toBe(PLAN);
  });

  it('is refused to a read-only connection, and needs notes:read besides notes:write', async () => {
    const h = await harness();
    const reader = await connectClient(h.runtime, { scopes: ['notes:read'] });
    const writer = await connectClient(h.runtime, { scopes: ['notes:write'] });
    for (const client of [reader, writer]) {
      const answer = await client.callTool({ name: 'complete_task', arguments: { note_id: id(1), line: 3, text: 'write the report' } });
      expect(answer.isError).toBe(true);
    }
    expect(await file(h, 'Work/Plan.md')).toBe(PLAN);
    await reader.close();
    await writer.close();
  });
});

describe('tasks kept in step by the watcher', () => {
  it('lists a task written by another program once the watcher has taken the change in', async () => {
    const h = await harness();
    const seen = new Promise<NoteRecord>((resolve) => {
      h.runtime.own.on('note', (record: NoteRecord) => {
        if (record.tasks?.some((task) => task.text === 'added outside')) resolve(record);
      });
    });
    // Waits for the event, not a time: how soon it comes is the watcher's latency, measured by
    // `npm run bench` (outside edit → searchable), since a task is read with the note's record.
    await writeFile(path.join(h.dir, 'Loose.md'), `${LOOSE}- [ ] added outside 📅 2026-11-26\n`);
    await seen;
    expect(brief(await h.ok<Page>('list_tasks', { folder: 'unfiled' }))).toEqual(['Loose:2 added outside', 'Loose:1 a loose task']);
  });
});
