import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NoteRecord } from '../../src/vault/note.js';
import { freshVaults, type Harness, type HarnessOptions } from '../support/helpers.js';

/**
 * list_notes `where` and list_properties through the in-process client:
 * the comparison rules end to end, paging and totals, the other filters
 * beside `where`, and the folder and tag boundaries.
 */

const note = (fm: string[], body: string): string => ['---', ...fm, '---', body, ''].join('\n');

const VAULT: Record<string, string> = {
  'Projects/Alpha.md': note(['status: Active', 'priority: 1', 'due: 2026-12-01', 'tags: [project]'], 'Alpha plan #work'),
  'Projects/Beta.md': note(['status: active', 'priority: 3', 'due: 2026-12-15T09:00:00+00:00', 'owners: [ann, Bob]'], 'Beta plan #work/deep'),
  'Projects/Gamma.md': note(['status: done', 'priority: "high"', 'done: true'], 'Gamma plan'),
  'Home/Garden.md': note(['status: active', 'priority: 2', 'done: false', 'secretband: zebra'], 'Garden #home'),
  'Inbox.md': note(['owners: []', 'empty:'], 'Loose note'),
};

const vaults = freshVaults();
const harness = (options: Omit<HarnessOptions, 'dir'> = {}): Promise<Harness> => vaults.harness(VAULT, options);

interface Page {
  items: { title: string; properties?: Record<string, unknown> }[];
  total: number;
  page: number;
}

async function titles(h: Harness, args: Record<string, unknown>): Promise<string[]> {
  const page = await h.ok<Page>('list_notes', { size: 50, ...args });
  expect(page.total).toBe(page.items.length);
  return page.items.map((item) => item.title).sort();
}

describe('list_notes where', () => {
  it.each<[string, Record<string, unknown>[], string[]]>([
    ['notes with status active (any case)', [{ property: 'status', op: '=', value: 'active' }], ['Alpha', 'Beta', 'Garden']],
    ['status not active: a note without status too', [{ property: 'status', op: '!=', value: 'ACTIVE' }], ['Gamma', 'Inbox']],
    ['numbers as numbers (text "high" never compares)', [{ property: 'priority', op: '>=', value: 2 }], ['Beta', 'Garden']],
    ['a number given as text', [{ property: 'priority', op: '<', value: '10' }], ['Alpha', 'Beta', 'Garden']],
    ['dates as moments, date and date-time mixed', [{ property: 'due', op: '<', value: '2026-12-10' }], ['Alpha']],
    ['a date-time with a zone', [{ property: 'due', op: '>', value: '2026-12-15T08:00:00Z' }], ['Beta']],
    ['checkbox', [{ property: 'done', op: '=', value: true }], ['Gamma']],
    ['a list element, any case', [{ property: 'owners', op: '=', value: 'bob' }], ['Beta']],
    ['contains on a list', [{ property: 'owners', op: 'contains', value: 'AN' }], ['Beta']],
    ['exists, an empty list and an empty property included', [{ property: 'owners', op: 'exists' }], ['Beta', 'Inbox']],
    ['empty property exists', [{ property: 'empty', op: 'exists' }], ['Inbox']],
    ['missing', [{ property: 'due', op: 'missing' }], ['Gamma', 'Garden', 'Inbox']],
    ['tags: frontmatter and body, nested', [{ property: 'tags', op: '=', value: '#work' }], ['Alpha', 'Beta']],
    ['tags: frontmatter tag', [{ property: 'tags', op: 'contains', value: 'project' }], ['Alpha']],
    ['tags: missing', [{ property: 'tags', op: 'missing' }], ['Gamma', 'Inbox']],
    ['every condition must hold', [{ property: 'status', op: '=', value: 'active' }, { property: 'priority', op: '<=', value: 2 }, { property: 'tags', op: '!=', value: '#home' }], ['Alpha']],
    ['a property no note has', [{ property: 'nothing', op: '=', value: 'x' }], []],
  ])('%s', async (_name, where, expected) => {
    const h = await harness();
    expect(await titles(h, { where })).toEqual(expected);
  });

  it('items carry the properties the conditions named, as written', async () => {
    const h = await harness();
    const page = await h.ok<Page>('list_notes', { where: [{ property: 'due', op: 'exists' }, { property: 'tags', op: 'exists' }, { property: 'due', op: '>', value: '2026-01-01' }], sort: 'updated' });
    const byTitle = Object.fromEntries(page.items.map((item) => [item.title, item.properties]));
    expect(byTitle).toEqual({
      Alpha: { due: '2026-12-01', tags: ['#project', '#work'] },
      Beta: { due: '2026-12-15T09:00:00+00:00', tags: ['#work/deep'] },
    });
    const plain = await h.ok<Page>('list_notes', {});
    expect(plain.items.every((item) => item.properties === undefined)).toBe(true);
  });

  it('pages, with the total of every page, and combines with folder, tag and source', async () => {
    const h = await harness();
    const where = [{ property: 'status', op: '=', value: 'active' }];
    const first = await h.ok<Page>('list_notes', { where, size: 2 });
    const second = await h.ok<Page>('list_notes', { where, size: 2, page: 2 });
    expect([first.total, first.items.length, second.total, second.items.length]).toEqual([3, 2, 3, 1]);
    expect(await titles(h, { where, folder: 'Projects' })).toEqual(['Alpha', 'Beta']);
    expect(await titles(h, { where, tag: '#home' })).toEqual(['Garden']);
    expect(await titles(h, { where, source: 'bookmark' })).toEqual([]);
  });

  it('sees a note changed since', async () => {
    const h = await harness();
    const where = [{ property: 'status', op: '=', value: 'shipped' }];
    expect(await titles(h, { where })).toEqual([]);
    const id = (await h.ok<{ items: { id: string; title: string }[] }>('list_notes', { size: 50 })).items.find((item) => item.title === 'Gamma')?.id;
    await h.ok('set_properties', { note_id: id, properties: { status: 'shipped' } });
    expect(await titles(h, { where })).toEqual(['Gamma']);
    expect(await titles(h, { where: [{ property: 'status', op: '=', value: 'done' }] })).toEqual([]);
  });

  it('finds a property another program wrote, once the watcher has taken the change in', async () => {
    const h = await harness();
    const where = [{ property: 'status', op: '=', value: 'parked' }];
    expect(await titles(h, { where })).toEqual([]);
    const seen = new Promise<void>((resolve) => {
      h.runtime.own.on('note', (record: NoteRecord) => {
        if (record.properties?.status === 'parked') resolve();
      });
    });
    await writeFile(path.join(h.dir, 'Inbox.md'), note(['owners: []', 'empty:', 'status: parked'], 'Loose note'));
    await seen;
    expect(await titles(h, { where })).toEqual(['Inbox']);
  });

  it.each<[string, unknown, string]>([
    ['a value for exists', [{ property: 'status', op: 'exists', value: 'x' }], 'The condition on "status" uses "exists", which takes no value; leave "value" out.'],
    ['no value for =', [{ property: 'status', op: '=' }], 'The condition on "status" uses "=", which compares with a value; give "value" (text, a number, true or false, or a date such as 2026-12-01).'],
    ['an order on tags', [{ property: 'tags', op: '<', value: '#a' }], 'The property "tags" takes =, !=, contains, exists or missing, not "<"; tags have no order.'],
    ['a tag that is none', [{ property: 'tags', op: '=', value: '#' }], 'A condition on "tags" needs a tag such as "#ml", "@alice" or a bare word; "#" is not one.'],
  ])('refuses %s with a plain sentence', async (_name, where, sentence) => {
    const h = await harness();
    expect(await h.fail('list_notes', { where })).toBe(sentence);
  });

  it('refuses more than 10 conditions and an unknown op', async () => {
    const h = await harness();
    const eleven = Array.from({ length: 11 }, () => ({ property: 'status', op: 'exists' }));
    expect(await h.fail('list_notes', { where: eleven })).toContain('at most 10 conditions');
    expect(await h.fail('list_notes', { where: [{ property: 'status', op: 'like', value: 'a' }] })).toContain('one of =, !=, <, <=, >, >=, contains, exists, missing');
  });
});

interface Listed {
  properties: { name: string; count: number; types: string[] }[];
}

describe('list_properties', () => {
  it('lists every property most used first, ties by name, with its types; id, review and title never', async () => {
    const h = await harness();
    expect((await h.ok<Listed>('list_properties')).properties).toEqual([
      { name: 'priority', count: 4, types: ['text', 'number'] },
      { name: 'status', count: 4, types: ['text'] },
      { name: 'tags', count: 3, types: ['list'] },
      { name: 'done', count: 2, types: ['checkbox'] },
      { name: 'due', count: 2, types: ['date', 'datetime'] },
      { name: 'owners', count: 2, types: ['list'] },
      { name: 'empty', count: 1, types: [] },
      { name: 'secretband', count: 1, types: ['text'] },
    ]);
  });
});

describe('under a boundary', () => {
  it.each<[string, Partial<HarnessOptions>, string[], Listed['properties']]>([
    [
      'folder Projects',
      { folder: 'Projects' },
      ['Alpha', 'Beta'],
      [
        { name: 'priority', count: 3, types: ['text', 'number'] },
        { name: 'status', count: 3, types: ['text'] },
        { name: 'due', count: 2, types: ['date', 'datetime'] },
        { name: 'tags', count: 2, types: ['list'] },
        { name: 'done', count: 1, types: ['checkbox'] },
        { name: 'owners', count: 1, types: ['list'] },
      ],
    ],
    [
      'tag #work',
      { tag: '#work' },
      ['Alpha', 'Beta'],
      [
        { name: 'due', count: 2, types: ['date', 'datetime'] },
        { name: 'priority', count: 2, types: ['number'] },
        { name: 'status', count: 2, types: ['text'] },
        { name: 'tags', count: 2, types: ['list'] },
        { name: 'owners', count: 1, types: ['list'] },
      ],
    ],
  ])('%s: only the notes it sees count, and an outside note\'s property never shows', async (_name, options, active, listed) => {
    const h = await harness(options);
    expect(await titles(h, { where: [{ property: 'status', op: '=', value: 'active' }] })).toEqual(active);
    expect((await h.ok<Listed>('list_properties')).properties).toEqual(listed);
    // Garden is outside both: its property answers as one no note has.
    const outside = await h.ok<Page>('list_notes', { where: [{ property: 'secretband', op: 'exists' }] });
    const nowhere = await h.ok<Page>('list_notes', { where: [{ property: 'nosuchband', op: 'exists' }] });
    expect(outside).toEqual(nowhere);
    expect(await titles(h, { where: [{ property: 'secretband', op: 'missing' }] })).toEqual(await titles(h, {}));
  });
});
